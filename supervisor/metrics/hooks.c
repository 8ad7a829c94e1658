/* The operator side of core events (hooks.h): metrics and MCP log records. */
#include "supervisor/metrics/hooks.h"

#include <stdio.h>

#include "protocol/monotonic.h"
#include "supervisor/log.h"
#include "supervisor/mcp/logging.h"
#include "supervisor/metrics/metrics.h"
#include "supervisor/request.h"

void cc_ops_call_done(struct cc_req *r, const char *code, const char *verdict) {
    cc_metrics_call_done(r->tool, code, verdict, cc_now_us() - r->start_us);
}

void cc_ops_worker_replaced(struct cc_server *srv, enum cc_pool_id id, const char *why, struct cc_req *r) {
    (void)srv;
    cc_metrics_worker_restarted(id);
    const char *pool = cc_pool_defs[id].name;
    if (!why) return;
    char text[200];
    snprintf(text, sizeof text, "the %s worker %s; a fresh one replaces it", pool, why);
    cc_log(CC_LOG_WARNING, "%s", text);
    json_t *data = json_pack("{s:s,s:s}", "message", text, "pool", pool);
    /* About a call: only its client hears of it. */
    if (r) cc_mcp_log_to(r->conn, CC_MCP_WARNING, "codecalc.pool", data);
    else cc_mcp_log_all(CC_MCP_WARNING, "codecalc.pool", data);
    json_decref(data);
}

void cc_ops_deadline(struct cc_req *r, double elapsed_s) {
    char text[200];
    snprintf(text, sizeof text, "tool '%s' overran its %.3g s deadline after %.2f s; the call was abandoned%s",
             r->tool->name, (double)r->deadline_ms / 1000.0, elapsed_s,
             r->worker ? " and its worker killed" : "");
    json_t *data = json_pack("{s:s,s:s,s:f}", "message", text, "tool", r->tool->name, "elapsed_seconds", elapsed_s);
    cc_mcp_log_to(r->conn, CC_MCP_WARNING, "codecalc.deadline", data);
    json_decref(data);
}
