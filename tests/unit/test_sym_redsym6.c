/* Regression tests of the sixth red-team round on the symbolic tools
 * (tests/crosscheck/independent/generated-redsym6.json): infinite limits
 * giac claimed for an oscillation with zeros times an unbounded factor,
 * sums the squeeze did not read, limit(...) inside evaluate_expression
 * without the growth check, a divergent integral with a complex value,
 * Catalan's constant, and the refusals of Piecewise and keyword
 * arguments. Each asserts the value (SymPy 1.14's, mpmath's at 40 digits)
 * or the exact refusal. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

/* cos(x)**2*exp(x) at oo was oo: at x = pi/2 + k*pi it is 0, so no limit
 * exists (SymPy: AccumBounds; the numbers at those points: 0) */
static void test_oscillation_with_zeros_times_unbounded_was_oo(void) {
    static const char *const at_oo[] = {"cos(x)**2*exp(x)", "x*sin(x)**2", "sqrt(x)*sin(x)**2",
                                        "x*sin(x)**2 + 1", "x*sin(x)**2 - log(x)", "x*sin(x**2)**2",
                                        "cos(x)**2*exp(x)/x"};
    for (size_t i = 0; i < sizeof at_oo / sizeof at_oo[0]; i++) {
        sym_check(sym_limit_at(at_oo[i], "oo", NULL), at_oo[i], "limit", "undefined", "note",
                  "the CAS answered oo, but where");
    }
    sym_expect_limit("x**2*sin(x)**4", "-oo", "undefined");
    /* with a parameter the claim must hold at every value: not at a = 1 */
    sym_expect_limit("x*sin(a*x)**2", "oo", "undefined");
    sym_expect_limit("-(cos(x)**2*x**2)", "oo", "undefined");
    /* at 0 from the right (the phase 1/x -> oo); the left side stands */
    json_t *r = sym_limit_at("exp(1/x)*cos(1/x)**2", "0", "+-");
    CHECK_STREQ(sym_str(r, "right"), "undefined");
    CHECK_STREQ(sym_str(r, "left"), "0");
    CHECK(sym_str(r, "note") && !strncmp(sym_str(r, "note"), "from the right: ", 16));
    json_decref(r);
    r = sym_limit_at("sin(1/x)**2/x", "0", NULL);
    CHECK_STREQ(sym_str(r, "limit"), "undefined");
    json_decref(r);
    /* inside evaluate_expression: nan, with the note */
    r = sym_eval("limit(cos(x)**2*exp(x), x, oo)");
    CHECK_STREQ(sym_str(r, "expression"), "nan");
    CHECK(sym_str(r, "note") && strstr(sym_str(r, "note"), "where cos(x) = 0"));
    json_decref(r);
    /* giac failed ("unable to make series expansion") on Abs(sin(x))*x**2:
     * 0 at x = k*pi, x**2 at x = pi/2 + k*pi, so no limit */
    r = sym_limit_at("Abs(sin(x))*x**2 - 2", "-oo", NULL);
    CHECK_STREQ(sym_str(r, "limit"), "undefined");
    CHECK(sym_str(r, "note") && strstr(sym_str(r, "note"), "tends to -2, where cos(x) = 0"));
    json_decref(r);
    sym_expect_limit("(1 + sin(x)/x)**x", "oo", "undefined");
    sym_expect_limit("x*(2 + Abs(sin(x)))", "oo", "oo");
    /* infinities the zeros agree with stand */
    sym_expect_limit("x*sin(x)**2 + log(x)", "oo", "oo");
    sym_expect_limit("x + sin(x)", "oo", "oo");
    sym_expect_limit("x*(2 + sin(x))", "oo", "oo");
    sym_expect_limit("tan(x)**2*exp(-tan(x))", "pi/2", "oo");
    sym_expect_limit("exp(x)", "oo", "oo");
    /* floor jumps past the zeros: sin(floor(x)) is never 0 for x >= 4 */
    sym_expect_limit("x*(2 + sin(floor(x)))", "oo", "oo");
}

/* (2 + sin(x))*(-x) - 2 at -oo and (1 - cos(2*x))*x + log(log(x)) at oo
 * were "undefined" (giac's undef); both tend to oo */
