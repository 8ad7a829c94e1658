/* install_package (TOOLS.md 3.6.1, issue 6 item 6): the request checks in
 * the spec's order, the target (a session workspace, or the shared cache
 * $CODECALC_HOME/pkgs only when the operator set
 * CODECALC_ALLOW_GLOBAL_INSTALL=1), and the installer command; running it
 * is supervisor/sessions/installer.c's job. npm, uv and pip are wired; the other
 * ecosystems answer dependency_missing, never a fake success. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "supervisor/home.h"
#include "supervisor/sessions/installer.h"
#include "workers/common/runtime_path.h"
#include "workers/sandbox/sandbox.h"

#include "supervisor/sessions/quota.h"
#include "supervisor/sessions/sessions.h"
#include "workers/common/audit.h"
#include "workers/common/tool_api.h"

static const char *const declined[] = {
    "java", "csharp", "kotlin", "swift", "zig", "elixir", "erlang", "gleam", "haskell", "fortran",
    "c", "cpp", "c++", "perl", "lua", "tcl", "bash", "zsh", "awk", "jq", "sqlite", "mojo",
    "typescript", "ruby", "r", NULL};

/* pip reports an unreachable index as "no matching distribution": ask the
 * index first so the answer can say what is wrong. Exit 101 + the marker
 * line tells supervisor/sessions/installer.c it was the network. */
#define INDEX_PROBE                                                                               \
    "{ [ -n \"$PIP_NO_INDEX\" ] || python3 -c 'import os, sys, urllib.request as r\n"               \
    "u = os.environ.get(\"PIP_INDEX_URL\", \"https://pypi.org/simple/\")\n"                         \
    "try: r.urlopen(u, timeout=8)\n"                                                               \
    "except Exception as e: sys.exit(\"codecalc: network error: cannot reach the package index %s: %s\" % (u, e))'" \
    " || exit 101; }"

/* The package managers, as data. Each ecosystem names its installers in
 * order of preference (the first found on the runtime PATH is used) and how
 * each runs; an installer without a command answers dependency_missing,
 * never a fake success. */
struct installer {
    const char *bin;          /* looked up on the runtime PATH */
    const char *runs_as;      /* the command row it uses */
};

struct ecosystem {
    const char *lang;         /* canonical language */
    const char *pin_sep;      /* package<sep>version */
    struct installer installers[3];
    const char *missing;      /* dependency_missing text when none is found; NULL: runtime_unavailable */
};

static const struct ecosystem ecosystems[] = {
    {"python3", "==", {{"uv", "uv"}, {"pip3", "pip"}, {"pip", "pip"}},
     "no python package installer here: neither uv nor pip was found on the runtime PATH"},
    {"node", "@", {{"npm", "npm"}}, NULL},
    {"bun", "@", {{"bun", "bun"}}, NULL},
    {"deno", "@", {{"deno", "deno"}}, NULL},
    {"php", ":", {{"composer", "composer"}}, NULL},
    {"go", "@", {{"go", "go"}}, NULL},
    {"rust", "@", {{"cargo", "cargo"}}, NULL},
};

/* How an installer runs: the /bin/sh script (cwd = target) is prefix, then
 * command with the package spec for its one %s. The spec is single-quoted:
 * the package charset (spec_error) has no quote, so it stays one word. */
struct install_command {
    const char *runs_as;
    const char *no_exec_flag; /* what keeps package code from running */
    const char *prefix;
    const char *command;
};

static const struct install_command commands[] = {
    /* --prefix also moves npm's global config (cafile, registry) to
     * <target>/etc/npmrc: point it back at the one of the node install. */
    {"npm", "--ignore-scripts", "mkdir -p \"$HOME\" && n=$(command -v node) && ",
     "exec npm install '%s' --prefix \"$PWD\" --globalconfig \"${n%%/bin/node}/etc/npmrc\" "
     "--ignore-scripts --no-save --no-audit --no-fund"},
    {"uv", "--only-binary=:all:", "", "exec uv pip install --only-binary=:all: --target \"$PWD\" '%s'"},
    /* No retries and a short connect timeout: an unreachable index should
     * say so in seconds, not minutes. */
    {"pip", "--only-binary=:all:", "mkdir -p \"$HOME\" && " INDEX_PROBE " && ",
     "exec python3 -m pip install --only-binary=:all: --no-input --retries 0 --timeout 10 "
     "--target \"$PWD\" '%s'"},
};

static const struct ecosystem *ecosystem_of(const char *lang) {
    for (size_t i = 0; i < sizeof ecosystems / sizeof ecosystems[0]; i++)
        if (!strcmp(ecosystems[i].lang, lang)) return &ecosystems[i];
    return NULL;
}

