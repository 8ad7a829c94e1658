/* Which manager owns each runtime, and its versions (runtimes.h).
 *
 *   rows      every registry language this platform can have, plus the
 *             TypeScript tools tsc and tsx; or the ones asked for
 *   resolve   the command each one runs (the deciding command of its plan)
 *             on the runtime PATH, and the file it really is (realpath)
 *   owner     a file under npm's global root belongs to that npm package;
 *             any other file is looked up with `dpkg-query -S`
 *   versions  apt: `apt-cache policy` (installed, candidate of the local
 *             index); npm: the package's package.json and
 *             `npm outdated -g --json` (the registry)
 */
#include "workers/exec/runtimes.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protocol/strbuf.h"
#include "workers/exec/host_cmd.h"
#include "workers/exec/languages.h"

#define QUERY_CAP (8u << 20)

enum owner { MISSING, APT, NPM, UNMANAGED };

struct row {
    const char *key;          /* registry name, or a tool name */
    const char *tier;         /* NULL for a tool row */
    char *tool;               /* resolved path, NULL when not installed */
    char *real;               /* realpath of tool */
    enum owner owner;
    char *pkg;                /* dpkg package or npm package */
    char *current, *latest;   /* NULL when unknown */
};

struct status {
    struct row *rows;
    size_t n;
    json_t *unknown, *unavailable, *manager_errors, *sources;
    bool apt_failed, npm_failed;
    bool dpkg_failed;         /* ownership of the unmanaged rows is unknown */
    char *npm_root;           /* `npm root -g`, NULL when not asked */
    cc_wctx *ctx;
};

/* Tools that are not languages but are updated like runtimes. */
static const char *const tool_rows[] = {"tsc", "tsx", NULL};

static void manager_error(struct status *s, const char *manager, const char *why) {
    json_array_append_new(s->manager_errors, json_pack("{s:s,s:s}", "manager", manager, "error", why));
    if (!strcmp(manager, "apt")) s->apt_failed = true;
    else s->npm_failed = true;
}

/* ---- which rows ---------------------------------------------------------- */

static bool has_row(const struct status *s, const char *key) {
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->rows[i].key, key)) return true;
    return false;
}

static void add_row(struct status *s, const char *key, const char *tier) {
    if (has_row(s, key)) return;
    struct row *r = realloc(s->rows, (s->n + 1) * sizeof *r);
    if (!r) return;
    s->rows = r;
    s->rows[s->n++] = (struct row){.key = key, .tier = tier};
}

/* One requested name: a language (by name or alias), a tool row, or not. */
static void select_name(struct status *s, const char *name) {
    const struct cc_lang *l = cc_lang_find(name);
    if (l && cc_lang_nowhere(l)) {
        json_object_set_new(s->unavailable, l->name, json_string(cc_lang_nowhere(l)));
        return;
    }
    if (l) {
        add_row(s, l->name, l->tier);
        return;
    }
    for (int i = 0; tool_rows[i]; i++)
        if (!strcmp(name, tool_rows[i])) {
            add_row(s, tool_rows[i], NULL);
            return;
        }
    json_array_append_new(s->unknown, json_string(name));
}

/* names: comma-separated, trimmed, lower-cased (3.1.6); blank = all. */
static void select_rows(struct status *s, const char *names) {
    char *copy = strdup(names ? names : ""), *save = NULL;
    bool any = false;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*t)) t++;
        char *e = t + strlen(t);
        while (e > t && isspace((unsigned char)e[-1])) *--e = '\0';
        for (char *p = t; *p; p++) *p = (char)tolower((unsigned char)*p);
        if (!*t) continue;
        any = true;
        select_name(s, t);
    }
    free(copy);
    if (any) return;
    for (size_t i = 0; i < cc_lang_count(); i++)
        if (!cc_lang_nowhere(cc_lang_at(i))) add_row(s, cc_lang_at(i)->name, cc_lang_at(i)->tier);
    for (int i = 0; tool_rows[i]; i++) add_row(s, tool_rows[i], NULL);
}

/* ---- what runs, and whose it is ------------------------------------------ */

static void resolve(struct row *r, const char *path) {
    const struct cc_lang *l = cc_lang_find(r->key);
    char word[64];
    const char *cmd = r->key;
    if (l) {
        bool installed;
        const struct cc_lang_plan *p = cc_lang_plan_for(l, path, &installed);
        if (!installed) return;
        /* The compiler is the runtime a compiled plan depends on most
         * (kotlinc, not the java that runs its jar). */
        cmd = cc_plan_deciding(p, word, sizeof word);
        if (p->compile && !p->decide) {
            size_t n = strcspn(p->compile, " ");
            snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), p->compile);
            cmd = word;
        }
    }
    r->tool = cc_resolve_cmd(cmd, path);
    if (r->tool) r->real = realpath(r->tool, NULL);
    r->owner = r->real ? UNMANAGED : MISSING;
}

