/* Issue 12, ninth round (redsym9): a float residue printed for a variable
 * a system fixes exactly, infinite products giac has no value for,
 * N(polylog(2, z), d) refused and N(besselj(0, z), d) at 15 digits,
 * radicals left unsimplified, Sum(f, n, 1, oo) printed without the limits
 * tuple, and simplify's whole-sum hyperbolic candidates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/sym_tools.h"

static json_t *linear(const char *sys, const char *vars) {
    json_t *args = json_pack("{s:s, s:s}", "system", sys, "variables", vars);
    json_t *r = cc_tool_solve_linear(args, NULL);
    json_decref(args);
    return r;
}

static json_t *simplify(const char *expr) {
    json_t *args = json_pack("{s:s}", "expr", expr);
    json_t *r = cc_tool_simplify_expression(args, NULL);
    json_decref(args);
    return r;
}

/* x**5 - x + y = 1; y = 0 printed y: 3.5527136788005e-14 (and 1.07e-14,
 * 2.84e-14) beside each float x: giac's numeric fallback's residue for
 * the exact 0 that y = 0 states */
static void test_solve_linear_printed_residue_for_exact_zero(void) {
    json_t *r = linear("x**5 - x + y = 1; y = 0", "x, y");
    json_t *sols = json_object_get(r, "solutions");
    CHECK_INTEQ(json_array_size(sols), 5);
    for (size_t i = 0; i < json_array_size(sols); i++) {
        const char *s = json_string_value(json_array_get(sols, i));
        if (!s || !strstr(s, ", y: 0}") || strstr(s, "e-"))
            fprintf(stderr, "  solution %zu: %s\n", i, s ? s : "(none)");
        CHECK(s && strstr(s, ", y: 0}") && !strstr(s, "e-"));
    }
    CHECK_STREQ(json_string_value(json_array_get(sols, 4)), "{x: 1.16730397826142, y: 0}");
    json_decref(r);
    /* the fixed value is not 0: the exact root the float is near */
    r = linear("x**5 + x*z = 1; z = 1/2", "x, z");
    sols = json_object_get(r, "solutions");
    for (size_t i = 0; i < json_array_size(sols); i++)
        CHECK(strstr(json_string_value(json_array_get(sols, i)), ", z: 1/2}"));
    json_decref(r);
}

/* x**2*y = 2; x*y**2 = 2 gave x = 8/((-1 + sqrt(3)*I)**2*(2**(1/3))**2)
 * for the rootof giac wrote, beside y = 2**(1/3)*(-1/2 + sqrt(3)*I/2): the
 * same number */
static void test_radical_for_rootof_unsimplified(void) {
    json_t *r = linear("x**2*y = 2; x*y**2 = 2", "x, y");
    json_t *sols = json_object_get(r, "solutions");
    CHECK_INTEQ(json_array_size(sols), 3);
    CHECK_STREQ(json_string_value(json_array_get(sols, 1)),
                "{x: 2**(1/3)*(-1/2 + sqrt(3)*I/2), y: 2**(1/3)*(-1/2 + sqrt(3)*I/2)}");
    json_decref(r);
}

/* product(1 + 1/n**2, (n, 1, oo)) stayed Product(...) (it is
 * sinh(pi)/pi): giac has no product of it, and its product up to M is
 * wrong. The gamma-function value of a rational term, reflected into sines
 * and checked by the partial products */
static void test_product_with_complex_roots_unevaluated(void) {
    sym_expect("product(1 + 1/n**2, (n, 1, oo))", "sinh(pi)/pi");
    sym_expect("product(1 + 2/n**2, (n, 1, oo))", "sinh(sqrt(2)*pi)/(pi*sqrt(2))");
    sym_expect("product(1 - 1/n**3, (n, 2, oo))", "cosh(sqrt(3)*pi/2)/(3*pi)");
    sym_expect("product(1 + 1/(n**2 + n), (n, 1, oo))", "cosh(sqrt(3)*pi/2)/pi");
    /* as before: giac's own values, and a product the estimate refutes or
     * cannot confirm stays unevaluated */
    sym_expect("product(1 - 1/n**2, (n, 2, oo))", "1/2");
    sym_expect("product(1 + 1/n, (n, 1, oo))", "Product(1/n + 1, (n, 1, oo))");
}

