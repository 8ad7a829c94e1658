/* solve_linear reads the decimal literals of a system as the exact
 * fractions they spell: in binary64 arithmetic the CAS answered a
 * coefficient below the double's precision as if it were absent. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/symbolic/sym_tools.h"

static json_t *solve(const char *system, const char *variables) {
    json_t *args = json_pack("{s:s, s:s}", "system", system, "variables", variables);
    json_t *r = cc_tool_solve_linear(args, NULL);
    json_decref(args);
    return r;
}

static const char *sol(json_t *r, size_t i) {
    return json_string_value(json_array_get(json_object_get(r, "solutions"), i));
}

static long count(json_t *r) { return (long)json_integer_value(json_object_get(r, "count")); }

/* x = 1; x = 1.0000000000000001 is inconsistent: the second literal is
 * not 1, though its nearest double is. It answered {x: 1.0}. */
static void test_decimal_literal_not_rounded_to_double(void) {
    json_t *r = solve("x = 1; x = 1.0000000000000001", "x");
    CHECK(count(r) == 0);
    json_decref(r);
    r = solve("x = 1.0000000000000001", "x");
    CHECK_STREQ(sol(r, 0), "{x: 1.0}"); /* printed as a float; solved exactly */
    json_decref(r);
}

/* (1 + 1e-20)*x = 1 answered {x: 1} (an exact-looking integer), and
 * 1e-20*x + y = 1; x + y = 2 answered {x: 1, y: 1}: the answer of a system
 * with float coefficients prints as floats. */
static void test_float_system_answer_prints_as_floats(void) {
    json_t *r = solve("(1+1e-20)*x = 1", "x");
    CHECK_STREQ(sol(r, 0), "{x: 1.0}");
    json_decref(r);
    r = solve("1e-20*x + y = 1; x + y = 2", "x, y");
    CHECK_STREQ(sol(r, 0), "{x: 1.0, y: 1.0}");
    json_decref(r);
    r = solve("x*1.5 + y = 3; x - y = 0.5", "x, y");
    CHECK_STREQ(sol(r, 0), "{x: 1.4, y: 0.9}");
    json_decref(r);
    r = solve("2.5x + 1 = 0", "x"); /* implicit multiplication kept */
    CHECK_STREQ(sol(r, 0), "{x: -0.4}");
    json_decref(r);
    r = solve("f2.5 = 1", "f2"); /* f2 times 0.5, not a call f2(5/10) */
    CHECK_STREQ(sol(r, 0), "{f2: 2.0}");
    json_decref(r);
    r = solve("0.5*x = a", "x");
    CHECK_STREQ(sol(r, 0), "{x: 2.0*a}");
    json_decref(r);
    r = solve("x = 1e-400", "x"); /* past binary64: the exact value's digits */
    CHECK_STREQ(sol(r, 0), "{x: 1.0e-400}");
    json_decref(r);
    r = solve("x + y = 10; x - y = 2", "x, y"); /* no decimal: exact as before */
    CHECK_STREQ(sol(r, 0), "{x: 6, y: 4}");
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_decimal_literal_not_rounded_to_double);
    RUN(test_float_system_answer_prints_as_floats);
    return check_summary("sym_solve_linear_decimals");
}
