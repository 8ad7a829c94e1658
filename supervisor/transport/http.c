/* Streamable HTTP transport: request checks, the two protocol eras, the
 * per-POST exchange (a short-lived cc_conn), the 2025 GET stream, and the
 * SIGTERM drain. See supervisor/transport/http.h for the outline. */
#include "supervisor/transport/http.h"
#include "protocol/text_knob.h"

#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "protocol/json_convert.h"
#include "protocol/knob.h"
#include "protocol/strbuf.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/transport/http_conncap.h"
#include "supervisor/transport/id_sniff.h"
#include "supervisor/transport/mcp_session.h"
#include "supervisor/transport/sse.h"
#include "supervisor/log.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/mcp/discover.h"
#include "supervisor/mcp/logging.h"
#include "supervisor/mcp/stateless.h"
#include "supervisor/metrics/http_routes.h"
#include "supervisor/pool.h"
#include "supervisor/server.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define HEADER_MISMATCH (-32001)
#define TICK_S 15
/* The accept queue a burst of new connections may fill (capped by
 * net.core.somaxconn). */
#define LISTEN_BACKLOG 4096

struct cc_http_transport;

/* Hang-up detection on a request's socket while evhttp is not reading it
 * (see watch_peer). */
struct peer_watch {
    struct event *ev;
    event_callback_fn on_hangup; /* called as on_hangup(fd, EV_CLOSED, arg) */
    void *arg;
};


/* One POST carrying a JSON-RPC request: its own connection, so the answer
 * and any progress notifications go back on this HTTP request only. */
struct cc_http_exchange {
    struct cc_conn conn;
    struct cc_http_transport *t;
    struct evhttp_request *req;      /* NULL once answered or the peer left */
    struct cc_mcp_session *sess;    /* NULL when stateless or the session ended */
    json_t *rpc_id;                  /* owned */
    char method[48];
    bool stateless, want_sse, done;
    bool in_dispatch;                /* inside evhttp's request callback */
    bool notes_dropped;              /* told the log it drops notifications */
    struct cc_sse sse;
    struct peer_watch watch;         /* peer hang-up while we work */
    struct cc_http_exchange *sprev, *snext; /* the session's list */
    struct cc_http_exchange *tprev, *tnext; /* the transport's list */
};

/* The GET stream of a 2025-era session (server-to-client messages). */
struct get_stream {
    struct cc_http_transport *t;
    struct cc_mcp_session *sess;
    struct cc_sse sse;
    struct peer_watch watch;
    struct get_stream *prev, *next;
};

struct cc_http_transport {
    struct cc_server *srv;
    struct evhttp *http;
    struct evhttp_bound_socket *sock;
    struct cc_mcp_sessions mcp_sessions;
    struct cc_http_exchange *exchanges;
    struct get_stream *streams;
    const char *token;               /* CODECALC_HTTP_TOKEN or NULL */
    bool loopback_bind;
    bool draining;
    int64_t grace_ms;
    size_t max_body;                 /* CODECALC_MAX_MESSAGE_BYTES */
    size_t backlog_max;              /* CODECALC_HTTP_STREAM_BACKLOG_BYTES */
    long streams_closed_slow;        /* GET streams closed for an unread backlog */
    long notes_dropped;              /* POST SSE notifications dropped for one */
    struct cc_log_sink log_sink;     /* MCP log records to sessions' GET streams */
    struct cc_http_conncap conncap;  /* CODECALC_HTTP_MAX_CONNECTIONS */
    struct event *sigterm_ev, *sigint_ev, *tick_ev, *drain_ev;
};

/* ---- small helpers ------------------------------------------------------ */

bool cc_http_host_is_loopback(const char *host, size_t len) {
    char buf[64];
    if (len >= 2 && host[0] == '[' && host[len - 1] == ']') host++, len -= 2;
    if (len == 0 || len >= sizeof buf) return false;
    memcpy(buf, host, len);
    buf[len] = '\0';
    if (strcasecmp(buf, "localhost") == 0 || strcasecmp(buf, "ip6-localhost") == 0) return true;
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, buf, &a4) == 1) return (ntohl(a4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, buf, &a6) == 1) return IN6_IS_ADDR_LOOPBACK(&a6);
    return false;
}

/* The host part of "host[:port]" or "[v6]:port". */
static size_t host_part(const char *hp, const char **start) {
    *start = hp;
    if (hp[0] == '[') {
        const char *close = strchr(hp, ']');
        return close ? (size_t)(close - hp) + 1 : strlen(hp);
    }
    const char *colon = strchr(hp, ':');
    return colon ? (size_t)(colon - hp) : strlen(hp);
}

bool cc_http_accepts(const char *accept, const char *type) {
    if (!accept) return false;
    if (strcasestr(accept, type) || strstr(accept, "*/*")) return true;
    /* A wildcard of the same family ("text/ *", "application/ *") admits it too. */
    char family[32];
    const char *slash = strchr(type, '/');
    size_t n = slash ? (size_t)(slash - type) : 0;
    if (n == 0 || n + 3 > sizeof family) return false;
    memcpy(family, type, n);
    memcpy(family + n, "/*", 3);
    return strcasestr(accept, family) != NULL;
}

static const char *header(struct evhttp_request *req, const char *name) {
    return evhttp_find_header(evhttp_request_get_input_headers(req), name);
}

/* evhttp reads nothing while a request is being answered, so it would not
 * notice a client that hangs up during a long call; we watch the socket
 * ourselves. The watch asks for readability, not EPOLLRDHUP: evhttp has just
 * dropped its own read interest and takes it back once the answer is out,
 * so within one loop turn the two cancel out and the descriptor's epoll set
 * never changes (two epoll_ctl calls saved per request). A readable socket
 * is then either the peer's EOF (hang-up) or more data sent early: for that
 * rare case we fall back to EV_CLOSED, which consumes nothing and does not
 * fire again and again. */
static void on_peer_readable(evutil_socket_t fd, short what, void *arg) {
    (void)what;
    struct peer_watch *w = arg;
    char c;
    ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n > 0) {
        struct event_base *base = event_get_base(w->ev);
        event_free(w->ev);
        w->ev = NULL;
        if (!(event_base_get_features(base) & EV_FEATURE_EARLY_CLOSE)) return;
        w->ev = event_new(base, fd, EV_CLOSED, w->on_hangup, w->arg);
        if (w->ev && event_add(w->ev, NULL) < 0) {
            event_free(w->ev);
            w->ev = NULL;
        }
        return;
    }
    /* EOF or a reset: the client is gone. */
    w->on_hangup(fd, EV_CLOSED, w->arg);
}

