/* Regression test: evaluate_expression gave erfc(5000) and exp(-10**10)
 * the value "0.0". Both are positive: giac's evalf of 1 - erf(5000)
 * cancels to 0 at 30 digits, and exp(-10**10) underflows its exponent
 * range. Our evaluator declines values below 10**-39456 and differences
 * whose digits do not settle; where it did and giac's approximation is
 * 0.0, no value is given and a note says why. A
 * value giac does represent (exp(-676000000)) and an exact 0 stand. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void no_value(const char *expr, const char *why) {
    json_t *r = sym_eval(expr);
    CHECK(sym_str(r, "value") == NULL);
    CHECK(sym_str(r, "note") && strstr(sym_str(r, "note"), why));
    json_decref(r);
}

static void positive_underflow_was_valued_zero(void) {
    no_value("erfc(5000)", "below 10**-39456");
    no_value("exp(-10**10)", "below 10**-39456");
    no_value("exp(-2*10**10)/3", "below 10**-39456");
    /* the difference needs more than 32768 bits to show: nor 0.0 */
    no_value("1 - erf(26000)", "did not settle");
    sym_expect_field("exp(-676000000)", "value", "1.71159797702e-293583070");
    sym_expect_field("erfc(30)", "value", "2.56465620376e-393");
    sym_expect_field("sin(pi)", "value", "0");
    sym_expect_field("exp(-10**6)*exp(10**6)", "value", "1.00000000000");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(positive_underflow_was_valued_zero);
    return check_summary("test_sym_underflow_value");
}
