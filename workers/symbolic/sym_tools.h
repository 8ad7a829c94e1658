/* The CAS-backed tool handlers of the symbolic worker (TOOLS.md 3.3.16-18,
 * 3.3.22, 3.3.24, 3.3.25, 3.4.2), served through the generated dispatch
 * table (workers/common/dispatch.h). */
#ifndef CC_SYM_TOOLS_H
#define CC_SYM_TOOLS_H

#include "workers/common/tool_api.h"

json_t *cc_tool_evaluate_expression(json_t *args, cc_wctx *ctx);
json_t *cc_tool_simplify_expression(json_t *args, cc_wctx *ctx);
json_t *cc_tool_algebraic_equiv(json_t *args, cc_wctx *ctx);
json_t *cc_tool_solve_expression(json_t *args, cc_wctx *ctx);
json_t *cc_tool_limit_expression(json_t *args, cc_wctx *ctx);
json_t *cc_tool_solve_linear(json_t *args, cc_wctx *ctx);
json_t *cc_tool_matrix(json_t *args, cc_wctx *ctx);

/* Creates the CAS context ahead of the first request (worker warm-up). */
void cc_symbolic_warmup(void);

#endif
