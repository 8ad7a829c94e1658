/* Requests in flight: creation, deadline, and the three ways to answer. */
#include "supervisor/request.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/mp_raw.h"
#include "protocol/strbuf.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/metrics/hooks.h"
#include "supervisor/metrics/metrics.h"
#include "supervisor/pool.h"
#include "supervisor/server.h"
#include "workers/common/tool_api.h"

static void on_deadline(evutil_socket_t fd, short what, void *arg);

/* Where the deadline timer's event lives: in the request's own allocation
 * (libevent sizes it at run time), one malloc and free fewer per call. */
#define TIMER_AT ((sizeof(struct cc_req) + 15) & ~(size_t)15)

/* The timeout of a deadline of ms as one of the base's common timeouts
 * (libevent keeps timers of one common duration in a queue instead of its
 * heap: adding and deleting one is O(1)); tv itself when none is left.
 * Deadlines come in a handful of durations (a tool's class, a test's
 * override, a sub-request's bound). */
static const struct timeval *deadline_timeout(struct event_base *base, int64_t ms, const struct timeval *tv) {
    static struct {
        struct event_base *base;
        int64_t ms;
        const struct timeval *tv;
    } known[16];
    static size_t n;
    for (size_t i = 0; i < n; i++)
        if (known[i].base == base && known[i].ms == ms) return known[i].tv;
    if (n == sizeof known / sizeof known[0]) return tv;
    const struct timeval *common = event_base_init_common_timeout(base, tv);
    if (!common) return tv;
    known[n].base = base, known[n].ms = ms, known[n].tv = common;
    n++;
    return common;
}

static void arm_deadline(struct cc_req *r, int64_t ms) {
    r->deadline_ms = ms;
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    evtimer_add(r->timer, deadline_timeout(r->srv->base, ms, &tv));
}

struct cc_req *cc_req_new(struct cc_server *srv, struct cc_conn *conn, json_t *rpc_id,
                          const struct cc_tool *tool, json_t *progress_token) {
    struct cc_req *r = calloc(1, TIMER_AT + event_get_struct_event_size());
    if (!r) return NULL;
    r->srv = srv;
    r->conn = conn;
    cc_conn_ref(conn);
    r->rpc_id = json_incref(rpc_id);
    r->progress_token = progress_token ? json_incref(progress_token) : NULL;
    r->tool = tool;
    r->wid = ++srv->next_wid;
    msgpack_sbuffer_init(&r->frame);
    /* msgpack's first allocation is 8 KiB, far more than a request frame
     * needs and past malloc's fast path; start small (it grows as needed) */
    if ((r->frame.data = malloc(256))) r->frame.alloc = 256;
    r->start_us = cc_now_us();
    r->start_ms = r->start_us / 1000; /* cc_now_ms() is this clock in ms: one read */
    r->guarded = tool->flags & CC_TOOL_GUARDED;
    int64_t ms = (int64_t)tool->deadline_s * 1000;
    if (srv->test_deadline_ms > 0) ms = srv->test_deadline_ms;
    r->deadline_ms = ms;
    r->timer = (struct event *)((char *)r + TIMER_AT);
    if (evtimer_assign(r->timer, srv->base, on_deadline, r) == 0) arm_deadline(r, ms);
    else r->timer = NULL;
    r->next = srv->inflight;
    if (srv->inflight) srv->inflight->prev = r;
    srv->inflight = r;
    srv->n_inflight++;
    return r;
}

/* The outcome, once, for the metrics; a request freed unanswered was
 * cancelled (or its client left). */
static void count(struct cc_req *r, const char *code, const char *verdict) {
    if (r->counted) return;
    r->counted = true;
    cc_ops_call_done(r, code, verdict);
}

