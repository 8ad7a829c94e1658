/* Regression test: N(polylog(3, 1/2), 15) was refused ("polylog(s, z) has
 * a closed form here only for ..."): the evaluator had MPFR's Li_2 alone.
 * Li_k for k >= 3 at a real |x| <= 1 is now its series (zeta at +-1),
 * with the work bounded; values are mpmath's at 110 digits. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_polylog_of_order_3_was_refused(void) {
    sym_expect("N(polylog(3, 1/2), 30)", "0.537213193608040200940623225595");
    sym_expect("N(polylog(3, 1/3), 50)", "0.34882786115484008421425193538699285536624537452655");
    sym_expect("N(polylog(4, -3/4), 20)", "-0.71909733866082268085");
    sym_expect("N(polylog(3, 9/10), 20)", "1.0496589501864398696");
    sym_expect("N(polylog(3, 99/100), 15)", "1.18583293364504");
    sym_expect("N(polylog(3, 1), 20)", "1.2020569031595942854");
    sym_expect("N(polylog(3, -1), 20)", "-0.90154267736969571405");
    sym_expect("N(polylog(3, 0), 20)", "0");
    /* an exact 0 the CAS cannot show is still refused, and in bounded time */
    json_t *r = sym_eval("N(polylog(3, 1/2) - 7*zeta(3)/8 + pi**2*log(2)/12 - log(2)**3/6, 30)");
    CHECK(json_is_false(json_object_get(r, "ok")));
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_polylog_of_order_3_was_refused);
    return check_summary("test_sym_polylog_numeric");
}
