/* solve_linear's variables that the equations cannot name: a constant of
 * the expression language (E, I, pi) inside an equation is the constant,
 * so `E + I = 3; E - I = 1` for "E, I" answered solutions [] ("the system
 * is inconsistent", ok true) for a system whose solution is E = 2, I = 1;
 * and a name listed twice was solved as two unknowns ("x, y, x" answered
 * {x: 2, y: 1 - y}). Both are refused now, as solve_expression refuses
 * such a var. */
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

static bool refused(json_t *r, const char *needle) {
    const char *e = json_string_value(json_object_get(r, "error"));
    return json_is_false(json_object_get(r, "ok")) &&
           !strcmp(json_string_value(json_object_get(r, "code")), "validation") && e && strstr(e, needle);
}

static void test_constant_as_variable_answered_inconsistent(void) {
    static const char *const cases[][3] = {
        {"E + I = 3; E - I = 1", "E, I", "'E' is a constant"},
        {"pi + x = 3; x - pi = 1", "x, pi", "'pi' is a constant"},
        {"x + oo = 3", "x, oo", "'oo' is a constant"},
        {"EulerGamma = 2", " EulerGamma ", "'EulerGamma' is a constant"},
        {"x + y = 1", "x, gamma", "'gamma' is a function"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *r = solve(cases[i][0], cases[i][1]);
        CHECK(refused(r, cases[i][2]));
        json_decref(r);
    }
    json_t *r = solve("e + x = 3; x - e = 1", "x, e"); /* e is not E: a name */
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "solutions"), 0)), "{x: 2, e: 1}");
    json_decref(r);
}

static void test_variable_listed_twice_was_solved_as_two(void) {
    static const char *const cases[][3] = {
        {"x + y = 3; x - y = 1", "x, y, x", "'x' is listed twice"},
        {"x = 3", "x,x", "'x' is listed twice"},
        {"x + 2*y = 3; 3*x + y = 1", "y, x, y ", "'y' is listed twice"},
        {"x + y = 3; x - y = 1; 2*x = 4", "x, y, x", "'x' is listed twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *r = solve(cases[i][0], cases[i][1]);
        CHECK(refused(r, cases[i][2]));
        json_decref(r);
    }
    json_t *r = solve("x + y = 10; x - y = 2", "x, , y,"); /* blank items dropped */
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "solutions"), 0)), "{x: 6, y: 4}");
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_constant_as_variable_answered_inconsistent);
    RUN(test_variable_listed_twice_was_solved_as_two);
    return check_summary("sym_solve_linear_var_names");
}
