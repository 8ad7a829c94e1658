/* Regression test: euler(4) (SymPy's Euler number, 5) and catalan(10)
 * (16796) were "unknown function". Values are SymPy's. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_euler_and_catalan_numbers_were_unknown(void) {
    sym_expect("euler(0)", "1");
    sym_expect("euler(4)", "5");
    sym_expect("euler(10)", "-50521");
    sym_expect("euler(7)", "0");
    sym_expect("euler(20)", "370371188237525");
    sym_expect("catalan(10)", "16796");
    sym_expect("catalan(0)", "1");
    sym_expect("Catalan + catalan(3)", "Catalan + 5");
    /* giac's own euler is the totient; ours is not reached by that name */
    sym_expect("totient(10)", "4");
    json_t *r = sym_eval("euler(2, x)");
    CHECK_STREQ(sym_str(r, "code"), "validation");
    json_decref(r);
    r = sym_eval("euler(501)");
    CHECK_STREQ(sym_str(r, "code"), "validation");
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_euler_and_catalan_numbers_were_unknown);
    return check_summary("test_sym_euler_catalan_numbers");
}
