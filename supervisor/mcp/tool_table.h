/* The tool table: every tool the server can expose, described once in
 * protocol/tools/<group>/<name>.json and turned into C at build time by
 * scripts/gen-tools (the generated file is $(BUILD)/gen/tool_table.c).
 *
 * The supervisor reads this table for tools/list (each row carries its
 * listing pre-rendered), argument validation (input_schema), routing (pool,
 * local handler) and deadlines. Each worker's dispatch table is generated
 * from the same rows (workers/common/dispatch.h), so a row whose handler
 * does not exist fails to link. No tool name appears in routing code: what
 * routing needs to know about a tool is a column here.
 */
#ifndef CC_TOOL_TABLE_H
#define CC_TOOL_TABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct cc_server;
struct cc_req;

/* Where a tool runs. The worker pools come first; CC_POOL_LOCAL tools are
 * answered inside the supervisor. Defined by protocol/tools/pools.json. */
enum cc_pool_id { CC_POOL_CALC, CC_POOL_SYMBOLIC, CC_POOL_EXEC, CC_POOL_ANALYSIS, CC_POOL_LOCAL, CC_POOL_COUNT };
#define CC_WORKER_POOLS CC_POOL_LOCAL /* pools backed by worker processes */

/* How a cancelled call (notifications/cancelled, client gone) is stopped. */
enum cc_cancel {
    CC_CANCEL_REPLACE, /* the worker cannot stop mid-computation: kill and replace it */
    CC_CANCEL_FRAME,   /* send a cancel frame; the worker stops the work and stays */
    CC_CANCEL_NONE,    /* answered in the supervisor; the answer is dropped */
};

struct cc_pool_def {
    const char *name;     /* the hello a worker of this pool sends; "local" */
    const char *binary;   /* worker binary beside codecalc; NULL for local */
    int min, max;         /* workers started up front; cap when calls queue */
    const char *max_env;  /* environment variable overriding max, or NULL */
    enum cc_cancel cancel;
    int pipeline;         /* requests a worker may hold at once (sent ahead of
                             its answers); 1 = one at a time */
};

/* The largest "pipeline" of pools.json (scripts/gen-tools checks it). */
#define CC_PIPELINE_MAX 32

extern const struct cc_pool_def cc_pool_defs[CC_POOL_COUNT];

/* Row flags (the "flags" list of a tool's JSON). */
enum {
    CC_TOOL_GUARDED = 1u << 0,      /* deadline "guard": the 15 s evaluation bound of TOOLS.md 2.5 */
    CC_TOOL_STATE_DIR = 1u << 1,    /* needs the state directory and its lock */
    CC_TOOL_SESSION_EXEC = 1u << 2, /* a session_id hands the call to the sessions layer */
    CC_TOOL_PROGRESS = 1u << 3,     /* streams progress notifications */
    CC_TOOL_ARRAY_RESULT = 1u << 4, /* structuredContent is {"result": [...]} */
    CC_TOOL_TEST_ONLY = 1u << 5,    /* registered only with CODECALC_TEST_OPS=1 */
    CC_TOOL_TIMEOUT_DEADLINE = 1u << 6, /* a "timeout" argument bounds the work: the
                                         * deadline is it plus a margin (methods.c) */
};

/* TOOLS.md 2.5: the guarded evaluation's wall clock, the deadline of every
 * row whose deadline class is "guard". */
#define CC_GUARD_WALL_S 15

/* A tool answered inside the supervisor. It owns the request from then on
 * and must answer it exactly once, now or later, never block the loop. */
typedef void (*cc_local_fn)(struct cc_server *srv, struct cc_req *r, json_t *args);

struct cc_tool {
    const char *name;          /* "calc_exact" */
    const char *title;         /* "Exact arithmetic" */
    const char *group;         /* TOOLS.md 0.4 */
    enum cc_pool_id pool;
    int deadline_s;            /* TOOLS.md 0.6, or CC_GUARD_WALL_S when guarded */
    unsigned flags;            /* CC_TOOL_* */
    const char *description;
    const char *input_schema;  /* JSON Schema text, closed (additionalProperties: false) */
    const char *listing;       /* the tools/list entry, JSON text */
    const char *source;        /* the JSON file the row came from */
    cc_local_fn local;         /* pool local: cc_local_<name>; else NULL */
};

extern const struct cc_tool cc_tools[];
extern const size_t cc_tools_count;

/* The groups of TOOLS.md 0.4 in listing order, and the presets naming
 * several of them; both NULL-terminated. A preset's groups is a
 * comma-separated list. */
extern const char *const cc_tool_groups[];
struct cc_tool_preset {
    const char *name;
    const char *groups;
};
extern const struct cc_tool_preset cc_tool_presets[];

/* The row of name in the whole table (whatever CODECALC_TOOLS says), or NULL. */
const struct cc_tool *cc_tool_lookup(const char *name);
/* false for a test-only row unless CODECALC_TEST_OPS=1. */
bool cc_tool_offered(const struct cc_tool *t);

#endif
