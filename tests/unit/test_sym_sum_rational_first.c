/* Regression test: summation(1/((3*k - 1)*(3*k + 1)), (k, 3, oo)) never
 * returned (giac's infinite sum of that term ran until the worker's CPU
 * limit; main answered "timeout" after 15 s). Its partial sum (digammas),
 * verified at two bounds and taken to the limit, is now the answer for a
 * rational term before giac's infinite sum is asked (SymPy 1.11 answers nan;
 * mpmath's nsum is 0.044128677389535120139). */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_rational_infinite_sum_never_returned(void) {
    sym_expect("summation(1/((3*k - 1)*(3*k + 1)), (k, 3, oo))", "97/280 - sqrt(3)*pi/18");
    sym_expect("N(summation(1/((3*k - 1)*(3*k + 1)), (k, 3, oo)), 20)", "0.044128677389535120139");
    sym_expect("summation(1/k**2, (k, 1, oo))", "pi**2/6");
    sym_expect("summation(1/(k*(k + 5)), (k, 1, oo))", "137/300");
    sym_expect("summation(1/k, (k, 1, oo))", "oo");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_rational_infinite_sum_never_returned);
    return check_summary("test_sym_sum_rational_first");
}
