/* solve_linear and inequalities: the piece x + y != 10 was split at the
 * '=' of "!=" into x + y! = 10 (a factorial) and answered three numeric
 * "solutions"; x + y < 10; x - y = 2 and x < 3; x = 1 answered [], the
 * system "inconsistent", though each has solutions; Ne(x, 3) alike. A
 * piece holding a comparison is refused now (the system is solved as
 * equations), and "==" reads as "=". */
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

static void test_inequality_piece_was_solved_as_equation(void) {
    static const char *const cases[][3] = {
        {"x + y != 10; x - y = 2", "x, y", "'x + y != 10' is an inequality"},
        {"x + y < 10; x - y = 2", "x, y", "'x + y < 10' is an inequality"},
        {"x < 3 ; x = 1", "x", "'x < 3' is an inequality"},
        {"x = 1; x >= 0", "x", "'x >= 0' is an inequality"},
        {"Ne(x, 3)", "x", "'Ne(x, 3)' is an inequality"},
        {"x + y <= 1.5; x = 3", "x, y", "'x + y <= 1.5' is an inequality"},
        {"2*x = (y > 1)", "x, y", "is an inequality"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *r = solve(cases[i][0], cases[i][1]);
        const char *e = json_string_value(json_object_get(r, "error"));
        CHECK(json_is_false(json_object_get(r, "ok")));
        CHECK(e && strstr(e, cases[i][2]));
        json_decref(r);
    }
}

static void test_double_equals_reads_as_equals(void) {
    json_t *r = solve("x + y == 10; x - y == 2", "x, y");
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "solutions"), 0)), "{x: 6, y: 4}");
    json_decref(r);
    r = solve("Eq(x, 3)", "x"); /* Eq is an equation, not refused */
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "solutions"), 0)), "{x: 3}");
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_inequality_piece_was_solved_as_equation);
    RUN(test_double_equals_reads_as_equals);
    return check_summary("sym_solve_linear_inequality");
}
