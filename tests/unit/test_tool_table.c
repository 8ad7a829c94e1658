/* The generated tool table against the generated worker dispatch tables and
 * the pool definitions: every row routed to a worker pool has a handler in
 * that pool's dispatch (the link already guarantees the handler exists),
 * every dispatch entry has its row, every local row has its handler, and
 * each row's columns are consistent. */
#include <stdlib.h>
#include <string.h>

#include "supervisor/mcp/registry.h"
#include "supervisor/mcp/tool_table.h"
#include "tests/unit/check.h"
#include "workers/common/dispatch.h"

static const struct cc_tool_def *dispatch_of(enum cc_pool_id id) {
    switch (id) {
    case CC_POOL_CALC: return cc_dispatch_calc;
    case CC_POOL_SYMBOLIC: return cc_dispatch_symbolic;
    case CC_POOL_EXEC: return cc_dispatch_exec;
    case CC_POOL_ANALYSIS: return cc_dispatch_analysis;
    default: return NULL;
    }
}

static const struct cc_tool_def *find_op(const struct cc_tool_def *d, const char *name) {
    for (; d && d->op; d++)
        if (strcmp(d->op, name) == 0) return d;
    return NULL;
}

static void every_row_has_its_handler(void) {
    CHECK(cc_tools_count > 30);
    for (size_t i = 0; i < cc_tools_count; i++) {
        const struct cc_tool *t = &cc_tools[i];
        if (t->pool == CC_POOL_LOCAL) {
            CHECK(t->local != NULL);
            CHECK(find_op(cc_dispatch_calc, t->name) == NULL);
            continue;
        }
        CHECK(t->local == NULL);
        const struct cc_tool_def *d = find_op(dispatch_of(t->pool), t->name);
        CHECK(d != NULL && d->fn != NULL);
        if (d) CHECK_INTEQ(d->test_only, !!(t->flags & CC_TOOL_TEST_ONLY));
    }
}

static void every_dispatch_entry_has_its_row(void) {
    for (int p = 0; p < CC_WORKER_POOLS; p++) {
        int n = 0;
        for (const struct cc_tool_def *d = dispatch_of(p); d->op; d++, n++) {
            const struct cc_tool *t = cc_tool_lookup(d->op);
            CHECK(t != NULL);
            if (t) CHECK_INTEQ(t->pool, p);
        }
        CHECK(n > 0);
    }
}

static void pools_are_defined(void) {
    for (int p = 0; p < CC_POOL_COUNT; p++) {
        const struct cc_pool_def *d = &cc_pool_defs[p];
        CHECK(d->name != NULL);
        if (p < CC_WORKER_POOLS) {
            CHECK(d->binary != NULL && strncmp(d->binary, "codecalc-", 9) == 0);
            CHECK(d->max >= 1 && d->min <= d->max);
            CHECK(d->cancel != CC_CANCEL_NONE);
        } else {
            CHECK(d->binary == NULL);
            CHECK_INTEQ(d->cancel, CC_CANCEL_NONE);
        }
    }
    CHECK_STREQ(cc_pool_defs[CC_POOL_EXEC].max_env, "CODECALC_MAX_EXEC_WORKERS");
    CHECK_INTEQ(cc_pool_defs[CC_POOL_EXEC].cancel, CC_CANCEL_FRAME);
    CHECK_INTEQ(cc_pool_defs[CC_POOL_CALC].cancel, CC_CANCEL_REPLACE);
}

/* The columns routing reads, for the rows whose behaviour tests elsewhere
 * pin: the guard of TOOLS.md 2.5, the state directory, session routing. */
static void columns_match_the_spec(void) {
    const char *guarded[] = {"calc_exact", "compare_threshold", "evaluate_expression",
                             "simplify_expression", "solve_expression", "limit_expression",
                             "solve_linear", "matrix", "algebraic_equiv"};
    for (size_t i = 0; i < sizeof guarded / sizeof *guarded; i++) {
        const struct cc_tool *t = cc_tool_lookup(guarded[i]);
        CHECK(t && (t->flags & CC_TOOL_GUARDED) && t->deadline_s == CC_GUARD_WALL_S);
    }
    const struct cc_tool *z3 = cc_tool_lookup("z3_check");
    CHECK(z3 && !(z3->flags & CC_TOOL_GUARDED) && z3->deadline_s == 30);
    CHECK_INTEQ(cc_tool_lookup("run_inspect")->deadline_s, 10);
    CHECK_INTEQ(cc_tool_lookup("truth_table")->deadline_s, 20);
    for (size_t i = 0; i < cc_tools_count; i++) {
        const struct cc_tool *t = &cc_tools[i];
        /* execute_code needs the state directory only with a session_id
         * (session_exec); a plain run works beside a running server. */
        bool state = !strncmp(t->name, "session_", 8) || !strncmp(t->name, "run_", 4) ||
                     !strcmp(t->name, "install_package");
        CHECK_INTEQ(!!(t->flags & CC_TOOL_STATE_DIR), state);
        CHECK_INTEQ(!!(t->flags & CC_TOOL_SESSION_EXEC), !strcmp(t->name, "execute_code"));
        CHECK(t->source && strstr(t->source, t->name) != NULL);
        bool known_group = false;
        for (int g = 0; cc_tool_groups[g]; g++) known_group |= !strcmp(cc_tool_groups[g], t->group);
        CHECK(known_group);
    }
    CHECK(cc_tool_lookup("no_such_tool") == NULL);
}

static void every_input_schema_is_closed_and_compiles(void) {
    for (size_t i = 0; i < cc_tools_count; i++) {
        char err[256] = "";
        struct cc_validator *v = cc_validator_compile_text(cc_tools[i].input_schema, err, sizeof err);
        CHECK(v != NULL);
        if (!v) {
            fprintf(stderr, "%s: %s\n", cc_tools[i].name, err);
            continue;
        }
        json_t *args = json_pack("{s:i}", "__not_a_parameter", 1);
        char msg[512];
        CHECK(cc_validator_check(v, args, msg, sizeof msg) < 0);
        CHECK(strstr(msg, "__not_a_parameter") != NULL);
        json_decref(args);
        cc_validator_free(v);
    }
}

int main(void) {
    RUN(every_row_has_its_handler);
    RUN(every_dispatch_entry_has_its_row);
    RUN(pools_are_defined);
    RUN(columns_match_the_spec);
    RUN(every_input_schema_is_closed_and_compiles);
    return check_summary("tool_table");
}
