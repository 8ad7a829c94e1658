/* Regression: solve_linear answered 0.1*x + 0.2*y = 0.3; 0.3*x + 0.6*y =
 * 0.9 with solutions [] ("inconsistent"), ok true; the second equation is
 * 3 times the first (the decimals are read as the fractions they spell),
 * and every x = 3 - 2*y solves it. giac's solve and its linsolve both give
 * [] for that dependent system in rational coefficients (x/10 + y/5 =
 * 3/10; ...) and solve it over integer ones. An empty answer to a linear
 * system not proven inconsistent is solved again with each equation over
 * its common denominator, and the solution checked in every equation. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static json_t *solve_linear(const char *sys, const char *vars) {
    json_t *args = json_pack("{s:s, s:s}", "system", sys, "variables", vars);
    json_t *r = cc_tool_solve_linear(args, NULL);
    json_decref(args);
    return r;
}

static void expect(const char *sys, const char *vars, const char *want) {
    json_t *r = solve_linear(sys, vars);
    char *got = json_dumps(json_object_get(r, "solutions"), JSON_COMPACT);
    if (!got || strcmp(got, want))
        fprintf(stderr, "  %s: got %s, want %s\n", sys, got ? got : "(none)", want);
    CHECK_STREQ(got, want);
    free(got);
    json_decref(r);
}

static void dependent_rational_system_is_solved(void) {
    expect("0.1*x + 0.2*y = 0.3; 0.3*x + 0.6*y = 0.9", "x, y", "[\"{x: 3.0 - 2.0*y}\"]");
    expect("0.1*x + 0.2*y = 0.3; 0.2*x + 0.4*y = 0.6", "x, y", "[\"{x: 3.0 - 2.0*y}\"]");
    expect("x/10 + y/5 = 3/10; 3*x/10 + 3*y/5 = 9/10", "x, y", "[\"{x: 3 - 2*y}\"]");
}

/* inconsistent systems stay so; others are unchanged */
static void other_systems_unchanged(void) {
    expect("0.1*x + 0.2*y = 0.3; 0.3*x + 0.6*y = 0.91", "x, y", "[]");
    expect("x + y = 1; 2*x + 2*y = 3", "x, y", "[]");
    expect("a*x + y = 1; a*x + y = 2", "x, y", "[]");
    expect("x + 2*y = 3; 3*x + 6*y = 9", "x, y", "[\"{x: 3 - 2*y}\"]");
    expect("0.1*x = 0.3; 0.3*x = 0.9", "x", "[\"{x: 3.0}\"]");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(dependent_rational_system_is_solved);
    RUN(other_systems_unchanged);
    return check_summary("sym_linear_dependent_rational");
}
