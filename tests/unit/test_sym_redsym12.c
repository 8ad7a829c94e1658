/* Regression tests of the twelfth red-team round on the symbolic tools
 * (tests/crosscheck/independent/generated-redsym11.json): an infinite sum
 * written Sum(...) was kept inert and then evaluated by giac's own sum in
 * the simplified and expanded forms, bypassing the checks summation()
 * makes. Each asserts the value (SymPy 1.14's, mpmath.nsum's). */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void expect_fields(const char *expr, const char *value) {
    json_t *r = sym_eval(expr);
    CHECK_STREQ(sym_str(r, "expression"), value);
    CHECK_STREQ(sym_str(r, "simplified"), value);
    CHECK_STREQ(sym_str(r, "expanded"), value);
    json_decref(r);
}

/* Sum(1/(k*(k + 5)), (k, 1, oo)) was simplified to 5/12 with value
 * 0.416666666667 (it is H_5/5 = 137/300); Sum(1/(k*(k + 4)), (k, 2, oo))
 * to 31/120 (it is 77/240) */
static void test_inert_sum_was_simplified_unchecked(void) {
    expect_fields("Sum(1/(k*(k + 5)), (k, 1, oo))", "137/300");
    expect_fields("Sum(1/(k*(k + 4)), (k, 2, oo))", "77/240");
    /* one giac had right stays inert, its value in the simplified form */
    json_t *r = sym_eval("Sum(1/k**2, (k, 1, oo))");
    CHECK_STREQ(sym_str(r, "expression"), "Sum(1/k**2, (k, 1, oo))");
    CHECK_STREQ(sym_str(r, "simplified"), "pi**2/6");
    json_decref(r);
}

/* Sum(cos(k), (k, 0, oo)) was simplified to 1/2 (the Abel sum of a
 * divergent series); Sum(x**k, (k, 0, oo)) expanded to -1/(x - 1) without
 * the condition |x| < 1 */
static void test_inert_sum_divergence_and_condition_were_unstated(void) {
    json_t *r = sym_eval("Sum(cos(k), (k, 0, oo))");
    CHECK_STREQ(sym_str(r, "simplified"), "nan");
    CHECK(strstr(sym_str(r, "note"), "the series diverges") != NULL);
    json_decref(r);
    r = sym_eval("Sum(x**k, (k, 0, oo))");
    CHECK_STREQ(sym_str(r, "expanded"), "-1/(x - 1)");
    CHECK(strstr(sym_str(r, "note"), "holds only for the parameter values where the series converges") != NULL);
    json_decref(r);
    /* a finite sum is untouched */
    r = sym_eval("Sum(1/k, (k, 1, n))");
    CHECK_STREQ(sym_str(r, "expression"), "Sum(1/k, (k, 1, n))");
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_inert_sum_was_simplified_unchecked);
    RUN(test_inert_sum_divergence_and_condition_were_unstated);
    return check_summary("sym_redsym12");
}
