/* Regression: simplify_expression and evaluate_expression gave
 * "simplified": "sin(x)" for sin(x) - 5e-33. giac's simplify works within
 * a float tolerance and drops the term, and the check every form passes
 * (sym_agrees, at 1e-25 relative) could not see a difference of 5e-33 in
 * values near 1; near x = 1e-32 the two differ by half. A form now also
 * fails the check when a difference seen at 150 digits is not far below
 * the smallest float written.
 *
 * The cases besides the reported one are other shapes of the same class
 * (a dropped product, a dropped term of an exponential, a term beside a
 * polynomial) and rewritings that round and must still agree. */
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/sym_input.h"

struct pair {
    const char *input, *form;
    bool agrees;
};

static const struct pair PAIRS[] = {
    /* the report */
    {"sin(x) - 5e-33", "sin(x)", false},
    {"sin(x) - 5e-33", "sin(x) - 5.0e-33", true},
    /* the same class, other shapes */
    {"x + 1e-30", "x", false},
    {"cos(x) + 1e-30*exp(x)", "cos(x)", false},
    {"log(x) + 1e-40*x", "log(x)", false},
    {"x**2 + 3*x + 2e-22", "(x + 1)*(x + 2)", false},
    {"exp(x)*(1 + 1e-20)", "exp(x)", false},
    /* float arithmetic that is exact in binary64 still agrees */
    {"2.5*x + 1.5*x", "4.0*x", true},
    {"x*1e-30 + x*1e-30", "2.0e-30*x", true},
    /* float arithmetic that rounds (0.1*3 is not 0.3 in binary64) was
     * refused before (the 25-digit check sees 1e-17), and still is: the
     * input as written stands */
    {"0.1*3*x", "0.3*x", false},
    {"(x + 0.1)**2 - x**2", "0.2*x + 0.01", false},
    {"0.5*(x + 1)**2 - 0.5*x**2", "x + 0.5", true},
    /* no float written: the check is the 1e-25 one alone */
    {"(x + 1)**2", "x**2 + 2*x + 1", true},
    {"(x + 1)**2", "x**2 + 2*x", false},
};

static void dropped_float_term_is_not_the_same_function(void) {
    for (size_t i = 0; i < sizeof PAIRS / sizeof *PAIRS; i++) {
        bool got = sym_text_agrees(PAIRS[i].input, PAIRS[i].form);
        if (got != PAIRS[i].agrees)
            fprintf(stderr, "  %s against %s: %d\n", PAIRS[i].input, PAIRS[i].form, got);
        CHECK_INTEQ(got, PAIRS[i].agrees);
    }
}

static json_t *simplify(const char *expr) {
    json_t *args = json_pack("{s:s}", "expr", expr);
    json_t *r = cc_tool_simplify_expression(args, NULL);
    json_decref(args);
    return r;
}

/* the tools' answers: every form keeps the term */
static void simplify_and_evaluate_keep_a_tiny_float_term(void) {
    json_t *r = simplify("sin(x) - 5e-33");
    CHECK_STREQ(sym_str(r, "simplified"), "sin(x) - 5.0e-33");
    CHECK_STREQ(sym_str(r, "expanded"), "sin(x) - 5.0e-33");
    json_decref(r);
    r = sym_eval("sin(x) - 5e-33");
    CHECK_STREQ(sym_str(r, "simplified"), "sin(x) - 5.0e-33");
    json_decref(r);
    /* a float the identity does not touch still simplifies */
    r = simplify("cos(x)**2 + sin(x)**2 + 1/2");
    CHECK_STREQ(sym_str(r, "simplified"), "3/2");
    json_decref(r);
}

/* Regression: simplify_expression of cos(x)**2 + sin(x)**2 + 0.5 failed
 * whole, code validation ("the CAS failed: Not implemented, e.g. for
 * multivariate mod/approx polynomials") with the remedy "fix the
 * arguments": giac's simplify and factor throw on a polynomial in sin and
 * cos with a float, though the input is valid. A form giac declines is not
 * found; the input stands for it, and the other candidates are tried. */
