/* The installer run of install_package (TOOLS.md 3.6.1, issue 6 item 6) is
 * exec-side work (protocol in workers/exec/install.h): the supervisor sends
 * the exec pool one internal sub-request with the target and the script it
 * chose, and finishes the answer with the workspace quota post-check (4.6).
 * It never starts a sandbox itself and links no sandbox code.
 *
 * Ownership: a pending install owns its session id copy and is freed in
 * on_done, which the sub-request calls exactly once. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/sessions/installer.h"
#include "supervisor/sessions/quota.h"
#include "supervisor/sessions/sessions.h"
#include "workers/common/tool_api.h"
#include "workers/exec/install.h"

/* The exec worker enforces the installer's wall clock; the pool's deadline
 * is only the backstop for a worker that stops answering. */
#define BACKSTOP_S (CC_INSTALL_TIMEOUT_S + 30)

struct pending {
    struct cc_req *r;
    uint64_t wid;
    char *session_id;            /* NULL for the shared cache */
};

static void on_done(struct cc_server *srv, void *ud, json_t *result, const char *err) {
    struct pending *p = ud;
    if (p->session_id) cc_session_release(srv, p->session_id);
    if (!cc_session_req_alive(srv, p->r, p->wid)) goto out;
    if (!result) {
        cc_req_answer_fail(p->r, "internal", "install failed: %s", err);
        goto out;
    }
    json_t *res = json_deep_copy(result);
    struct cc_sessions *ss = cc_sessions_of(srv);
    if (p->session_id && ss) {
        int ws = openat(ss->root_fd, p->session_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (ws >= 0) {
            cc_quota_postcheck(res, ss->root_fd, ws);
            close(ws);
        }
    }
    cc_session_answer(p->r, res);
    json_decref(res);
out:
    free(p->session_id);
    free(p);
}

static json_t *or_null(const char *s) { return s ? json_string(s) : json_null(); }

void cc_install_run(struct cc_server *srv, struct cc_req *r, const struct cc_install_spec *sp) {
    struct pending *p = calloc(1, sizeof *p);
    json_t *args = json_pack("{s:s,s:s,s:s,s:o,s:s,s:o}", "language", sp->lang, "package", sp->spec, "target",
                             sp->target, "session_id", or_null(sp->session_id), "script", sp->script,
                             "no_exec_flag", or_null(sp->no_exec_flag));
    if (!p || !args || (sp->session_id && !(p->session_id = strdup(sp->session_id)))) {
        json_decref(args);
        if (p) free(p->session_id);
        free(p);
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    p->r = r;
    p->wid = r->wid;
    /* The idle-expiry timer must not remove the workspace under the install. */
    if (p->session_id) cc_session_hold(srv, p->session_id);
    if (cc_sub_exec(srv, CC_EXEC_OP_INSTALL, args, BACKSTOP_S, on_done, p) != 0) {
        if (p->session_id) cc_session_release(srv, p->session_id);
        free(p->session_id);
        free(p);
        cc_req_answer_fail(r, "internal", "cannot reach the exec workers");
    }
    json_decref(args);
}
