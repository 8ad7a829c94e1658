/* The installer run of install_package (TOOLS.md 3.6.1, issue 6 item 6) is
 * exec-side work: the supervisor never starts a sandbox (issue 10 item 3).
 *
 * The supervisor decides everything about the request (the checks of 3.6.1
 * in their order, the target directory, the installer script:
 * supervisor/sessions/install.c) and then sends the exec pool one internal
 * request, op CC_EXEC_OP_INSTALL, whose arguments are
 *   language      canonical language, for messages
 *   package       the package with its pin, as reported
 *   target        absolute directory: the script's cwd, the only writable one
 *   session_id    string, or null for the shared cache
 *   script        run as /bin/sh -c script
 *   no_exec_flag  string or null (e.g. "--ignore-scripts"), for the failure hint
 * The exec worker runs the script in the sandbox (workers/exec/install.c)
 * and answers the complete install_package result; the supervisor adds only
 * the workspace quota post-check. No client can send this op: it is no tool,
 * so tools/call never routes it.
 */
#ifndef CC_EXEC_INSTALL_H
#define CC_EXEC_INSTALL_H

#include "workers/common/tool_api.h"

#define CC_EXEC_OP_INSTALL "_install_package"

/* The installer's wall clock, enforced by the exec worker. */
#define CC_INSTALL_TIMEOUT_S 600

/* One installer run in the sandbox (read-only host, only target writable,
 * private /tmp, $CODECALC_HOME masked, seccomp, cgroup, the network), used
 * by install_package and by per-run dependencies (workers/exec/deps_env.c).
 * All strings borrowed. */
struct cc_install_run {
    const char *lang;          /* canonical language, for messages */
    const char *spec;          /* what is installed, for messages */
    const char *target;        /* absolute: the script's cwd, the only writable directory */
    const char *script;        /* run as /bin/sh -c script */
    const char *no_exec_flag;  /* e.g. "--ignore-scripts", for the failure hint; may be NULL */
    int timeout_s;             /* the installer's wall clock */
    bool scratch_caches;       /* package caches in the installer's /tmp, not in target */
    /* Asked every 250 ms whether to stop (a cancelled call or run); may be
     * NULL. Non-zero kills the installer. */
    int (*stop)(void *ud);
    void *stop_ud;
};

/* NULL on success, with the output's tail in *tail; else the failure
 * result (timeout, runtime_unavailable, dependency_missing for the network,
 * validation with output_tail). *unenforced: what the installer escapes
 * (new reference, also on failure; may be NULL). */
json_t *cc_install_sandboxed(const struct cc_install_run *in, json_t **tail, json_t **unenforced);

/* The op's handler. */
json_t *cc_exec_install(json_t *args, cc_wctx *ctx);

/* The exec worker's internal ops (internal_ops.c), a table for its loop. */
const struct cc_tool_def *cc_exec_internal_ops(void);

#endif
