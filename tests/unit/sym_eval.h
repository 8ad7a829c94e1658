/* Helpers shared by the symbolic unit tests that drive evaluate_expression
 * and limit_expression directly (no worker, no MCP): one call, a field of
 * its result, and the assertion on the printed answer that names the input
 * on failure.
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

/* limit_expression(expr) at point, from direction dir (NULL: the tool's
 * default) */
static inline json_t *sym_limit_at(const char *expr, const char *point, const char *dir) {
    json_t *args = json_pack("{s:s, s:s}", "expr", expr, "point", point);
    if (dir) json_object_set_new(args, "direction", json_string(dir));
    json_t *r = cc_tool_limit_expression(args, NULL);
    json_decref(args);
    return r;
}

/* limit_expression(expr) at point gives exactly want */
static inline void sym_expect_limit(const char *expr, const char *point, const char *want) {
    json_t *r = sym_limit_at(expr, point, NULL);
    const char *got = sym_str(r, "limit");
    if (!got || strcmp(got, want))
        fprintf(stderr, "  limit %s at %s: got %s, want %s (%s)\n", expr, point, got ? got : "(none)",
                want, sym_str(r, "error") ? sym_str(r, "error") : "");
    CHECK_STREQ(got, want);
    json_decref(r);
}

#endif