static void watch_peer(struct peer_watch *w, struct evhttp_request *req, event_callback_fn cb, void *arg) {
    w->ev = NULL;
    w->on_hangup = cb;
    w->arg = arg;
    struct evhttp_connection *evcon = evhttp_request_get_connection(req);
    struct bufferevent *bev = evcon ? evhttp_connection_get_bufferevent(evcon) : NULL;
    evutil_socket_t fd = bev ? bufferevent_getfd(bev) : -1;
    struct event_base *base = evcon ? evhttp_connection_get_base(evcon) : NULL;
    if (fd < 0 || !base) return;
    w->ev = event_new(base, fd, EV_READ | EV_PERSIST, on_peer_readable, w);
    if (w->ev && event_add(w->ev, NULL) < 0) {
        event_free(w->ev);
        w->ev = NULL;
    }
}

static void unwatch(struct peer_watch *w) {
    if (w->ev) event_free(w->ev);
    w->ev = NULL;
}

/* Compare without an early exit, so the time taken does not reveal how
 * much of a guessed token was right. */
static bool token_equal(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    unsigned char diff = la != lb;
    for (size_t i = 0; i < lb; i++) diff |= (unsigned char)(a[i % (la ? la : 1)] ^ b[i]);
    return diff == 0;
}

/* ---- plain replies -------------------------------------------------------- */

/* The body goes straight into the request's own output buffer: no
 * intermediate evbuffer, one copy. */
static void reply_json(struct evhttp_request *req, int status, const char *body, size_t len) {
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", "application/json");
    evbuffer_add(evhttp_request_get_output_buffer(req), body, len);
    evhttp_send_reply(req, status, status == 200 ? "OK" : NULL, NULL);
}

/* A status code with a JSON-RPC error body (id null): what a client library
 * shows its user when the HTTP layer refused the message. */
static void reply_error(struct evhttp_request *req, int status, int code, const char *msg,
                        const json_t *id, const json_t *data) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_puts(&sb, "{\"jsonrpc\":\"2.0\",\"id\":");
    if (id) cc_json_emit(&sb, id);
    else cc_sb_puts(&sb, "null");
    cc_sb_printf(&sb, ",\"error\":{\"code\":%d,\"message\":", code);
    cc_sb_json_string(&sb, msg, strlen(msg));
    if (data) {
        cc_sb_puts(&sb, ",\"data\":");
        cc_json_emit(&sb, data);
    }
    cc_sb_puts(&sb, "}}");
    reply_json(req, status, sb.data, sb.len);
    cc_sb_free(&sb);
}

static void reply_empty(struct evhttp_request *req, int status) {
    evhttp_send_reply(req, status, NULL, NULL);
}

/* ---- exchanges -------------------------------------------------------------- */

static void maybe_finish_drain(struct cc_http_transport *t);

static void on_peer_close(struct evhttp_connection *evcon, void *arg);

static void link_exchange(struct cc_http_exchange *ex) {
    struct cc_http_transport *t = ex->t;
    ex->tnext = t->exchanges;
    if (t->exchanges) t->exchanges->tprev = ex;
    t->exchanges = ex;
    if (ex->sess) {
        ex->snext = ex->sess->exchanges;
        if (ex->sess->exchanges) ex->sess->exchanges->sprev = ex;
        ex->sess->exchanges = ex;
    }
}

static void unlink_exchange(struct cc_http_exchange *ex) {
    struct cc_http_transport *t = ex->t;
    if (ex->tprev) ex->tprev->tnext = ex->tnext;
    else if (t->exchanges == ex) t->exchanges = ex->tnext;
    if (ex->tnext) ex->tnext->tprev = ex->tprev;
    ex->tprev = ex->tnext = NULL;
    if (ex->sess) {
        if (ex->sprev) ex->sprev->snext = ex->snext;
        else if (ex->sess->exchanges == ex) ex->sess->exchanges = ex->snext;
        if (ex->snext) ex->snext->sprev = ex->sprev;
        ex->sess->last_used_ms = cc_now_ms();
    }
    ex->sprev = ex->snext = NULL;
    ex->sess = NULL;
}

/* Stop watching the HTTP connection and hand back the request; afterwards
 * nothing of ours refers to it. */
static struct evhttp_request *take_request(struct cc_http_exchange *ex) {
    struct evhttp_request *req = ex->req;
    ex->req = NULL;
    unwatch(&ex->watch);
    if (req) {
        struct evhttp_connection *evcon = evhttp_request_get_connection(req);
        if (evcon) evhttp_connection_set_closecb(evcon, NULL, NULL);
    }
    return req;
}

/* The exchange is over (answered, cancelled or abandoned): cancel whatever
 * is still running for it and drop the owner's reference. Idempotent. */
static void exchange_done(struct cc_http_exchange *ex) {
    if (ex->done) return;
    ex->done = true;
    struct cc_http_transport *t = ex->t;
    unlink_exchange(ex);
    cc_conn_close(&ex->conn);
    maybe_finish_drain(t);
}

/* Push the reply now instead of waiting for the loop to report the socket
 * writable: that wait costs two epoll_ctl calls and a loop turn per request.
 * Socket bufferevents keep the head of their output frozen except while
 * they write, so we do the same. When everything left, we run the write
 * callback ourselves (evhttp then finishes the request and starts reading
 * the next one, all in this loop turn); anything left over is written by
 * the bufferevent as usual. Only for answers that arrive from a worker:
 * inside evhttp's own request callback the request must outlive us. */
static void flush_now(struct evhttp_connection *evcon) {
    struct bufferevent *bev = evcon ? evhttp_connection_get_bufferevent(evcon) : NULL;
    evutil_socket_t fd = bev ? bufferevent_getfd(bev) : -1;
    if (fd < 0) return;
    struct evbuffer *out = bufferevent_get_output(bev);
    evbuffer_unfreeze(out, 1);
    int n = evbuffer_write(out, fd);
    evbuffer_freeze(out, 1);
    if (n > 0 && evbuffer_get_length(out) == 0) bufferevent_trigger(bev, EV_WRITE, 0);
}

static void send_sse_final(struct cc_http_exchange *ex, const char *msg, size_t keep,
                           const char *suffix) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_put(&sb, msg, keep);
    cc_sb_puts(&sb, suffix);
    cc_sse_send(&ex->sse, sb.data, sb.len);
    cc_sb_free(&sb);
    take_request(ex);
    cc_sse_end(&ex->sse);
}

