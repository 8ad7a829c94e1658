/* Regression test: a convergent improper integral was answered with an
 * infinity. integrate(x**(3/2)/(1 + x**(7/2)), (x, 0, oo)) was zoo (it is
 * 1.14807...), and so were 1/(1 + x**(7/2)) and x/(1 + x**(7/3)) over (0,
 * oo) (lane symred3, generated improper integrals, seed 8). An infinite
 * answer now stands only when a divergence is found; the divergent
 * integrals keep theirs. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void expect_refused(const char *expr) {
    json_t *r = sym_eval(expr);
    const char *e = sym_str(r, "error");
    if (!e) fprintf(stderr, "  %s: got %s\n", expr, sym_str(r, "expression"));
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(e && strstr(e, "no divergence was found"));
    CHECK(json_object_get(r, "expression") == NULL);
    json_decref(r);
}

static void test_convergent_integral_was_zoo(void) {
    expect_refused("integrate(x**(3/2)/(1 + x**(7/2)), (x, 0, oo))");
    expect_refused("integrate(1/(1 + x**(7/2)), (x, 0, oo))");
    expect_refused("integrate(x/(1 + x**(7/3)), (x, 0, oo))");
}

static void test_divergent_integrals_keep_their_infinity(void) {
    sym_expect("integrate(1/(x*log(x)), (x, 2, oo))", "oo");
    sym_expect("integrate(1/(x*log(x)), (x, 0, 1/2))", "-oo");
    sym_expect("integrate(1/x, (x, 0, 1))", "oo");
    sym_expect("integrate(1/x**2, (x, -1, 1))", "oo");
    sym_expect("integrate(exp(x), (x, 0, oo))", "oo");
    sym_expect("integrate(tan(x), (x, 0, pi/2))", "oo");
    sym_expect("integrate(1/sqrt(x), (x, 1, oo))", "oo");
    sym_expect("integrate(1/(1 - x**2), (x, 0, 1))", "oo");
    sym_expect("integrate(x**(1/2)/(1 + x**(5/2)), (x, 0, oo))",
               "3*pi*sqrt(10 + 2*sqrt(5))/50 + pi*sqrt(10 - 2*sqrt(5))/50 + pi*sqrt(5 - 2*sqrt(5))/5");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_convergent_integral_was_zoo);
    RUN(test_divergent_integrals_keep_their_infinity);
    return check_summary("test_sym_convergent_integral_infinity");
}
