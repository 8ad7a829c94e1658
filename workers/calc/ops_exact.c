/* The exact-arithmetic tools hosted by the calc worker. */
#include "workers/calc/calc_exact.h"
#include "workers/common/tool_api.h"

const struct cc_tool_def cc_ops_exact[] = {
    {"calc_exact", cc_calc_exact},
    {"compare_threshold", cc_compare_threshold},
    {NULL, NULL},
};