/* Run a query command (found on the runtime PATH, else the server's). */
static bool query(struct status *s, const char *manager, const char *const *argv, struct cc_host_cmd *out,
                  bool exit1_ok) {
    char *bin = cc_host_cmd_find(argv[0]);
    char why[512];
    if (!bin) {
        snprintf(why, sizeof why, "%s: not found on the runtime PATH or the server's PATH", argv[0]);
        manager_error(s, manager, why);
        memset(out, 0, sizeof *out);
        return false;
    }
    size_t n = 0;
    while (argv[n]) n++;
    const char **v = calloc(n + 1, sizeof *v);
    if (!v) {
        free(bin);
        manager_error(s, manager, "out of memory");
        memset(out, 0, sizeof *out);
        return false;
    }
    v[0] = bin;
    for (size_t i = 1; i < n; i++) v[i] = argv[i];
    cc_host_cmd_run(v, CC_RT_QUERY_TIMEOUT_S, QUERY_CAP, false, s->ctx, out);
    free(v);
    free(bin);
    bool ok = out->started && out->exited && (out->exit_code == 0 || (exit1_ok && out->exit_code == 1));
    if (!ok) {
        char detail[400];
        snprintf(why, sizeof why, "%s: %s", argv[0], cc_host_cmd_why(out, CC_RT_QUERY_TIMEOUT_S, detail, sizeof detail));
        manager_error(s, manager, why);
    }
    return ok;
}

/* "cmd sub <each string of list>" as an apt query: 1 when it answered, 0
 * when the list is empty (nothing asked), -1 when it failed. c is always
 * filled (cc_host_cmd_free). */
static int query_each(struct status *s, const char *cmd, const char *sub, json_t *list, bool exit1_ok,
                      struct cc_host_cmd *c) {
    memset(c, 0, sizeof *c);
    size_t n = json_array_size(list);
    const char **argv = n ? calloc(n + 3, sizeof *argv) : NULL;
    if (!argv) return n ? (manager_error(s, "apt", "out of memory"), -1) : 0;
    argv[0] = cmd;
    argv[1] = sub;
    for (size_t i = 0; i < n; i++) argv[2 + i] = json_string_value(json_array_get(list, i));
    int rc = query(s, "apt", argv, c, exit1_ok) ? 1 : -1;
    free(argv);
    return rc;
}

/* "<root>/node_modules/<pkg>/..." (pkg may be "@scope/name"): the package
 * name and its directory, when real lies in a node_modules tree. */
static bool npm_package_of(const char *real, char **root, char **pkg, char **dir) {
    const char *nm = NULL;
    for (const char *p = strstr(real, "/node_modules/"); p; p = strstr(p + 1, "/node_modules/")) nm = p;
    if (!nm) return false;
    const char *name = nm + strlen("/node_modules/");
    const char *end = strchr(name, '/');
    if (end && name[0] == '@') end = strchr(end + 1, '/');
    if (!end) return false;
    *root = strndup(real, (size_t)(nm - real) + strlen("/node_modules"));
    *pkg = strndup(name, (size_t)(end - name));
    *dir = strndup(real, (size_t)(end - real));
    return *root && *pkg && *dir;
}

static char *package_json_version(const char *dir) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/package.json", dir);
    json_t *pj = json_load_file(path, 0, NULL);
    const char *v = json_string_value(json_object_get(pj, "version"));
    char *out = v ? strdup(v) : NULL;
    json_decref(pj);
    return out;
}

/* npm's global root, once. */
static const char *npm_root(struct status *s) {
    if (s->npm_root || s->npm_failed) return s->npm_root;
    static const char *const argv[] = {"npm", "root", "-g", NULL};
    struct cc_host_cmd c;
    if (query(s, "npm", argv, &c, false)) {
        char *t = c.out + c.out_len;
        while (t > c.out && isspace((unsigned char)t[-1])) *--t = '\0';
        char *real = realpath(c.out, NULL);
        s->npm_root = real ? real : strdup(c.out);
    }
    cc_host_cmd_free(&c);
    return s->npm_root;
}