/* Content-Type, the kept part of msg plus the suffix, and the reply. */
static void reply_body(struct evhttp_request *req, int status, const char *msg, size_t keep,
                       const char *suffix) {
    struct evbuffer *out = evhttp_request_get_output_buffer(req);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type", "application/json");
    evbuffer_add(out, msg, keep);
    evbuffer_add(out, suffix, strlen(suffix));
    evhttp_send_reply(req, status, status == 200 ? "OK" : NULL, NULL);
}

static void note_gone(struct evhttp_connection *evcon, void *arg) {
    (void)evcon;
    *(bool *)arg = true;
}

static void send_json_final(struct cc_http_exchange *ex, int status, const char *msg, size_t keep,
                            const char *suffix) {
    if (ex->in_dispatch) {
        /* Answered inside evhttp's callback: evhttp writes it later. */
        struct evhttp_request *req = take_request(ex);
        reply_body(req, status, msg, keep, suffix);
        return;
    }
    /* Our hang-up watch goes only after flush_now gave evhttp its read
     * interest back, so the descriptor's epoll set never changes. flush_now
     * may end the connection (Connection: close), which note_gone tells. */
    struct evhttp_request *req = ex->req;
    ex->req = NULL;
    struct evhttp_connection *evcon = evhttp_request_get_connection(req);
    bool gone = false;
    if (evcon) evhttp_connection_set_closecb(evcon, note_gone, &gone);
    reply_body(req, status, msg, keep, suffix);
    flush_now(evcon);
    if (evcon && !gone) evhttp_connection_set_closecb(evcon, NULL, NULL);
    unwatch(&ex->watch);
}

/* A client that stops reading a POST's SSE stream would make the server
 * hold every notification sent on it: past backlog_max bytes unread,
 * notifications (progress, log records) are dropped; the answer itself is
 * always sent. */
static void drop_note(struct cc_http_exchange *ex) {
    ex->t->notes_dropped++;
    if (ex->notes_dropped) return;
    ex->notes_dropped = true;
    cc_log(CC_LOG_WARNING, "http: a client left over %zu bytes of its POST's event stream unread; "
           "notifications on it are dropped until it reads (its answer will still be sent)",
           ex->t->backlog_max);
}

static void ex_send(struct cc_conn *c, const char *msg, size_t len) {
    struct cc_http_exchange *ex = c->transport;
    if (!ex->req || ex->done) return;
    bool final = cc_rpc_is_response(msg, len);
    if (!final) {
        /* A notification can only travel on an SSE stream. */
        if (!ex->want_sse) return;
        if (!ex->sse.started) cc_sse_start(&ex->sse, ex->req);
        if (cc_sse_backlog(&ex->sse) > ex->t->backlog_max) {
            drop_note(ex);
            return;
        }
        cc_sse_send(&ex->sse, msg, len);
        return;
    }
    if (ex->sess) {
        ex->sess->log_level = c->log_level;
        ex->sess->log_subscribed |= c->log_subscribed;
    }
    int status = 200;
    char suffix[160] = "";
    size_t keep = ex->stateless ? cc_stateless_splice(ex->method, msg, len, suffix, &status) : len;
    if (ex->sse.started) send_sse_final(ex, msg, keep, suffix);
    else send_json_final(ex, status, msg, keep, suffix);
    exchange_done(ex);
}

static void ex_release(struct cc_conn *c) {
    struct cc_http_exchange *ex = c->transport;
    json_decref(ex->rpc_id);
    free(ex);
}

static const struct cc_conn_ops exchange_ops = {ex_send, ex_release};

/* The client closed the connection while its request was open: for a call
 * in flight that is a cancellation (the core stops the worker). */
static void on_peer_close(struct evhttp_connection *evcon, void *arg) {
    (void)evcon;
    struct cc_http_exchange *ex = arg;
    ex->req = NULL;
    unwatch(&ex->watch);
    cc_sse_detach(&ex->sse);
    cc_log(CC_LOG_DEBUG, "http: client left before its answer; cancelling");
    exchange_done(ex);
}

/* Our watcher saw the hang-up first: drop the connection, which makes
 * evhttp call on_peer_close and free the request. */
static void on_peer_hangup(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_http_exchange *ex = arg;
    unwatch(&ex->watch);
    struct evhttp_connection *evcon = ex->req ? evhttp_request_get_connection(ex->req) : NULL;
    if (evcon) evhttp_connection_free(evcon);
    else on_peer_close(NULL, ex);
}

static struct cc_http_exchange *exchange_new(struct cc_http_transport *t, struct evhttp_request *req,
                                             struct cc_mcp_session *sess, json_t *id,
                                             const char *method) {
    struct cc_http_exchange *ex = calloc(1, sizeof *ex);
    if (!ex) return NULL;
    cc_conn_init(&ex->conn, t->srv, &exchange_ops);
    ex->conn.transport = ex;
    ex->conn.initialized = true;
    ex->t = t;
    ex->req = req;
    ex->sess = sess;
    ex->rpc_id = json_incref(id);
    snprintf(ex->method, sizeof ex->method, "%s", method);
    if (sess) {
        snprintf(ex->conn.protocol_version, sizeof ex->conn.protocol_version, "%s",
                 sess->protocol_version);
        ex->conn.log_level = sess->log_level;
        ex->conn.log_subscribed = sess->log_subscribed;
    }
    struct evhttp_connection *evcon = evhttp_request_get_connection(req);
    if (evcon) evhttp_connection_set_closecb(evcon, on_peer_close, ex);
    watch_peer(&ex->watch, req, on_peer_hangup, ex);
    link_exchange(ex);
    return ex;
}

/* Answer an exchange that will never get its real answer. */
static void exchange_abort(struct cc_http_exchange *ex, int code, const char *msg) {
    struct evhttp_request *req = take_request(ex);
    if (req) {
        if (ex->sse.started) {
            struct cc_strbuf sb;
            cc_sb_init(&sb);
            cc_sb_puts(&sb, "{\"jsonrpc\":\"2.0\",\"id\":");
            cc_json_emit(&sb, ex->rpc_id);
            cc_sb_printf(&sb, ",\"error\":{\"code\":%d,\"message\":", code);
            cc_sb_json_string(&sb, msg, strlen(msg));
            cc_sb_puts(&sb, "}}");
            ex->sse.req = req;
            cc_sse_send(&ex->sse, sb.data, sb.len);
            cc_sse_end(&ex->sse);
            cc_sb_free(&sb);
        } else {
            reply_error(req, 200, code, msg, ex->rpc_id, NULL);
        }
    }
    exchange_done(ex);
}

