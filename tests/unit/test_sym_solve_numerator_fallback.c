/* Regression test: solve_expression of (x**10 + 6*x**9 + ... + 9*x)/(x**3
 * - x**2) = 0 was "the CAS failed: Not invertible": giac's solve of the
 * rational function threw where its numerator's does not. When giac's
 * solve throws on a rational function of x alone, the reduced numerator
 * is solved, and the written poles are dropped as for every equation.
 * SymPy: -3, the four roots of x**4 + 1 and the three of x**3 - 3*x + 1. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_rational_equation_was_not_invertible(void) {
    sym_expect_set("(x**10 + 6*x**9 + 6*x**8 - 17*x**7 - 20*x**6 + 15*x**5 + 6*x**4 - 17*x**3 - "
                   "21*x**2 + 9*x)/(x**3 - x**2)",
                   "[\"-3\",\"-2*cos(pi/9)\",\"2*cos(4*pi/9)\",\"2*cos(2*pi/9)\",\"sqrt(2)*(-1 - "
                   "I)/2\",\"sqrt(2)*(-1 + I)/2\",\"sqrt(2)*(1 - I)/2\",\"sqrt(2)*(1 + I)/2\"]");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_rational_equation_was_not_invertible);
    return check_summary("test_sym_solve_numerator_fallback");
}
