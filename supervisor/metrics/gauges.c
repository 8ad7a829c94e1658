/* The figures read on demand for /metrics and /status: pools, requests in
 * flight, background runs, workspace sessions, and the live snapshot the
 * status page shows. */
#include "supervisor/metrics/gauges.h"

#include <stdlib.h>
#include <string.h>

#include "supervisor/cluster/cluster.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/native_check.h"
#include "supervisor/pool.h"
#include "supervisor/runs/runs.h"
#include "supervisor/sessions/sessions.h"

void cc_gauges_read(struct cc_server *srv, struct cc_gauges *g) {
    memset(g, 0, sizeof *g);
    for (int i = 0; i < CC_WORKER_POOLS; i++)
        if (srv->pools[i]) cc_pool_stats(srv->pools[i], &g->pool[i]);
    g->inflight = cc_server_inflight(srv);
    g->runs_active = -1;
    struct cc_runs *rs = srv->runs;
    int64_t n;
    /* A cluster server never waits for the database here: its own claims
     * come from the upkeep's cache (unknown until the first round). */
    if (rs && rs->store && cc_run_store_shared(rs->store)) {
        if (cc_cluster_claimed_here(srv, &n) == 0) g->runs_active = n;
    } else if (rs && rs->store && cc_run_store_count_active(rs->store, &n) == 0) {
        g->runs_active = n;
    }
    struct cc_sessions *ss = srv->sessions;
    for (struct cc_session *s = ss ? ss->list : NULL; s; s = s->next) {
        if (s->expired) continue;
        if (s->stateful) g->sessions_stateful++;
        else g->sessions_workspace++;
    }
}

static json_t *pools_json(const struct cc_gauges *g) {
    json_t *a = json_array();
    for (int i = 0; i < CC_WORKER_POOLS; i++) {
        const struct cc_pool_stats *p = &g->pool[i];
        json_array_append_new(a, json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:I}", "name", cc_pool_defs[i].name, "min",
                                           p->min, "max", p->max, "workers", p->workers, "idle", p->idle, "busy",
                                           p->busy, "starting", p->starting, "queued", p->queued, "restarts",
                                           (json_int_t)cc_metrics_restarts(i)));
    }
    return a;
}

static json_t *tools_json(uint64_t *calls, uint64_t *errors) {
    json_t *a = json_array();
    for (size_t i = 0; i < cc_tools_count; i++) {
        const struct cc_metrics_tool *t = cc_metrics_tool_at(i);
        if (!t) continue;
        uint64_t err = 0;
        for (int k = 0; k < t->ncodes; k++) err += strcmp(t->codes[k].code, "ok") ? t->codes[k].n : 0;
        *calls += t->count;
        *errors += err;
        json_array_append_new(a, json_pack("{s:s,s:I,s:I,s:f}", "tool", t->name, "calls", (json_int_t)t->count,
                                           "errors", (json_int_t)err, "mean_seconds",
                                           t->count ? t->sum_s / (double)t->count : 0.0));
    }
    return a;
}

static json_t *recent_json(void) {
    struct cc_metrics_recent r[20];
    size_t n = cc_metrics_recent(r, 20);
    double now = cc_metrics_now();
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s,s:s,s:f,s:f}", "tool", r[i].tool, "code", r[i].code, "seconds",
                                           r[i].seconds, "ago_seconds", now - r[i].at));
    return a;
}

json_t *cc_metrics_snapshot(struct cc_server *srv, const struct cc_metrics_http *http) {
    struct cc_gauges g;
    cc_gauges_read(srv, &g);
    uint64_t calls = 0, errors = 0;
    json_t *tools = tools_json(&calls, &errors);
    json_t *verdicts = json_object();
    for (size_t i = 0; i < cc_metrics_nverdicts(); i++)
        json_object_set_new(verdicts, cc_metrics_verdict_at(i)->code, json_integer((json_int_t)cc_metrics_verdict_at(i)->n));
    const json_t *caps = cc_native_caps(srv->bindir);
    char *missing = caps ? cc_native_missing(caps, false) : strdup("unknown: the sandbox probe does not run");
    json_t *snap = json_pack(
        "{s:s,s:f,s:I,s:I,s:i,s:o,s:o,s:o,s:o,s:o,s:{s:i,s:i},s:o,s:{s:b,s:s?}}", "version", CC_VERSION,
        "uptime_seconds", cc_metrics_now() - cc_metrics_started(), "calls", (json_int_t)calls, "errors",
        (json_int_t)errors, "in_flight", g.inflight, "pools", pools_json(&g), "tools", tools, "recent", recent_json(),
        "verdicts", verdicts, "runs_active", g.runs_active >= 0 ? json_integer(g.runs_active) : json_null(),
        "sessions", "stateful", g.sessions_stateful, "workspace", g.sessions_workspace, "http",
        http && http->present ? json_pack("{s:i,s:i,s:i,s:I,s:I,s:I,s:I,s:I}", "sessions", (int)http->sessions,
                                          "requests_in_flight", (int)http->exchanges, "get_streams", (int)http->streams,
                                          "get_streams_closed_slow", (json_int_t)http->streams_closed_slow,
                                          "notifications_dropped", (json_int_t)http->notifications_dropped,
                                          "connections", (json_int_t)http->connections,
                                          "connections_max", (json_int_t)http->connections_max,
                                          "connections_refused", (json_int_t)http->connections_refused)
                              : json_null(),
        "health", "sandbox_complete", missing == NULL, "sandbox_missing", missing);
    free(missing);
    if (snap) json_object_set_new(snap, "cluster", cc_cluster_facts(srv));
    return snap;
}
