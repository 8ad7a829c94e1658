/* Where the core tells the operator side what happened: a call finished, a
 * worker was replaced, a deadline killed a call. Each hook updates the
 * metrics and sends the MCP log record (notifications/message) to the
 * client it concerns (supervisor/mcp/logging.h). */
#ifndef CC_OPS_HOOKS_H
#define CC_OPS_HOOKS_H

#include "supervisor/mcp/tool_table.h"

struct cc_server;
struct cc_req;

/* r was answered (code/verdict as for cc_metrics_call_done) or dropped
 * (code "cancelled"). Called once per request. */
void cc_ops_call_done(struct cc_req *r, const char *code, const char *verdict);
/* A pool worker was killed or died and will be replaced. why is NULL for a
 * kill the caller reports itself (deadline, cancellation); r is the request
 * it was serving, or NULL. */
void cc_ops_worker_replaced(struct cc_server *srv, enum cc_pool_id pool, const char *why, struct cc_req *r);
/* r overran its deadline; its worker is being killed. */
void cc_ops_deadline(struct cc_req *r, double elapsed_s);

#endif