/* ---- request checks shared by every method ---------------------------------- */

/* DNS-rebinding protection: a browser page from another site can reach a
 * loopback server only through a Host or Origin that is not ours. */
static bool origin_allowed(struct cc_http_transport *t, struct evhttp_request *req) {
    const char *host = header(req, "Host");
    const char *hs = NULL;
    size_t hl = host ? host_part(host, &hs) : 0;
    if (t->loopback_bind && host && !cc_http_host_is_loopback(hs, hl)) return false;
    const char *origin = header(req, "Origin");
    if (!origin) return true; /* not a browser */
    const char *sep = strstr(origin, "://");
    if (!sep) return false;
    const char *os;
    size_t ol = host_part(sep + 3, &os);
    if (cc_http_host_is_loopback(os, ol)) return true;
    return host && ol == hl && strncasecmp(os, hs, ol) == 0;
}

static bool authorized(struct cc_http_transport *t, struct evhttp_request *req) {
    if (!t->token) return true;
    const char *auth = header(req, "Authorization");
    if (!auth || strncasecmp(auth, "Bearer ", 7) != 0) return false;
    return token_equal(t->token, auth + 7);
}

/* ---- MCP sessions (Mcp-Session-Id; not workspace sessions) ---------------------- */

static void end_get_stream(struct get_stream *g, bool peer_gone);

/* Cancel what a session still has running and forget it. */
static void end_mcp_session(struct cc_http_transport *t, struct cc_mcp_session *s) {
    while (s->exchanges) exchange_abort(s->exchanges, -32603, "the session was terminated");
    if (s->get_stream) end_get_stream(s->get_stream, false);
    cc_mcp_session_remove(&t->mcp_sessions, s);
}

/* 400 when the id is missing, 404 when it names no live session. */
static struct cc_mcp_session *mcp_session_of(struct cc_http_transport *t, struct evhttp_request *req) {
    const char *sid = header(req, "Mcp-Session-Id");
    if (!sid) {
        reply_error(req, 400, -32600, "Bad Request: Mcp-Session-Id header is required", NULL, NULL);
        return NULL;
    }
    struct cc_mcp_session *s = cc_mcp_session_find(&t->mcp_sessions, sid, cc_now_ms());
    if (!s) reply_error(req, 404, -32001, "Session not found", NULL, NULL);
    return s;
}

/* ---- POST --------------------------------------------------------------------- */

struct rpc_msg {
    json_t *root;        /* owned */
    json_t *id;          /* borrowed from root; NULL for a notification */
    const char *method;  /* NULL for a client response */
    json_t *params;      /* borrowed, may be NULL */
};

/* Parse and validate one JSON-RPC message; on failure the reply is sent. */
static int parse_message(struct evhttp_request *req, struct rpc_msg *m) {
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t len = evbuffer_get_length(in);
    const char *text = len ? (const char *)evbuffer_pullup(in, -1) : "";
    json_error_t je;
    memset(m, 0, sizeof *m);
    m->root = cc_json_parse_client(text, len, &je);
    if (!m->root) {
        char why[JSON_ERROR_TEXT_LENGTH + 128];
        int code;
        json_t *id = cc_rpc_parse_failure(text, len, &je, &code, why, sizeof why);
        reply_error(req, 400, code, why, id, NULL);
        json_decref(id);
        return -1;
    }
    if (json_is_array(m->root)) {
        reply_error(req, 400, -32600, "Invalid Request: JSON-RPC batches are not supported", NULL, NULL);
        return -1;
    }
    m->id = json_object_get(m->root, "id");
    m->method = json_string_value(json_object_get(m->root, "method"));
    m->params = json_object_get(m->root, "params");
    bool id_ok = !m->id || json_is_string(m->id) || json_is_integer(m->id);
    bool has_reply = json_object_get(m->root, "result") || json_object_get(m->root, "error");
    if (!json_is_object(m->root) || !id_ok || (!m->method && !has_reply) ||
        (m->params && !json_is_object(m->params))) {
        reply_error(req, 400, -32600, "Invalid Request: not a JSON-RPC 2.0 message", NULL, NULL);
        return -1;
    }
    return 0;
}

static const char *meta_version(const struct rpc_msg *m) {
    json_t *meta = json_object_get(m->params, "_meta");
    return json_string_value(json_object_get(meta, META_VERSION));
}

/* The 2026-07-28 revision: the client says so in the version header or in
 * the request's _meta; server/discover exists only there. */
static bool is_stateless(struct evhttp_request *req, const struct rpc_msg *m) {
    const char *hv = header(req, "MCP-Protocol-Version");
    if (hv && strcmp(hv, CC_MCP_STATELESS_VERSION) == 0) return true;
    if (meta_version(m)) return true;
    return m->method && strcmp(m->method, "server/discover") == 0;
}

static void dispatch(struct cc_http_exchange *ex, const struct rpc_msg *m) {
    struct cc_http_transport *t = ex->t;
    cc_conn_ref(&ex->conn); /* ex must outlive a synchronous answer */
    ex->in_dispatch = true;
    /* Checked in cc_http_transport_handle: a present token header is the cluster's. */
    ex->conn.forwarded = ex->req && header(ex->req, CC_CLUSTER_TOKEN_HEADER) != NULL;
    cc_mcp_dispatch(t->srv, &ex->conn, m->id, m->method, m->params);
    ex->in_dispatch = false;
    if (!ex->done && ex->req && ex->want_sse && !ex->sse.started) cc_sse_start(&ex->sse, ex->req);
    cc_conn_unref(&ex->conn);
}

static bool wants_progress(const struct rpc_msg *m) {
    json_t *meta = json_object_get(m->params, "_meta");
    return json_object_get(meta, "progressToken") != NULL;
}

