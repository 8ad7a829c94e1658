/* Calls for a session another server owns (see cluster.h): a REPL cannot
 * move, so the call goes to the process that holds it. The registry (the
 * shared session store) names the owner and its internal URL; the call is
 * re-sent there as a stateless MCP POST carrying CODECALC_CLUSTER_TOKEN,
 * and the owner's answer (with any progress notifications before it) is
 * relayed to our client. An owner that is gone gives worker_failure naming
 * it, and the session's record says so from then on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "protocol/json_convert.h"
#include "protocol/text_knob.h"
#include "protocol/strbuf.h"
#include "state/session_store.h"
#include "state/shared.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/log.h"
#include "supervisor/mcp/discover.h"
#include "supervisor/runs/runs.h"
#include "supervisor/sessions/sessions.h"
#include "workers/common/tool_api.h"

/* The owner's answer is bounded like a client's message. */
#define MAX_ANSWER_BYTES (64u << 20)

struct forward {
    struct cc_server *srv;
    struct cc_req *r;
    uint64_t wid;
    struct evhttp_connection *evcon;
    struct cc_strbuf body;       /* unparsed bytes of the answer */
    bool sse, answered;
    char sid[65], owner[64], url[256];
};

bool cc_cluster_token_ok(const char *presented) {
    const char *want = cc_text(CC_TEXT_CLUSTER_TOKEN);
    if (!want || !presented) return false;
    size_t a = strlen(want), b = strlen(presented);
    unsigned diff = a != b;
    for (size_t i = 0; i < a && i < b; i++) diff |= (unsigned char)(want[i] ^ presented[i]);
    return diff == 0;
}

/* worker_failure for a session whose owner is gone, recorded on the
 * session so every server says the same from then on. */
static void owner_gone(struct cc_server *srv, struct cc_req *r, const char *sid, const char *owner,
                       const char *url, const char *why, bool record) {
    char reason[512];
    snprintf(reason, sizeof reason, "the session's owner, server %s (%s), is gone: %s", owner,
             url[0] ? url : "no internal URL", why);
    struct cc_sessions *ss = srv->sessions;
    if (record && ss && ss->store) cc_session_store_mark_lost(ss->store, sid, reason);
    json_t *e = cc_err("worker_failure", "session '%s' is lost: %s", sid, reason);
    json_object_set_new(e, "session_id", json_string(sid));
    json_object_set_new(e, "lost_owner", json_string(owner));
    json_object_set_new(e, "verdict", json_string("RTE"));
    json_object_set_new(e, "contract_version", json_string(CC_CONTRACT_VERSION));
    char *text = json_dumps(e, JSON_COMPACT);
    json_decref(e);
    if (text) cc_req_answer_result(r, text, strlen(text), false);
    else cc_req_answer_fail(r, "worker_failure", "session '%s' is lost", sid);
    free(text);
}

static void forward_free(struct forward *f) {
    cc_sb_free(&f->body);
    if (f->evcon) evhttp_connection_free_on_completion(f->evcon);
    free(f);
}

static bool still_waiting(struct forward *f) {
    return !f->answered && cc_session_req_alive(f->srv, f->r, f->wid);
}

/* One JSON-RPC message from the owner: a progress notification is relayed
 * (with our client's token), the response answers our request. */
static void relay(struct forward *f, const char *text, size_t len) {
    if (!still_waiting(f)) return;
    json_error_t je;
    json_t *m = cc_json_parse(text, len, &je);
    if (!json_is_object(m)) {
        json_decref(m);
        return;
    }
    const char *method = json_string_value(json_object_get(m, "method"));
    if (method) {
        json_t *params = json_object_get(m, "params");
        if (strcmp(method, "notifications/progress") == 0 && f->r->progress_token && json_is_object(params)) {
            json_object_set(params, "progressToken", f->r->progress_token);
            char *out = json_dumps(m, JSON_COMPACT);
            if (out) cc_conn_send(f->r->conn, out, strlen(out));
            free(out);
        }
    } else if (json_is_object(json_object_get(m, "result"))) {
        f->answered = true;
        cc_req_answer_raw_result(f->r, json_object_get(m, "result"));
    } else if (json_is_object(json_object_get(m, "error"))) {
        json_t *e = json_object_get(m, "error");
        f->answered = true;
        const char *msg = json_string_value(json_object_get(e, "message"));
        cc_req_answer_rpc_error(f->r, (int)json_integer_value(json_object_get(e, "code")),
                                msg ? msg : "error from the session's owner", json_object_get(e, "data"));
    }
    json_decref(m);
}

