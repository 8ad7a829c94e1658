/* Regression test: algebraic_equiv called a pair whose difference is a
 * non-zero constant below the 25-digit numeric check "very likely
 * identical" (identical: null): 1e-30 against 0, x + 1e-30 against x. The
 * CAS had printed the difference; a - b at 512 bits now confirms it, and a
 * CAS float residue of a true identity is not confirmed. */
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

/* algebraic_equiv(a, b) answers identical: null (undecided) */
static void expect_undecided(const char *a, const char *b) {
    json_t *r = sym_equiv(a, b);
    json_t *got = json_object_get(r, "identical");
    if (!json_is_null(got)) fprintf(stderr, "  %s vs %s: identical is not null\n", a, b);
    CHECK(got && json_is_null(got));
    json_decref(r);
}

static void test_tiny_constant_against_zero_was_very_likely_identical(void) {
    sym_expect_identical("1e-30", "0", false);
    sym_expect_identical("0", "-3e-40", false);
    sym_expect_identical("2e-28*I", "0", false);
}

static void test_symbolic_pair_a_tiny_constant_apart_was_very_likely_identical(void) {
    sym_expect_identical("x + 1e-30", "x", false);
    sym_expect_identical("exp(x) + 2e-40", "exp(x)", false);
    sym_expect_identical("x*y + 1e-28*I", "y*x", false);
    sym_expect_identical("sin(x) - 5e-33", "sin(x)", false);
}

/* the CAS's 0 is not shown beside identical: false, and the note says why */
static void test_cas_zero_by_float_tolerance_is_not_shown(void) {
    json_t *r = sym_equiv("sin(x) - 5e-33", "sin(x)");
    CHECK(json_is_null(json_object_get(r, "difference")));
    CHECK(json_is_false(json_object_get(r, "numerically_equal")));
    const char *note = json_string_value(json_object_get(r, "note"));
    CHECK(note && strstr(note, "differ by 5e-33") && strstr(note, "floating-point tolerance"));
    CHECK_STREQ(json_string_value(json_object_get(json_object_get(r, "counterexample"), "point")), "x = -1");
    json_decref(r);
}

static void test_true_identities_and_float_residues_stay(void) {
    sym_expect_identical("sin(x)**2 + cos(x)**2", "1", true);
    sym_expect_identical("x + 1e-30 - 1e-30", "x", true);
    /* giac's floats make a the float 0 and a - b = -1; the literals read
     * exactly give 1: the residue is not confirmed, nothing is decided */
    expect_undecided("1e16 + 1 - 1e16", "1");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_tiny_constant_against_zero_was_very_likely_identical);
    RUN(test_symbolic_pair_a_tiny_constant_apart_was_very_likely_identical);
    RUN(test_cas_zero_by_float_tolerance_is_not_shown);
    RUN(test_true_identities_and_float_residues_stay);
    return check_summary("test_sym_equiv_tiny_constant_gap");
}