/* A request: run it on its own exchange. */
static void post_request(struct cc_http_transport *t, struct evhttp_request *req,
                         struct cc_mcp_session *sess, const struct rpc_msg *m, bool stateless) {
    /* Ids name requests of the session: a cancellation for a reused one
     * could stop the wrong call. */
    for (struct cc_http_exchange *o = sess ? sess->exchanges : NULL; o; o = o->snext)
        if (!o->done && json_equal(o->rpc_id, m->id)) {
            reply_error(req, 400, -32600, CC_RPC_ID_IN_USE, m->id, NULL);
            return;
        }
    struct cc_http_exchange *ex = exchange_new(t, req, sess, m->id, m->method);
    if (!ex) {
        reply_error(req, 503, -32603, "Internal error: out of memory", m->id, NULL);
        return;
    }
    ex->stateless = stateless;
    if (stateless)
        snprintf(ex->conn.protocol_version, sizeof ex->conn.protocol_version, "%s",
                 CC_MCP_STATELESS_VERSION);
    ex->want_sse = cc_http_accepts(header(req, "Accept"), "text/event-stream") && wants_progress(m);
    dispatch(ex, m);
}

/* Close the exchange's SSE stream with no further message. */
static void end_silently(struct cc_http_exchange *ex) {
    struct evhttp_request *req = take_request(ex);
    if (req) {
        ex->sse.req = req;
        cc_sse_end(&ex->sse);
    }
    exchange_done(ex);
}

/* notifications/cancelled names a request of this session that another POST
 * carries: cancel it on that POST's connection, then close that POST. */
static void cancel_in_session(struct cc_mcp_session *sess, const struct rpc_msg *m,
                              const char *body, size_t len) {
    json_t *rid = json_object_get(m->params, "requestId");
    for (struct cc_http_exchange *ex = sess ? sess->exchanges : NULL; rid && ex; ex = ex->snext) {
        if (!json_equal(ex->rpc_id, rid)) continue;
        cc_server_handle(ex->t->srv, &ex->conn, body, len);
        /* MCP: a cancelled request gets no response. An open SSE stream just
         * ends; a plain JSON POST must still be answered, so it gets the
         * -32800 error. */
        if (ex->sse.started) end_silently(ex);
        else exchange_abort(ex, -32800, "Request cancelled");
        return;
    }
}

/* A notification or a client response: nothing is answered but 202. */
static void post_notification(struct cc_http_transport *t, struct evhttp_request *req,
                              struct cc_mcp_session *sess, const struct rpc_msg *m) {
    if (m->method && strcmp(m->method, "notifications/cancelled") == 0) {
        struct evbuffer *in = evhttp_request_get_input_buffer(req);
        size_t len = evbuffer_get_length(in);
        cancel_in_session(sess, m, (const char *)evbuffer_pullup(in, -1), len);
    } else if (m->method) {
        /* Other notifications change no state of ours; let the core see them. */
        struct cc_http_exchange *ex = exchange_new(t, req, sess, json_null(), m->method);
        if (ex) {
            /* Nothing may answer on this request but the 202 below. */
            take_request(ex);
            cc_conn_ref(&ex->conn);
            cc_mcp_dispatch(t->srv, &ex->conn, NULL, m->method, m->params);
            exchange_done(ex);
            cc_conn_unref(&ex->conn);
        }
    }
    reply_empty(req, 202);
}

static void post_initialize(struct cc_http_transport *t, struct evhttp_request *req,
                            const struct rpc_msg *m) {
    if (!m->id) {
        reply_error(req, 400, -32600, "Invalid Request: initialize must be a request", NULL, NULL);
        return;
    }
    struct cc_mcp_session *s = cc_mcp_session_new(&t->mcp_sessions, cc_now_ms());
    if (!s) {
        reply_error(req, 503, -32603, "Server busy: too many MCP sessions", m->id, NULL);
        return;
    }
    evhttp_add_header(evhttp_request_get_output_headers(req), "Mcp-Session-Id", s->id);
    struct cc_http_exchange *ex = exchange_new(t, req, s, m->id, m->method);
    if (!ex) {
        cc_mcp_session_remove(&t->mcp_sessions, s);
        reply_error(req, 503, -32603, "Internal error: out of memory", m->id, NULL);
        return;
    }
    cc_conn_ref(&ex->conn);
    dispatch(ex, m);
    snprintf(s->protocol_version, sizeof s->protocol_version, "%s", ex->conn.protocol_version);
    cc_conn_unref(&ex->conn);
}

/* Headers the stateless revision requires, checked against the body. */
static int check_stateless_headers(struct evhttp_request *req, const struct rpc_msg *m) {
    const char *hv = header(req, "MCP-Protocol-Version");
    const char *mv = meta_version(m);
    if (!hv || (mv && strcmp(hv, mv) != 0)) {
        reply_error(req, 400, HEADER_MISMATCH,
                    "Bad Request: MCP-Protocol-Version header is missing or differs from _meta", m->id, NULL);
        return -1;
    }
    if (!cc_mcp_version_supported(hv)) {
        json_t *data = json_pack("{s:o,s:s}", "supported", cc_mcp_supported_versions(), "requested", hv);
        reply_error(req, 400, -32602, "Unsupported protocol version", m->id, data);
        json_decref(data);
        return -1;
    }
    if (!m->method) return 0;
    const char *hm = header(req, "Mcp-Method");
    if (!hm || strcmp(hm, m->method) != 0) {
        reply_error(req, 400, HEADER_MISMATCH, "Bad Request: Mcp-Method header is missing or differs from the body",
                    m->id, NULL);
        return -1;
    }
    const char *key = strcmp(m->method, "tools/call") == 0 || strcmp(m->method, "prompts/get") == 0 ? "name"
                      : strcmp(m->method, "resources/read") == 0                                 ? "uri"
                                                                                                 : NULL;
    const char *want = key ? json_string_value(json_object_get(m->params, key)) : NULL;
    const char *hn = header(req, "Mcp-Name");
    if (want && (!hn || strcmp(hn, want) != 0)) {
        reply_error(req, 400, HEADER_MISMATCH, "Bad Request: Mcp-Name header is missing or differs from the body",
                    m->id, NULL);
        return -1;
    }
    return 0;
}

static bool json_content_type(struct evhttp_request *req) {
    const char *ct = header(req, "Content-Type");
    return ct && strncasecmp(ct, "application/json", 16) == 0 &&
           (ct[16] == '\0' || ct[16] == ';' || ct[16] == ' ');
}

/* A body past max_body: 413 with a JSON-RPC error addressed to the id read
 * from the body's ends (issue 11 item 14). true when answered. */
