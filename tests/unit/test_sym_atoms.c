/* evaluate_expression on results that are already canonical (numbers,
 * symbols, named constants): the simplify/expand passes are skipped for
 * them, so these tests pin the forms that must still come out, and the
 * 12-digit value that now takes the multiprecision path directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/sym_tools.h"

/* Checks all four printed fields of one atom in one go. */
static void check_atom(const char *expr, const char *printed, const char *type, const char *value) {
    json_t *r = sym_eval(expr);
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK_STREQ(sym_str(r, "expression"), printed);
    CHECK_STREQ(sym_str(r, "simplified"), printed);
    CHECK_STREQ(sym_str(r, "expanded"), printed);
    CHECK_STREQ(sym_str(r, "type"), type);
    if (value)
        CHECK_STREQ(sym_str(r, "value"), value);
    else
        CHECK(json_object_get(r, "value") == NULL);
    json_decref(r);
}

static void test_exact_numbers(void) {
    check_atom("sqrt(144) + 2**10", "1036", "Integer", "1036.00000000"); /* TOOLS.md 3.3.22 */
    check_atom("3/4", "3/4", "Rational", "0.750000000000");
    check_atom("-3", "-3", "Integer", "-3.00000000000");
    check_atom("1/2", "1/2", "Half", "0.500000000000");
    check_atom("x*0", "0", "Zero", "0");
    check_atom("2**100", "1267650600228229401496703205376", "Integer", "1.26765060023e+30");
}

static void test_constants_and_symbols(void) {
    check_atom("pi", "pi", "Pi", "3.14159265359");
    check_atom("log(E)*E", "E", "Exp1", "2.71828182846");
    check_atom("x", "x", "Symbol", NULL);
    check_atom("oo", "oo", "Infinity", NULL);
    /* giac's expand turns -infinity into unsigned infinity; skipping it for
     * an atom keeps sympy's answer */
    check_atom("-oo", "-oo", "NegativeInfinity", NULL);
    check_atom("zoo", "zoo", "ComplexInfinity", NULL);
}

/* Non-atoms still go through both passes. */
static void test_non_atoms_still_simplified(void) {
    json_t *r = sym_eval("sin(x)**2 + cos(x)**2"); /* TOOLS.md 3.3.22 */
    CHECK_STREQ(sym_str(r, "simplified"), "1");
    json_decref(r);
    r = sym_eval("(x + 1)**2");
    CHECK_STREQ(sym_str(r, "expression"), "(x + 1)**2");
    CHECK_STREQ(sym_str(r, "expanded"), "x**2 + 2*x + 1");
    json_decref(r);
    r = sym_eval("sqrt(2)");
    CHECK_STREQ(sym_str(r, "type"), "Pow");
    CHECK_STREQ(sym_str(r, "value"), "1.41421356237");
    json_decref(r);
}

/* Whether a fast path answered the call (the profile says so). */
static bool answered_fast(json_t *r) {
    return json_is_true(json_object_get(json_object_get(r, "profile_us"), "fast"));
}

/* expr's value prints as printed, its simplified and expanded forms are
 * that text, and giac's two passes were skipped (fast) or run. */
static void check_unchanged(const char *expr, const char *printed, bool fast) {
    json_t *r = sym_eval(expr);
    if (!r || answered_fast(r) != fast)
        fprintf(stderr, "  %s: fast %d, want %d\n", expr, r && answered_fast(r), fast);
    CHECK(answered_fast(r) == fast);
    CHECK_STREQ(sym_str(r, "expression"), printed);
    CHECK_STREQ(sym_str(r, "simplified"), printed);
    CHECK_STREQ(sym_str(r, "expanded"), printed);
    json_decref(r);
}

/* A rational times powers of symbols and one call of a function on a
 * positive monomial (evaluate_expression.c function_monomial), and a
 * truncated series (series_value): giac's simplify and expand give them
 * back unchanged, so the passes are skipped; the forms are what the CAS
 * path printed (tests/crosscheck/fastpath.py compares both paths). */
