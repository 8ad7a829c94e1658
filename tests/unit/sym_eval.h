/* Helpers shared by the symbolic unit tests that drive the tools directly
 * (evaluate_expression, limit_expression, solve_expression, solve_linear,
 * algebraic_equiv;
 * no worker, no MCP): one call, a field of its result, and the assertions
 * on the answer that name the input on failure.
 * Include after check.h. The caller releases what sym_eval returns. */
#ifndef CC_TEST_SYM_EVAL_H
#define CC_TEST_SYM_EVAL_H

#include <stdio.h>
#include <stdlib.h>
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

/* evaluate_expression(expr)'s field is exactly want */
static inline void sym_expect_field(const char *expr, const char *field, const char *want) {
    json_t *r = sym_eval(expr);
    const char *got = sym_str(r, field);
    if (!got || strcmp(got, want))
        fprintf(stderr, "  %s: %s %s, want %s\n", expr, field, got ? got : "(none)", want);
    CHECK_STREQ(got, want);
    json_decref(r);
}

/* evaluate_expression(expr) prints exactly want */
static inline void sym_expect(const char *expr, const char *want) {
    sym_expect_field(expr, "expression", want);
}

/* solve_linear(system, variables) */
static inline json_t *sym_solve_linear(const char *sys, const char *vars) {
    json_t *args = json_pack("{s:s, s:s}", "system", sys, "variables", vars);
    json_t *r = cc_tool_solve_linear(args, NULL);
    json_decref(args);
    return r;
}

/* solve_linear's solutions, as compact JSON, are exactly want */
static inline void sym_expect_linear(const char *sys, const char *vars, const char *want) {
    json_t *r = sym_solve_linear(sys, vars);
    char *got = json_dumps(json_object_get(r, "solutions"), JSON_COMPACT);
    if (!got || strcmp(got, want))
        fprintf(stderr, "  %s: got %s, want %s\n", sys, got ? got : "(none)", want);
    CHECK_STREQ(got, want);
    free(got);
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

/* solve_expression(expr) */
static inline json_t *sym_solve(const char *expr) {
    json_t *args = json_pack("{s:s}", "expr", expr);
    json_t *r = cc_tool_solve_expression(args, NULL);
    json_decref(args);
    return r;
}

/* solve_expression(expr) gives exactly the n solutions want, in order */
static inline void sym_expect_roots(const char *expr, const char *const *want, size_t n) {
    json_t *r = sym_solve(expr);
    json_t *sol = json_object_get(r, "solutions");
    if (json_array_size(sol) != n) {
        char *d = json_dumps(r, 0);
        fprintf(stderr, "  %s: %s\n", expr, d ? d : "(null)");
        free(d);
    }
    CHECK(json_array_size(sol) == n);
    for (size_t i = 0; i < n && i < json_array_size(sol); i++)
        CHECK_STREQ(json_string_value(json_array_get(sol, i)), want[i]);
    json_decref(r);
}

/* the i-th general_solution of a solve_expression result */
static inline const char *sym_general(json_t *r, size_t i) {
    return json_string_value(json_array_get(json_object_get(r, "general_solution"), i));
}

/* algebraic_equiv(a, b) */
static inline json_t *sym_equiv(const char *a, const char *b) {
    json_t *args = json_pack("{s:s, s:s}", "a", a, "b", b);
    json_t *r = cc_tool_algebraic_equiv(args, NULL);
    json_decref(args);
    return r;
}

/* matrix with the JSON arguments given as text; NULL when they do not
 * parse */
static inline json_t *sym_matrix(const char *json) {
    json_error_t e;
    json_t *args = json_loads(json, 0, &e);
    json_t *r = args ? cc_tool_matrix(args, NULL) : NULL;
    json_decref(args);
    return r;
}

/* algebraic_equiv(a, b) answers identical: want (true or false, never
 * null) */
static inline void sym_expect_identical(const char *a, const char *b, bool want) {
    json_t *r = sym_equiv(a, b);
    json_t *got = json_object_get(r, "identical");
    if (want ? !json_is_true(got) : !json_is_false(got))
        fprintf(stderr, "  %s vs %s: identical %s, want %s\n", a, b,
                json_is_true(got) ? "true" : json_is_false(got) ? "false" : "null",
                want ? "true" : "false");
    CHECK(want ? json_is_true(got) : json_is_false(got));
    json_decref(r);
}

/* r (a tool's result for the input label) has field equal to want and its
 * field text (note, error) holding part; a NULL want or part is not
 * checked. Releases r. */
static inline void sym_check(json_t *r, const char *label, const char *field, const char *want,
                             const char *text, const char *part) {
    const char *got = field ? sym_str(r, field) : NULL;
    const char *t = text ? sym_str(r, text) : NULL;
    if ((want && (!got || strcmp(got, want))) || (part && (!t || !strstr(t, part))))
        fprintf(stderr, "  %s: %s %s, want %s; %s %s\n", label, field ? field : "", got ? got : "(none)",
                want ? want : "-", text ? text : "", t ? t : "(none)");
    if (want)
        CHECK_STREQ(got, want);
    if (part)
        CHECK(t && strstr(t, part));
    json_decref(r);
}

/* solve_expression(expr) gives exactly the regions want (a JSON array) */
static inline void sym_expect_set(const char *expr, const char *want) {
    json_t *r = sym_solve(expr);
    char *got = json_dumps(json_object_get(r, "solutions"), JSON_COMPACT);
    if (!got || strcmp(got, want))
        fprintf(stderr, "  %s: got %s, want %s (%s)\n", expr, got ? got : "(none)", want,
                sym_str(r, "error") ? sym_str(r, "error") : "");
    CHECK_STREQ(got, want);
    free(got);
    json_decref(r);
}

/* solve_expression(expr) is refused (validation) with error holding part */
static inline void sym_expect_refused(const char *expr, const char *part) {
    json_t *r = sym_solve(expr);
    CHECK_STREQ(sym_str(r, "code"), "validation");
    sym_check(r, expr, NULL, NULL, "error", part);
}

#endif
