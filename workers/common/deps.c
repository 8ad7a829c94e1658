/* Per-run dependencies: reading, checking, keying (deps.h). */
#include "workers/common/deps.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "protocol/home_path.h"
#include "protocol/sha256.h"
#include "workers/common/pep723.h"
#include "workers/common/pkg_managers.h"
#include "workers/common/runtime_path.h"
#include "workers/common/tool_api.h"

/* Languages whose programs can use installed packages, and how. */
static const struct {
    const char *lang, *eco, *runtime;
} supported[] = {
    {"python3", "python3", "python3"}, /* pip/uv into a directory on PYTHONPATH */
    {"node", "node", "node"},          /* npm into node_modules beside the program */
    {"bun", "node", "bun"},            /* bun resolves node_modules like node */
};

/* What installers may read from the environment, by ecosystem: part of the
 * key, since a different index can give a different environment. */
static const char *const python_index_env[] = {
    "CODECALC_PIP_INDEX_URL", "CODECALC_PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL",
    "PIP_FIND_LINKS", "PIP_NO_INDEX", "UV_INDEX_URL", NULL};
static const char *const node_index_env[] = {"npm_config_registry", NULL};

/* ---- one spec -------------------------------------------------------------- */

static bool name_char(char c) { return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-'; }

/* What is wrong with a spec in any ecosystem, or NULL. */
static const char *common_error(const char *s) {
    static const char shell[] = ";|&$`'\"\\(){}?#\n\r\t";
    if (s[0] == '-') return "is an option, not a package (options such as --index-url or -e are refused)";
    if (strstr(s, "://") || strncmp(s, "git+", 4) == 0 || strncmp(s, "git:", 4) == 0 ||
        strncmp(s, "file:", 5) == 0 || strncmp(s, "github:", 7) == 0 || strncmp(s, "npm:", 4) == 0)
        return "is a URL or a VCS reference; only registry packages are installed";
    if (s[0] == '.' || s[0] == '/' || s[0] == '~' || strstr(s, "/.") || strstr(s, "./"))
        return "is a path; only registry packages are installed";
    for (const char *p = s; *p; p++) {
        if ((unsigned char)*p < 0x20 && !strchr(shell, *p)) return "has a control character";
        if (strchr(shell, *p) || *p == '*') return "has a shell metacharacter";
        if ((unsigned char)*p >= 0x80) return "has a character outside ASCII";
    }
    for (const char *p = s; *p; p++)
        if (*p == ' ' && p[1] == '-') return "looks like an embedded option";
    return NULL;
}

/* PEP 508 without URLs and markers: name[extras] (op version, ...)*.
 * Writes the normalised form (PEP 503 name, no spaces) into out. */
static const char *python_spec(const char *s, char *out, size_t cap) {
    const char *p = s;
    size_t k = 0;
    if (strchr(s, '@')) return "is a direct reference (name @ url); only registry packages are installed";
    if (strchr(s, ':') || strchr(s, '/')) return "is a URL or a path; only registry packages are installed";
    if (!isalnum((unsigned char)*p)) return "does not start with a package name";
    bool sep = false;
    for (; name_char(*p); p++) {
        bool is_sep = *p == '.' || *p == '_' || *p == '-';
        if (!is_sep && sep && k + 1 < cap) out[k++] = '-';
        if (!is_sep && k + 1 < cap) out[k++] = (char)tolower((unsigned char)*p);
        sep = is_sep;
    }
    if (sep) return "ends its name with a separator";
    if (*p == '[') {
        if (k + 1 < cap) out[k++] = '[';
        for (p++; *p && *p != ']'; p++) {
            if (!name_char(*p) && *p != ',') return "has a malformed [extras] list";
            if (k + 1 < cap) out[k++] = (char)tolower((unsigned char)*p);
        }
        if (*p++ != ']') return "has an unclosed [extras] list";
        if (k + 1 < cap) out[k++] = ']';
    }
    /* Version clauses: op version, separated by commas; spaces anywhere. */
    bool want_op = true;
    while (*p) {
        if (*p == ' ') {
            p++;
            continue;
        }
        if (want_op) {
            size_t n = strspn(p, "=!<>~");
            static const char *const ops[] = {"===", "==", "!=", "<=", ">=", "~=", "<", ">", NULL};
            bool known = false;
            for (int i = 0; ops[i] && !known; i++) known = n == strlen(ops[i]) && !strncmp(p, ops[i], n);
            if (!known) return "has a malformed version clause (expected ==, !=, <=, >=, ~=, <, > or ===)";
            for (size_t i = 0; i < n && k + 1 < cap; i++) out[k++] = p[i];
            p += n;
            want_op = false;
            continue;
        }
        size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.+!_-");
        if (!n) return "has a version clause without a version";
        for (size_t i = 0; i < n && k + 1 < cap; i++) out[k++] = p[i];
        p += n;
        while (*p == ' ') p++;
        if (*p && *p != ',') return "has a character that belongs in no version clause";
        if (*p == ',') {
            if (k + 1 < cap) out[k++] = ',';
            p++;
            want_op = true;
        }
    }
    /* A dangling comma, or an operator without its version. */
    if (k && (out[k - 1] == ',' || strchr("=!<>~", out[k - 1]))) return "ends with an incomplete version clause";
    out[k] = '\0';
    return NULL;
}

/* npm: [@scope/]name[@range], range of letters, digits, spaces and
 * . ^ ~ < > = - (no ||, no *, no URLs, no aliases). */
static const char *node_spec(const char *s, char *out, size_t cap) {
    const char *p = s;
    if (*p == '@') {
        p++;
        if (!isalnum((unsigned char)*p)) return "has a malformed @scope";
        while (name_char(*p)) p++;
        if (*p++ != '/') return "has an @scope without /name";
    }
    if (!isalnum((unsigned char)*p)) return "does not start with a package name";
    while (name_char(*p)) p++;
    if (*p == '/') return "is a path; only registry packages are installed";
    if (*p == '@') {
        p++;
        if (!*p) return "ends with @ but names no version";
        if (strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .^~<>=-") != strlen(p))
            return "has a version range with a character npm ranges here may not use (allowed: letters, "
                   "digits, spaces and . ^ ~ < > = -)";
    } else if (*p) {
        return "has a character that is not part of a package name";
    }
    snprintf(out, cap, "%s", s);
    return NULL;
}

/* Check one spec; on success its normalised form (malloc'd) in *norm. */
static json_t *check_spec(const struct cc_deps *d, const char *where, size_t i, const char *s, char **norm) {
    char buf[CC_DEPS_SPEC_MAX + 64];
    size_t len = strlen(s);
    while (*s == ' ') s++, len--;
    while (len && s[len - 1] == ' ') len--;
    if (len == 0) return cc_err("validation", "%s[%zu] is empty: name a package, e.g. %s", where, i,
                                strcmp(d->eco, "node") ? "\"six==1.16.0\"" : "\"left-pad@1.3.0\"");
    if (len > CC_DEPS_SPEC_MAX)
        return cc_err("validation", "%s[%zu] is %zu characters long; a package spec may have at most %d", where,
                      i, len, CC_DEPS_SPEC_MAX);
    char spec[CC_DEPS_SPEC_MAX + 1];
    memcpy(spec, s, len);
    spec[len] = '\0';
    const char *why = common_error(spec);
    if (!why) why = strcmp(d->eco, "node") ? python_spec(spec, buf, sizeof buf) : node_spec(spec, buf, sizeof buf);
    if (why) {
        bool printable = true;
        for (const char *p = spec; *p; p++) printable &= (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f;
        return cc_err("validation", "%s[%zu] %s%s%s %s; expected a registry package spec such as %s", where, i,
                      printable ? "'" : "", printable ? spec : "(not shown)", printable ? "'" : "", why,
                      strcmp(d->eco, "node") ? "requests==2.31.0" : "left-pad@1.3.0");
    }
    *norm = strdup(buf);
    return *norm ? NULL : cc_err("internal", "out of memory");
}

/* ---- the set ------------------------------------------------------------------ */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Append the checked specs of list to d (merged sets stay unique). */
static json_t *add_specs(struct cc_deps *d, const char *where, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char *norm = NULL;
        json_t *e = check_spec(d, where, i, list[i], &norm);
        if (e) return e;
        bool dup = false;
        for (size_t j = 0; j < d->n && !dup; j++) dup = strcmp(d->specs[j], norm) == 0;
        if (dup) {
            free(norm);
            continue;
        }
        if (d->n == CC_DEPS_MAX) {
            free(norm);
            return cc_err("validation", "more than %d dependencies (with the PEP 723 block merged in); install "
                          "fewer per run", CC_DEPS_MAX);
        }
        d->specs[d->n++] = norm;
    }
    return NULL;
}

static json_t *fail(struct cc_deps *d, json_t *e) {
    cc_deps_free(d);
    return e;
}

json_t *cc_deps_read(json_t *args, const char *lang, const char *code, size_t code_len, struct cc_deps *d) {
    memset(d, 0, sizeof *d);
    json_t *arr = json_object_get(args, "dependencies");
    if (arr && !json_is_null(arr) && !json_is_array(arr))
        return cc_err("validation", "dependencies must be an array of package specs");
    size_t given = json_array_size(arr);
    if (given > CC_DEPS_MAX)
        return cc_err("validation", "%zu dependencies given; at most %d per run", given, CC_DEPS_MAX);
    bool python = lang && strcmp(lang, "python3") == 0;
    char **block = NULL;
    size_t nblock = 0;
    char err[256];
    if (python && code && cc_pep723_dependencies(code, code_len, CC_DEPS_MAX, &block, &nblock, err, sizeof err) < 0)
        return cc_err("validation", "%s", err);
    if (given == 0 && nblock == 0) return NULL;
    d->lang = lang;
    for (size_t i = 0; i < sizeof supported / sizeof supported[0] && !d->eco; i++)
        if (lang && !strcmp(lang, supported[i].lang)) d->eco = supported[i].eco;
    if (!d->eco) {
        cc_pep723_free(block, nblock);
        return fail(d, cc_err("validation", "dependencies are installed for python3 (pip), node and bun (npm); "
                              "'%s' has no package manager here", lang ? lang : ""));
    }
    d->specs = calloc(CC_DEPS_MAX + 1, sizeof *d->specs);
    const char **list = calloc(given + 1, sizeof *list);
    json_t *e = !d->specs || !list ? cc_err("internal", "out of memory") : NULL;
    for (size_t i = 0; !e && i < given; i++)
        if (!(list[i] = json_string_value(json_array_get(arr, i))))
            e = cc_err("validation", "dependencies[%zu] must be a string", i);
    if (!e) e = add_specs(d, "dependencies", list, given);
    if (!e) e = add_specs(d, "the # /// script block's dependencies", (const char *const *)block, nblock);
    free(list);
    cc_pep723_free(block, nblock);
    if (e) return fail(d, e);
    qsort(d->specs, d->n, sizeof *d->specs, cmp_str);
    return NULL;
}

/* ---- the key ---------------------------------------------------------------- */

/* A file as what it is now: path, device, inode, size, mtime. */
static void hash_file(struct cc_sha256 *h, const char *path) {
    struct stat st;
    char ident[512];
    if (!path || stat(path, &st) != 0) snprintf(ident, sizeof ident, "missing:%s", path ? path : "");
    else snprintf(ident, sizeof ident, "%s:%ju:%ju:%jd:%jd.%09ld", path, (uintmax_t)st.st_dev,
                  (uintmax_t)st.st_ino, (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    cc_sha256_update(h, ident, strlen(ident) + 1);
}

const char *cc_deps_root(char *buf, size_t cap) {
    buf[0] = '\0';
    size_t n;
    if (cc_home_path(buf, cap) != 0 || buf[0] != '/' || (n = strlen(buf)) + sizeof "/cache/deps" > cap)
        buf[0] = '\0';
    else
        memcpy(buf + n, "/cache/deps", sizeof "/cache/deps");
    return buf;
}

static int mkdir_mode(const char *path, mode_t mode) {
    return mkdir(path, mode) == 0 || errno == EEXIST ? 0 : -1;
}

int cc_deps_make_root(void) {
    char root[4096], dir[4096];
    if (!cc_deps_root(root, sizeof root)[0]) return -1;
    snprintf(dir, sizeof dir, "%s", root);
    *strrchr(dir, '/') = '\0';            /* .../cache */
    char home[4096];
    snprintf(home, sizeof home, "%s", dir);
    *strrchr(home, '/') = '\0';           /* $CODECALC_HOME */
    return mkdir_mode(home, 0700) || mkdir_mode(dir, 0700) || mkdir_mode(root, 0711) ? -1 : 0;
}

json_t *cc_deps_locate(struct cc_deps *d) {
    const struct cc_pkg_ecosystem *eco = cc_pkg_ecosystem(d->eco);
    char *installer = NULL;
    const char *runs_as = eco ? cc_pkg_find_installer(eco, &installer) : NULL;
    if (!runs_as)
        return cc_err("dependency_missing", "cannot install dependencies for %s: %s", d->lang,
                      eco && eco->missing ? eco->missing : "npm was not found on the runtime PATH");
    const char *runtime = d->lang;
    for (size_t i = 0; i < sizeof supported / sizeof supported[0]; i++)
        if (!strcmp(d->lang, supported[i].lang)) runtime = supported[i].runtime;
    char *rt = cc_resolve_cmd(runtime, cc_runtime_path());
    struct cc_sha256 h;
    uint8_t dg[32];
    cc_sha256_init(&h);
    cc_sha256_update(&h, "codecalc-deps-v1", 17);
    cc_sha256_update(&h, d->eco, strlen(d->eco) + 1);
    hash_file(&h, rt);
    cc_sha256_update(&h, runs_as, strlen(runs_as) + 1);
    hash_file(&h, installer);
    free(rt);
    free(installer);
    for (const char *const *v = strcmp(d->eco, "node") ? python_index_env : node_index_env; *v; v++) {
        const char *val = getenv(*v);
        char kv[1024];
        snprintf(kv, sizeof kv, "%s=%s", *v, val ? val : "\x01unset");
        cc_sha256_update(&h, kv, strlen(kv) + 1);
    }
    for (size_t i = 0; i < d->n; i++) cc_sha256_update(&h, d->specs[i], strlen(d->specs[i]) + 1);
    cc_sha256_final(&h, dg);
    cc_sha256_tohex(dg, d->key);
    char root[4096];
    if (!cc_deps_root(root, sizeof root)[0])
        return cc_err("internal", "no state directory for the dependency cache (set CODECALC_HOME)");
    free(d->dir);
    if (asprintf(&d->dir, "%s/%s", root, d->key) < 0) {
        d->dir = NULL;
        return cc_err("internal", "out of memory");
    }
    struct stat st;
    d->cached = lstat(d->dir, &st) == 0 && S_ISDIR(st.st_mode);
    return NULL;
}

json_t *cc_deps_refusal(const struct cc_deps *d, bool no_net, bool policy_denies_network) {
    if (d->n == 0 || d->cached || (!no_net && !policy_denies_network)) return NULL;
    return cc_err("validation", "the %zu dependencies are not in the install cache and installing them needs the "
                  "network, which %s; run once with the network allowed (the program can still be given "
                  "no_net once they are cached) or drop the dependencies", d->n,
                  policy_denies_network ? "the capability policy (CODECALC_CAPABILITY_POLICY) denies"
                                        : "no_net: true refuses");
}

void cc_deps_free(struct cc_deps *d) {
    for (size_t i = 0; d->specs && i < d->n; i++) free(d->specs[i]);
    free(d->specs);
    free(d->dir);
    memset(d, 0, sizeof *d);
}
