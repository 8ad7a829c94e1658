/* Regression: solve_linear of x + y = 10; x - y = 2 for "x" alone
 * answered solutions [], count 0, ok true: no x solves it for every y, and
 * an agent wanting x = 6 read "inconsistent". When the system solved with
 * its other symbols as unknowns too has a solution, the call now fails
 * naming them; systems inconsistent either way keep their []. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void expect_names(const char *sys, const char *vars, const char *part) {
    json_t *r = sym_solve_linear(sys, vars);
    const char *e = sym_str(r, "error");
    if (!e) fprintf(stderr, "  %s for %s: no error\n", sys, vars);
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(e && strstr(e, part));
    CHECK(json_object_get(r, "solutions") == NULL);
    json_decref(r);
}

static void test_linear_subset_of_unknowns_was_empty(void) {
    expect_names("x + y = 10; x - y = 2", "x", "the system also determines y");
    expect_names("x + y + z = 6; x - y = 0; x - z = 0", "x", "the system also determines y, z");
}

static void test_inconsistent_and_underdetermined_unchanged(void) {
    sym_expect_linear("x + y = 1; x + y = 2", "x", "[]");
    sym_expect_linear("x + y = 1; x + y = 2", "x, y", "[]");
    sym_expect_linear("x + y = 10", "x", "[\"{x: 10 - y}\"]");
    sym_expect_linear("x + y = 10; x - y = 2", "x, y", "[\"{x: 6, y: 4}\"]");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_linear_subset_of_unknowns_was_empty);
    RUN(test_inconsistent_and_underdetermined_unchanged);
    return check_summary("test_sym_linear_subset_of_unknowns");
}
