/* Regression: solve_expression's periodic families said "k stands for any
 * integer" for families that are undefined at k = 0: sin(1/x) = 0 gave
 * 1/(pi*k) and sin(exp(x)) = 0 log(pi*k) (lane symred2's known list).
 * The note now names the integers where a family is undefined; families
 * defined for every k keep the plain note. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void expect_note(const char *expr, const char *family, const char *note) {
    json_t *r = sym_solve(expr);
    const char *got = sym_str(r, "general_solution_note");
    if (!got || strcmp(got, note))
        fprintf(stderr, "  %s: note %s\n", expr, got ? got : "(none)");
    CHECK_STREQ(sym_general(r, 0), family);
    CHECK_STREQ(got, note);
    json_decref(r);
}

#define EXCEPT "k (and k2, ...) stand for any integer, except where a family is undefined: "

static void test_family_undefined_at_zero_is_noted(void) {
    expect_note("sin(1/x) = 0", "1/(pi*k)", EXCEPT "k = 0 in 1/(pi*k)");
    expect_note("sin(exp(x)) = 0", "log(pi*k)", EXCEPT "k = 0 in log(pi*k)");
    expect_note("sin(x)/x = 0", "pi*k", EXCEPT "k = 0 in pi*k");
}

static void test_family_defined_everywhere_unchanged(void) {
    expect_note("sin(x) = 0", "pi*k", "k (and k2, ...) stand for any integer");
    expect_note("tan(x) = 1", "pi*k + pi/4", "k (and k2, ...) stand for any integer");
    expect_note("exp(x) = 2", "2*I*pi*k + log(2)", "k (and k2, ...) stand for any integer");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_family_undefined_at_zero_is_noted);
    RUN(test_family_defined_everywhere_unchanged);
    return check_summary("test_sym_family_undefined_at_zero");
}
