/* The programmer-mode calculator tools (TOOLS.md 3.3.3-3.3.15), one handler
 * per tool, each defined in the file named after its tool.
 *
 * Declared once here and included by the defining file and by the unit
 * tests, so a handler whose signature drifts from cc_tool_fn is a compile
 * error instead of a silent mismatch (the generated dispatch table
 * declares each with CC_TOOL, the same signature).
 *
 * Ownership follows tool_api.h: args are borrowed, the result is a new
 * reference owned by the caller.
 */
#ifndef CC_CALC_PROGRAMMER_TOOLS_H
#define CC_CALC_PROGRAMMER_TOOLS_H

#include "workers/common/tool_api.h"

json_t *cc_tool_percentage(json_t *args, cc_wctx *ctx);
json_t *cc_tool_calc_stats(json_t *args, cc_wctx *ctx);
json_t *cc_tool_percentiles(json_t *args, cc_wctx *ctx);
json_t *cc_tool_collision_probability(json_t *args, cc_wctx *ctx);
json_t *cc_tool_data_sizes(json_t *args, cc_wctx *ctx);
json_t *cc_tool_human_duration(json_t *args, cc_wctx *ctx);
json_t *cc_tool_epoch_time(json_t *args, cc_wctx *ctx);
json_t *cc_tool_base_repr(json_t *args, cc_wctx *ctx);
json_t *cc_tool_radix_convert(json_t *args, cc_wctx *ctx);
json_t *cc_tool_float_repr(json_t *args, cc_wctx *ctx);
json_t *cc_tool_int_widths(json_t *args, cc_wctx *ctx);
json_t *cc_tool_bit_analysis(json_t *args, cc_wctx *ctx);
json_t *cc_tool_bitop(json_t *args, cc_wctx *ctx);

#endif
