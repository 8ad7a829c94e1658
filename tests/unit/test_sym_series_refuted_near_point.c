/* Regression test: series() answered expansions that do not match the
 * expression near the point. series(acot(x), x, 0, 4), series(atan(1/x),
 * x, 0, 4) and series(exp(1/x), x, 0, 3) were O(x**4) / O(x**3) (acot(x)
 * is pi/2 - x + ..., exp(1/x) grows without bound on the right);
 * series(acos(1 - x), x, 0, 3) had the wrong sign (-sqrt(2)*sqrt(x) for
 * +sqrt(2*x)); series(sqrt(x + x**2), x, 0, 3) left out -x**(5/2)/8, a
 * term below the order (lane symred3, generated series, seed 31). */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void expect_refused(const char *expr) {
    json_t *r = sym_eval(expr);
    const char *e = sym_str(r, "error");
    if (!e) fprintf(stderr, "  %s: got %s\n", expr, sym_str(r, "expression"));
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(e && strstr(e, "series does not match the expression near the point"));
    json_decref(r);
}

static void test_series_refuted_near_point_is_refused(void) {
    expect_refused("series(acot(x), x, 0, 4)");
    expect_refused("series(atan(1/x), x, 0, 4)");
    expect_refused("series(atan(1/atanh(x)), x, 0, 4)");
    expect_refused("series(exp(1/x), x, 0, 3)");
    expect_refused("series(acos(1 - x), x, 0, 3)");
}

static void test_series_term_below_order_kept(void) {
    sym_expect("series(sqrt(x + x**2), x, 0, 3)", "-x**(5/2)/8 + x**(3/2)/2 + sqrt(x) + O(x**3)");
}

static void test_right_series_unchanged(void) {
    sym_expect("series(sin(x), x, 0, 8)", "x - x**3/6 + x**5/120 - x**7/5040 + O(x**8)");
    sym_expect("series(exp(-1/x**2), x, 0, 4)", "O(x**4)");
    sym_expect("series(exp(x)/x**2, x, 0, 3)", "1/2 + 1/x**2 + 1/x + x/6 + x**2/24 + O(x**3)");
    sym_expect("series(cos(x), x, pi, 4)", "-1 + (x - pi)**2/2 + O((x - pi)**4, (x, pi))");
    sym_expect("series(x*log(x), x, 0, 3)", "x*log(x)");
    sym_expect("series(sin(a*x), x, 0, 4)", "a*x - a**3*x**3/6 + O(x**4)");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_series_refuted_near_point_is_refused);
    RUN(test_series_term_below_order_kept);
    RUN(test_right_series_unchanged);
    return check_summary("test_sym_series_refuted_near_point");
}
