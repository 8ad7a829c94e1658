/* Regression: Heaviside(sin(1e-20) - 1e-20) was 1/2. giac evaluates a
 * float expression in binary64, where sin(1e-20) is 1e-20, and its zero
 * test took the cancelled argument for 0; the literals' exact values
 * differ by about -1.7e-61, so the answer is 0. The same class: every
 * function that jumps at 0 (or at an integer) of a constant that cancels
 * in binary64 but not exactly: sign(cos(1e-10) - 1) was 0 (-1),
 * floor(sin(1e-20) - 1e-20) was 0 (-1), ceiling(1e-20 - sin(1e-20)) was 0
 * (1), DiracDelta(sin(1e-20) - 1e-20) stayed DiracDelta(0.0) (0), and the
 * exact floor(sin(10**-20) - 10**-20) simplified to 0 (-1). The sign is now
 * our evaluator's, whose loop runs until the value settles. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void jump_functions_of_cancelled_floats(void) {
    sym_expect("Heaviside(sin(1e-20) - 1e-20)", "0");
    sym_expect("Heaviside(1e-20 - sin(1e-20))", "1");
    sym_expect("Heaviside(cos(1e-10) - 1)", "0");
    sym_expect("sign(cos(1e-10) - 1)", "-1");
    sym_expect("sign(sin(1e-20) - 1e-20)", "-1.00000000000000");
    sym_expect("floor(sin(1e-20) - 1e-20)", "-1");
    sym_expect("ceiling(1e-20 - sin(1e-20))", "1");
    sym_expect("floor(cos(1e-10) - 1)", "-1");
    sym_expect("floor(sin(10**-20) - 10**-20)", "-1");
    sym_expect("DiracDelta(sin(1e-20) - 1e-20)", "0");
    /* binary64 gives the wrong sign, not 0: exp(1e-30) is 1.0 there */
    sym_expect("sign(exp(1e-30) - 1 - 1e-30)", "1");
    sym_expect("Heaviside(exp(1e-30) - 1 - 1e-30)", "1");
    /* Min and Max compare the values, not their binary64 roundings
     * (a generated batch: Min(exp(1e-20) - 1 - 1e-20, 0) was -1e-20) */
    sym_expect("Min(exp(1e-20) - 1 - 1e-20, 0)", "0");
    sym_expect("Min(exp(1e-30) - 1 - 1e-30, 0)", "0");
    sym_expect("Max(exp(1e-20) - 1 - 1e-20, 0)", "5.00000000000000e-41");
    sym_expect("Max(sin(1e-20) - 1e-20, -1e-70)", "-1.00000000000000e-70");
    /* our evaluator's Min and Max (which give a float answer its value)
     * took two rounds that could not yet see 5e-41 for settled */
    sym_expect("Max(exp(1e-20) - 1 - 1e-20, 1e-70)", "5.00000000000000e-41");
    sym_expect("Min(exp(1e-20) - 1 - 1e-20, 1e-70)", "1.00000000000000e-70");
    sym_expect("N(sign(exp(1e-20) - 1 - 1e-20))", "1.00000000000000");
    sym_expect("N(Max(sin(sqrt(2.0)), 0.5))", "0.987765945992736");
    sym_expect("N(Max(sin(sqrt(2)), 1/2))", "0.987765945992736");
}

/* an exact zero, a symbol, and plain values keep their answers */
static void jump_functions_elsewhere_unchanged(void) {
    sym_expect("Heaviside(0)", "1/2");
    sym_expect("Heaviside(1e-20 - 1e-20)", "1/2");
    sym_expect("Heaviside(x)", "Heaviside(x)");
    sym_expect("Heaviside(-1e-20)", "0");
    sym_expect("sign(0)", "0");
    sym_expect("sign(-2.5)", "-1");
    sym_expect("sign(x)", "sign(x)");
    sym_expect("floor(-3.5)", "-4");
    sym_expect("floor(exp(pi*sqrt(163)))", "262537412640768743");
    sym_expect("DiracDelta(0)", "DiracDelta(0)");
    sym_expect("Min(2.5, 3)", "2.50000000000000");
    sym_expect("Max(2.5, 3)", "3");
    sym_expect("Max(0.1, 1/3)", "1/3");
    sym_expect("Min(x, 1.5)", "Min(x, 1.5)");
    sym_expect("Max(1, 2, 3)", "3");
}

/* Order comparisons of float constants by their values' difference:
 * sin(1e-20) < 1e-20 was False (binary64's sin(1e-20) is 1e-20), though
 * Heaviside(1e-20 - sin(1e-20)) is 1 */
static void comparisons_of_cancelled_floats(void) {
    sym_expect("sin(1e-20) < 1e-20", "True");
    sym_expect("sin(1e-20) >= 1e-20", "False");
    sym_expect("exp(1e-30) - 1 > 1e-30", "True");
    sym_expect("(sin(1e-20) - 1e-20) > 0", "False");
    sym_expect("0.1 + 0.2 > 0.3", "True");
    sym_expect("0.5 <= 0.5", "True");
    sym_expect("1 < 2.5 < 2", "False");
    sym_expect("x < 1.5", "1.5 > x");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(jump_functions_of_cancelled_floats);
    RUN(jump_functions_elsewhere_unchanged);
    RUN(comparisons_of_cancelled_floats);
    return check_summary("sym_jump_cancelled_float");
}
