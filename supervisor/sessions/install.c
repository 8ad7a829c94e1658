/* install_package (TOOLS.md 3.6.1, issue 6 item 6): the request checks in
 * the spec's order, the target (a session workspace, or the shared cache
 * $CODECALC_HOME/pkgs only when the operator set
 * CODECALC_ALLOW_GLOBAL_INSTALL=1), and the installer command; running it
 * is supervisor/sessions/installer.c's job. The package managers are a table
 * (workers/common/pkg_managers.c): npm, uv and pip are wired; the other
 * ecosystems answer dependency_missing, never a fake success. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/flag.h"
#include "protocol/text_knob.h"
#include "supervisor/home.h"
#include "supervisor/sessions/installer.h"
#include "workers/common/pkg_managers.h"
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
    const char *env = cc_text(CC_TEXT_PACKAGE_ALLOWLIST);
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
static const char *find_installer(struct cc_req *r, const struct cc_pkg_ecosystem *eco) {
    const char *runs_as = cc_pkg_find_installer(eco, NULL);
    if (runs_as) return runs_as;
    if (eco->missing) cc_req_answer_fail(r, "dependency_missing", "%s", eco->missing);
    else cc_req_answer_fail(r, "runtime_unavailable", "package manager '%s' not found", eco->installers[0].bin);
    return NULL;
}

/* The ecosystem's pin syntax (3.6.1). Malloc'd. */
static char *pin(const struct cc_pkg_ecosystem *eco, const char *pkg, const char *ver) {
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
        char home[PATH_MAX];
        if (!cc_flag(CC_FLAG_ALLOW_GLOBAL_INSTALL)) {
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
    const char *spec = sp->spec, *flag = NULL;
    sp->script = cc_pkg_script(installer, &spec, 1, &flag);
    if (!sp->script && errno == ENOENT) {
        cc_req_answer_fail(r, "dependency_missing", "installs for '%s' (%s) are not available in this build "
                           "of codecalc; python3 (uv/pip) and node (npm) are", lang, installer);
        return -1;
    }
    if (!sp->script) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return -1;
    }
    sp->no_exec_flag = (char *)flag;
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
    const struct cc_pkg_ecosystem *eco = cc_pkg_ecosystem(name);
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
