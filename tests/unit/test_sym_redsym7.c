/* Regression tests of the seventh red-team round on the symbolic tools
 * (tests/crosscheck/independent/generated-redsym7.json): inequalities
 * giac decided as it built them (x**2 + 1 > 0 answered [] for "every x",
 * (x - 1)**2 > 0 [] though it holds for x != 1, cos(x) > 2 ["x"]), >= and
 * <= split at their '=' (a parse error) and != read as a factorial
 * (x**2 != 4 answered -2 and 2), sets right only for some values of a
 * parameter (a*x > 1 answered []), and alternating sums from n = 2 or 3
 * whose closed form had the wrong sign. Each asserts the exact set (SymPy 1.14's
 * solveset) or the exact refusal, and the sums' values (mpmath's). */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/common/expr_parse.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_ineq.h"
#include "workers/symbolic/sym_tools.h"

/* giac evaluates a polynomial inequality to True or False as it builds it
 * (its sign for a generic real x), and its solver then said [] for True
 * and ["x"] for False */
static void test_inequality_decided_at_build_was_wrong_set(void) {
    sym_expect_set("x**2 + 1 > 0", "[\"True\"]");
    sym_expect_set("x**2 > -3", "[\"True\"]");
    sym_expect_set("x**2 < 0", "[]");
    sym_expect_set("cos(x) > 2", "[]");
    sym_expect_set("(x - 1)**2 > 0", "[\"x < 1\",\"x > 1\"]");
    sym_expect_set("x**2 - 2*x + 1 > 0", "[\"x < 1\",\"x > 1\"]");
    sym_expect_set("(x - 3)**4 > 0", "[\"x < 3\",\"x > 3\"]");
    sym_expect_set("(x - 1)**2 <= 0", "[\"Eq(x, 1)\"]");
    sym_expect_set("(x - 1)**2 >= 0", "[\"True\"]");
    /* answers the CAS had right stand */
    sym_expect_set("x**2 > 4", "[\"x < -2\",\"x > 2\"]");
    sym_expect_set("x**3 > x", "[\"And(x > -1, x < 0)\",\"x > 1\"]");
    sym_expect_set("sqrt(x) < 2", "[\"And(x >= 0, x < 4)\"]");
    sym_expect_set("1/x > 1", "[\"And(x > 0, x < 1)\"]");
    sym_expect_set("log(x - 1) < 0", "[\"And(x > 1, x < 2)\"]");
    sym_expect_set("x > a", "[\"x > a\"]");
    /* an isolated point of a non-strict set (giac's bare "-2") is Eq(x, -2) */
    sym_expect_set("(x + 2)**2*x >= 0", "[\"Eq(x, -2)\",\"x >= 0\"]");
    /* x*exp(x) at x = -10**6 is -10**-434288: negative, not a tie (the
     * right set was refused as refuted there) */
    sym_expect_set("x*exp(x) >= 0", "[\"x >= 0\"]");
    /* giac's bare "x" is read as every x, and checked */
    sym_expect_set("exp(x) >= x", "[\"True\"]");
    /* a root and a bound equal but for their last bits: the points between
     * them are no evidence (these right sets were refused) */
    sym_expect_set("1/(x - 2)**2 > 5", "[\"And(x > 2 - sqrt(5)/5, x < 2)\",\"And(x > 2, x < 2 + sqrt(5)/5)\"]");
    sym_expect_set("(x - 3)/(x - 7) > -2", "[\"x < 17/3\",\"x > 7\"]");
}

/* x**2 >= 4 was split at its '=' ("x**2 >" = "4": a parse error) and
 * x**2 != 4 read as x**(2!) = 4, answered ["-2", "2"] */
static void test_ge_le_ne_split_at_their_equals_sign(void) {
    sym_expect_set("x**2 >= 4", "[\"x <= -2\",\"x >= 2\"]");
    sym_expect_set("Abs(x - 1) <= 2", "[\"And(x >= -1, x <= 3)\"]");
    sym_expect_set("x**2 != 4", "[\"x < -2\",\"And(x > -2, x < 2)\",\"x > 2\"]");
    sym_expect_set("x != 3", "[\"x < 3\",\"x > 3\"]");
    sym_expect_refused("sin(x) != 0", "infinitely many points");
    /* an equation keeps its split, and == stays unsplit */
    json_t *r = sym_solve("x**2 = 4");
    CHECK_STREQ(sym_str(r, "equation"), "Eq(x**2, 4)");
    json_decref(r);
}

