/* Tool definitions: placeholder until this family lands. */
#include "supervisor/tool_registry.h"

const struct cc_tool cc_tooldefs_units_logic[] = {
    {.name = NULL},
};
