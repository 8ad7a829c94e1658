/* Regression test: multiple integrals whose inner integral diverges for a
 * range of the outer variable were answered with a principal value
 * (integrate(1/(x - y), (x, 0, 1), (y, 0, 1)) was 0; a fresh seed, 26, of
 * generated-redsym3 found integrate(1/(1 + x + y), (x, -1, 1), (y, -1,
 * 2)) = 6*log(2)); a convergent one carried a note about parameter values
 * outside its range; and a closed form that numeric quadrature refutes
 * was the answer (1/(x**2 + y**2) over (1, 2) x (-1, 1) was -0.41); an
 * inner integral found only for y > 0 was taken over negative y (atan(y/x)
 * over (-1, 0) x (-2, -1) was complex). */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void expect_note(const char *expr, const char *want, const char *note_part) {
    json_t *r = sym_eval(expr);
    sym_check(r, expr, "expression", want, "note", note_part);
}

static void test_inner_divergence_over_a_range_was_a_principal_value(void) {
    expect_note("integrate(1/(x - y), (x, 0, 1), (y, 0, 1))", "nan", "the integral diverges: for y in a part of (0, 1)");
    expect_note("integrate(1/(1 + x + y), (x, -1, 1), (y, -1, 2))", "nan", "inner integral over x");
    expect_note("integrate(1/(x + y), (x, -1, 1), (y, 0, 2))", "nan", "non-integrable singularity");
}

static void test_convergent_double_integral_has_no_parameter_note(void) {
    json_t *r = sym_eval("integrate(1/(x + y), (x, 1, 2), (y, 1, 2))");
    CHECK_STREQ(sym_str(r, "expression"), "-6*log(3) + 2*log(2) + 4*log(4)");
    CHECK(json_object_get(r, "note") == NULL);
    json_decref(r);
    sym_expect("integrate(1/(x - y), (x, 2, 3), (y, 0, 1))", "-4*log(2) + 3*log(3)");
    sym_expect("integrate(y/(x + 1), (x, 0, y), (y, 0, 1))", "1/4");
    /* a single integral with a parameter keeps its note */
    expect_note("integrate(1/(1 + x + y), (x, -1, 1))", "log(Abs(y + 2)) - log(Abs(y))", "at y = -1 it diverges");
}

static void test_closed_form_refuted_by_quadrature_is_refused(void) {
    json_t *r = sym_eval("integrate(1/(x**2 + y**2), (x, 1, 2), (y, -1, 1))");
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(sym_str(r, "error") && strstr(sym_str(r, "error"), "disagrees with numeric quadrature (0.8574864718)"));
    json_decref(r);
    sym_expect("integrate(abs(sin(x)), (x, 0, 10))", "7 + cos(10)");
    sym_expect("integrate(floor(x)*x, (x, 0, 3))", "13/2");
    sym_expect("integrate(x**2*exp(-x), (x, 0, 5))", "2 - 37/exp(5)");
}

static void test_inner_assumed_positive_over_a_negative_range_is_refused(void) {
    json_t *r = sym_eval("integrate(atan(y/x), (x, -1, 0), (y, -2, -1))");
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(sym_str(r, "error") && strstr(sym_str(r, "error"), "only for y > 0, and y ranges over (-2, -1)"));
    json_decref(r);
    sym_expect("integrate(atan(y/x), (x, -1, 0), (y, 1, 2))", "-2*atan(2) - 3*log(5)/4 + 2*log(2) + pi/4");
    /* the range is where the assumption holds: no note */
    r = sym_eval("integrate(exp(-a*x), (x, 0, oo), (a, 1, 2))");
    CHECK_STREQ(sym_str(r, "expression"), "log(2)");
    CHECK(json_object_get(r, "note") == NULL);
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_inner_divergence_over_a_range_was_a_principal_value);
    RUN(test_convergent_double_integral_has_no_parameter_note);
    RUN(test_closed_form_refuted_by_quadrature_is_refused);
    RUN(test_inner_assumed_positive_over_a_negative_range_is_refused);
    return check_summary("test_sym_multiple_integral_divergence");
}
