/* Where runtimes are found, and whether the sandbox may run what is found.
 *
 * Why a file of its own: the exec worker resolves a language's interpreter
 * or compiler here, the REPL launcher its host interpreter, and the
 * supervisor the package installer of install_package (before it hands the
 * install to the exec side) -- all three must agree, or a check would pass
 * in one process and the run fail in another. A root server runs programs
 * as the sandbox uid (workers/sandbox/sandbox.h SBX_RUN_UID), so a file
 * counts as executable only when that uid may reach and execute it. */
#include "workers/common/runtime_path.h"
#include "protocol/text_knob.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workers/sandbox/sandbox.h"

const char *cc_runtime_path(void) {
    const char *p = cc_text(CC_TEXT_RUNTIME_PATH);
    if (p) return p;
    p = getenv("PATH");
    if (p && *p) return p;
    return "/usr/local/bin:/usr/bin:/bin";
}

/* The x bit that applies to the sandbox uid/gid for this inode. */
static bool x_for_run_uid(const struct stat *st) {
    if (st->st_uid == SBX_RUN_UID) return st->st_mode & S_IXUSR;
    if (st->st_gid == SBX_RUN_GID) return st->st_mode & S_IXGRP;
    return st->st_mode & S_IXOTH;
}

/* Every directory above path can be searched by the sandbox uid. */
static bool dirs_searchable(const char *path) {
    char *copy = strdup(path);
    bool ok = copy != NULL;
    for (char *slash = copy ? strrchr(copy, '/') : NULL; ok && slash && slash != copy;
         slash = strrchr(copy, '/')) {
        *slash = '\0';
        struct stat st;
        ok = stat(copy, &st) == 0 && x_for_run_uid(&st);
    }
    free(copy);
    return ok;
}

/* A root worker runs programs as the sandbox uid, which owns nothing but the
 * run directory: a runtime counts only if that uid may reach and execute it
 * (a pyenv shim in /root, mode 0700, does not). Otherwise access() decides. */
static bool runnable_by_sandbox_uid(const char *path, const struct stat *st) {
    if (geteuid() != 0) return access(path, X_OK) == 0;
    if (!x_for_run_uid(st) || !dirs_searchable(path)) return false;
    char *real = realpath(path, NULL);
    bool ok = real && dirs_searchable(real);
    free(real);
    return ok;
}

static bool is_exec_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && runnable_by_sandbox_uid(path, &st);
}

char *cc_resolve_cmd(const char *cmd, const char *path) {
    if (!cmd || !*cmd) return NULL;
    if (strchr(cmd, '/')) return is_exec_file(cmd) ? strdup(cmd) : NULL;
    const char *p = path ? path : "";
    while (*p) {
        const char *colon = strchrnul(p, ':');
        size_t len = (size_t)(colon - p);
        /* An empty entry would mean "the cwd": never resolve runtimes there. */
        if (len && p[0] == '/') {
            char *cand = NULL;
            if (asprintf(&cand, "%.*s/%s", (int)len, p, cmd) < 0) return NULL;
            if (is_exec_file(cand)) return cand;
            free(cand);
        }
        p = *colon ? colon + 1 : colon;
    }
    return NULL;
}
