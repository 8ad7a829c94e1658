/* evaluate_expression's simplified form is never larger than the
 * expression (docs/contract.md, "evaluate_expression: a simplified form is
 * never larger than the expression"): giac's simplify turned trigonometric
 * results into tan(x/2) fractions and expanded factored ones, and that
 * larger text was shown as the simplification. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/sym_tools.h"

/* evaluate_expression(expr) prints expression and simplified exactly */
static void check_forms(const char *expr, const char *expression, const char *simplified) {
    json_t *r = sym_eval(expr);
    json_incref(r); /* sym_check releases it, once per field */
    sym_check(r, expr, "expression", expression, NULL, NULL);
    sym_check(r, expr, "simplified", simplified, NULL, NULL);
}

/* integrate(x*sin(x), x) showed (x*tan(x/2)**2 - x + 2*tan(x/2))/
 * (tan(x/2)**2 + 1) as its simplified form, and paid 1.7 ms for it */
static void test_regression_simplified_was_a_tan_half_angle_fraction(void) {
    check_forms("integrate(x*sin(x), x)", "-x*cos(x) + sin(x)", "-x*cos(x) + sin(x)");
    check_forms("diff(x*sin(x), x)", "x*cos(x) + sin(x)", "x*cos(x) + sin(x)");
    check_forms("diff(exp(x)*cos(x), x)", "cos(x)*exp(x) - exp(x)*sin(x)",
                "cos(x)*exp(x) - exp(x)*sin(x)");
    check_forms("integrate(exp(x)*sin(x), x)", "exp(x)*(-cos(x)/2 + sin(x)/2)",
                "exp(x)*(-cos(x)/2 + sin(x)/2)");
    /* diff(exp(sin(x**2 + 1)), x): a second of giac's simplify for a
     * fraction of tan(x**2/2 + 1/2) forms */
    check_forms("diff(exp(sin(x**2 + 1)), x)", "2*x*cos(x**2 + 1)*exp(sin(x**2 + 1))",
                "2*x*cos(x**2 + 1)*exp(sin(x**2 + 1))");
}

/* the reductions of trigonometric results still found (linearisation) */
static void test_trigonometric_reductions_kept(void) {
    check_forms("sin(x)**2 + cos(x)**2", "cos(x)**2 + sin(x)**2", "1"); /* TOOLS.md 3.3.22 */
    check_forms("diff(sin(x)*cos(x), x)", "cos(x)**2 - sin(x)**2", "cos(2*x)");
    check_forms("diff(sin(x)**2, x, 2)", "2*cos(x)**2 - 2*sin(x)**2", "2*cos(2*x)");
    check_forms("sin(pi/7)**2 + cos(pi/7)**2", "cos(pi/7)**2 + sin(pi/7)**2", "1");
    /* the normal form */
    check_forms("integrate(sin(a*x), (x, 0, pi))", "-cos(pi*a)/a + 1/a", "(1 - cos(pi*a))/a");
}

/* giac's simplify expanded factored results: the factored value stands */
static void test_regression_simplified_expanded_a_factored_result(void) {
    check_forms("diff((x**2 + 1)**3, x)", "6*x*(x**2 + 1)**2", "6*x*(x**2 + 1)**2");
    check_forms("integrate(x*exp(x), x)", "exp(x)*(x - 1)", "exp(x)*(x - 1)");
    check_forms("diff(x/(x + 1), x)", "1/(x + 1)**2", "1/(x + 1)**2");
    check_forms("diff(asin(x), x)", "1/sqrt(1 - x**2)", "1/sqrt(1 - x**2)");
}

/* non-trigonometric results still go through giac's simplify */
static void test_smaller_forms_still_found(void) {
    check_forms("gamma(x + 1)/gamma(x)", "gamma(x + 1)/gamma(x)", "x");
    check_forms("log(8, 2)", "log(8)/log(2)", "3");
    check_forms("summation(1/(k*(k + 1)), (k, 1, n))", "1 - 1/(n + 1)", "n/(n + 1)");
}

int main(void) {
    RUN(test_regression_simplified_was_a_tan_half_angle_fraction);
    RUN(test_trigonometric_reductions_kept);
    RUN(test_regression_simplified_expanded_a_factored_result);
    RUN(test_smaller_forms_still_found);
    return check_summary("sym_simplified_size");
}
