/* The registered tools: the rows of the tool table (supervisor/mcp/
 * tool_table.h) that CODECALC_TOOLS selects, each with its input schema
 * compiled into a validator once, at load. tools/list is the concatenation
 * of the rows' pre-rendered listings. */
#ifndef CC_REGISTRY_H
#define CC_REGISTRY_H

#include <stddef.h>

#include "supervisor/mcp/schema_check.h"
#include "supervisor/mcp/tool_table.h"

struct cc_reg_entry {
    const struct cc_tool *tool;
    const char *listing;             /* borrowed: tool->listing */
    struct cc_validator *validator;  /* owned */
};

struct cc_registry {
    struct cc_reg_entry *e;
    size_t n;
};

/* Select the rows of groups_env (CODECALC_TOOLS, may be NULL; test-only
 * rows only with CODECALC_TEST_OPS=1). Returns 0, or -1 with a message in
 * err (an unknown group is fatal, TOOLS.md 0.4). */
int cc_registry_load(struct cc_registry *r, const char *groups_env, char *err, size_t errcap);
void cc_registry_free(struct cc_registry *r);
const struct cc_reg_entry *cc_registry_find(const struct cc_registry *r, const char *name);

#endif