static void classify_npm(struct status *s) {
    for (size_t i = 0; i < s->n; i++) {
        struct row *r = &s->rows[i];
        char *root = NULL, *pkg = NULL, *dir = NULL;
        if (r->owner != UNMANAGED || !npm_package_of(r->real, &root, &pkg, &dir)) {
            free(root), free(pkg), free(dir);
            continue;
        }
        const char *groot = npm_root(s);
        if (groot && !strcmp(groot, root)) {
            r->owner = NPM;
            r->pkg = pkg;
            r->current = package_json_version(dir);
            pkg = NULL;
        }
        free(root), free(pkg), free(dir);
    }
}

/* dpkg records /bin/x where a merged /usr shows /usr/bin/x: ask for both. */
static const char *usr_merge_alias(const char *path, char *buf, size_t cap) {
    static const char *const pairs[][2] = {{"/usr/bin/", "/bin/"}, {"/usr/sbin/", "/sbin/"},
                                           {"/usr/lib/", "/lib/"}};
    for (size_t i = 0; i < 3; i++)
        for (int d = 0; d < 2; d++) {
            size_t n = strlen(pairs[i][d]);
            if (!strncmp(path, pairs[i][d], n)) {
                snprintf(buf, cap, "%s%s", pairs[i][!d], path + n);
                return buf;
            }
        }
    return NULL;
}

/* "pkg1:arch, pkg2: /path" lines: the first package of the line naming p. */
static char *dpkg_owner(const char *out, const char *p) {
    size_t plen = strlen(p);
    for (const char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *sep = strstr(line, ": /");
        const char *eol = strchrnul(line, '\n');
        if (!sep || sep > eol || strncmp(line, "diversion ", 10) == 0) continue;
        if ((size_t)(eol - (sep + 2)) != plen || strncmp(sep + 2, p, plen) != 0) continue;
        size_t n = strcspn(line, ",:");
        return strndup(line, n);
    }
    return NULL;
}

static void classify_dpkg(struct status *s) {
    json_t *args = json_array();
    char alias[PATH_MAX];
    for (size_t i = 0; i < s->n; i++) {
        if (s->rows[i].owner != UNMANAGED) continue;
        json_array_append_new(args, json_string(s->rows[i].real));
        if (usr_merge_alias(s->rows[i].real, alias, sizeof alias))
            json_array_append_new(args, json_string(alias));
    }
    struct cc_host_cmd c;
    /* Exit 1: some path belongs to no package, which is an answer. */
    int rc = query_each(s, "dpkg-query", "-S", args, true, &c);
    s->dpkg_failed = rc < 0;
    for (size_t i = 0; rc > 0 && i < s->n; i++) {
        struct row *r = &s->rows[i];
        if (r->owner != UNMANAGED) continue;
        r->pkg = dpkg_owner(c.out, r->real);
        const char *a = r->pkg ? NULL : usr_merge_alias(r->real, alias, sizeof alias);
        if (a) r->pkg = dpkg_owner(c.out, a);
        if (r->pkg) r->owner = APT;
    }
    cc_host_cmd_free(&c);
    json_decref(args);
}

/* ---- versions ------------------------------------------------------------ */

/* "pkg:\n  Installed: v\n  Candidate: w\n..." blocks of apt-cache policy. */
static void apt_versions(struct status *s) {
    json_t *pkgs = json_array();
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].owner == APT) json_array_append_new(pkgs, json_string(s->rows[i].pkg));
    struct cc_host_cmd c;
    char name[256] = "";
    for (char *line = query_each(s, "apt-cache", "policy", pkgs, false, &c) > 0 ? strtok(c.out, "\n") : NULL;
         line; line = strtok(NULL, "\n")) {
        char v[256];
        if (line[0] != ' ' && sscanf(line, "%255[^: ]", name) == 1) continue;
        for (size_t i = 0; i < s->n; i++) {
            struct row *r = &s->rows[i];
            if (r->owner != APT || strcmp(r->pkg, name)) continue;
            if (sscanf(line, " Installed: %255s", v) == 1 && !r->current) r->current = strdup(v);
            if (sscanf(line, " Candidate: %255s", v) == 1 && !r->latest) r->latest = strdup(v);
        }
    }
    cc_host_cmd_free(&c);
    json_decref(pkgs);
    struct stat st;
    char when[64] = "unknown";
    if (stat("/var/lib/apt/lists", &st) == 0) {
        struct tm tm;
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&st.st_mtime, &tm));
    }
    char src[256];
    snprintf(src, sizeof src, "apt-cache policy: the local package index, last refreshed %s "
             "(apt-get update refreshes it; this tool does not)", when);
    json_object_set_new(s->sources, "apt", json_string(src));
}

