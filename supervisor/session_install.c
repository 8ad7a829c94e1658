/* install_package (TOOLS.md 3.6.1): the request checks, in the spec's
 * order. Running the installer is not wired in this build: a request that
 * passes every check is answered with dependency_missing, never a fake
 * success. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/quota.h"
#include "supervisor/sessions.h"
#include "workers/common/tool_api.h"

static const char *const declined[] = {
    "java", "csharp", "kotlin", "swift", "zig", "elixir", "erlang", "gleam", "haskell", "fortran",
    "c", "cpp", "c++", "perl", "lua", "tcl", "bash", "zsh", "awk", "jq", "sqlite", "mojo",
    "typescript", "ruby", "r", NULL};
static const char *const installers[][2] = {
    {"python3", "uv"}, {"node", "npm"}, {"bun", "bun"}, {"deno", "deno"}, {"php", "composer"},
    {"go", "go"}, {"rust", "cargo"}, {NULL, NULL}};

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

void cc_tool_install_package(struct cc_server *srv, struct cc_req *r, json_t *args) {
    const char *spelled = json_string_value(json_object_get(args, "language"));
    const char *pkg = json_string_value(json_object_get(args, "package"));
    json_t *ver = json_object_get(args, "version");
    const char *lang = cc_session_lang(spelled ? spelled : "");
    const char *name = lang ? lang : (spelled ? spelled : "");
    for (int i = 0; declined[i]; i++)
        if (!strcmp(name, declined[i])) {
            bool global = !strcmp(name, "ruby") || !strcmp(name, "r");
            cc_req_answer_fail(r, "permission_denied", "package install not supported for '%s'%s", name,
                               global ? ": it would write into the interpreter's global library" : "");
            return;
        }
    const char *bin = NULL;
    for (int i = 0; installers[i][0]; i++)
        if (!strcmp(name, installers[i][0])) bin = installers[i][1];
    if (!bin) {
        cc_req_answer_fail(r, "validation", "no installer defined for '%s'", name);
        return;
    }
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
        cc_req_answer_fail(r, "permission_denied", "package '%s' is not on the CODECALC_PACKAGE_ALLOWLIST "
                           "allowlist for ecosystem '%s'; deny-by-default is active because "
                           "CODECALC_PACKAGE_ALLOWLIST is set", bare, name);
        return;
    }
    json_t *sid = json_object_get(args, "session_id");
    if (sid && !json_is_null(sid)) {
        struct cc_session *s;
        const char *id;
        int ws;
        if (cc_session_open(srv, r, args, &s, &ws, &id) < 0) return;
        json_t *q = cc_quota_precheck(cc_sessions_of(srv)->root_fd, ws, id);
        close(ws);
        if (q) {
            cc_session_answer(r, q);
            json_decref(q);
            return;
        }
    }
    cc_req_answer_fail(r, "dependency_missing", "package installs are not available in this build of "
                       "codecalc (the %s installer is not wired yet)", bin);
}
