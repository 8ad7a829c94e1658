/* Regression: solve_expression's periodic families said "k stands for any
 * integer" for families that are undefined at k = 0: sin(1/x) = 0 gave
 * 1/(pi*k) and sin(exp(x)) = 0 log(pi*k) (lane symred2's known list).
 * The note now names the integers where a family is undefined; families
 * defined for every k keep the plain note. An empty solutions list beside
 * families is filled with their members at k = -1 and 1. */
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

/* tan(1/x) = 0 and cos(x)/x = 1/x answered solutions [] beside their
 * families: the principal root was no number (1/x = 0, x = 0) */
static void test_family_roots_fill_empty_solutions(void) {
    static const char *const tan_roots[] = {"-1/pi", "1/pi"};
    sym_expect_roots("tan(1/x) = 0", tan_roots, 2);
    static const char *const cos_roots[] = {"-2*pi", "2*pi"};
    sym_expect_roots("cos(x)/x = 1/x", cos_roots, 2);
    static const char *const cos2_roots[] = {"-1/(2*pi)", "1/(2*pi)"};
    sym_expect_roots("cos(1/x) = 1", cos2_roots, 2);
    json_t *r = sym_solve("tan(1/x) = 0");
    CHECK(sym_str(r, "solutions_note") && strstr(sym_str(r, "solutions_note"), "k = -1 and k = 1"));
    json_decref(r);
    /* a list the solver filled is left as it is */
    static const char *const sin_roots[] = {"0", "pi"};
    sym_expect_roots("sin(x) = 0", sin_roots, 2);
    r = sym_solve("sin(x) = 0");
    CHECK(json_object_get(r, "solutions_note") == NULL);
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_family_undefined_at_zero_is_noted);
    RUN(test_family_defined_everywhere_unchanged);
    RUN(test_family_roots_fill_empty_solutions);
    return check_summary("test_sym_family_undefined_at_zero");
}