static void test_sum_squeeze_was_undefined(void) {
    sym_expect_limit("(2 + sin(x))*(-x) - 2", "-oo", "oo");
    sym_expect_limit("(2 + sin(x))*(-x)", "-oo", "oo");
    sym_expect_limit("(1 - cos(2*x))*x + log(log(x))", "oo", "oo");
    sym_expect_limit("(1 + sin(2*x))*x + log(log(x))", "oo", "oo");
    sym_expect_limit("-((1 + sin(x))*x + log(x))", "oo", "-oo");
    sym_expect("limit((3 + cos(x))*x**2 - 2, x, -oo)", "oo");
    /* oo - oo: the lower functions' sum exp(1/x) - log(-log(x)) -> oo */
    sym_expect_limit("(2 + sin(1/x))*exp(1/x) - log(-log(x))", "0", "oo");
    sym_expect_limit("(2 + sin(x))*x - 3*x", "oo", "undefined");
    /* not bounded below: no answer (at x = 2*k*pi the sum is -x/10**7 + log(log(x))) */
    sym_expect_limit("(9999999/10000000 - cos(x))*x + log(log(x))", "oo", "undefined");
    sym_expect_limit("(1 - cos(x))*x - log(x)", "oo", "undefined");
}

/* limit(cos(sqrt(x))/x, x, -oo) inside evaluate_expression was 0 (the
 * limit tool's growth check did not apply there) */
static void test_evaluate_limit_without_growth_check_was_zero(void) {
    static const char *const grow[] = {"limit(cos(sqrt(x))/x, x, -oo)", "limit(sin(sqrt(x))/x, x, -oo)",
                                       "limit(cos(sqrt(x))/(x**2 + 1), x, -oo)"};
    for (size_t i = 0; i < sizeof grow / sizeof grow[0]; i++)
        sym_check(sym_eval(grow[i]), grow[i], "expression", "nan", "note", "grow without bound");
    sym_expect("limit(cos(sqrt(x))/x, x, oo)", "0");
    sym_expect("limit(x*sin(1/x), x, -oo)", "1");
}

/* integrate(cos(x)/x, (x, -2, 3)) was -Ci(-2) + Ci(3): complex, so the
 * divergence test (for finite real values) never ran */
static void test_divergent_integral_with_complex_value_was_answered(void) {
    json_t *r = sym_eval("integrate(cos(x)/x, (x, -2, 3))");
    CHECK_STREQ(sym_str(r, "expression"), "nan");
    CHECK(sym_str(r, "note") && strstr(sym_str(r, "note"), "non-integrable singularity at x = 0"));
    json_decref(r);
    sym_expect("integrate(cos(x)/x, (x, 1, 3))", "-Ci(1) + Ci(3)");
}

/* N(Catalan, 20) stayed the symbol Catalan */
static void test_catalan_was_a_symbol(void) {
    sym_expect("N(Catalan, 20)", "0.91596559417721901505");
    sym_expect("N(Catalan/pi, 30)", "0.291560904030818780138384456468");
    sym_expect("Catalan + 1", "Catalan + 1");
}

/* Piecewise was "unknown function ... write 'Piecewise*(...)' if you meant
 * a product"; factor(p, extension=...) permission_denied "'=' is not
 * permitted" */
static void test_piecewise_and_keyword_refusals_misled(void) {
    json_t *r = sym_eval("Piecewise((x, x > 0), (-x, True))");
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(sym_str(r, "error") && strstr(sym_str(r, "error"), "Piecewise is not supported: write the pieces with Heaviside"));
    json_decref(r);
    r = sym_eval("factor(x**2 - 2, extension=sqrt(2))");
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(sym_str(r, "error") && strstr(sym_str(r, "error"), "keyword arguments (extension=...) are not supported"));
    json_decref(r);
    r = sym_eval("x = 2");
    CHECK_STREQ(sym_str(r, "code"), "permission_denied");
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_oscillation_with_zeros_times_unbounded_was_oo);
    RUN(test_sum_squeeze_was_undefined);
    RUN(test_evaluate_limit_without_growth_check_was_zero);
    RUN(test_divergent_integral_with_complex_value_was_answered);
    RUN(test_catalan_was_a_symbol);
    RUN(test_piecewise_and_keyword_refusals_misled);
    return check_summary("sym_redsym6");
}