/* Complete SSE events in the buffer: each "data:" line is one message. */
static void drain_events(struct forward *f, bool at_end) {
    for (;;) {
        char *end = memmem(f->body.data, f->body.len, "\n\n", 2);
        size_t n = end ? (size_t)(end - f->body.data) + 2 : at_end ? f->body.len : 0;
        if (!n) return;
        char *p = f->body.data, *stop = p + n;
        while (p < stop) {
            char *nl = memchr(p, '\n', (size_t)(stop - p));
            char *le = nl ? nl : stop;
            if (le - p > 5 && strncmp(p, "data:", 5) == 0) {
                char *d = p + 5;
                if (*d == ' ') d++;
                relay(f, d, (size_t)(le - d));
            }
            p = le + 1;
        }
        memmove(f->body.data, f->body.data + n, f->body.len - n);
        f->body.len -= n;
        if (!f->body.len) return;
    }
}

static void on_chunk(struct evhttp_request *req, void *arg) {
    struct forward *f = arg;
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t n = evbuffer_get_length(in);
    if (f->body.len + n > MAX_ANSWER_BYTES) {
        evbuffer_drain(in, n);
        return;
    }
    cc_sb_reserve(&f->body, n);
    evbuffer_remove(in, f->body.data + f->body.len, n);
    f->body.len += n;
    if (f->sse) drain_events(f, false);
}

static int on_headers(struct evhttp_request *req, void *arg) {
    struct forward *f = arg;
    const char *ct = evhttp_find_header(evhttp_request_get_input_headers(req), "Content-Type");
    f->sse = ct && strncmp(ct, "text/event-stream", 17) == 0;
    return 0;
}

static void on_done(struct evhttp_request *req, void *arg) {
    struct forward *f = arg;
    int status = req ? evhttp_request_get_response_code(req) : 0;
    if (req && status) {
        struct evbuffer *in = evhttp_request_get_input_buffer(req);
        size_t n = evbuffer_get_length(in);
        if (n && f->body.len + n <= MAX_ANSWER_BYTES) {
            cc_sb_reserve(&f->body, n);
            evbuffer_remove(in, f->body.data + f->body.len, n);
            f->body.len += n;
        }
        if (f->sse) drain_events(f, true);
        else relay(f, f->body.data ? f->body.data : "", f->body.len);
    }
    if (still_waiting(f)) {
        char why[160];
        if (status) snprintf(why, sizeof why, "it answered HTTP %d without a result", status);
        else snprintf(why, sizeof why, "it cannot be reached");
        owner_gone(f->srv, f->r, f->sid, f->owner, f->url, why, status == 0);
    }
    forward_free(f);
}

int cc_cluster_server_alive(struct cc_server *srv, const char *owner, double *age) {
    struct cc_runs *rs = srv->runs;
    if (!rs) return -1;
    if (cc_cluster_upkeep_server_age(cc_cluster_upkeep_of(rs), owner, age) != 1 &&
        cc_run_store_server_age(rs->store, owner, age) != 1)
        return -1;
    return *age <= cc_cluster_lease_s();
}

static char *request_body(json_t *params) {
    json_t *msg = json_pack("{s:s,s:i,s:s,s:O}", "jsonrpc", "2.0", "id", 1, "method", "tools/call", "params", params);
    char *text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
    json_decref(msg);
    return text;
}

