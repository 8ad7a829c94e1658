/* The tool registry: every tool the server can expose, with its schemas, its
 * group (TOOLS.md 0.4), its response deadline (0.6) and where it runs.
 *
 * Tool definitions live in supervisor/tooldefs_*.c, one file per family, each
 * exporting a table terminated by an entry whose name is NULL. Schemas are
 * JSON text, parsed once at startup; a malformed schema is a fatal startup
 * error (caught by the unit tests, never by a user).
 */
#ifndef CC_TOOL_REGISTRY_H
#define CC_TOOL_REGISTRY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

enum cc_route {
    CC_ROUTE_CALC,      /* workers/calc (codecalc-calc) */
    CC_ROUTE_SYMBOLIC,  /* workers/symbolic (codecalc-symbolic) */
    CC_ROUTE_EXEC,      /* workers/exec (codecalc-exec) */
    CC_ROUTE_LOCAL,     /* answered inside the supervisor (sessions, runs) */
};

/* MCP tool annotations. */
enum {
    CC_HINT_READONLY    = 1u << 0,
    CC_HINT_DESTRUCTIVE = 1u << 1,
    CC_HINT_IDEMPOTENT  = 1u << 2,
    CC_HINT_OPENWORLD   = 1u << 3,
};

struct cc_tool {
    const char *name;          /* "calc_exact" */
    const char *title;         /* "Exact arithmetic" */
    const char *group;         /* "calculator", "verification", "execution", ... */
    enum cc_route route;
    int deadline_s;            /* TOOLS.md 0.6 */
    unsigned hints;            /* CC_HINT_* */
    const char *description;   /* what a model reads to choose the tool */
    const char *input_schema;  /* JSON Schema text (object) */
    const char *output_schema; /* JSON Schema text, or NULL for a plain object */
    bool array_result;         /* structuredContent is {"result": [...]} */
};

extern const struct cc_tool cc_tooldefs_exact[];
extern const struct cc_tool cc_tooldefs_programmer[];
extern const struct cc_tool cc_tooldefs_units_logic[];
extern const struct cc_tool cc_tooldefs_symbolic[];
extern const struct cc_tool cc_tooldefs_exec[];
extern const struct cc_tool cc_tooldefs_runs[];
extern const struct cc_tool cc_tooldefs_sessions[];

#endif
