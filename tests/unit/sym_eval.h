/* Helpers shared by the symbolic unit tests that drive evaluate_expression
 * directly (no worker, no MCP): one call, a field of its result, and the
 * assertion on the printed expression that names the input on failure.
 * Include after check.h. The caller releases what sym_eval returns. */
#ifndef CC_TEST_SYM_EVAL_H
#define CC_TEST_SYM_EVAL_H

#include <stdio.h>
#include <string.h>

#include "workers/symbolic/sym_tools.h"

static inline json_t *sym_eval(const char *expr) {
    json_t *args = json_pack("{s:s}", "expression", expr);
    json_t *r = cc_tool_evaluate_expression(args, NULL);
    json_decref(args);
    return r;
}

static inline const char *sym_str(json_t *r, const char *k) {
    return json_string_value(json_object_get(r, k));
}

/* evaluate_expression(expr) prints exactly want */
static inline void sym_expect(const char *expr, const char *want) {
    json_t *r = sym_eval(expr);
    const char *got = sym_str(r, "expression");
    if (!got || strcmp(got, want))
        fprintf(stderr, "  %s: got %s, want %s\n", expr, got ? got : "(none)", want);
    CHECK_STREQ(got, want);
    json_decref(r);
}

#endif
