/* Regression: solve(...) inside evaluate_expression answered [0] for
 * x**5 - 2*x (also x**6 - 2*x**2, x**7 - 3*x**3, x**8 - 5*x**3): giac's
 * complex solve dropped the roots of the other factor. SymPy's
 * solve(x**5 - 2*x, x) has five roots. solve_expression completed them
 * since redsym9; the solve(...) call now does the same. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void all_roots_of_the_polynomial(void) {
    sym_expect("solve(x**5 - 2*x, x)", "[0, 2**(1/4), 2**(1/4)*I, -2**(1/4)*I, -2**(1/4)]");
    sym_expect("solve(x**6 - 2*x**2, x)", "[0, 2**(1/4), 2**(1/4)*I, -2**(1/4)*I, -2**(1/4)]");
}

/* answers that were complete stay as they were */
static void complete_answers_unchanged(void) {
    sym_expect("solve(x**4 - 2, x)", "[2**(1/4), 2**(1/4)*I, -2**(1/4)*I, -2**(1/4)]");
    sym_expect("solve(sqrt(x+2) - x, x)", "[2]");
    sym_expect("solve((x**2-1)/(x-1), x)", "[-1]");
    sym_expect("solve(exp(x), x)", "[]");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(all_roots_of_the_polynomial);
    RUN(complete_answers_unchanged);
    return check_summary("sym_solve_call_dropped_roots");
}
