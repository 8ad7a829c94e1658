/* Regression tests of the fifth red-team round on the symbolic tools
 * (tests/crosscheck/independent/generated-redsym5.json): limits giac
 * refused that a squeeze decides, definite integrals with a parameter
 * answered without their convergence condition, and complex zeta and
 * LambertW branches that N refused. Each asserts the value (mpmath's at
 * 40 digits, SymPy 1.14's). */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

/* exp(sin(x))/x at oo was a validation error ("unable to handle
 * exp(sin(...))"); a bounded factor against one tending to 0 is 0, a
 * positive bounded factor against one tending to oo is oo */
static void test_squeeze_limit_was_refused(void) {
    sym_expect_limit("exp(sin(x))/x", "oo", "0");
    sym_expect_limit("exp(sin(x))/x", "-oo", "0");
    sym_expect_limit("exp(cos(x))*sin(x)/x**2", "oo", "0");
    sym_expect_limit("x*(2 + sin(x))", "oo", "oo");
    sym_expect_limit("x*(2 + sin(x))", "-oo", "-oo");
    sym_expect_limit("(sin(x) - 3)*x**2", "oo", "-oo");
    json_t *r = sym_limit_at("x**2*exp(cos(1/x))", "0", "+-");
    CHECK_STREQ(sym_str(r, "left"), "0");
    CHECK_STREQ(sym_str(r, "right"), "0");
    CHECK_STREQ(sym_str(r, "two_sided"), "0");
    json_decref(r);
    sym_expect("limit(exp(sin(x))/x, x, oo)", "0");
    /* no proven bound: the squeeze does not answer (sin(x) changes sign, so
     * x*sin(x) stays undefined; sin(sqrt(x)) is unbounded at -oo) */
    sym_expect_limit("x*sin(x)", "oo", "undefined");
}

/* cos(sqrt(x))/x at -oo was giac's 0: sqrt(x) is imaginary there and
 * cos(i t) = cosh(t) grows (SymPy: -oo); sin(sqrt(x))/x likewise (-oo*I) */
static void test_limit_of_imaginary_argument_was_zero(void) {
    static const char *const grow[] = {"cos(sqrt(x))/x", "sin(sqrt(x))/x", "cos(sqrt(x))/x**3"};
    for (size_t i = 0; i < sizeof grow / sizeof grow[0]; i++) {
        sym_check(sym_limit_at(grow[i], "-oo", NULL), grow[i], "limit", "undefined", "note",
                  "the CAS answered 0");
    }
    /* values that settle are not refuted */
    sym_expect_limit("cos(sqrt(x))/x", "oo", "0");
    sym_expect_limit("x*sin(1/x)", "-oo", "1");
    sym_expect_limit("x**5*exp(-x/10**6)", "oo", "0");
}

/* integrate(exp(-a*x**2), (x, -oo, oo)) was sqrt(pi)/sqrt(a) with no word
 * that it diverges for a <= 0 */
static void test_parameter_integral_condition_was_unstated(void) {
    static const char *const conditional[] = {
        "integrate(exp(-a*x**2), (x, -oo, oo))",
        "integrate(1/(x**2 + a), (x, 0, oo))",
        "integrate(1/(1 + a*x**2), (x, -oo, oo))",
    };
    for (size_t i = 0; i < sizeof conditional / sizeof conditional[0]; i++)
        sym_check(sym_eval(conditional[i]), conditional[i], NULL, NULL, "note",
                  "holds only for the parameter values where the integral converges");
    json_t *r = sym_eval("integrate(exp(-a*x**2), (x, -oo, oo))");
    CHECK_STREQ(sym_str(r, "expression"), "sqrt(pi)/sqrt(a)");
    CHECK(strstr(sym_str(r, "note"), "at a = -1 it diverges") != NULL);
    json_decref(r);
    /* convergent for every a: no condition */
    r = sym_eval("integrate(exp(-(x - a)**2), (x, -oo, oo))");
    CHECK_STREQ(sym_str(r, "expression"), "sqrt(pi)");
    CHECK(json_object_get(r, "note") == NULL);
    json_decref(r);
}

