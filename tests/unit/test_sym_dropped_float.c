/* Regression: simplify_expression and evaluate_expression gave
 * "simplified": "sin(x)" for sin(x) - 5e-33. giac's simplify works within
 * a float tolerance and drops the term, and the check every form passes
 * (sym_agrees, at 1e-25 relative) could not see a difference of 5e-33 in
 * values near 1; near x = 1e-32 the two differ by half. A form now also
 * fails the check when a difference seen at 150 digits is not far below
 * the smallest float written.
 *
 * The cases besides the reported one are other shapes of the same class
 * (a dropped product, a dropped term of an exponential, a term beside a
 * polynomial) and rewritings that round and must still agree. */
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/symbolic/sym_input.h"

struct pair {
    const char *input, *form;
    bool agrees;
};

static const struct pair PAIRS[] = {
    /* the report */
    {"sin(x) - 5e-33", "sin(x)", false},
    {"sin(x) - 5e-33", "sin(x) - 5.0e-33", true},
    /* the same class, other shapes */
    {"x + 1e-30", "x", false},
    {"cos(x) + 1e-30*exp(x)", "cos(x)", false},
    {"log(x) + 1e-40*x", "log(x)", false},
    {"x**2 + 3*x + 2e-22", "(x + 1)*(x + 2)", false},
    {"exp(x)*(1 + 1e-20)", "exp(x)", false},
    /* float arithmetic that is exact in binary64 still agrees */
    {"2.5*x + 1.5*x", "4.0*x", true},
    {"x*1e-30 + x*1e-30", "2.0e-30*x", true},
    /* float arithmetic that rounds (0.1*3 is not 0.3 in binary64) was
     * refused before (the 25-digit check sees 1e-17), and still is: the
     * input as written stands */
    {"0.1*3*x", "0.3*x", false},
    {"(x + 0.1)**2 - x**2", "0.2*x + 0.01", false},
    {"0.5*(x + 1)**2 - 0.5*x**2", "x + 0.5", true},
    /* no float written: the check is the 1e-25 one alone */
    {"(x + 1)**2", "x**2 + 2*x + 1", true},
    {"(x + 1)**2", "x**2 + 2*x", false},
};

static void dropped_float_term_is_not_the_same_function(void) {
    for (size_t i = 0; i < sizeof PAIRS / sizeof *PAIRS; i++) {
        bool got = sym_text_agrees(PAIRS[i].input, PAIRS[i].form);
        if (got != PAIRS[i].agrees)
            fprintf(stderr, "  %s against %s: %d\n", PAIRS[i].input, PAIRS[i].form, got);
        CHECK_INTEQ(got, PAIRS[i].agrees);
    }
}

int main(void) {
    RUN(dropped_float_term_is_not_the_same_function);
    return check_summary("sym_dropped_float");
}
