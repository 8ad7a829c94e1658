/* Quick rewritings tried before giac's simplify: simplify_expression ends
 * its search at a rewriting of the input that is a non-negative integer,
 * and algebraic_equiv takes a - b as 0 when ratnormal, tlin or tcollect
 * reduce it to exactly 0. The answers must be those of the full search. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/sym_tools.h"
#include "workers/symbolic/sym_trig.h"

static void check_simplified(const char *expr, const char *want) {
    json_t *args = json_pack("{s:s}", "expr", expr);
    sym_check(cc_tool_simplify_expression(args, NULL), expr, "simplified", want, NULL, NULL);
    json_decref(args);
}

static void check_equiv(const char *a, const char *b, int identical, const char *difference) {
    json_t *args = json_pack("{s:s, s:s}", "a", a, "b", b);
    json_t *r = cc_tool_algebraic_equiv(args, NULL);
    json_t *id = json_object_get(r, "identical");
    int got = json_is_true(id) ? 1 : json_is_false(id) ? 0 : -1;
    if (got != identical)
        fprintf(stderr, "  equiv %s vs %s: identical %d, want %d\n", a, b, got, identical);
    CHECK(got == identical);
    if (difference)
        CHECK_STREQ(sym_str(r, "difference"), difference);
    json_decref(r);
    json_decref(args);
}

static void test_simplify_integer_by_a_quick_rewriting(void) {
    check_simplified("sin(x)**2 + cos(x)**2", "1");
    check_simplified("sin(2*x) - 2*sin(x)*cos(x)", "0");
    check_simplified("sin(x + y) - sin(x)*cos(y) - cos(x)*sin(y)", "0");
    check_simplified("cosh(x)**2 - sinh(x)**2", "1");
    check_simplified("(sin(x) + cos(x))**2 - 2*sin(x)*cos(x)", "1");
}

/* a rewriting that is not an integer leaves the full search to choose */
static void test_simplify_other_forms_still_searched(void) {
    check_simplified("cos(x)**2 - sin(x)**2", "cos(2*x)");
    check_simplified("2*sin(x)*cos(x)", "sin(2*x)");
    check_simplified("tan(x)*cos(x)", "sin(x)");
    check_simplified("exp(I*x) + exp(-I*x)", "2*cos(x)");
    /* a negative integer is not taken early (it counts one operation) */
    check_simplified("-sin(x)**2 - cos(x)**2", "-1");
}

static void test_equiv_zero_by_a_quick_rewriting(void) {
    check_equiv("cos(2*x)", "cos(x)**2 - sin(x)**2", 1, "0");
    check_equiv("sin(x + y)", "sin(x)*cos(y) + cos(x)*sin(y)", 1, "0");
    check_equiv("cos(x)**2", "(1 + cos(2*x))/2", 1, "0");
    check_equiv("x/(x*y)", "1/y", 1, "0");
}

/* Exponentials beside sines and cosines: written as exponentials
 * (trig2exp) and reduced (ratnormal), a - b is 0 where giac's simplify
 * printed a non-zero form of 0 ((exp(I*x)*tan(x/2) + ...)/(tan(x/2) + I))
 * after 7 ms; a sign error is still refuted. Regression test for
 * algebraic_equiv paying for simplify on exp(I*x) identities
 * (docs/contract.md, "algebraic_equiv: the difference of a pair proved by
 * exponentials"). */
static void test_equiv_zero_through_exponentials(void) {
    check_equiv("exp(I*x)", "cos(x) + I*sin(x)", 1, "0");
    check_equiv("exp(I*(x))", "cos((x)) + I*sin((x))", 1, "0");
    check_equiv("exp(I*x)", "cos(x) - I*sin(x)", 0, NULL);
}

/* near-identities: no rewriting may reach 0 for them */
static void test_equiv_near_identities_stay_false(void) {
    check_equiv("sin(2*x)", "2*sin(x)*cos(x) + 1/10**30", 0, NULL);
    check_equiv("cos(x)**2", "(1 + cos(2*x))/2 + x/10**25", 0, NULL);
    check_equiv("sin(x)**2", "(1 - cos(2*x))/2 + sin(x)/10**20", 0, NULL);
}

static void test_calls_trig_names_only_circular_functions(void) {
    CHECK(sym_calls_trig("sin(x)"));
    CHECK(sym_calls_trig("2*cot(y) + 1"));
    CHECK(sym_calls_trig("x*(cos(x))"));
    CHECK(!sym_calls_trig("sinh(x)"));
    CHECK(!sym_calls_trig("asin(x) + acos(x)"));
    CHECK(!sym_calls_trig("cosh(x)**2"));
    CHECK(!sym_calls_trig("x_sin(x)"));
    CHECK(!sym_calls_trig("sin"));
}

int main(void) {
    RUN(test_simplify_integer_by_a_quick_rewriting);
    RUN(test_simplify_other_forms_still_searched);
    RUN(test_equiv_zero_by_a_quick_rewriting);
    RUN(test_equiv_near_identities_stay_false);
    RUN(test_equiv_zero_through_exponentials);
    RUN(test_calls_trig_names_only_circular_functions);
    return check_summary("sym_quick_rewrites");
}
