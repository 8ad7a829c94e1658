/* Regression: solve_linear answered 0.1*x + 0.2*y = 0.3; 0.3*x + 0.6*y =
 * 0.9 with solutions [] ("inconsistent"), ok true; the second equation is
 * 3 times the first (the decimals are read as the fractions they spell),
 * and every x = 3 - 2*y solves it. giac's solve and its linsolve both give
 * [] for that dependent system in rational coefficients (x/10 + y/5 =
 * 3/10; ...) and solve it over integer ones. An empty answer to a linear
 * system not proven inconsistent is solved again with each equation over
 * its common denominator, and the solution checked in every equation. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void dependent_rational_system_is_solved(void) {
    sym_expect_linear("0.1*x + 0.2*y = 0.3; 0.3*x + 0.6*y = 0.9", "x, y", "[\"{x: 3.0 - 2.0*y}\"]");
    sym_expect_linear("0.1*x + 0.2*y = 0.3; 0.2*x + 0.4*y = 0.6", "x, y", "[\"{x: 3.0 - 2.0*y}\"]");
    sym_expect_linear("x/10 + y/5 = 3/10; 3*x/10 + 3*y/5 = 9/10", "x, y", "[\"{x: 3 - 2*y}\"]");
}

/* inconsistent systems stay so; others are unchanged */
static void other_systems_unchanged(void) {
    sym_expect_linear("0.1*x + 0.2*y = 0.3; 0.3*x + 0.6*y = 0.91", "x, y", "[]");
    sym_expect_linear("x + y = 1; 2*x + 2*y = 3", "x, y", "[]");
    sym_expect_linear("a*x + y = 1; a*x + y = 2", "x, y", "[]");
    sym_expect_linear("x + 2*y = 3; 3*x + 6*y = 9", "x, y", "[\"{x: 3 - 2*y}\"]");
    sym_expect_linear("0.1*x = 0.3; 0.3*x = 0.9", "x", "[\"{x: 3.0}\"]");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(dependent_rational_system_is_solved);
    RUN(other_systems_unchanged);
    return check_summary("sym_linear_dependent_rational");
}
