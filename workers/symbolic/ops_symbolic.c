/* The CAS-backed tools of the symbolic worker, by op name. */
#include "workers/common/tool_api.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

const struct cc_tool_def cc_ops_symbolic[] = {
    {"evaluate_expression", cc_tool_evaluate_expression},
    {"simplify_expression", cc_tool_simplify_expression},
    {"solve_expression", cc_tool_solve_expression},
    {"limit_expression", cc_tool_limit_expression},
    {"algebraic_equiv", cc_tool_algebraic_equiv},
    {"solve_linear", cc_tool_solve_linear},
    {"matrix", cc_tool_matrix},
    {NULL, NULL},
};

void cc_symbolic_warmup(void) {
    struct cc_sym_err err;
    /* a failure here resurfaces as a coded error on the first request */
    (void)cc_giac_init(&err);
}