static bool too_large(struct cc_http_transport *t, struct evhttp_request *req) {
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t len = evbuffer_get_length(in);
    if (len <= t->max_body) return false;
    char head[4096], tail[4096], msg[200];
    size_t edge = len < sizeof head ? len : sizeof head;
    struct evbuffer_ptr pos;
    evbuffer_copyout(in, head, edge);
    json_t *id = NULL;
    if (evbuffer_ptr_set(in, &pos, len - edge, EVBUFFER_PTR_SET) == 0 &&
        evbuffer_copyout_from(in, &pos, tail, edge) == (ev_ssize_t)edge)
        id = cc_sniff_rpc_id(head, edge, tail, edge);
    snprintf(msg, sizeof msg, "Request Entity Too Large: the body is %zu bytes, over the %zu-byte limit "
             "(CODECALC_MAX_MESSAGE_BYTES)", len, t->max_body);
    reply_error(req, 413, -32600, msg, id, NULL);
    json_decref(id);
    return true;
}

static void handle_post(struct cc_http_transport *t, struct evhttp_request *req) {
    if (!json_content_type(req)) {
        reply_error(req, 415, -32600, "Unsupported Media Type: Content-Type must be application/json", NULL, NULL);
        return;
    }
    const char *accept = header(req, "Accept");
    if (!cc_http_accepts(accept, "application/json") || !cc_http_accepts(accept, "text/event-stream")) {
        reply_error(req, 406, -32600,
                    "Not Acceptable: Accept must list application/json and text/event-stream", NULL, NULL);
        return;
    }
    if (too_large(t, req)) return;
    struct rpc_msg m;
    if (parse_message(req, &m) < 0) {
        json_decref(m.root);
        return;
    }
    bool stateless = is_stateless(req, &m);
    struct cc_mcp_session *sess = NULL;
    if (stateless) {
        if (check_stateless_headers(req, &m) < 0) goto out;
    } else if (m.method && strcmp(m.method, "initialize") == 0) {
        post_initialize(t, req, &m);
        goto out;
    } else {
        const char *hv = header(req, "MCP-Protocol-Version");
        if (hv && !cc_mcp_version_supported(hv)) {
            reply_error(req, 400, -32600, "Bad Request: unsupported MCP-Protocol-Version", NULL, NULL);
            goto out;
        }
        if (!(sess = mcp_session_of(t, req))) goto out;
    }
    if (m.id && m.method) post_request(t, req, sess, &m, stateless);
    else post_notification(t, req, sess, &m);
out:
    json_decref(m.root);
}

/* ---- GET and DELETE (2025 era) ------------------------------------------------- */

static void end_get_stream(struct get_stream *g, bool peer_gone) {
    struct cc_http_transport *t = g->t;
    if (g->prev) g->prev->next = g->next;
    else if (t->streams == g) t->streams = g->next;
    if (g->next) g->next->prev = g->prev;
    if (g->sess) g->sess->get_stream = NULL;
    unwatch(&g->watch);
    if (peer_gone) {
        cc_sse_detach(&g->sse);
    } else if (g->sse.req) {
        struct evhttp_connection *evcon = evhttp_request_get_connection(g->sse.req);
        if (evcon) evhttp_connection_set_closecb(evcon, NULL, NULL);
        cc_sse_end(&g->sse);
    }
    free(g);
}

static void on_get_close(struct evhttp_connection *evcon, void *arg) {
    (void)evcon;
    end_get_stream(arg, true);
}

static void on_get_hangup(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct get_stream *g = arg;
    unwatch(&g->watch);
    struct evhttp_connection *evcon = g->sse.req ? evhttp_request_get_connection(g->sse.req) : NULL;
    if (evcon) evhttp_connection_free(evcon);
    else end_get_stream(g, true);
}

/* A client that opens its GET stream and stops reading would make the
 * server hold every record sent on it, without bound: past backlog_max
 * bytes unread the stream is closed (its buffered bytes freed). The
 * session stays; the client may open a new GET stream. */
static bool get_stream_behind(struct get_stream *g) {
    size_t unread = cc_sse_backlog(&g->sse);
    if (unread <= g->t->backlog_max) return false;
    g->t->streams_closed_slow++;
    cc_log(CC_LOG_WARNING, "http: closed the GET stream of MCP session %.8s...: the client left %zu bytes "
           "unread (the bound is %zu, CODECALC_HTTP_STREAM_BACKLOG_BYTES); it may open the stream again",
           g->sess ? g->sess->id : "?", unread, g->t->backlog_max);
    struct evhttp_connection *evcon = g->sse.req ? evhttp_request_get_connection(g->sse.req) : NULL;
    if (evcon) evhttp_connection_set_closecb(evcon, NULL, NULL);
    end_get_stream(g, true);
    /* Frees the request and the bytes it holds. */
    if (evcon) evhttp_connection_free(evcon);
    return true;
}

/* Send on g unless it is too far behind (then it is closed and freed). */
static void get_stream_send(struct get_stream *g, const char *msg, size_t len) {
    if (!get_stream_behind(g)) cc_sse_send(&g->sse, msg, len);
}

static void handle_get(struct cc_http_transport *t, struct evhttp_request *req) {
    if (!cc_http_accepts(header(req, "Accept"), "text/event-stream")) {
        reply_error(req, 406, -32600, "Not Acceptable: GET needs Accept: text/event-stream", NULL, NULL);
        return;
    }
    const char *hv = header(req, "MCP-Protocol-Version");
    if (!header(req, "Mcp-Session-Id") && hv && strcmp(hv, CC_MCP_STATELESS_VERSION) == 0) {
        evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "POST");
        reply_empty(req, 405); /* the stateless revision has no GET stream */
        return;
    }
    struct cc_mcp_session *s = mcp_session_of(t, req);
    if (!s) return;
    if (s->get_stream) {
        reply_error(req, 409, -32600, "Conflict: this session already has a GET stream", NULL, NULL);
        return;
    }
    struct get_stream *g = calloc(1, sizeof *g);
    if (!g) {
        reply_empty(req, 503);
        return;
    }
    g->t = t;
    g->sess = s;
    s->get_stream = g;
    g->next = t->streams;
    if (t->streams) t->streams->prev = g;
    t->streams = g;
    struct evhttp_connection *evcon = evhttp_request_get_connection(req);
    if (evcon) evhttp_connection_set_closecb(evcon, on_get_close, g);
    watch_peer(&g->watch, req, on_get_hangup, g);
    cc_sse_start(&g->sse, req);
}

static void handle_delete(struct cc_http_transport *t, struct evhttp_request *req) {
    struct cc_mcp_session *s = mcp_session_of(t, req);
    if (!s) return;
    end_mcp_session(t, s);
    reply_empty(req, 200);
}

