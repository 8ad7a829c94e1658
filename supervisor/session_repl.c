/* REPL hosts for stateful sessions.
 *
 * Not wired yet in this build: the hosts (repl-workers/) and the detached
 * sandboxed launcher are unfinished. Until they land, a python3/node session
 * starts as a workspace session and says so up front, instead of pretending
 * that interpreter state persists. */
#include <string.h>

#include "supervisor/sessions.h"

json_t *cc_repl_structural_unenforced(void) {
    return json_pack("[s]", "session_worker: no persistent REPL host in this build; each call runs "
                            "one-shot in the workspace, so only files persist between calls");
}

void cc_repl_start(struct cc_server *srv, struct cc_session *s, struct cc_req *r, json_t *res) {
    (void)srv;
    s->stateful = false;
    json_object_set_new(res, "stateful", json_false());
    json_object_set_new(res, "unenforced", cc_repl_structural_unenforced());
    cc_session_answer(r, res);
}

void cc_repl_exec(struct cc_server *srv, struct cc_session *s, struct cc_req *r, json_t *args) {
    (void)s;
    cc_session_exec_workspace(srv, r, args, s, s->id);
}

int cc_repl_attach(struct cc_server *srv, struct cc_session *s) {
    (void)srv, (void)s;
    return -1;
}

void cc_repl_close(struct cc_server *srv, struct cc_session *s) {
    (void)srv;
    s->repl = NULL;
}

void cc_repl_detach(struct cc_server *srv, struct cc_session *s) {
    (void)srv;
    s->repl = NULL;
}

bool cc_repl_alive(const struct cc_session *s) { return s->repl != NULL; }
