/* Regression test: solve_expression listed a few roots of equations that
 * hold on whole intervals or at infinitely many points, as if the list
 * were the solution set: Abs(x) - x gave [0] (every x >= 0 solves it),
 * floor(x) - x [0] (every integer), ceiling(x) - floor(x) [] (every
 * integer), sqrt(x**2) - x and Max(x, 0) - x [0], and asin(sin(x)) - x
 * 3,793 float "roots" in [-pi/2, pi/2]. The equation is now tried at
 * sample points: one where it holds that no listed root covers refutes the
 * list, and many float roots whose gaps are roots too are a continuum. A
 * list that is the whole set stands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void refused(const char *expr, const char *why) {
    json_t *r = sym_solve(expr);
    CHECK(json_is_false(json_object_get(r, "ok")));
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(sym_str(r, "error") && strstr(sym_str(r, "error"), why));
    if (!sym_str(r, "error") || !strstr(sym_str(r, "error"), why)) {
        char *d = json_dumps(r, 0);
        fprintf(stderr, "  %s: %s\n", expr, d ? d : "(null)");
        free(d);
    }
    json_decref(r);
}

static void incomplete_solution_set_listed_as_whole(void) {
    refused("Abs(x) - x", "also holds at x = 1, 2");
    refused("floor(x) - x", "also holds at x = -3, -2");
    refused("ceiling(x) - floor(x)", "also holds at x = -3, -2");
    refused("sqrt(x**2) - x", "also holds at x = 1, 2");
    refused("Max(x, 0) - x", "also holds at x = 1, 2");
    refused("asin(sin(x)) - x", "holds on whole intervals");
    /* whole sets stand */
    static const char *const two[] = {"-2", "2"};
    sym_expect_roots("x**2 - 4", two, 2);
    static const char *const three[] = {"-1", "0", "1"};
    sym_expect_roots("x**3 - x", three, 3);
    static const char *const none[] = {NULL};
    sym_expect_roots("exp(-x**2)", none, 0); /* 1e-44 at x = 7.25 is no root */
    static const char *const absx[] = {"5", "-1"};
    sym_expect_roots("abs(x - 2) - 3", absx, 2);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(incomplete_solution_set_listed_as_whole);
    return check_summary("test_sym_solve_incomplete_set");
}
