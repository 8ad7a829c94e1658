/* What the server counts about itself, for GET /metrics (Prometheus text
 * exposition) and GET /status (a live page). Counters are process-wide:
 * one server per process.
 *
 * Fed by hooks: every answered or cancelled tool call
 * (supervisor/request.c), every replaced worker (supervisor/pool.c). Tools
 * are counted per row of the tool table and pools per cc_pool_id, so the
 * labels are the table's names and nothing a client sends can add one.
 * Read on demand: pools, queue depth, runs, sessions, HTTP sessions. */
#ifndef CC_METRICS_H
#define CC_METRICS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "protocol/strbuf.h"
#include "supervisor/mcp/tool_table.h"

struct cc_server;

/* One call of a table row finished: code is "ok" for a call that
 * succeeded as a request (a program's own failure has a verdict, not a
 * code), the result's error code otherwise, or "cancelled",
 * "deadline_exceeded", "invalid_arguments", "rpc_error". verdict may be
 * NULL. A tool that is no row of cc_tools (an internal op the sessions
 * layer sends on behalf of a tool call, which is counted itself) is not
 * counted. */
void cc_metrics_call_done(const struct cc_tool *tool, const char *code, const char *verdict, int64_t elapsed_us);
/* A worker of a pool was killed or died and is replaced. */
void cc_metrics_worker_restarted(enum cc_pool_id pool);

/* The result's top-level "ok", "code" and "verdict" members, read from its
 * JSON text without parsing it (result_scan.c). code gets "ok" when the
 * result has none; verdict "" when absent. */
void cc_metrics_scan_result(const char *json, size_t len, char code[static 48], char verdict[static 16]);

/* Transport figures only the HTTP transport knows. */
struct cc_metrics_http {
    bool present;           /* served over HTTP */
    long sessions;          /* 2025-era sessions */
    long exchanges;         /* POSTs waiting for their answer */
    long streams;           /* open GET streams */
    long streams_closed_slow;   /* GET streams closed: the client left too much unread */
    long notifications_dropped; /* POST SSE notifications dropped for the same reason */
    long connections;           /* client connections held now */
    long connections_max;       /* CODECALC_HTTP_MAX_CONNECTIONS, as applied */
    long connections_refused;   /* refused with 503 past that ceiling */
};

/* Prometheus text exposition, format 0.0.4 (exposition.c). */
void cc_metrics_render(struct cc_strbuf *out, struct cc_server *srv, const struct cc_metrics_http *http);
/* The live figures of the status page as JSON (new reference). */
json_t *cc_metrics_snapshot(struct cc_server *srv, const struct cc_metrics_http *http);
/* The self-contained status page (status_page.c). */
void cc_metrics_status_page(struct cc_strbuf *out, struct cc_server *srv, const struct cc_metrics_http *http);

/* ---- read side of the counters (counters.c) ---- */
#define CC_METRICS_BUCKETS 14
extern const double cc_metrics_bucket_le[CC_METRICS_BUCKETS];

struct cc_metrics_code {
    char code[48];
    uint64_t n;
};

/* The counters of one row of the tool table; count 0: never called. */
struct cc_metrics_tool {
    const char *name;       /* the row's name */
    struct cc_metrics_code codes[16];
    int ncodes;
    uint64_t buckets[CC_METRICS_BUCKETS]; /* non-cumulative */
    uint64_t count;
    double sum_s;
};

struct cc_metrics_recent {
    const char *tool;       /* a row's name */
    char code[48];
    double seconds;
    double at;              /* Unix time */
};

/* The counters of cc_tools[i] (i < cc_tools_count), or NULL when no call
 * was counted yet. */
const struct cc_metrics_tool *cc_metrics_tool_at(size_t i);
/* Verdict counts: name and count of the i-th verdict seen. */
size_t cc_metrics_nverdicts(void);
const struct cc_metrics_code *cc_metrics_verdict_at(size_t i);
/* Restarts of a pool's workers. */
uint64_t cc_metrics_restarts(enum cc_pool_id pool);
/* The n most recent calls, newest first; returns how many were copied. */
size_t cc_metrics_recent(struct cc_metrics_recent *out, size_t n);
/* Unix time the counters started: the server's start (the first call of
 * this function, which cc_server_init makes). */
double cc_metrics_started(void);
/* Unix time now, as a fraction. */
double cc_metrics_now(void);

#endif