static const char *spec_error(const char *what, const char *v) {
    static const char allowed[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                                  "._@/[]+~=<>!, -";
    if (v[0] == '-') return "starts with '-' and would be read as a flag";
    if (strspn(v, allowed) != strlen(v)) return what;
    for (const char *p = v; *p; p++)
        if (isspace((unsigned char)p[0]) && p[1] == '-') return "looks like an embedded flag";
    return NULL;
}

/* Allowlist check of step 5; true when allowed. */
static bool allowlisted(const char *lang, const char *pkg, char *bare, size_t cap) {
    size_t n = strcspn(pkg, "[=<>!~, ");
    if (n >= cap) n = cap - 1;
    for (size_t i = 0; i < n; i++) bare[i] = (char)tolower((unsigned char)pkg[i]);
    bare[n] = '\0';
    const char *env = getenv("CODECALC_PACKAGE_ALLOWLIST");
    if (!env) return true;
    char *copy = strdup(env), *save = NULL;
    bool ok = false;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && !ok; t = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*t)) t++;
        char *e = t + strlen(t);
        while (e > t && isspace((unsigned char)e[-1])) *--e = '\0';
        for (char *p = t; *p; p++) *p = (char)tolower((unsigned char)*p);
        size_t ll = strlen(lang);
        ok = !strcmp(t, bare) || (!strncmp(t, lang, ll) && t[ll] == ':' && !strcmp(t + ll + 1, bare));
    }
    free(copy);
    return ok;
}

/* Step 3: the installer to use (its command row name), or NULL when r was
 * answered. */
static const char *find_installer(struct cc_req *r, const struct ecosystem *eco) {
    const char *srv_path = getenv("PATH");
    for (int i = 0; i < 3 && eco->installers[i].bin; i++) {
        char *p = cc_resolve_cmd(eco->installers[i].bin, cc_runtime_path());
        if (!p && srv_path) p = cc_resolve_cmd(eco->installers[i].bin, srv_path);
        free(p);
        if (p) return eco->installers[i].runs_as;
    }
    if (eco->missing) cc_req_answer_fail(r, "dependency_missing", "%s", eco->missing);
    else cc_req_answer_fail(r, "runtime_unavailable", "package manager '%s' not found", eco->installers[0].bin);
    return NULL;
}

/* The ecosystem's pin syntax (3.6.1). Malloc'd. */
static char *pin(const struct ecosystem *eco, const char *pkg, const char *ver) {
    char *s = NULL;
    int n = ver ? asprintf(&s, "%s%s%s", pkg, eco->pin_sep, ver) : asprintf(&s, "%s", pkg);
    return n < 0 ? NULL : s;
}

/* Step 6: the workspace of session_id, else the shared cache when the
 * operator allows global installs (CODECALC_ALLOW_GLOBAL_INSTALL=1). */
/* TOOLS.md 10.3: every refused install is an audit event. */
static void audit_denied(json_t *args, const char *reason) {
    json_t *meta = json_pack("{s:s?,s:s?}", "language", json_string_value(json_object_get(args, "language")),
                             "package", json_string_value(json_object_get(args, "package")));
    cc_audit_event("install_denied", NULL, json_string_value(json_object_get(args, "session_id")), "denied",
                   reason, meta);
    json_decref(meta);
}

static int choose_target(struct cc_server *srv, struct cc_req *r, json_t *args, struct cc_install_spec *sp) {
    struct cc_sessions *ss = cc_sessions_of(srv);
    json_t *sid = json_object_get(args, "session_id");
    if (sid && !json_is_null(sid)) {
        struct cc_session *s;
        const char *id;
        int ws;
        if (cc_session_open(srv, r, args, &s, &ws, &id) < 0) return -1;
        cc_session_touch(srv, s);
        json_t *q = cc_quota_precheck(ss->root_fd, ws, id);
        close(ws);
        if (q) {
            cc_session_answer(r, q);
            json_decref(q);
            return -1;
        }
        sp->session_id = (char *)id;
        if (asprintf(&sp->target, "%s/%s", ss->root, id) < 0) sp->target = NULL;
    } else {
        const char *allow = getenv("CODECALC_ALLOW_GLOBAL_INSTALL");
        char home[PATH_MAX];
        if (!allow || strcmp(allow, "1") != 0) {
            audit_denied(args, "global_install_refused");
            cc_req_answer_fail(r, "permission_denied", "global installs (no session_id) are refused: pass the "
                               "session_id of a session to install into its workspace, or have the operator "
                               "set CODECALC_ALLOW_GLOBAL_INSTALL=1 to allow installs into the shared cache");
            return -1;
        }
        if (cc_home_dir(home, sizeof home) < 0 || asprintf(&sp->target, "%s/pkgs", home) < 0) sp->target = NULL;
        if (sp->target && mkdir(sp->target, 0700) != 0 && errno != EEXIST) {
            cc_req_answer_fail(r, "internal", "cannot create %s: %s", sp->target, strerror(errno));
            return -1;
        }
        /* The installer runs as the sandbox uid when we are root. */
        if (sp->target && geteuid() == 0 && chown(sp->target, SBX_RUN_UID, SBX_RUN_GID) != 0) {
            cc_req_answer_fail(r, "internal", "cannot hand %s to the sandbox user: %s", sp->target, strerror(errno));
            return -1;
        }
    }
    if (!sp->target) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return -1;
    }
    return 0;
}

