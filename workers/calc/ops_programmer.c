/* The dispatch table of the programmer-mode calculator tools (TOOLS.md
 * 3.3.3-3.3.15) hosted by the calc worker. Each handler lives in the file
 * named after its tool and is declared in programmer_tools.h. */
#include "workers/calc/programmer_tools.h"

const struct cc_tool_def cc_ops_programmer[] = {
    {"percentage", cc_prog_percentage},
    {"calc_stats", cc_prog_calc_stats},
    {"percentiles", cc_prog_percentiles},
    {"collision_probability", cc_prog_collision_probability},
    {"data_sizes", cc_prog_data_sizes},
    {"human_duration", cc_prog_human_duration},
    {"epoch_time", cc_prog_epoch_time},
    {"base_repr", cc_prog_base_repr},
    {"radix_convert", cc_prog_radix_convert},
    {"float_repr", cc_prog_float_repr},
    {"int_widths", cc_prog_int_widths},
    {"bit_analysis", cc_prog_bit_analysis},
    {"bitop", cc_prog_bitop},
    {NULL, NULL},
};
