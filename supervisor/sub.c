/* Sub-requests (see sub.h): a private connection per request whose send()
 * parses the JSON-RPC response and calls the owner back. */
#include "supervisor/sub.h"

#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "protocol/msg.h"
#include "supervisor/pool.h"

struct cc_sub {
    struct cc_conn conn;        /* must stay first: send() casts back */
    struct cc_tool tool;        /* what the request claims to be */
    struct cc_req *req;         /* until answered or cancelled */
    char *op;
    cc_sub_cb cb;
    void *ud;
    bool done;                  /* the callback ran, or must never run */
};

static void sub_send(struct cc_conn *c, const char *msg, size_t len) {
    struct cc_sub *s = (struct cc_sub *)c;
    s->req = NULL; /* freed before its answer is sent (request.c) */
    if (s->done) return;
    s->done = true;
    json_error_t je;
    json_t *m = cc_json_parse(msg, len, &je);
    json_t *res = json_object_get(json_object_get(m, "result"), "structuredContent");
    const char *err = json_string_value(json_object_get(json_object_get(m, "error"), "message"));
    if (res) s->cb(c->srv, s->ud, res, NULL);
    else s->cb(c->srv, s->ud, NULL, err ? err : "the exec worker gave no result");
    json_decref(m);
}

static void sub_release(struct cc_conn *c) {
    struct cc_sub *s = (struct cc_sub *)c;
    /* Freed without an answer (server shutting down): tell the owner. */
    if (!s->done) {
        s->done = true;
        s->cb(c->srv, s->ud, NULL, "the server is shutting down");
    }
    free(s->op);
    free(s);
}

static const struct cc_conn_ops sub_ops = {sub_send, sub_release};

struct cc_sub *cc_sub_start(struct cc_server *srv, const char *op, json_t *args, int64_t deadline_ms,
                            cc_sub_cb cb, void *ud) {
    struct cc_sub *s = calloc(1, sizeof *s);
    if (!s || !(s->op = strdup(op))) {
        free(s);
        return NULL;
    }
    s->cb = cb;
    s->ud = ud;
    /* op is an exec-worker op, a tool's or an internal one (not a row of
     * the tool table): the request describes itself. */
    s->tool = (struct cc_tool){.name = s->op, .title = s->op, .group = "internal",
                               .pool = CC_POOL_EXEC, .deadline_s = (int)((deadline_ms + 999) / 1000)};
    cc_conn_init(&s->conn, srv, &sub_ops);
    s->conn.initialized = true;
    json_t *id = json_integer(0);
    struct cc_req *r = cc_req_new(srv, &s->conn, id, &s->tool, NULL);
    json_decref(id);
    if (!r) {
        s->done = true;
        cc_conn_unref(&s->conn);
        return NULL;
    }
    /* The caller's bound applies, not the tool's class or a test override. */
    cc_req_rearm(r, deadline_ms);
    if (cc_msg_request(&r->frame, r->wid, op, args, (uint64_t)r->deadline_ms) < 0) {
        s->done = true;
        cc_req_free(r);
        cc_conn_unref(&s->conn);
        return NULL;
    }
    s->req = r;
    cc_pool_submit(srv->pools[CC_POOL_EXEC], r);
    /* The request holds the connection from now on. */
    cc_conn_unref(&s->conn);
    return s;
}

void cc_sub_cancel(struct cc_sub *s) {
    struct cc_req *r = s->req;
    s->done = true;
    if (!r) return;
    s->req = NULL;
    r->cancelled = true;
    if (r->pool) cc_pool_cancel(r->pool, r);
    cc_req_free(r); /* drops the last reference: s is freed */
}

int cc_sub_exec(struct cc_server *srv, const char *op, json_t *args, int deadline_s, cc_sub_cb cb,
                void *ud) {
    return cc_sub_start(srv, op, args, (int64_t)deadline_s * 1000, cb, ud) ? 0 : -1;
}
