/* GET /metrics: the Prometheus text exposition format (version 0.0.4).
 * Names follow Prometheus conventions: a codecalc_ prefix, _total for
 * counters, base units (_seconds), labels for the dimensions. */
#include <string.h>

#include "supervisor/cluster/cluster.h"
#include "supervisor/metrics/gauges.h"
#include "supervisor/metrics/metrics.h"
#include "supervisor/mcp/methods.h"

static void family(struct cc_strbuf *o, const char *name, const char *type, const char *help) {
    cc_sb_printf(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A family of one unlabelled sample: its name written once. */
static void scalar(struct cc_strbuf *o, const char *name, const char *type, const char *help, long long v) {
    family(o, name, type, help);
    cc_sb_printf(o, "%s %lld\n", name, v);
}

/* A label value with \, " and newline escaped as the format asks. */
static void label(struct cc_strbuf *o, const char *v) {
    for (; *v; v++) {
        if (*v == '\\' || *v == '"') cc_sb_putc(o, '\\');
        if (*v == '\n') {
            cc_sb_puts(o, "\\n");
            continue;
        }
        cc_sb_putc(o, *v);
    }
}

static void tool_counters(struct cc_strbuf *o, bool errors_only) {
    for (size_t i = 0; i < cc_tools_count; i++) {
        const struct cc_metrics_tool *t = cc_metrics_tool_at(i);
        for (int k = 0; t && k < t->ncodes; k++) {
            if (errors_only && strcmp(t->codes[k].code, "ok") == 0) continue;
            cc_sb_printf(o, "%s{tool=\"", errors_only ? "codecalc_tool_errors_total" : "codecalc_tool_calls_total");
            label(o, t->name);
            cc_sb_puts(o, "\",code=\"");
            label(o, t->codes[k].code);
            cc_sb_printf(o, "\"} %llu\n", (unsigned long long)t->codes[k].n);
        }
    }
}

static void histograms(struct cc_strbuf *o) {
    family(o, "codecalc_tool_duration_seconds", "histogram", "Time from accepting a tool call to its answer.");
    for (size_t i = 0; i < cc_tools_count; i++) {
        const struct cc_metrics_tool *t = cc_metrics_tool_at(i);
        if (!t) continue;
        uint64_t cum = 0;
        for (int b = 0; b < CC_METRICS_BUCKETS; b++) {
            cum += t->buckets[b];
            cc_sb_puts(o, "codecalc_tool_duration_seconds_bucket{tool=\"");
            label(o, t->name);
            cc_sb_printf(o, "\",le=\"%g\"} %llu\n", cc_metrics_bucket_le[b], (unsigned long long)cum);
        }
        cc_sb_puts(o, "codecalc_tool_duration_seconds_bucket{tool=\"");
        label(o, t->name);
        cc_sb_printf(o, "\",le=\"+Inf\"} %llu\ncodecalc_tool_duration_seconds_sum{tool=\"", (unsigned long long)t->count);
        label(o, t->name);
        cc_sb_printf(o, "\"} %.6f\ncodecalc_tool_duration_seconds_count{tool=\"", t->sum_s);
        label(o, t->name);
        cc_sb_printf(o, "\"} %llu\n", (unsigned long long)t->count);
    }
}

static void pools(struct cc_strbuf *o, const struct cc_gauges *g) {
    family(o, "codecalc_pool_workers", "gauge", "Worker processes of each pool, by state.");
    for (int i = 0; i < CC_WORKER_POOLS; i++) {
        const struct cc_pool_stats *p = &g->pool[i];
        cc_sb_printf(o, "codecalc_pool_workers{pool=\"%s\",state=\"idle\"} %d\n", cc_pool_defs[i].name, p->idle);
        cc_sb_printf(o, "codecalc_pool_workers{pool=\"%s\",state=\"busy\"} %d\n", cc_pool_defs[i].name, p->busy);
        cc_sb_printf(o, "codecalc_pool_workers{pool=\"%s\",state=\"starting\"} %d\n", cc_pool_defs[i].name, p->starting);
    }
    family(o, "codecalc_pool_min_workers", "gauge", "Workers a pool keeps running.");
    for (int i = 0; i < CC_WORKER_POOLS; i++)
        cc_sb_printf(o, "codecalc_pool_min_workers{pool=\"%s\"} %d\n", cc_pool_defs[i].name, g->pool[i].min);
    family(o, "codecalc_pool_max_workers", "gauge", "Most workers a pool may run.");
    for (int i = 0; i < CC_WORKER_POOLS; i++)
        cc_sb_printf(o, "codecalc_pool_max_workers{pool=\"%s\"} %d\n", cc_pool_defs[i].name, g->pool[i].max);
    family(o, "codecalc_pool_queue_depth", "gauge", "Calls waiting for a free worker.");
    for (int i = 0; i < CC_WORKER_POOLS; i++)
        cc_sb_printf(o, "codecalc_pool_queue_depth{pool=\"%s\"} %d\n", cc_pool_defs[i].name, g->pool[i].queued);
    family(o, "codecalc_worker_restarts_total", "counter", "Workers killed or dead and replaced.");
    for (int i = 0; i < CC_WORKER_POOLS; i++)
        cc_sb_printf(o, "codecalc_worker_restarts_total{pool=\"%s\"} %llu\n", cc_pool_defs[i].name,
                     (unsigned long long)cc_metrics_restarts(i));
}

void cc_metrics_render(struct cc_strbuf *o, struct cc_server *srv, const struct cc_metrics_http *http) {
    struct cc_gauges g;
    cc_gauges_read(srv, &g);
    family(o, "codecalc_build_info", "gauge", "The running version.");
    cc_sb_printf(o, "codecalc_build_info{version=\"%s\"} 1\n", CC_VERSION);
    family(o, "codecalc_start_time_seconds", "gauge", "Unix time the server started.");
    cc_sb_printf(o, "codecalc_start_time_seconds %.3f\n", cc_metrics_started());
    family(o, "codecalc_tool_calls_total", "counter", "Tool calls finished, by tool and result code (ok: the call succeeded).");
    tool_counters(o, false);
    family(o, "codecalc_tool_errors_total", "counter", "Tool calls that failed, by tool and error code.");
    tool_counters(o, true);
    histograms(o);
    pools(o, &g);
    scalar(o, "codecalc_requests_in_flight", "gauge", "Tool calls accepted and not yet answered.", g.inflight);
    family(o, "codecalc_sandbox_verdicts_total", "counter", "Program verdicts of executed code (OK, RTE, TLE, MLE, OLE).");
    for (size_t i = 0; i < cc_metrics_nverdicts(); i++) {
        cc_sb_puts(o, "codecalc_sandbox_verdicts_total{verdict=\"");
        label(o, cc_metrics_verdict_at(i)->code);
        cc_sb_printf(o, "\"} %llu\n", (unsigned long long)cc_metrics_verdict_at(i)->n);
    }
    if (g.runs_active >= 0) {
        scalar(o, "codecalc_runs_active", "gauge", "Background runs submitted and not finished.", g.runs_active);
    }
    family(o, "codecalc_sessions_active", "gauge", "Workspace sessions this server holds, by kind.");
    cc_sb_printf(o, "codecalc_sessions_active{kind=\"stateful\"} %d\n", g.sessions_stateful);
    cc_sb_printf(o, "codecalc_sessions_active{kind=\"workspace\"} %d\n", g.sessions_workspace);
    json_t *cluster = cc_cluster_facts(srv); /* nothing unless the stores are shared */
    cc_cluster_metrics(o, cluster);
    json_decref(cluster);
    if (http && http->present) {
        scalar(o, "codecalc_http_sessions", "gauge", "Open 2025-era MCP HTTP sessions.", http->sessions);
        scalar(o, "codecalc_http_requests_in_flight", "gauge", "HTTP POSTs waiting for their answer.",
               http->exchanges);
        scalar(o, "codecalc_http_get_streams", "gauge", "Open GET streams of 2025-era sessions.", http->streams);
        scalar(o, "codecalc_http_get_streams_closed_slow_total", "counter",
               "GET streams closed because the client left more than CODECALC_HTTP_STREAM_BACKLOG_BYTES unread.",
               http->streams_closed_slow);
        scalar(o, "codecalc_http_notifications_dropped_total", "counter",
               "Notifications not sent on a POST's event stream the client left more than the bound unread.",
               http->notifications_dropped);
        scalar(o, "codecalc_http_connections", "gauge", "Client connections the HTTP transport holds.",
               http->connections);
        scalar(o, "codecalc_http_connections_max", "gauge", "The connection ceiling (CODECALC_HTTP_MAX_CONNECTIONS).",
               http->connections_max);
        scalar(o, "codecalc_http_connections_refused_total", "counter",
               "Connections answered 503 and closed because the ceiling was reached.", http->connections_refused);
    }
}