static void test_unchanged_forms_skip_giac(void) {
    check_unchanged("integrate(sin(x), x)", "-cos(x)", true);
    check_unchanged("diff(exp(x), x)", "exp(x)", true);
    check_unchanged("diff(sin(x**2), x)", "2*x*cos(x**2)", true);
    check_unchanged("integrate(exp(2*x), x)", "exp(2*x)/2", true);
    check_unchanged("-3*x**2*y*log(x/2)/7", "-3*x**2*y*log(x/2)/7", true);
    check_unchanged("series(atan(x), x, 0, 6)", "x - x**3/3 + x**5/5 + O(x**6)", true);
    check_unchanged("series(exp(x), x, 1, 3)", "E + E*(x - 1) + E*(x - 1)**2/2 + O((x - 1)**3, (x, 1))",
                    true);
}

/* An expanded polynomial in symbols and one transcendental
 * (evaluate_expression.c one_atom_sum): giac's passes give it back, so
 * they are skipped; next to it, two transcendentals take the passes (exp(x)
 * and exp(2*x): giac's simplify writes exp(x)**2 + exp(x), which the
 * never-larger rule then weighs; the fast path must not decide that).
 * Regression test for evaluate's sums of constants paying for
 * giac's simplify and expand (docs/performance.md, eleventh pass). */
static void test_one_atom_sums_skip_giac(void) {
    check_unchanged("1 + sqrt(2)", "1 + sqrt(2)", true);
    check_unchanged("pi + 1", "1 + pi", true);
    check_unchanged("pi**2 + pi", "pi + pi**2", true);
    check_unchanged("integrate(x*exp(y), (x, 0, 2), (y, 0, 1))", "-2 + 2*E", true);
    check_unchanged("integrate(x*log(x), x)", "x**2*log(x)/2 - x**2/4", true);
    check_unchanged("sqrt(2) + sqrt(3)", "sqrt(2) + sqrt(3)", false);
    check_unchanged("pi + E", "E + pi", false);
    json_t *r = sym_eval("exp(x) + exp(2*x)");
    CHECK(!answered_fast(r));
    CHECK_STREQ(sym_str(r, "simplified"), "exp(2*x) + exp(x)");
    json_decref(r);
}

/* The shapes next to those whose forms giac does change: the passes run. */
static void test_changed_forms_still_simplified(void) {
    /* a negative argument giac's evaluation left (x**2 - 5*x**2 is
     * -4*x**2): simplify takes the sign out (tanh is odd) */
    json_t *r = sym_eval("x*tanh(x**2 - 5*x**2)/3");
    CHECK(!answered_fast(r));
    CHECK_STREQ(sym_str(r, "expression"), "x*tanh(-4*x**2)/3");
    CHECK_STREQ(sym_str(r, "simplified"), "-x*tanh(4*x**2)/3");
    json_decref(r);
    /* exp of a negative argument: simplify writes 1/exp */
    r = sym_eval("-3*x**2*y*exp(-x)");
    CHECK(!answered_fast(r));
    CHECK_STREQ(sym_str(r, "simplified"), "-3*x**2*y/exp(x)");
    json_decref(r);
    /* gamma: simplify writes a factorial, one operation more than the
     * value, so the value stands (a simplified form is never larger) */
    r = sym_eval("x*gamma(x)");
    CHECK(!answered_fast(r));
    CHECK_STREQ(sym_str(r, "simplified"), "x*gamma(x)");
    json_decref(r);
    /* a series with no order term left is an expression like any other */
    r = sym_eval("series(log(3*x), x, 0, 4)");
    CHECK(!answered_fast(r));
    CHECK_STREQ(sym_str(r, "simplified"), "log(3*x)");
    json_decref(r);
}

int main(void) {
    /* profile_us.fast says which calls a fast path answered */
    setenv("CODECALC_PROFILE_SYMBOLIC", "1", 1);
    cc_symbolic_warmup();
    cc_symbolic_warmup(); /* a second warm-up is a no-op */
    RUN(test_exact_numbers);
    RUN(test_constants_and_symbols);
    RUN(test_non_atoms_still_simplified);
    RUN(test_unchanged_forms_skip_giac);
    RUN(test_changed_forms_still_simplified);
    RUN(test_one_atom_sums_skip_giac);
    return check_summary("sym_atoms");
}
