/* Regression test: evaluate_expression gave tan(pi/2 - 10**-40) the value
 * 1.06211172116e+39 (it is 1e40) and cot(pi - 10**-30) -9.99999994946e+29
 * (it is -1e30). Next to a pole the 128-bit check of the CAS's value is
 * ill-conditioned (pi/2 at 128 bits is off by 1e-39); N's correctly rounded
 * loop settles there, but the check's cap of 4x the bits stopped it, the
 * 128-bit value disagreed with the correctly rounded one and replaced it.
 * A disagreement is now settled at N's precision before it counts, for the
 * value and for the note saying the CAS's text is another number. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void value_is(const char *expr, const char *want) {
    json_t *r = sym_eval(expr);
    CHECK_STREQ(sym_str(r, "value"), want);
    /* the CAS's text is the same number: no note says otherwise */
    CHECK(sym_str(r, "note") == NULL || !strstr(sym_str(r, "note"), "not the input's value"));
    json_decref(r);
}

static void pole_value_replaced_by_the_128_bit_one(void) {
    value_is("tan(pi/2 - 10**-40)", "1.00000000000e+40");
    value_is("tan(pi/2 - 10**-200)", "1.00000000000e+200");
    value_is("cot(pi - 10**-30)", "-1.00000000000e+30");
    value_is("sec(pi/2 - 10**-40)", "1.00000000000e+40");
    value_is("1/cos(pi/2 + 10**-45)", "-1.00000000000e+45");
    /* a CAS value that is another number still keeps its note */
    json_t *r = sym_eval("gamma(1 + I)");
    CHECK_STREQ(sym_str(r, "value"), "0.498015668118 - 0.154949828302*I");
    CHECK(sym_str(r, "note") && strstr(sym_str(r, "note"), "not the input's value"));
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(pole_value_replaced_by_the_128_bit_one);
    return check_summary("test_sym_pole_value");
}