/* N(polylog(2, 1/3), 40) was refused ("no closed form") and N(besselj(0,
 * 5/2), 40) printed giac's 15 digits: MPFR's li2, jn and yn, correctly
 * rounded (digits from mpmath at 100 digits) */
static void test_n_digits_of_polylog_and_bessel(void) {
    sym_expect("N(polylog(2, 1/3), 40)", "0.3662132299770634876167462976642627638021");
    sym_expect("N(polylog(2, -1/2), 30)", "-0.448414206923646202443064405916");
    sym_expect("N(besselj(0, 5/2), 40)", "-0.04838377646819799632728777885120343363181");
    sym_expect("N(bessely(1, 3), 30)", "0.324674424791799978437012839288");
    /* no evaluator: polylog(2, z > 1) stays refused (polylog(3, z) has
     * one since lead29: test_sym_polylog_numeric.c) */
    json_t *r = sym_eval("N(polylog(2, 3), 30)");
    CHECK_STREQ(sym_str(r, "code"), "validation");
    json_decref(r);
}

/* Sum(1/n**2, (n, 1, oo)) printed as Sum(1/n**2, n, 1, oo), which SymPy
 * reads as a sum over n, then over 1 and oo */
static void test_sum_printed_without_limits_tuple(void) {
    sym_expect("Sum(1/n**2, (n, 1, oo))", "Sum(1/n**2, (n, 1, oo))");
    sym_expect("Integral(exp(-x**2)*log(x), (x, 0, 1))", "Integral(exp(-x**2)*log(x), (x, 0, 1))");
    sym_check(sym_eval("product(1 + 1/n**2, (n, 1, M))"), "product up to M", "expression",
              "Product(1/n**2 + 1, (n, 1, M))", "note", "disagrees with the product term by term");
}

/* simplify took giac's simplify of the whole hyperbolic sum:
 * sinh(2*x)/sinh(x) stayed as it was */
static void test_simplify_hyperbolic_whole_sum(void) {
    static const char *const cases[][2] = {
        {"sinh(2*x)/sinh(x)", "2*cosh(x)"},
        {"sinh(x)/cosh(x) - sinh(x)*sinh(y)", "-sinh(x)*sinh(y) + tanh(x)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *r = simplify(cases[i][0]);
        sym_check(r, cases[i][0], "simplified", cases[i][1], NULL, NULL);
    }
}

/* solve(x**5 - 2*x = 0) answered [0]: giac's complex solve dropped the
 * four roots of x**4 - 2 (x*(x**4 - 2) gave all five) */
static void test_solve_dropped_roots_of_a_factor(void) {
    sym_expect_set("x**5 - 2*x = 0", "[\"-2**(1/4)\",\"0\",\"2**(1/4)\",\"-2**(1/4)*I\",\"2**(1/4)*I\"]");
    sym_expect_set("x**6 - 2*x**2 = 0", "[\"-2**(1/4)\",\"0\",\"2**(1/4)\",\"-2**(1/4)*I\",\"2**(1/4)*I\"]");
    sym_expect_set("x**3 - 2*x = 0", "[\"-sqrt(2)\",\"0\",\"sqrt(2)\"]");
    /* the completion reads the reduced numerator: a root where the
     * equation as written is 0/0 stays out */
    sym_expect_set("x**2*(x - 1)/(x**2 - x)", "[]");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_solve_linear_printed_residue_for_exact_zero);
    RUN(test_radical_for_rootof_unsimplified);
    RUN(test_product_with_complex_roots_unevaluated);
    RUN(test_n_digits_of_polylog_and_bessel);
    RUN(test_sum_printed_without_limits_tuple);
    RUN(test_simplify_hyperbolic_whole_sum);
    RUN(test_solve_dropped_roots_of_a_factor);
    return check_summary("sym_redsym9");
}
