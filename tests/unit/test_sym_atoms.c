/* evaluate_expression on results that are already canonical (numbers,
 * symbols, named constants): the simplify/expand passes are skipped for
 * them, so these tests pin the forms that must still come out, and the
 * 12-digit value that now takes the multiprecision path directly. */
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

int main(void) {
    cc_symbolic_warmup();
    cc_symbolic_warmup(); /* a second warm-up is a no-op */
    RUN(test_exact_numbers);
    RUN(test_constants_and_symbols);
    RUN(test_non_atoms_still_simplified);
    return check_summary("sym_atoms");
}