static void simplify_where_giac_declines_answers(void) {
    json_t *r = simplify("cos(x)**2 + sin(x)**2 + 0.5");
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK_STREQ(sym_str(r, "simplified"), "1.50000000000000");
    CHECK_STREQ(sym_str(r, "factored"), "cos(x)**2 + sin(x)**2 + 0.5");
    json_decref(r);
    r = simplify("cos(y)**2 + sin(x)**2 + 0.5");
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK_STREQ(sym_str(r, "simplified"), "cos(y)**2 + sin(x)**2 + 0.5");
    json_decref(r);
    /* 1 + 1e-20 is not 1 for the binary64 values written: the input stands */
    r = simplify("cos(x)**2 + sin(x)**2 + 1e-20");
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK_STREQ(sym_str(r, "simplified"), "cos(x)**2 + sin(x)**2 + 1.0e-20");
    json_decref(r);
}

/* Regression: evaluate_expression of factor(x**2 - 1e-30) was x**2 (giac's
 * factor drops the float within its tolerance), and algebraic_equiv of
 * factor(x**2 - 1e-30) against x**2 was identical: true. The evaluator had
 * no value for factor(...), so nothing was checked against the written
 * input; simplify, expand, factor, cancel, together and trigsimp now
 * evaluate as their argument. The same class: a product with 1 + 1e-20,
 * a simplify around a dropped term, and simplify(sqrt(x**2)), Abs(x), which
 * holds for real x only. */
static void rewriting_call_that_drops_a_float_is_checked(void) {
    json_t *r = sym_eval("factor(x**2 - 1e-30)");
    CHECK_STREQ(sym_str(r, "expression"), "x**2 - 1.0e-30");
    const char *note = sym_str(r, "note");
    CHECK(note && strstr(note, "a float term of the input lost below its floating-point tolerance"));
    json_decref(r);
    r = sym_eval("x*(1 + 1e-20)");
    CHECK_STREQ(sym_str(r, "expression"), "x*(1 + 1.0e-20)");
    json_decref(r);
    r = sym_equiv("factor(x**2 - 1e-30)", "x**2");
    CHECK(json_is_false(json_object_get(r, "identical")));
    CHECK(json_is_false(json_object_get(r, "numerically_equal")));
    json_decref(r);
    r = sym_equiv("simplify(sin(x) - 5e-33)", "sin(x)");
    CHECK(json_is_false(json_object_get(r, "identical")));
    json_decref(r);
    r = sym_eval("simplify(sqrt(x**2))");
    CHECK_STREQ(sym_str(r, "expression"), "sqrt(x**2)");
    CHECK(json_object_get(r, "domain_note") != NULL);
    json_decref(r);
    /* what the rewritings get right stands */
    r = sym_eval("factor(x**2 - 1)");
    CHECK_STREQ(sym_str(r, "expression"), "(x + 1)*(x - 1)");
    json_decref(r);
    r = sym_eval("factor(x**2 - 1e-10)");
    CHECK_STREQ(sym_str(r, "expression"), "(x + 1.0e-5)*(x - 1.0e-5)");
    json_decref(r);
    r = sym_equiv("simplify(sin(x)**2 + cos(x)**2)", "1");
    CHECK(json_is_true(json_object_get(r, "identical")));
    json_decref(r);
    r = sym_equiv("expand((x + 1)**2)", "x**2 + 2*x + 1");
    CHECK(json_is_true(json_object_get(r, "identical")));
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(dropped_float_term_is_not_the_same_function);
    RUN(simplify_and_evaluate_keep_a_tiny_float_term);
    RUN(simplify_where_giac_declines_answers);
    RUN(rewriting_call_that_drops_a_float_is_checked);
    return check_summary("sym_dropped_float");
}