static void npm_versions(struct status *s) {
    static const char *const argv[] = {"npm", "outdated", "-g", "--json", NULL};
    struct cc_host_cmd c;
    /* Exit 1 means "something is outdated". */
    if (query(s, "npm", argv, &c, true)) {
        json_t *o = json_loads(c.out_len ? c.out : "{}", 0, NULL);
        json_t *e = json_object_get(o, "error");
        if (!json_is_object(o) || e) {
            const char *sum = json_string_value(json_object_get(e, "summary"));
            char why[400];
            snprintf(why, sizeof why, "npm outdated: %s", sum ? sum : "its answer is not the expected JSON");
            manager_error(s, "npm", why);
        } else {
            for (size_t i = 0; i < s->n; i++) {
                struct row *r = &s->rows[i];
                if (r->owner != NPM) continue;
                const char *l = json_string_value(json_object_get(json_object_get(o, r->pkg), "latest"));
                r->latest = l ? strdup(l) : r->current ? strdup(r->current) : NULL;
            }
        }
        json_decref(o);
    }
    cc_host_cmd_free(&c);
    json_object_set_new(s->sources, "npm", json_string("npm outdated -g: the npm registry"));
}

/* ---- commands ------------------------------------------------------------ */

char **cc_rt_update_argv(const char *manager, json_t *packages, bool sudo) {
    static const char *const apt[] = {"apt-get", "install", "--only-upgrade", "-y", NULL};
    static const char *const npm[] = {"npm", "install", "-g", "--ignore-scripts", "--no-audit", "--no-fund", NULL};
    const char *const *base = strcmp(manager, "apt") == 0 ? apt : npm;
    size_t nb = 0;
    while (base[nb]) nb++;
    size_t np = json_array_size(packages), k = 0;
    char **v = calloc(nb + np + 3, sizeof *v);
    if (!v) return NULL;
    if (sudo) v[k++] = strdup("sudo"), v[k++] = strdup("-n");
    for (size_t i = 0; i < nb; i++) v[k++] = strdup(base[i]);
    for (size_t i = 0; i < np; i++) v[k++] = strdup(json_string_value(json_array_get(packages, i)));
    for (size_t i = 0; i < k; i++)
        if (!v[i]) {
            for (size_t j = 0; j < k; j++) free(v[j]);
            free(v);
            return NULL;
        }
    return v;
}

char *cc_rt_join(char *const *argv) {
    size_t n = 1;
    for (char *const *w = argv; *w; w++) n += strlen(*w) + 1;
    char *s = malloc(n), *p = s;
    if (!s) return NULL;
    *p = '\0';
    for (char *const *w = argv; *w; w++) p += sprintf(p, "%s%s", w == argv ? "" : " ", *w);
    return s;
}

/* Root rights: apt always; npm when its global root belongs to root. Then
 * a server that is not root needs sudo. */
static bool elevated(const struct status *s, enum owner o) {
    struct stat st;
    if (o == APT) return true;
    return o == NPM && s->npm_root && stat(s->npm_root, &st) == 0 && st.st_uid == 0;
}

static json_t *str_or_null(const char *v) { return v ? json_string(v) : json_null(); }

static json_t *row_json(const struct status *s, const struct row *r) {
    static const char *const managers[] = {NULL, "apt", "npm", NULL};
    bool managed = r->owner == APT || r->owner == NPM;
    bool elev = elevated(s, r->owner);
    json_t *pkgs = json_array(), *cmd = json_null();
    json_t *updatable = json_null();
    if (managed) {
        bool installed = r->current && strcmp(r->current, "(none)") != 0;
        bool newer = installed && r->latest && strcmp(r->latest, "(none)") && strcmp(r->latest, r->current);
        updatable = json_boolean(newer);
        json_t *word = json_array();
        char spec[512];
        snprintf(spec, sizeof spec, "%s@%s", r->pkg, r->latest ? r->latest : "latest");
        json_array_append_new(pkgs, json_string(r->pkg));
        json_array_append_new(word, json_string(r->owner == NPM ? spec : r->pkg));
        char **argv = cc_rt_update_argv(managers[r->owner], word, elev && geteuid() != 0);
        char *joined = argv ? cc_rt_join(argv) : NULL;
        if (joined) cmd = json_string(joined);
        free(joined);
        cc_argv_free(argv);
        json_decref(word);
    } else if (r->owner == MISSING) {
        updatable = json_false();
    }
    json_t *o = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b}", "manager", str_or_null(managers[r->owner]),
                          "tool", str_or_null(r->tool), "packages", pkgs, "current",
                          r->owner == MISSING ? json_string("not installed") : str_or_null(r->current),
                          "latest", str_or_null(r->latest), "updatable", updatable, "tier",
                          str_or_null(r->tier), "update_command", cmd, "elevated", elev);
    if (r->owner == UNMANAGED)
        json_object_set_new(o, "note", json_string("installed neither by apt nor by npm here, so codecalc "
                                                   "cannot tell whether it is current"));
    return o;
}