void cc_req_free(struct cc_req *r) {
    count(r, "cancelled", NULL);
    if (r->on_free) {
        void (*fn)(void *) = r->on_free;
        r->on_free = NULL;
        fn(r->owner);
    }
    if (r->pool) cc_pool_abandon(r->pool, r, false);
    if (r->prev) r->prev->next = r->next;
    else if (r->srv->inflight == r) r->srv->inflight = r->next;
    if (r->next) r->next->prev = r->prev;
    r->srv->n_inflight--;
    if (r->timer) evtimer_del(r->timer);
    json_decref(r->rpc_id);
    json_decref(r->progress_token);
    msgpack_sbuffer_destroy(&r->frame);
    cc_conn_unref(r->conn);
    free(r);
}

void cc_req_rearm(struct cc_req *r, int64_t ms) {
    if (!r->timer) return;
    evtimer_del(r->timer);
    arm_deadline(r, ms);
}

void cc_req_send_progress(struct cc_req *r, json_t *params) {
    if (!(r->tool->flags & CC_TOOL_PROGRESS) || !r->progress_token || r->cancelled || r->conn->closed) {
        json_decref(params);
        return;
    }
    json_object_set(params, "progressToken", r->progress_token);
    json_t *note = json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", "notifications/progress", "params",
                             params);
    if (!note) return;
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_json_emit(&sb, note);
    json_decref(note);
    cc_conn_send(r->conn, sb.data, sb.len);
    cc_sb_free(&sb);
}

void cc_req_progress(struct cc_req *r, int64_t progress, int64_t total, const char *message) {
    cc_req_send_progress(r, json_pack("{s:I,s:I,s:s}", "progress", (json_int_t)progress, "total",
                                      (json_int_t)total, "message", message ? message : ""));
}

static void on_deadline(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_req *r = arg;
    double elapsed = (double)(cc_now_ms() - r->start_ms) / 1000.0;
    cc_ops_deadline(r, elapsed);
    bool evaluating = r->worker != NULL; /* else still queued for a worker */
    if (r->pool) cc_pool_abandon(r->pool, r, true);
    if (r->guarded && evaluating) {
        cc_req_answer_fail(r, "timeout", "expression exceeded the %llds evaluation limit and was killed",
                           (long long)(r->deadline_ms / 1000));
        return;
    }
    if (r->guarded) {
        /* Still queued: "killed" would claim the input is too expensive. */
        cc_req_answer_fail(r, "timeout", "the expression was not evaluated: every %s worker was busy "
                           "with other calls for the whole %llds evaluation limit; retry it (the input "
                           "itself did not run out of time)", cc_pool_defs[r->tool->pool].name,
                           (long long)(r->deadline_ms / 1000));
        return;
    }
    double secs = (double)r->deadline_ms / 1000.0;
    char msg[512];
    snprintf(msg, sizeof msg,
             "tool '%s' exceeded its %gs response deadline (elapsed %.2fs). The response was "
             "abandoned; CPU-bound work may still be running (the deadline bounds the response, "
             "not the computation).",
             r->tool->name, secs, elapsed);
    json_t *data = json_pack("{s:s,s:o,s:f}", "tool", r->tool->name, "timeout_seconds",
                             r->deadline_ms % 1000 ? json_real(secs) : json_integer((json_int_t)secs),
                             "elapsed_seconds", (double)(long long)(elapsed * 100 + 0.5) / 100.0);
    cc_req_answer_rpc_error(r, -32010, msg, data);
    json_decref(data);
}

/* The buffer answers are built in, kept between answers. */
static struct cc_strbuf answer_keep;

/* Free the request before sending, so a transport that waits for "nothing
 * in flight" sees the final count when the last answer goes out. */
static void send_and_free(struct cc_req *r, struct cc_strbuf *sb) {
    struct cc_conn *c = r->conn;
    bool deliver = !r->cancelled && !c->closed;
    cc_conn_ref(c);
    cc_req_free(r);
    if (deliver) cc_conn_send(c, sb->data, sb->len);
    cc_sb_return(&answer_keep, sb);
    cc_conn_unref(c);
}

static void begin_response(struct cc_strbuf *sb, const json_t *id) {
    cc_sb_puts(sb, "{\"jsonrpc\":\"2.0\",\"id\":");
    cc_json_emit(sb, id);
}