/* ---- routing --------------------------------------------------------------------- */

/* The figures of /metrics and /status only this transport knows. */
static void http_figures(struct cc_http_transport *t, struct cc_metrics_http *m) {
    *m = (struct cc_metrics_http){.present = true, .sessions = (long)t->mcp_sessions.count,
                                  .streams_closed_slow = t->streams_closed_slow,
                                  .notifications_dropped = t->notes_dropped,
                                  .connections = cc_http_conncap_held(&t->conncap),
                                  .connections_max = t->conncap.max,
                                  .connections_refused = t->conncap.refused};
    for (const struct cc_http_exchange *ex = t->exchanges; ex; ex = ex->tnext) m->exchanges++;
    for (const struct get_stream *g = t->streams; g; g = g->next) m->streams++;
}

void cc_http_transport_handle(struct evhttp_request *req, void *arg) {
    struct cc_http_transport *t = arg;
    const char *path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
    bool ops = cc_ops_path(path);
    if (!path || (!ops && strcmp(path, "/mcp") != 0)) {
        reply_error(req, 404, -32600, "Not Found: the MCP endpoint is /mcp", NULL, NULL);
        return;
    }
    if (!origin_allowed(t, req)) {
        reply_error(req, 403, -32600, "Forbidden: Origin or Host is not allowed", NULL, NULL);
        return;
    }
    /* A browser cannot send a bearer token to open /status, but it can send
     * Basic credentials: there the token is accepted as the password. */
    const char *cluster_token = header(req, CC_CLUSTER_TOKEN_HEADER);
    bool allowed = authorized(t, req) || (ops && cc_ops_basic_matches(header(req, "Authorization"), t->token, token_equal));
    if (!allowed || (cluster_token && !cc_cluster_token_ok(cluster_token))) {
        evhttp_add_header(evhttp_request_get_output_headers(req), "WWW-Authenticate",
                          ops ? "Basic realm=\"codecalc\", charset=\"UTF-8\"" : "Bearer");
        reply_error(req, 401, -32600, "Unauthorized: a valid bearer token is required", NULL, NULL);
        return;
    }
    if (ops) {
        struct cc_metrics_http m;
        http_figures(t, &m);
        cc_ops_serve(req, path, t->srv, &m);
        return;
    }
    if (t->draining) {
        evhttp_add_header(evhttp_request_get_output_headers(req), "Connection", "close");
        reply_error(req, 503, -32603, "Service Unavailable: the server is shutting down", NULL, NULL);
        return;
    }
    switch (evhttp_request_get_command(req)) {
    case EVHTTP_REQ_POST: handle_post(t, req); break;
    case EVHTTP_REQ_GET: handle_get(t, req); break;
    case EVHTTP_REQ_DELETE: handle_delete(t, req); break;
    default:
        evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "GET, POST, DELETE");
        reply_error(req, 405, -32600, "Method Not Allowed", NULL, NULL);
    }
}

/* ---- timers and shutdown ----------------------------------------------------------- */

static void expire_one(struct cc_mcp_session *s, void *arg) {
    struct cc_http_transport *t = arg;
    if (cc_mcp_session_expired(&t->mcp_sessions, s, cc_now_ms())) cc_mcp_session_remove(&t->mcp_sessions, s);
}

static void on_tick(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_http_transport *t = arg;
    for (struct get_stream *g = t->streams, *next; g; g = next) {
        next = g->next;
        if (!get_stream_behind(g)) cc_sse_comment(&g->sse, "keep-alive");
    }
    cc_mcp_sessions_each(&t->mcp_sessions, expire_one, t);
}

static void maybe_finish_drain(struct cc_http_transport *t) {
    if (!t->draining || t->exchanges) return;
    /* A moment for the last replies to leave the socket buffers. */
    struct timeval tv = {0, 100000};
    event_base_loopexit(t->srv->base, &tv);
}

static void on_grace_over(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_http_transport *t = arg;
    cc_log(CC_LOG_INFO, "http: grace period over; cancelling %s", t->exchanges ? "calls in flight" : "nothing");
    while (t->exchanges) exchange_abort(t->exchanges, -32603, "the server is shutting down; the call was cancelled");
    maybe_finish_drain(t);
}

static void on_stop_signal(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_http_transport *t = arg;
    if (t->draining) return;
    t->draining = true;
    cc_log(CC_LOG_INFO, "http: stopping; draining calls in flight");
    if (t->sock) evhttp_del_accept_socket(t->http, t->sock);
    t->sock = NULL;
    while (t->streams) end_get_stream(t->streams, false);
    struct timeval tv = {t->grace_ms / 1000, (t->grace_ms % 1000) * 1000};
    t->drain_ev = evtimer_new(t->srv->base, on_grace_over, t);
    if (!t->drain_ev || evtimer_add(t->drain_ev, &tv) < 0) on_grace_over(-1, 0, t);
    else maybe_finish_drain(t);
}

/* ---- MCP log records ------------------------------------------------------------- */

/* A server-wide record goes to the GET stream of every session that asked
 * for records at or below its level (the only server-to-client channel of
 * the 2025 era outside a request). */
static void deliver_log(struct cc_log_sink *sink, int level, const char *msg, size_t len) {
    struct cc_http_transport *t = (struct cc_http_transport *)((char *)sink - offsetof(struct cc_http_transport, log_sink));
    for (struct get_stream *g = t->streams, *next; g; g = next) {
        next = g->next;
        if (g->sess && g->sess->log_subscribed && level >= g->sess->log_level) get_stream_send(g, msg, len);
    }
}

/* ---- setup ------------------------------------------------------------------------- */