static int build_script(struct cc_req *r, const char *lang, const char *installer, struct cc_install_spec *sp) {
    const struct install_command *c = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0] && !c; i++)
        if (!strcmp(commands[i].runs_as, installer)) c = &commands[i];
    if (!c) {
        cc_req_answer_fail(r, "dependency_missing", "installs for '%s' (%s) are not available in this build "
                           "of codecalc; python3 (uv/pip) and node (npm) are", lang, installer);
        return -1;
    }
    char *cmd = NULL;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    int n = asprintf(&cmd, c->command, sp->spec);
#pragma GCC diagnostic pop
    if (n < 0 || asprintf(&sp->script, "%s%s", c->prefix, cmd) < 0) {
        free(n < 0 ? NULL : cmd);
        sp->script = NULL;
        cc_req_answer_fail(r, "internal", "out of memory");
        return -1;
    }
    free(cmd);
    sp->no_exec_flag = (char *)c->no_exec_flag;
    return 0;
}

void cc_tool_install_package(struct cc_server *srv, struct cc_req *r, json_t *args) {
    const char *spelled = json_string_value(json_object_get(args, "language"));
    const char *pkg = json_string_value(json_object_get(args, "package"));
    json_t *ver = json_object_get(args, "version");
    const char *lang = cc_session_lang(spelled ? spelled : "");
    const char *name = lang ? lang : (spelled ? spelled : "");
    for (int i = 0; declined[i]; i++)
        if (!strcmp(name, declined[i])) {
            bool global = !strcmp(name, "ruby") || !strcmp(name, "r");
            audit_denied(args, "ecosystem_declined");
            cc_req_answer_fail(r, "permission_denied", "package install not supported for '%s'%s", name,
                               global ? ": it would write into the interpreter's global library" : "");
            return;
        }
    const struct ecosystem *eco = ecosystem_of(name);
    if (!eco) {
        cc_req_answer_fail(r, "validation", "no installer defined for '%s'", name);
        return;
    }
    const char *installer = find_installer(r, eco);
    if (!installer) return;
    if (!pkg || !*pkg) {
        cc_req_answer_fail(r, "validation", "no package name given");
        return;
    }
    const char *why = spec_error("invalid", pkg);
    if (why) {
        cc_req_answer_fail(r, "validation", "invalid package name '%s': expected letters, digits and . _ "
                           "- @ / [ ] + ~ = < > ! , or spaces (%s)", pkg, why);
        return;
    }
    if (ver && !json_is_null(ver)) {
        const char *v = json_string_value(ver);
        if (!v || !*v) {
            cc_req_answer_fail(r, "validation", "empty version given");
            return;
        }
        if ((why = spec_error("invalid", v))) {
            cc_req_answer_fail(r, "validation", "invalid version '%s' (%s)", v, why);
            return;
        }
    }
    char bare[256];
    if (!allowlisted(name, pkg, bare, sizeof bare)) {
        audit_denied(args, "not_on_allowlist");
        cc_req_answer_fail(r, "permission_denied", "package '%s' is not on the CODECALC_PACKAGE_ALLOWLIST "
                           "allowlist for ecosystem '%s'; deny-by-default is active because "
                           "CODECALC_PACKAGE_ALLOWLIST is set", bare, name);
        return;
    }
    struct cc_install_spec sp = {.lang = (char *)name};
    const char *ver_s = ver && !json_is_null(ver) ? json_string_value(ver) : NULL;
    if (!(sp.spec = pin(eco, pkg, ver_s))) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    if (choose_target(srv, r, args, &sp) == 0 && build_script(r, name, installer, &sp) == 0)
        cc_install_run(srv, r, &sp);
    free(sp.spec);
    free(sp.target);
    free(sp.script);
}