/* giac's infinite sums of telescoping rational terms with a gap of 3 or
 * more: summation(1/(k*(k + 3)), (k, 1, oo)) was zoo, summation(1/(k*(k +
 * 5)), (k, 1, oo)) 5/12 (a confident wrong answer: it is H_5/5 = 137/300) */
static void test_rational_series_was_zoo_or_wrong(void) {
    sym_expect("summation(1/(k*(k + 3)), (k, 1, oo))", "11/18");
    sym_expect("summation(1/((k + 1)*(k + 4)), (k, 0, oo))", "11/18");
    sym_expect("summation(1/(k*(k + 5)), (k, 1, oo))", "137/300");
    sym_expect("summation(1/(k*(k + 3)*(k + 7)), (k, 1, oo))", "2123/35280");
    /* unchanged: a divergent one, one giac had right */
    sym_expect("summation(1/k, (k, 1, oo))", "oo");
    sym_expect("summation(1/(k*(k + 1)), (k, 1, oo))", "1");
}

/* DiracDelta(k*x + b) lost its 1/|k| (integrate(DiracDelta(2*x - 1)*x,
 * (x, 0, 4)) was 1/2); Min(x**2, 3) over (-3, 2) was giac's quadrature
 * 8.07179676972208, wrong in its last four digits (15 - 4*sqrt(3)) */
static void test_scaled_delta_and_min_integrands_were_wrong(void) {
    sym_expect("integrate(DiracDelta(2*x - 1)*x, (x, 0, 4))", "1/4");
    sym_expect("integrate(DiracDelta(2*x - (3/2))*x, (x, 0, 2))", "3/8");
    sym_expect("integrate(DiracDelta(2*x + 1)*x, (x, -3, 2))", "-1/4");
    sym_expect("integrate(DiracDelta(-3*x + 1)*exp(x), (x, -1, 1))", "exp(1/3)/3");
    sym_expect("integrate(Min(x**2, 3), (x, -3, 2))", "15 - 4*sqrt(3)");
    sym_expect("integrate(Max(x, 1, x**2), (x, 0, 2))", "10/3");
    sym_expect("integrate(DiracDelta(x - 1)*x**2, (x, -oo, oo))", "1"); /* unchanged */
    /* giac answers nan for the rewritten ((x - 1 + Abs(x - 1))/2)**2: the
     * integrand as given is integrated instead */
    sym_expect("integrate(Max(x - 1, 0)**2, (x, -1, 5))", "64/3");
}

/* N(zeta(2 + I)) and N(LambertW(1 + I)) were refused; LambertW(z, k) of
 * another branch had no value of ours (mpmath's digits) */
static void test_complex_zeta_and_lambertw_were_refused(void) {
    sym_expect("N(zeta(2 + I), 20)", "1.1503557032549026717 - 0.43753086591960788112*I");
    sym_expect("N(zeta(-3/2 + 10*I), 30)",
           "2.91319356001007264827182864472 + 0.307526075812560815878899529647*I");
    sym_expect("N(zeta(1/2 + 14*I), 20)", "0.022241142609993589246 - 0.1032581232664500579*I");
    sym_expect("N(LambertW(1 + I), 20)", "0.65696606923043640587 + 0.32545033941341502999*I");
    sym_expect("N(LambertW(2, 1), 20)", "-0.83431036663111001469 + 4.5302659985550082921*I");
    sym_expect("N(LambertW(3*I, -1), 20)", "-0.041931775727153473739 - 3.1281889669832888464*I");
    sym_expect("N(LambertW(-1/4, -1), 20)", "-2.1532923641103496492");
    sym_expect("N(LambertW(-1), 20)", "-0.31813150520476413531 + 1.3372357014306894089*I");
    sym_expect("N(LambertW(1/2 - I, 0), 20)", "0.51651077430836823429 - 0.42205327085724350743*I");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_squeeze_limit_was_refused);
    RUN(test_limit_of_imaginary_argument_was_zero);
    RUN(test_parameter_integral_condition_was_unstated);
    RUN(test_rational_series_was_zoo_or_wrong);
    RUN(test_scaled_delta_and_min_integrands_were_wrong);
    RUN(test_complex_zeta_and_lambertw_were_refused);
    return check_summary("sym_redsym5");
}
