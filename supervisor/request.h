/* A tools/call in flight: who asked (connection + JSON-RPC id), which tool,
 * the frame to send to a worker, its deadline timer, and where it is now
 * (queued in a pool or on a worker). Every request is answered exactly once,
 * or dropped without an answer when it was cancelled or its client left. */
#ifndef CC_REQUEST_H
#define CC_REQUEST_H

#include <event2/event.h>
#include <jansson.h>
#include <msgpack.h>
#include <stdbool.h>
#include <stdint.h>

#include "protocol/mp_raw.h"
#include "supervisor/conn.h"
#include "supervisor/mcp/registry.h"

struct cc_worker;
struct cc_pool;

struct cc_req {
    struct cc_server *srv;
    struct cc_conn *conn;        /* referenced */
    json_t *rpc_id;              /* owned */
    json_t *progress_token;      /* owned, may be NULL */
    const struct cc_tool *tool;
    uint64_t wid;                /* id on the worker protocol */
    msgpack_sbuffer frame;       /* the encoded request frame */
    struct event *timer;         /* deadline (stored in r's own allocation) */
    int64_t start_ms;
    int64_t start_us;            /* CLOCK_MONOTONIC, for the latency metrics */
    int64_t deadline_ms;         /* relative, what the timer was armed with */
    int64_t run_deadline_ms;     /* > 0: the deadline re-armed when a worker takes it
                                  * (CC_TOOL_TIMEOUT_DEADLINE; time queued not counted) */
    bool guarded;                /* TOOLS.md 2.5 evaluation bound applies */
    bool cancelled;              /* answer must be dropped */
    bool counted;                /* the metrics saw its outcome */
    int requeues;                /* times taken back from a worker that died before starting it */
    struct cc_pool *pool;
    struct cc_worker *worker;    /* set while a worker serves it */
    struct cc_req *qnext, *qprev; /* pool queue */
    struct cc_req *prev, *next;  /* server's in-flight list */
    /* Called once when the request is freed, however that happens (answer,
     * cancellation, deadline, client gone): a local tool that started work
     * of its own (sub-requests) stops it here. Clear it before answering
     * when the work is already over. */
    void (*on_free)(void *owner);
    void *owner;
};

/* Create, link into the in-flight list and arm the deadline. Takes a new
 * reference to rpc_id and progress_token. The frame is built by the caller. */
struct cc_req *cc_req_new(struct cc_server *srv, struct cc_conn *conn, json_t *rpc_id,
                          const struct cc_tool *tool, json_t *progress_token);
/* Unlink and free (does not answer). Runs r->on_free first. */
void cc_req_free(struct cc_req *r);
/* Re-arm r's deadline timer to ms from now (sub-requests carry their own
 * bound, whatever the tool's deadline class or a test override says). */
void cc_req_rearm(struct cc_req *r, int64_t ms);
/* Send notifications/progress with params (owned; progressToken is added)
 * to r's client when it asked (a progressToken) and r's tool has the
 * progress flag; nothing otherwise. */
void cc_req_send_progress(struct cc_req *r, json_t *params);
/* The same with params {progress, total, message}. */
void cc_req_progress(struct cc_req *r, int64_t progress, int64_t total, const char *message);

/* A result's JSON text past this is refused as resource_exhausted: it is
 * sent twice (text item and structuredContent) and clients drop messages
 * past 10 MiB. */
#define CC_RESULT_MAX_BYTES (4u << 20)

/* Answer with a tool result given as JSON text (the result object or array),
 * then free the request. Dropped silently when cancelled or the client left.
 * Past CC_RESULT_MAX_BYTES the answer is a resource_exhausted refusal. */
void cc_req_answer_result(struct cc_req *r, const char *result_json, size_t len, bool is_error);
/* cc_req_answer_result for a caller that already knows the result's
 * outcome as cc_metrics_scan_result would read it (code "ok" when the
 * result has none, verdict "" likewise), so the text is not scanned again. */
void cc_req_answer_result_outcome(struct cc_req *r, const char *result_json, size_t len, bool is_error,
                                  const char *code, const char *verdict);
/* Answer with a rejected-shape result {ok:false, code, error, remedy}. */
void cc_req_answer_fail(struct cc_req *r, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Answer with an MCP tool error (isError: true) whose one text item is text. */
void cc_req_answer_result_error_text(struct cc_req *r, const char *text, size_t len);
/* Answer with a complete MCP tool result object (borrowed), as another
 * server produced it (supervisor/cluster/forward.c). */
void cc_req_answer_raw_result(struct cc_req *r, const json_t *result);
/* Answer with a JSON-RPC error object. data may be NULL (borrowed). */
void cc_req_answer_rpc_error(struct cc_req *r, int code, const char *message, json_t *data);

/* A worker's answer frame ({id, ok, result} or {id, ok:false, error}) turned
 * into the answer of r; r is freed. */
void cc_req_answer_frame(struct cc_req *r, const msgpack_object *frame);
/* The same for the answer {id, ok: true, result} read in place
 * (cc_mp_raw_answer_json): json is the result's JSON text, cm and vm its
 * members "code" and "verdict" (the outcome the metrics count). */
void cc_req_answer_plain(struct cc_req *r, const char *json, size_t len, const struct cc_mp_member *cm,
                         const struct cc_mp_member *vm);
/* A worker's event frame ({id, event, data}) forwarded to r's client as a
 * progress notification when it asked for progress and r's tool streams
 * progress (CC_TOOL_PROGRESS); r stays in flight. */
void cc_req_forward_event(struct cc_req *r, const msgpack_object *frame);

#endif
