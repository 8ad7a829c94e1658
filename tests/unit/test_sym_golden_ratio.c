/* Regression test: GoldenRatio (SymPy's constant (1 + sqrt(5))/2) was
 * read as a free symbol: algebraic_equiv answered identical: false for
 * GoldenRatio**2 and GoldenRatio + 1, a true identity, and
 * N(GoldenRatio, 20) had no value. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_golden_ratio_was_a_free_symbol(void) {
    sym_expect_identical("GoldenRatio**2", "GoldenRatio + 1", true);
    sym_expect_identical("GoldenRatio", "2*cos(pi/5)", true);
    sym_expect_identical("GoldenRatio", "x", false);
    sym_expect("N(GoldenRatio, 20)", "1.6180339887498948482");
    sym_expect("GoldenRatio", "1/2 + sqrt(5)/2");
    json_t *r = sym_eval("GoldenRatio**2 - GoldenRatio");
    CHECK_STREQ(sym_str(r, "simplified"), "1");
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_golden_ratio_was_a_free_symbol);
    return check_summary("test_sym_golden_ratio");
}
