/* Issue 12, tenth round (redsym10): a polynomial system's solutions
 * dropped (the roots of an irreducible factor of the eliminant), refused
 * (roots without radicals) or denied ([] for eight solutions), and
 * holds_for "x > 0" claimed where small positive x refute it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/symbolic/sym_tools.h"

static json_t *linear(const char *sys, const char *vars) {
    json_t *args = json_pack("{s:s, s:s}", "system", sys, "variables", vars);
    json_t *r = cc_tool_solve_linear(args, NULL);
    json_decref(args);
    return r;
}

static const char *sol(json_t *r, size_t i) {
    return json_string_value(json_array_get(json_object_get(r, "solutions"), i));
}

static bool has_sol(json_t *r, const char *want) {
    json_t *sols = json_object_get(r, "solutions");
    for (size_t i = 0; i < json_array_size(sols); i++)
        if (!strcmp(json_string_value(json_array_get(sols, i)), want))
            return true;
    fprintf(stderr, "  missing solution %s\n", want);
    return false;
}

/* x**5 - 2*x + y = 1; y = 1 answered only {x: 0, y: 1}: giac's system
 * solve dropped the four roots of x**4 = 2 */
static void test_solve_linear_system_dropped_roots_of_a_factor(void) {
    json_t *r = linear("x**5 - 2*x + y = 1; y = 1", "x, y");
    CHECK_INTEQ(json_integer_value(json_object_get(r, "count")), 5);
    CHECK(has_sol(r, "{x: 0, y: 1}"));
    CHECK(has_sol(r, "{x: 2**(1/4), y: 1}"));
    CHECK(has_sol(r, "{x: -2**(1/4)*I, y: 1}"));
    CHECK(json_object_get(r, "approximate") == NULL);
    json_decref(r);
}

/* x**5 + x*y = 1; y = 1 was refused (the roots of x**3 + x**2 - 1 only as
 * rootof): numeric roots now, said so as solve_expression does */
static void test_solve_linear_refused_roots_without_radicals(void) {
    json_t *r = linear("x**5 + x*y = 1; y = 1", "x, y");
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK_INTEQ(json_integer_value(json_object_get(r, "count")), 5);
    CHECK_STREQ(sol(r, 0), "{x: 0.754877666246693, y: 1}");
    CHECK(has_sol(r, "{x: -0.877438833123346 + 0.744861766619744*I, y: 1}"));
    CHECK(has_sol(r, "{x: 1/2 + sqrt(3)*I/2, y: 1}"));
    CHECK(json_is_true(json_object_get(r, "approximate")));
    const char *note = json_string_value(json_object_get(r, "note"));
    CHECK(note && !strncmp(note, "numeric roots:", 14));
    json_decref(r);
}

/* x**3*y = 2; x*y**3 = 2 was an error (giac's [] unproven); it has 8
 * solutions, x = y = 2**(1/4) among them */
static void test_solve_linear_eight_solutions_denied(void) {
    json_t *r = linear("x**3*y = 2; x*y**3 = 2", "x, y");
    CHECK_INTEQ(json_integer_value(json_object_get(r, "count")), 8);
    CHECK(has_sol(r, "{x: 2**(1/4), y: 2**(1/4)}"));
    CHECK(has_sol(r, "{x: -2**(1/4)*I, y: -2**(1/4)*I}"));
    json_decref(r);
    /* a system giac solves completely is answered as before */
    r = linear("x**2 + y**2 = 5; x*y = 2", "x, y");
    CHECK_INTEQ(json_integer_value(json_object_get(r, "count")), 4);
    CHECK_STREQ(sol(r, 0), "{x: 1, y: 2}");
    json_decref(r);
}

/* holds_for said "x > 0" for 1/acos(cos(1/x)) vs x, false at x = 0.15
 * (1/x > pi): the positive samples now start at 1/8 */
static void test_holds_for_positive_missed_small_x(void) {
    json_t *args = json_pack("{s:s, s:s}", "a", "1/(acos(cos(1/x)))", "b", "1/(1/x)");
    json_t *r = cc_tool_algebraic_equiv(args, NULL);
    CHECK(json_is_false(json_object_get(r, "identical")));
    CHECK(json_object_get(r, "holds_for") == NULL);
    json_decref(r);
    json_decref(args);
    args = json_pack("{s:s, s:s}", "a", "log(x*y)", "b", "log(x) + log(y)");
    r = cc_tool_algebraic_equiv(args, NULL);
    CHECK_STREQ(json_string_value(json_object_get(r, "holds_for")), "x > 0, y > 0");
    json_decref(r);
    json_decref(args);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_solve_linear_system_dropped_roots_of_a_factor);
    RUN(test_solve_linear_refused_roots_without_radicals);
    RUN(test_solve_linear_eight_solutions_denied);
    RUN(test_holds_for_positive_missed_small_x);
    return check_summary("sym_redsym10");
}
