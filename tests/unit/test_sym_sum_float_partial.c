/* Regression test: summation(1/(k**2 + 1), (k, 1, oo)) was answered
 * 698741/648981, an exact-looking fraction 3e-13 off the true sum
 * (-1/2 + pi/(2*tanh(pi)) = 1.07667404746858117...). The check of giac's
 * infinite sum takes the limit of its partial sum; giac's partial sum of
 * that term is digammas plus the float 1.07667404747, and giac's limit made
 * that float a fraction. A partial sum holding a float is no exact answer
 * now, and giac's own closed form stands. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void check_sum(const char *expr, const char *n20) {
    json_t *r = sym_eval(expr);
    const char *type = sym_str(r, "type");
    if (!type || !strcmp(type, "Rational"))
        fprintf(stderr, "  %s: %s (%s)\n", expr, sym_str(r, "expression"), type ? type : "?");
    CHECK(type && strcmp(type, "Rational") != 0);
    json_decref(r);
    char *n = NULL;
    CHECK(asprintf(&n, "N(%s, 20)", expr) > 0);
    sym_expect(n, n20);
    free(n);
}

static void test_float_partial_sum_became_a_fraction(void) {
    /* mpmath: -1/2 + pi/(2*tanh(pi)); -1/8 + pi/(4*tanh(2*pi)) */
    check_sum("summation(1/(k**2 + 1), (k, 1, oo))", "1.0766740474685811741");
    check_sum("summation(1/(k**2 + 4), (k, 1, oo))", "0.66040364132111511419");
    /* the check still corrects giac where its partial sum is exact */
    sym_expect("summation(1/(k*(k + 5)), (k, 1, oo))", "137/300");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_float_partial_sum_became_a_fraction);
    return check_summary("test_sym_sum_float_partial");
}