void cc_req_answer_result(struct cc_req *r, const char *json, size_t len, bool is_error) {
    /* The last line of defence of docs/protocol.md "Result size bounds":
     * every tool bounds its own result well below this; a result that still
     * grew past it is refused rather than sent as a message MCP clients drop
     * (the TypeScript SDK refuses past 10 MiB; the result travels twice). */
    if (len > CC_RESULT_MAX_BYTES) {
        cc_req_answer_fail(r, "resource_exhausted", "the result of %s is %zu bytes, over the %u MiB a "
                           "result may carry; ask for less (a page with cursor/page_size, max_bytes, a "
                           "smaller input)", r->tool->name, len, CC_RESULT_MAX_BYTES >> 20);
        return;
    }
    char code[48], verdict[16];
    cc_metrics_scan_result(json, len, code, verdict);
    cc_req_answer_result_outcome(r, json, len, is_error, code, verdict);
}

void cc_req_answer_result_outcome(struct cc_req *r, const char *json, size_t len, bool is_error,
                                  const char *code, const char *verdict) {
    if (len > CC_RESULT_MAX_BYTES) {
        cc_req_answer_result(r, json, len, is_error); /* refused there */
        return;
    }
    count(r, is_error ? "tool_error" : code, verdict);
    struct cc_strbuf sb;
    cc_sb_borrow(&answer_keep, &sb);
    cc_sb_reserve(&sb, len * 2 + 200);
    begin_response(&sb, r->rpc_id);
    cc_sb_puts(&sb, ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
    cc_sb_json_text_string(&sb, json, len);
    cc_sb_puts(&sb, "}],\"structuredContent\":");
    if ((r->tool->flags & CC_TOOL_ARRAY_RESULT)) cc_sb_puts(&sb, "{\"result\":");
    cc_sb_put(&sb, json, len);
    if ((r->tool->flags & CC_TOOL_ARRAY_RESULT)) cc_sb_putc(&sb, '}');
    cc_sb_puts(&sb, is_error ? ",\"isError\":true}}" : ",\"isError\":false}}");
    send_and_free(r, &sb);
}

void cc_req_answer_fail(struct cc_req *r, const char *code, const char *fmt, ...) {
    count(r, code, NULL);
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *res = cc_err(code, "%s", msg);
    json_object_set_new(res, "contract_version", json_string(CC_CONTRACT_VERSION));
    struct cc_strbuf body;
    cc_sb_init(&body);
    cc_json_emit(&body, res);
    json_decref(res);
    if ((r->tool->flags & CC_TOOL_ARRAY_RESULT)) {
        /* An array tool's structuredContent must stay {"result": [...]}; a
         * failure is reported as a tool error instead. */
        cc_req_answer_result_error_text(r, body.data, body.len);
    } else {
        cc_req_answer_result(r, body.data, body.len, false);
    }
    cc_sb_free(&body);
}

void cc_req_answer_result_error_text(struct cc_req *r, const char *text, size_t len) {
    count(r, "invalid_arguments", NULL);
    struct cc_strbuf sb;
    cc_sb_borrow(&answer_keep, &sb);
    begin_response(&sb, r->rpc_id);
    cc_sb_puts(&sb, ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
    cc_sb_json_text_string(&sb, text, len);
    cc_sb_puts(&sb, "}],\"isError\":true}}");
    send_and_free(r, &sb);
}

void cc_req_answer_raw_result(struct cc_req *r, const json_t *result) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    begin_response(&sb, r->rpc_id);
    cc_sb_puts(&sb, ",\"result\":");
    cc_json_emit(&sb, result);
    cc_sb_putc(&sb, '}');
    send_and_free(r, &sb);
}

void cc_req_answer_rpc_error(struct cc_req *r, int code, const char *message, json_t *data) {
    count(r, code == -32010 ? "deadline_exceeded" : "rpc_error", NULL);
    struct cc_strbuf sb;
    cc_sb_borrow(&answer_keep, &sb);
    cc_rpc_error_text(&sb, r->rpc_id, code, message, data);
    send_and_free(r, &sb);
}

/* ---- what a worker sent (untrusted: a worker runs near user code) ---- */

void cc_req_forward_event(struct cc_req *r, const msgpack_object *frame) {
    const msgpack_object *data = cc_mp_get(frame, "data");
    if (!data || data->type != MSGPACK_OBJECT_MAP) return;
    json_t *d = cc_mp_to_json(data);
    if (d) cc_req_send_progress(r, d);
}

/* A top-level string member of a result map as the metrics' text scan
 * (cc_metrics_scan_result) reads it from the JSON: "" when it holds a byte
 * JSON escapes or would not fit. false when a byte >= 0x80 leaves the
 * answer to the scan. */
static bool member_text(const struct cc_mp_member *m, char *out, size_t cap) {
    out[0] = '\0';
    if (!m->is_str) return true;
    for (size_t i = 0; i < m->n; i++) {
        unsigned char c = (unsigned char)m->s[i];
        if (c >= 0x80) return false;
        if (c < 0x20 || c == '"' || c == '\\') return true;
    }
    if (m->n < cap) {
        memcpy(out, m->s, m->n);
        out[m->n] = '\0';
    }
    return true;
}

/* The result's outcome for the metrics, read from its members "code" and
 * "verdict" rather than from its JSON text. false: leave it to the text
 * scan. */
static bool outcome(const struct cc_mp_member *cm, const struct cc_mp_member *vm, char code[48], char verdict[16]) {
    if (!member_text(cm, code, 48) || !member_text(vm, verdict, 16)) return false;
    if (!cm->is_str) strcpy(code, "ok");
    return true;
}

static struct cc_mp_member member_of(const msgpack_object *res, const char *key) {
    struct cc_mp_member m = {0};
    m.is_str = cc_mp_str(cc_mp_get(res, key), &m.s, &m.n) == 0;
    return m;
}

void cc_req_answer_plain(struct cc_req *r, const char *json, size_t len, const struct cc_mp_member *cm,
                         const struct cc_mp_member *vm) {
    char code[48], verdict[16];
    if (outcome(cm, vm, code, verdict)) cc_req_answer_result_outcome(r, json, len, false, code, verdict);
    else cc_req_answer_result(r, json, len, false);
}

/* The buffer a result's JSON text is built in, kept between answers. */
static struct cc_strbuf result_keep;

static void answer_error_frame(struct cc_req *r, const msgpack_object *frame);

void cc_req_answer_frame(struct cc_req *r, const msgpack_object *frame) {
    const msgpack_object *ok = cc_mp_get(frame, "ok");
    if (ok && ok->type == MSGPACK_OBJECT_BOOLEAN && ok->via.boolean) {
        const msgpack_object *res = cc_mp_get(frame, "result");
        struct cc_strbuf sb;
        cc_sb_borrow(&result_keep, &sb);
        if (!res || cc_mp_emit_json(&sb, res) < 0) {
            cc_sb_return(&result_keep, &sb);
            cc_req_answer_fail(r, "internal", "the worker returned no usable result");
            return;
        }
        struct cc_mp_member cm = member_of(res, "code"), vm = member_of(res, "verdict");
        cc_req_answer_plain(r, sb.data, sb.len, &cm, &vm);
        cc_sb_return(&result_keep, &sb);
        return;
    }
    answer_error_frame(r, frame);
}

static void answer_error_frame(struct cc_req *r, const msgpack_object *frame) {
    const msgpack_object *err = cc_mp_get(frame, "error");
    const char *code = "internal", *msg = "worker failure";
    size_t cl = strlen(code), ml = strlen(msg);
    cc_mp_str(cc_mp_get(err, "code"), &code, &cl);
    cc_mp_str(cc_mp_get(err, "message"), &msg, &ml);
    char cbuf[64];
    snprintf(cbuf, sizeof cbuf, "%.*s", (int)cl, code);
    cc_req_answer_fail(r, cbuf, "%.*s", (int)ml, msg);
}
