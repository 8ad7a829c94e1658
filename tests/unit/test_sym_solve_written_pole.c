/* Regression test: solve_expression answered -1.87938524157182 (flagged
 * approximate) for n/d = 0 with n = x**2*(x**2 - 2)*(x**2 + 2)*(x**2 + x +
 * 1)*(x**3 - 3*x + 1) and d = x*(x - 1)*(x**3 - 3*x + 1): a root of the
 * common cubic, where n/d as written is 0/0 (SymPy: the six others). The
 * pole check took the roots d shares with the reduced numerator, and the
 * reduction had removed the cubic from it; it takes d's own roots now. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_root_of_a_cancelled_common_factor_was_kept(void) {
    sym_expect_set("(x**11 + x**10 - 2*x**9 - 2*x**8 - 6*x**7 - 3*x**6 + 8*x**5 + 8*x**4 + 8*x**3 - "
                   "4*x**2)/(x**5 - x**4 - 3*x**3 + 4*x**2 - x)",
                   "[\"-sqrt(2)\",\"sqrt(2)\",\"-1/2 - sqrt(3)*I/2\",\"-1/2 + sqrt(3)*I/2\","
                   "\"-sqrt(2)*I\",\"sqrt(2)*I\"]");
    sym_expect_set("(x**3 - 3*x + 1)*(x - 2)/(x**3 - 3*x + 1)", "[\"2\"]");
    sym_expect_set("(x**2 - 1)/(x - 1)", "[\"-1\"]");
    /* 1/(1/x) is x: 0 stays a root */
    sym_expect_set("1/(1/x) + x**2", "[\"-1\",\"0\"]");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_root_of_a_cancelled_common_factor_was_kept);
    return check_summary("test_sym_solve_written_pole");
}
