/* Regression test: N(LambertW(-exp(-1)) + 1, 40) was 4.3e-61, the same at
 * every precision (SymPy: 0). At the branch point -1/e, W has a double
 * root in w; the real evaluator's Newton iteration started at -0.5, halved
 * its error each step and stopped after 200 steps at -1 + 2^-200, a value
 * that did not move with the precision and so looked settled. The start is
 * now the branch-point series and a step is accepted only once w e^w
 * reproduces the argument to its precision; the CAS gives W its exact
 * values where the argument is built as w e^w (W(-exp(-1)) = -1, on branch
 * -1 too), and values near the branch point keep their true digits. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_lambertw_at_branch_point_was_4e_61_off(void) {
    sym_expect("N(LambertW(-exp(-1)) + 1, 40)", "0");
    sym_expect("N(LambertW(-exp(-1)) + 1)", "0");
    sym_expect("N(LambertW(-1/E, -1) + 1, 20)", "0");
    sym_expect("N(LambertW(-exp(-1), -1), 20)", "-1.0000000000000000000");
    /* near it the ill-conditioned digits are the true ones (mpmath at 300
     * digits) */
    sym_expect("N(LambertW(-exp(-1) + 10**-100) + 1, 20)", "2.3316439815971242034e-50");
    sym_expect("N(LambertW(-exp(-1) + 10**-30, -1) + 1, 20)", "-2.3316439815971260156e-15");
    sym_expect("N(LambertW(-3/10), 30)", "-0.489402227180214969036231251996");
    sym_expect("N(LambertW(-3/10, -1), 30)", "-1.78133702342162761197417028151");
}

static void test_lambertw_exact_values_of_w_exp_w(void) {
    sym_expect("LambertW(-exp(-1), -1)", "-1");
    sym_expect("LambertW(-2*exp(-2), -1)", "-2");
    sym_expect("LambertW(3*exp(3))", "3");
    sym_expect("LambertW(-log(2)/2)", "-log(2)");
    sym_expect("LambertW(-pi/2)", "I*pi/2");
    sym_expect("LambertW(-pi/2, -1)", "-I*pi/2");
    /* w e^w = z on the other branch is not W_k(z): W_0(-2/e^2) is
     * -0.406, not -2; W_-1(-3/e^3) is -3 but W_0 of it is -0.179 */
    sym_expect("LambertW(-2*exp(-2))", "LambertW(-2/exp(2))");
    sym_expect("LambertW(-3*exp(-3))", "LambertW(-3/exp(3))");
    sym_expect("LambertW(-3*exp(-3), -1)", "-3");
    sym_expect_identical("LambertW(-2*exp(-2))", "-2", false);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_lambertw_at_branch_point_was_4e_61_off);
    RUN(test_lambertw_exact_values_of_w_exp_w);
    return check_summary("test_sym_lambertw_branch_point");
}
