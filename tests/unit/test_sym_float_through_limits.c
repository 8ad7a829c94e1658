/* Regression tests: limit, summation and product of an input with floats
 * answered giac's exact() rationals of those floats as if they were exact:
 * limit(sqrt(-2.0)*x, x, 1) was 1607521*I/1136689 (1.6e-12 off sqrt(2)),
 * product(1 - 0.25/k**2, (k, 1, oo)) 364913/573204 (2/pi to 12 digits),
 * limit(sin(0.3*x)/x, x, 0) 3/10. Each float is now read as the rational
 * it holds, and the answer is given back as floats, as SymPy 1.12 answers
 * (its values are asserted). */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_limit_of_floats_was_a_rational(void) {
    sym_expect_limit("sqrt(-2.0)*x", "1", "1.4142135623731*I");
    sym_expect_limit("0.5*x", "2", "1.00000000000000");
    sym_expect_limit("sin(0.3*x)/x", "0", "0.300000000000000");
    sym_expect_limit("(1 + 0.5/x)**x", "oo", "1.64872127070013");
    sym_expect_limit("sin(x)/x", "0.5", "0.958851077208406");
    sym_expect_limit("exp(-0.5*x)", "oo", "0"); /* the floats vanished: SymPy's exact 0 */
    sym_expect_limit("1/(x - 0.1)", "0.1", "oo");
    sym_expect_limit("0.3*x*y + pi", "1", "0.3*y + 3.14159265358979");
    sym_expect("limit(sin(0.3*x)/x, x, 0)", "0.300000000000000");
}

static void test_sum_and_product_of_floats_were_rationals(void) {
    sym_expect("product(1 - 0.25/k**2, (k, 1, oo))", "0.636619772367581");
    sym_expect("summation(1/k**2.0, (k, 1, oo))", "1.64493406684823");
    sym_expect("summation(0.25**k, (k, 0, oo))", "1.33333333333333");
    sym_expect("summation(0.5**k, (k, 0, oo))", "2.00000000000000");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_limit_of_floats_was_a_rational);
    RUN(test_sum_and_product_of_floats_were_rationals);
    return check_summary("test_sym_float_through_limits");
}
