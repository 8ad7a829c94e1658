/* The registered tools: the definitions of supervisor/mcp/tool_registry.h filtered by
 * CODECALC_TOOLS, with their schemas parsed and their tools/list entries
 * pre-rendered as JSON text (tools/list is then string concatenation). */
#ifndef CC_REGISTRY_H
#define CC_REGISTRY_H

#include <jansson.h>
#include <stddef.h>

#include "supervisor/mcp/tool_registry.h"

struct cc_reg_entry {
    const struct cc_tool *tool;
    json_t *input_schema;    /* owned */
    char *listing;           /* owned JSON text of the tools/list entry */
};

struct cc_registry {
    struct cc_reg_entry *e;
    size_t n;
};

/* Build from every tooldefs table. groups_env is CODECALC_TOOLS (may be
 * NULL). Returns 0, or -1 with a message in err (unknown group: fatal). */
int cc_registry_load(struct cc_registry *r, const char *groups_env, char *err, size_t errcap);
void cc_registry_free(struct cc_registry *r);
const struct cc_reg_entry *cc_registry_find(const struct cc_registry *r, const char *name);

#endif