static int setup(struct cc_http_transport *t, const char *host, int port) {
    struct event_base *base = t->srv->base;
    t->http = evhttp_new(base);
    if (!t->http) return -1;
    /* Every reply with a body names its own type; evhttp's default
     * (text/html) otherwise lands on the empty 202 and DELETE replies. Its
     * own error pages set text/html themselves. */
    evhttp_set_default_content_type(t->http, NULL);
    evhttp_set_allowed_methods(t->http, EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE |
                                            EVHTTP_REQ_PUT | EVHTTP_REQ_PATCH | EVHTTP_REQ_OPTIONS |
                                            EVHTTP_REQ_HEAD);
    /* Past max_body the answer is a JSON-RPC error of ours (handle_post).
     * evhttp itself only stops bodies 4 times larger, with its own HTML
     * 413, so a huge upload never sits whole in memory (docs/protocol.md). */
    evhttp_set_max_body_size(t->http, (ev_ssize_t)(t->max_body * 4 + (1 << 20)));
    evhttp_set_max_headers_size(t->http, 64 * 1024);
    /* A client that sends its headers or body too slowly loses the
     * connection instead of holding it forever (slowloris). */
    int64_t to = cc_knob(CC_KNOB_HTTP_TIMEOUT_MS);
    struct timeval tv = {to / 1000, (to % 1000) * 1000};
    evhttp_set_timeout_tv(t->http, &tv);
    evhttp_set_gencb(t->http, cc_http_transport_handle, t);
    t->sock = evhttp_bind_socket_with_handle(t->http, host, (ev_uint16_t)port);
    if (!t->sock) {
        fprintf(stderr, "codecalc: cannot listen on %s:%d: %s\n", host, port, strerror(errno));
        return -1;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int bound = port;
    evutil_socket_t fd = evhttp_bound_socket_get_fd(t->sock);
    /* evhttp listens with a backlog of 128. A burst of more clients than
     * that at a busy server overflowed the accept queue: the kernel dropped
     * their handshakes' last ACK, and each waited out SYN-ACK retransmits
     * (1, 2, 4, 8, 16 s) before the server even saw it. Listening again
     * raises it; the kernel caps it at net.core.somaxconn. */
    if (listen(fd, LISTEN_BACKLOG) < 0)
        cc_log(CC_LOG_WARNING, "http: the listen backlog stays at evhttp's 128: %s", strerror(errno));
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
        bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                               : ((struct sockaddr_in *)&ss)->sin_port);
    bool v6 = strchr(host, ':') != NULL;
    cc_http_conncap_init(&t->conncap, t->http, base, fd);
    fprintf(stderr, "codecalc: serving MCP over HTTP on http://%s%s%s:%d/mcp\n", v6 ? "[" : "", host,
            v6 ? "]" : "", bound);
    cc_cluster_advertise(t->srv, host, bound);
    t->sigterm_ev = evsignal_new(base, SIGTERM, on_stop_signal, t);
    t->sigint_ev = evsignal_new(base, SIGINT, on_stop_signal, t);
    t->tick_ev = event_new(base, -1, EV_PERSIST, on_tick, t);
    struct timeval tick = {TICK_S, 0};
    if (!t->sigterm_ev || !t->sigint_ev || !t->tick_ev || evsignal_add(t->sigterm_ev, NULL) < 0 ||
        evsignal_add(t->sigint_ev, NULL) < 0 || event_add(t->tick_ev, &tick) < 0)
        return -1;
    t->log_sink.deliver = deliver_log;
    cc_mcp_log_add_sink(&t->log_sink);
    return 0;
}

static void teardown(struct cc_http_transport *t) {
    cc_mcp_log_remove_sink(&t->log_sink);
    while (t->exchanges) exchange_abort(t->exchanges, -32603, "the server is shutting down");
    while (t->streams) end_get_stream(t->streams, false);
    if (t->http) evhttp_free(t->http);
    cc_mcp_sessions_free(&t->mcp_sessions);
    if (t->sigterm_ev) event_free(t->sigterm_ev);
    if (t->sigint_ev) event_free(t->sigint_ev);
    if (t->tick_ev) event_free(t->tick_ev);
    if (t->drain_ev) event_free(t->drain_ev);
}

struct cc_http_transport *cc_http_transport_new(struct cc_server *srv, const char *token, bool loopback) {
    struct cc_http_transport *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->srv = srv;
    t->token = token;
    t->loopback_bind = loopback;
    t->grace_ms = cc_knob(CC_KNOB_HTTP_GRACE_MS);
    t->max_body = (size_t)cc_knob(CC_KNOB_MAX_MESSAGE_BYTES);
    t->backlog_max = (size_t)cc_knob(CC_KNOB_HTTP_STREAM_BACKLOG_BYTES);
    cc_mcp_sessions_init(&t->mcp_sessions, (size_t)cc_knob(CC_KNOB_HTTP_MAX_SESSIONS),
                          cc_knob(CC_KNOB_HTTP_SESSION_IDLE_MS));
    return t;
}

void cc_http_transport_free(struct cc_http_transport *t) {
    if (!t) return;
    teardown(t);
    free(t);
}

static int serve(const char *host, int port, const char *token, bool loopback) {
    struct cc_server srv;
    int init = cc_server_init(&srv, true, true);
    if (init < 0) return 2;
    struct cc_http_transport *t = cc_http_transport_new(&srv, token, loopback);
    int rc = 0;
    if (!t || setup(t, host, port) < 0) {
        rc = 1;
    } else {
        for (int i = 0; i < CC_WORKER_POOLS; i++) cc_pool_prefork(srv.pools[i]);
        event_base_dispatch(srv.base);
        if (srv.fatal) rc = 2;
    }
    cc_http_transport_free(t);
    cc_server_free(&srv);
    return rc;
}

int cc_http_main(int argc, char **argv) {
    const char *host = "127.0.0.1";
    long port = 8000;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        bool is_host = strncmp(a, "--host", 6) == 0 && (a[6] == '\0' || a[6] == '=');
        bool is_port = strncmp(a, "--port", 6) == 0 && (a[6] == '\0' || a[6] == '=');
        if (!is_host && !is_port) {
            fprintf(stderr, "codecalc serve-http: unknown argument '%s'\nusage: codecalc serve-http [--host H] [--port P]\n", a);
            return 2;
        }
        if (a[6] == '=') val = a + 7;
        else if (i + 1 < argc) val = argv[++i];
        if (!val || !*val) {
            fprintf(stderr, "codecalc serve-http: %s needs a value\n", is_host ? "--host" : "--port");
            return 2;
        }
        if (is_host) {
            host = val;
        } else {
            char *end;
            port = strtol(val, &end, 10);
            if (*end || port < 0 || port > 65535) {
                fprintf(stderr, "codecalc serve-http: --port must be 0..65535, not '%s'\n", val);
                return 2;
            }
        }
    }
    const char *token = cc_text(CC_TEXT_HTTP_TOKEN);
    bool loopback = cc_http_host_is_loopback(host, strlen(host));
    if (!loopback && !token) {
        fprintf(stderr, "codecalc serve-http: refusing to listen on non-loopback host '%s' without "
                        "CODECALC_HTTP_TOKEN (set a bearer token, or bind 127.0.0.1)\n", host);
        return 2;
    }
    return serve(host, (int)port, token, loopback);
}
