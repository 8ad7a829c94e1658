/* Regression test: solve_expression answered cbrt(x) + 2 = 0 with
 * `solutions: []` and nothing more. A symbolic cbrt is read as the
 * principal root x**(1/3) (as SymPy reads it), under which that answer is
 * right, while cbrt(-8) of a number is the real root -2: a caller meaning
 * the real cube root got an empty set with no word of which root was
 * taken. The note says so now; a note the parse left for an earlier call
 * does not reach a later one. */
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void cbrt_empty_solution_said_nothing(void) {
    json_t *r = sym_solve("cbrt(x) + 2");
    CHECK_INTEQ(json_array_size(json_object_get(r, "solutions")), 0);
    CHECK(sym_str(r, "note") && strstr(sym_str(r, "note"), "principal root"));
    json_decref(r);
    r = sym_solve("cbrt(x) - 2");
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "solutions"), 0)), "8");
    json_decref(r);
    /* no cbrt: no note */
    r = sym_solve("x**2 - 4");
    CHECK(sym_str(r, "note") == NULL);
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(cbrt_empty_solution_said_nothing);
    return check_summary("test_sym_cbrt_solve_note");
}