/* a*x > 1 answered [] (it holds for x > 1/a when a > 0); x**2 < a [] */
static void test_inequality_with_parameter_wrong_for_some_values(void) {
    sym_expect_refused("a*x > 1", "is wrong: at x = ");
    sym_expect_refused("x**2 < a", "(a = 2)");
    sym_expect_refused("x/a > 1", "is wrong");
}

/* the check itself: a set that misses a point, or holds an extra one, is
 * refuted; the right set agrees */
static void test_ineq_check_refutes_a_wrong_set(void) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error ee = {0};
    const char *t = "(x - 1)**2 > 0";
    const struct cc_node *n = cc_expr_screen_parse(a, t, strlen(t), CC_DIALECT_SYMBOLIC, &ee);
    CHECK(n && sym_ineq_is(n));
    mpfr_t root[1];
    mpfr_init2(root[0], 128);
    mpfr_set_ui(root[0], 1, MPFR_RNDN);
    char w[256];
    const char *all[] = {"True"};
    CHECK(sym_ineq_check(n, "x", all, 1, (const mpfr_t *)root, 1, w, sizeof w) == SYM_INEQ_REFUTED);
    CHECK(strstr(w, "x = 1: the inequality fails there but the set includes it") != NULL);
    const char *right[] = {"(x) < (1)", "(x) > (1)"};
    CHECK(sym_ineq_check(n, "x", right, 2, (const mpfr_t *)root, 1, w, sizeof w) == SYM_INEQ_AGREES);
    CHECK(sym_ineq_check(n, "x", NULL, 0, (const mpfr_t *)root, 1, w, sizeof w) == SYM_INEQ_REFUTED);
    mpfr_clear(root[0]);
    cc_arena_free(a);
}

/* summation((-1)**n/n**3, (n, 2, oo)) was -1 + 3*zeta(3)/4 (-0.0985; the
 * sum is +0.0985), summation((-1)**n/n**2, (n, 2, oo)) -1 + pi**2/12 and
 * summation((-1)**n/n, (n, 3, oo)) 3/2 - log(2) (it is 1/2 - log(2)):
 * giac's forms from other starts, with the terms between, contradict them,
 * and the one a numeric estimate confirms is the answer */
static void test_alternating_sum_from_later_start_had_wrong_sign(void) {
    static const char *const sums[][2] = {
        {"summation((-1)**n/n**3, (n, 2, oo))", "1 - 3*zeta(3)/4"},
        {"summation((-1)**n/n**2, (n, 2, oo))", "1 - pi**2/12"},
        {"summation((-1)**n/n, (n, 3, oo))", "1/2 - log(2)"},
        {"summation((-1)**n/n**3, (n, 4, oo))", "197/216 - 3*zeta(3)/4"}};
    for (size_t i = 0; i < sizeof sums / sizeof *sums; i++)
        sym_check(sym_eval(sums[i][0]), sums[i][0], "expression", sums[i][1], "note",
                  "contradict each other");
    /* sums the starts and the estimate agree on stand, without a note */
    sym_expect("summation((-1)**n/n**3, (n, 1, oo))", "-3*zeta(3)/4");
    sym_expect("summation((-1)**n/n, (n, 2, oo))", "1 - log(2)");
    sym_expect("summation(1/n**2, (n, 1, oo))", "pi**2/6");
    sym_expect("summation(1/factorial(n), (n, 0, oo))", "E");
    json_t *r = sym_eval("summation(n**2/2**n, (n, 1, oo))");
    CHECK_STREQ(sym_str(r, "expression"), "6");
    CHECK(json_object_get(r, "note") == NULL);
    json_decref(r);
}

/* the order term of a series at oo was O(-oo, (x, oo)) (x - oo to a power) */
static void test_series_at_infinity_order_term_was_minus_oo(void) {
    sym_expect("series(exp(1/x), x, oo, 3)", "1 + 1/x + (1/x)**2/2 + O(x**(-3), (x, oo))");
    sym_expect("series(atan(x), x, oo, 4)", "pi/2 - 1/x + (1/x)**3/3 + O(x**(-4), (x, oo))");
    sym_expect("series(sin(x), x, 0, 4)", "x - x**3/6 + O(x**4)");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_inequality_decided_at_build_was_wrong_set);
    RUN(test_ge_le_ne_split_at_their_equals_sign);
    RUN(test_inequality_with_parameter_wrong_for_some_values);
    RUN(test_ineq_check_refutes_a_wrong_set);
    RUN(test_alternating_sum_from_later_start_had_wrong_sign);
    RUN(test_series_at_infinity_order_term_was_minus_oo);
    return check_summary("sym_redsym7");
}
