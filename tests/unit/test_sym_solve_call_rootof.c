/* Regression: evaluate_expression's solve(x**3 - x + 1, x) printed giac's
 * raw rootof([-3, 0, 15, 0, -12], [1, 0, -6, 0, 9, 0, 23])/27 forms, which
 * the language cannot read back (lane symred2's known list); also
 * x**3 - 3*x + 1. The radicals solve_expression gives replace them. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void test_solve_call_printed_rootof(void) {
    sym_expect("solve(x**3 - x + 1, x)",
               "[(1/2 + sqrt(69)/18)**(1/3)/2 + (1/2 - sqrt(69)/18)**(1/3)/2 - sqrt(3)*I*((1/2 + "
               "sqrt(69)/18)**(1/3) - (1/2 - sqrt(69)/18)**(1/3))/2, (1/2 + sqrt(69)/18)**(1/3)/2 + "
               "(1/2 - sqrt(69)/18)**(1/3)/2 + sqrt(3)*I*((1/2 + sqrt(69)/18)**(1/3) - (1/2 - "
               "sqrt(69)/18)**(1/3))/2, -(1/2 + sqrt(69)/18)**(1/3) - (1/2 - sqrt(69)/18)**(1/3)]");
    sym_expect("solve(x**3 - 3*x + 1, x)", "[-2*cos(pi/9), 2*cos(4*pi/9), 2*cos(2*pi/9)]");
    json_t *r = sym_eval("solve(x**3 - 2*x + 5, x)");
    CHECK(sym_str(r, "expression") && !strstr(sym_str(r, "expression"), "rootof"));
    json_decref(r);
}

static void test_solve_call_others_unchanged(void) {
    sym_expect("solve(x**2 - 4, x)", "[-2, 2]");
    sym_expect("solve(x**3 - 1, x)", "[1, -1/2 + sqrt(3)*I/2, -1/2 - sqrt(3)*I/2]");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_solve_call_printed_rootof);
    RUN(test_solve_call_others_unchanged);
    return check_summary("test_sym_solve_call_rootof");
}
