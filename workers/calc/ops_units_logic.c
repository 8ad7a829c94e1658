/* The calc worker's units-and-logic tools: unit conversion, physical
 * constants, the unit list and truth tables. */
#include "workers/calc/units.h"
#include "workers/common/tool_api.h"

/* Handlers defined in constants.c and truth_table.c. */
json_t *cc_op_physical_constants(json_t *args, cc_wctx *ctx);
json_t *cc_op_truth_table(json_t *args, cc_wctx *ctx);

const struct cc_tool_def cc_ops_units_logic[] = {
    {"convert_units", cc_op_convert_units},
    {"physical_constants", cc_op_physical_constants},
    {"list_units", cc_op_list_units},
    {"truth_table", cc_op_truth_table},
    {NULL, NULL},
};
