/* The package-manager table (pkg_managers.h). */
#include "workers/common/pkg_managers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/strbuf.h"
#include "workers/common/runtime_path.h"

/* pip reports an unreachable index as "no matching distribution": ask the
 * index first so the answer can say what is wrong. Exit 101 + the marker
 * line tells the exec worker (workers/exec/install.c) it was the network. */
#define INDEX_PROBE                                                                               \
    "{ [ -n \"$PIP_NO_INDEX\" ] || python3 -c 'import os, sys, urllib.request as r\n"               \
    "u = os.environ.get(\"PIP_INDEX_URL\", \"https://pypi.org/simple/\")\n"                         \
    "try: r.urlopen(u, timeout=8)\n"                                                               \
    "except Exception as e: sys.exit(\"codecalc: network error: cannot reach the package index %s: %s\" % (u, e))'" \
    " || exit 101; }"

static const struct cc_pkg_ecosystem ecosystems[] = {
    {"python3", "==", {{"uv", "uv"}, {"pip3", "pip"}, {"pip", "pip"}},
     "no python package installer here: neither uv nor pip was found on the runtime PATH"},
    {"node", "@", {{"npm", "npm"}}, NULL},
    {"bun", "@", {{"bun", "bun"}}, NULL},
    {"deno", "@", {{"deno", "deno"}}, NULL},
    {"php", ":", {{"composer", "composer"}}, NULL},
    {"go", "@", {{"go", "go"}}, NULL},
    {"rust", "@", {{"cargo", "cargo"}}, NULL},
};

/* How an installer runs: the script is prefix, then command with the
 * quoted specs for its one %s. */
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
     "exec npm install %s --prefix \"$PWD\" --globalconfig \"${n%%/bin/node}/etc/npmrc\" "
     "--ignore-scripts --no-save --no-audit --no-fund"},
    {"uv", "--only-binary=:all:", "", "exec uv pip install --only-binary=:all: --target \"$PWD\" %s"},
    /* No retries and a short connect timeout: an unreachable index should
     * say so in seconds, not minutes. */
    {"pip", "--only-binary=:all:", "mkdir -p \"$HOME\" && " INDEX_PROBE " && ",
     "exec python3 -m pip install --only-binary=:all: --no-input --retries 0 --timeout 10 "
     "--target \"$PWD\" %s"},
};

const struct cc_pkg_ecosystem *cc_pkg_ecosystem(const char *lang) {
    for (size_t i = 0; i < sizeof ecosystems / sizeof ecosystems[0]; i++)
        if (!strcmp(ecosystems[i].lang, lang)) return &ecosystems[i];
    return NULL;
}

const char *cc_pkg_find_installer(const struct cc_pkg_ecosystem *eco, char **path) {
    const char *srv_path = getenv("PATH");
    if (path) *path = NULL;
    for (int i = 0; i < 3 && eco->installers[i].bin; i++) {
        char *p = cc_resolve_cmd(eco->installers[i].bin, cc_runtime_path());
        if (!p && srv_path) p = cc_resolve_cmd(eco->installers[i].bin, srv_path);
        if (!p) continue;
        if (path) *path = p;
        else free(p);
        return eco->installers[i].runs_as;
    }
    return NULL;
}

char *cc_pkg_script(const char *runs_as, const char *const *specs, size_t n, const char **no_exec_flag) {
    const struct install_command *c = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0] && !c; i++)
        if (!strcmp(commands[i].runs_as, runs_as)) c = &commands[i];
    if (!c) {
        errno = ENOENT;
        return NULL;
    }
    struct cc_strbuf words;
    cc_sb_init(&words);
    for (size_t i = 0; i < n; i++) cc_sb_printf(&words, "%s'%s'", i ? " " : "", specs[i]);
    cc_sb_putc(&words, '\0');
    char *cmd = NULL, *script = NULL;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    int rc = asprintf(&cmd, c->command, words.data);
#pragma GCC diagnostic pop
    cc_sb_free(&words);
    if (rc < 0 || asprintf(&script, "%s%s", c->prefix, cmd) < 0) script = NULL;
    free(rc < 0 ? NULL : cmd);
    *no_exec_flag = c->no_exec_flag;
    return script;
}
