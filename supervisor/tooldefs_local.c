/* Tool definitions: placeholder until this family lands. */
#include "supervisor/tool_registry.h"

const struct cc_tool cc_tooldefs_local[] = {
    {.name = NULL},
};
