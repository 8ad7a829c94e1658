/* Tool definitions: placeholder until this family lands. */
#include "supervisor/tool_registry.h"

const struct cc_tool cc_tooldefs_symbolic[] = {
    {.name = NULL},
};