static int send_forward(struct forward *f, json_t *params) {
    struct evhttp_uri *u = evhttp_uri_parse(f->url);
    const char *host = u ? evhttp_uri_get_host(u) : NULL;
    int port = u ? evhttp_uri_get_port(u) : -1;
    const char *path = u && evhttp_uri_get_path(u) && *evhttp_uri_get_path(u) ? evhttp_uri_get_path(u) : "/mcp";
    char *body = request_body(params);
    int rc = -1;
    struct evhttp_request *req = NULL;
    if (host && body && (f->evcon = evhttp_connection_base_new(f->srv->base, NULL, host, port > 0 ? port : 80)) &&
        (req = evhttp_request_new(on_done, f))) {
        evhttp_request_set_header_cb(req, on_headers);
        evhttp_request_set_chunked_cb(req, on_chunk);
        struct evkeyvalq *h = evhttp_request_get_output_headers(req);
        char hostport[300];
        snprintf(hostport, sizeof hostport, "%s:%d", host, port > 0 ? port : 80);
        evhttp_add_header(h, "Host", hostport);
        evhttp_add_header(h, "Content-Type", "application/json");
        evhttp_add_header(h, "Accept", "application/json, text/event-stream");
        evhttp_add_header(h, "MCP-Protocol-Version", CC_MCP_STATELESS_VERSION);
        evhttp_add_header(h, "Mcp-Method", "tools/call");
        evhttp_add_header(h, "Mcp-Name", json_string_value(json_object_get(params, "name")));
        const char *token = cc_text(CC_TEXT_CLUSTER_TOKEN); /* forwarding only with one (below) */
        if (token) evhttp_add_header(h, CC_CLUSTER_TOKEN_HEADER, token);
        const char *bearer = cc_text(CC_TEXT_HTTP_TOKEN);
        if (bearer) {
            char auth[1100];
            snprintf(auth, sizeof auth, "Bearer %.1024s", bearer);
            evhttp_add_header(h, "Authorization", auth);
        }
        evbuffer_add(evhttp_request_get_output_buffer(req), body, strlen(body));
        rc = evhttp_make_request(f->evcon, req, EVHTTP_REQ_POST, path); /* frees req on failure */
    }
    free(body);
    if (u) evhttp_uri_free(u);
    return rc;
}

bool cc_cluster_forward(struct cc_server *srv, struct cc_req *r, json_t *params, json_t *args) {
    struct cc_sessions *ss = srv->sessions;
    const char *sid = json_string_value(json_object_get(args, "session_id"));
    if (!sid || !ss || !ss->store || !cc_session_store_shared(ss->store)) return false;
    struct cc_session_rec rec;
    if (cc_session_store_get(ss->store, sid, &rec) != 1 || !rec.owner[0] ||
        strcmp(rec.owner, cc_state_server_id()) == 0)
        return false;
    if (rec.lost[0]) {
        owner_gone(srv, r, sid, rec.owner, rec.owner_url, rec.lost, false);
        return true;
    }
    double age = 0;
    if (cc_cluster_server_alive(srv, rec.owner, &age) == 0) {
        char why[128];
        snprintf(why, sizeof why, "its last heartbeat was %.0f s ago", age);
        owner_gone(srv, r, sid, rec.owner, rec.owner_url, why, true);
        return true;
    }
    const char *token = cc_text(CC_TEXT_CLUSTER_TOKEN);
    if (!rec.owner_url[0] || !token) {
        json_t *e = cc_err("worker_failure", "session '%s' lives on server %s and cannot be reached from here: %s", sid,
                           rec.owner, rec.owner_url[0] ? "CODECALC_CLUSTER_TOKEN is not set on this server"
                                                       : "that server serves no HTTP (no internal URL)");
        json_object_set_new(e, "session_id", json_string(sid));
        json_object_set_new(e, "contract_version", json_string(CC_CONTRACT_VERSION));
        char *text = json_dumps(e, JSON_COMPACT);
        json_decref(e);
        cc_req_answer_result(r, text ? text : "{}", text ? strlen(text) : 2, false);
        free(text);
        return true;
    }
    struct forward *f = calloc(1, sizeof *f);
    if (!f) {
        cc_req_answer_fail(r, "internal", "out of memory forwarding the call to the session's owner");
        return true;
    }
    f->srv = srv;
    f->r = r;
    f->wid = r->wid;
    cc_sb_init(&f->body);
    snprintf(f->sid, sizeof f->sid, "%s", sid);
    snprintf(f->owner, sizeof f->owner, "%s", rec.owner);
    snprintf(f->url, sizeof f->url, "%s", rec.owner_url);
    if (send_forward(f, params) < 0) {
        owner_gone(srv, r, sid, rec.owner, rec.owner_url, "the request to it could not be sent", false);
        forward_free(f);
    }
    return true;
}
