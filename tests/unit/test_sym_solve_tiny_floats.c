/* Regression test: giac's zero test calls a float below its epsilon 0, and
 * equations with tiny float coefficients were solved as if those were 0:
 * x**2 - 1e-40 = 0 gave 0, 0 (a residual of -1e-40 passed a test against
 * 1), x**3 - 1e-30*x gave 0, 0, 0, (x - 1e-20)**2 gave 0, x**2 + 1e-30 gave
 * no root (giac's evalf dropped the 1e-15 imaginary part and the check
 * refused 0), 1/x = 10**20 gave none (1/10**20 was taken for the pole 0,
 * against max(1, |pole|)). A float in 1e-30 was not seen at all: the
 * input's '.' was the test. Now a float equation's residual is measured
 * against its terms' size before cancellation, one whose roots fail or
 * repeat is solved again with its floats read exactly, and a complex
 * constant's imaginary part is evaluated on its own. The same evalf lost
 * the sum of 1e-13*I/2**k (0.0). */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_tiny_float_coefficients_were_read_as_zero(void) {
    sym_expect_roots("x**2 - 1e-40", (const char *const[]){"-1.00000000000000e-20", "1.00000000000000e-20"}, 2);
    sym_expect_roots("x**3 - 1e-30*x",
                 (const char *const[]){"-1.00000000000000e-15", "0", "1.00000000000000e-15"}, 3);
    sym_expect_roots("(x - 1e-20)**2", (const char *const[]){"1.00000000000000e-20"}, 1);
    sym_expect_roots("x**2 + 1e-30", (const char *const[]){"-1.0e-15*I", "1.0e-15*I"}, 2);
    sym_expect_roots("1/x - 1e20", (const char *const[]){"1.00000000000000e-20"}, 1);
    /* and the ordinary ones unchanged */
    sym_expect_roots("x**2 - 2.0", (const char *const[]){"-1.41421356237310", "1.41421356237310"}, 2);
    sym_expect_roots("x*exp(x) - 1.0", (const char *const[]){"0.567143290409784"}, 1);
}

static void test_exact_root_near_a_pole_was_dropped(void) {
    sym_expect_roots("1/x - 10**20", (const char *const[]){"1/100000000000000000000"}, 1);
    sym_expect_roots("1/x - 1000", (const char *const[]){"1/1000"}, 1);
}

static void test_tiny_imaginary_parts_were_dropped(void) {
    sym_expect("summation(1e-13*I/2**k, (k, 1, oo))", "1.0e-13*I");
    sym_expect("limit(1e-15*I + x, x, 0)", "1.0e-15*I");
}

/* factor(1e-30*x) was 0: giac's zero test, and an agreement check against
 * max(1, |value|) let the form 0 stand */
static void test_form_zero_of_a_tiny_input_was_kept(void) {
    json_t *args = json_pack("{s:s}", "expr", "x*1e-30");
    json_t *r = cc_tool_simplify_expression(args, NULL);
    CHECK_STREQ(sym_str(r, "factored"), "1.0e-30*x");
    json_decref(r);
    json_decref(args);
    args = json_pack("{s:s}", "expr", "sin(x)**2 + cos(x)**2 - 1");
    r = cc_tool_simplify_expression(args, NULL);
    CHECK_STREQ(sym_str(r, "simplified"), "0");
    json_decref(r);
    json_decref(args);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_tiny_float_coefficients_were_read_as_zero);
    RUN(test_exact_root_near_a_pole_was_dropped);
    RUN(test_tiny_imaginary_parts_were_dropped);
    RUN(test_form_zero_of_a_tiny_input_was_kept);
    return check_summary("test_sym_solve_tiny_floats");
}