/* ---- the result ---------------------------------------------------------- */

static bool row_failed(const struct status *s, const struct row *r) {
    return (r->owner == APT && s->apt_failed) || (r->owner == NPM && s->npm_failed) ||
           (r->owner == UNMANAGED && s->dpkg_failed);
}

static json_t *assemble(struct status *s, bool asked) {
    json_t *langs = json_object(), *failed = json_array();
    int updatable = 0, total = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct row *r = &s->rows[i];
        if (row_failed(s, r)) {
            json_array_append_new(failed, json_string(r->key));
            continue;
        }
        json_t *o = row_json(s, r);
        updatable += json_is_true(json_object_get(o, "updatable"));
        total++;
        json_object_set_new(langs, r->key, o);
    }
    json_t *res = json_pack("{s:b,s:b,s:o,s:{s:i,s:i},s:O}", "ok", 1, "dry_run", 1, "languages", langs,
                            "summary", "updatable", updatable, "total", total, "sources", s->sources);
    if (json_array_size(s->manager_errors)) json_object_set(res, "manager_errors", s->manager_errors);
    if (json_object_size(s->unavailable)) json_object_set(res, "unavailable", s->unavailable);
    if (json_array_size(s->unknown)) json_object_set(res, "unknown", s->unknown);
    if (asked && json_array_size(failed)) json_object_set(res, "check_failed", failed);
    size_t unresolved = json_array_size(s->unknown) + json_object_size(s->unavailable) +
                        (asked ? json_array_size(failed) : 0);
    if (unresolved) {
        /* Every name the caller gave that produced no row, and why. */
        struct cc_strbuf names;
        cc_sb_init(&names);
        size_t i;
        const char *k;
        json_t *v;
        json_array_foreach(s->unknown, i, v)
            cc_sb_printf(&names, "%s%s", names.len ? ", " : "", json_string_value(v));
        json_object_foreach(s->unavailable, k, v)
            cc_sb_printf(&names, "%s%s (it cannot be had on this host)", names.len ? ", " : "", k);
        json_array_foreach(asked ? failed : NULL, i, v)
            cc_sb_printf(&names, "%s%s (its package manager could not be asked)", names.len ? ", " : "",
                         json_string_value(v));
        cc_sb_putc(&names, '\0');
        if (total == 0) {
            bool only_unknown = json_array_size(s->unknown) == unresolved;
            json_t *e = cc_err("validation", "%s %s. Nothing was checked or updated.",
                               only_unknown ? "no known runtime named" : "no runtime could be checked:",
                               names.data);
            json_object_update_missing(e, res);
            json_object_del(e, "summary");
            json_object_del(e, "languages");
            json_decref(res);
            res = e;
        } else {
            char *note = NULL;
            if (asprintf(&note, "not reported: %s", names.data) >= 0)
                json_object_set_new(res, "note", json_string(note));
            free(note);
        }
        cc_sb_free(&names);
    }
    json_decref(failed);
    return res;
}

static void status_free(struct status *s) {
    for (size_t i = 0; i < s->n; i++) {
        free(s->rows[i].tool), free(s->rows[i].real), free(s->rows[i].pkg);
        free(s->rows[i].current), free(s->rows[i].latest);
    }
    free(s->rows);
    free(s->npm_root);
    json_decref(s->unknown), json_decref(s->unavailable), json_decref(s->manager_errors);
    json_decref(s->sources);
}

json_t *cc_runtimes_status(const char *names, cc_wctx *ctx) {
    struct status s = {.unknown = json_array(), .unavailable = json_object(), .manager_errors = json_array(),
                       .sources = json_object(), .ctx = ctx};
    bool asked = false;
    for (const char *p = names; p && *p && !asked; p++) asked = !isspace((unsigned char)*p) && *p != ',';
    select_rows(&s, names);
    const char *path = cc_runtime_path();
    for (size_t i = 0; i < s.n; i++) resolve(&s.rows[i], path);
    classify_npm(&s);
    classify_dpkg(&s);
    bool any_apt = false, any_npm = false;
    for (size_t i = 0; i < s.n; i++) any_apt |= s.rows[i].owner == APT, any_npm |= s.rows[i].owner == NPM;
    if (any_apt && !s.apt_failed) apt_versions(&s);
    if (any_npm && !s.npm_failed) npm_versions(&s);
    json_t *res = assemble(&s, asked);
    status_free(&s);
    return res;
}
