/* Regression: summation((1 + 1e-15*I)/2**k, (k, 0, oo)) was 2, with ok
 * true; it is 2 + 2e-15*I. The cause was not the sum: giac's is_one()
 * tests a complex float's imaginary part against its epsilon, and its
 * product took 1.0 + 1e-15*I for 1 and dropped the factor, so
 * (1 + 1e-12*I)*k was k, summation((1 + 1e-15*I)*k, (k, 0, 3)) was 6 and
 * limit((1 + 1e-15*I)*x, x, 2) was 2. Such a factor is now kept. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void complex_factor_near_one_is_kept(void) {
    sym_expect("summation((1+1e-15*I)/2**k,(k,0,oo))", "2.0 + 2.0e-15*I");
    sym_expect("summation((1+1e-15*I)*k,(k,0,3))", "6.0 + 6.0e-15*I");
    sym_expect("limit((1+1e-15*I)*x, x, 2)", "2.0 + 2.0e-15*I");
    sym_expect("(1+1e-12*I)*k", "k*(1.0 + 1.0e-12*I)");
    sym_expect("(1+1e-15*I)/k", "(1.0 + 1.0e-15*I)/k");
    sym_expect("k/(1+1e-15*I)", "k*(1.0 - 1.0e-15*I)");
    /* giac's own arithmetic inside diff, integrate and expand dropped it
     * too (a generated batch): those read such floats exactly */
    sym_expect("diff((1+1e-12*I)*x**3, x)", "x**2*(3.0 + 3.0e-12*I)");
    sym_expect("integrate((1+1e-15*I)*x, (x, 0, 2))", "2.0 + 2.0e-15*I");
    sym_expect("integrate((1+1e-13*I)*x, x)", "x**2*(0.5 + 5.0e-14*I)");
    sym_expect("expand((1+1e-12*I)*(x+1)**2)", "x**2*(1.0 + 1.0e-12*I) + x*(2.0 + 2.0e-12*I) + 1.0 + 1.0e-12*I");
    /* and giac's evalf of the exact answer dropped it again (a fresh seed) */
    sym_expect("expand((1+1e-13*I)*(x+1)**2)", "x**2*(1.0 + 1.0e-13*I) + x*(2.0 + 2.0e-13*I) + 1.0 + 1.0e-13*I");
    sym_expect("diff((1+1e-15*I)*sin(x)**2, x)", "cos(x)*sin(x)*(2.0 + 2.0e-15*I)");
    json_t *r = sym_equiv("(1+1e-15*I)*k", "k");
    CHECK(json_is_false(json_object_get(r, "identical")));
    json_decref(r);
}

/* a factor exactly 1, and one giac keeps anyway, are unchanged */
static void other_complex_factors_unchanged(void) {
    sym_expect("(1+1e-5*I)*k", "k*(1.0 + 1.0e-5*I)");
    sym_expect("(3+1e-15*I)*x", "x*(3.0 + 1.0e-15*I)");
    sym_expect("(1+I)*k", "k*(1 + I)");
    sym_expect("summation((1+1e-5*I)/2**k,(k,0,oo))", "2.0 + 2.0e-5*I");
    sym_expect("expand((1+1e-5*I)*(x+1)**2)", "x**2*(1.0 + 1.0e-5*I) + x*(2.0 + 2.0e-5*I) + 1.0 + 1.0e-5*I");
    sym_expect("sin(1+1e-15*I)", "0.841470984807897 + 5.4030230586814e-16*I");
    sym_expect("diff(0.3*x**2, x)", "2*0.3*x");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(complex_factor_near_one_is_kept);
    RUN(other_complex_factors_unchanged);
    return check_summary("sym_complex_near_one");
}
