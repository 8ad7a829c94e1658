/* The symbolic worker's SMT tool. */
#include "workers/common/tool_api.h"

/* Defined in z3_check.c. */
json_t *cc_op_z3_check(json_t *args, cc_wctx *ctx);

const struct cc_tool_def cc_ops_z3[] = {
    {"z3_check", cc_op_z3_check},
    {NULL, NULL},
};
