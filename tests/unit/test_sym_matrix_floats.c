/* matrix answers that printed wrong: computed exactly from float entries
 * and printed as floats (a value beyond binary64's range, a complex value
 * with a part below giac's evalf epsilon, an expression entry's decimal),
 * and eigenvalues giac can only write as rootof(...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/sym_tools.h"

static json_t *matrix(const char *json) { return sym_matrix(json); }

static const char *value(json_t *r) { return json_string_value(json_object_get(r, "value")); }

static const char *entry(json_t *r, size_t i, size_t j) {
    return json_string_value(json_array_get(json_array_get(json_object_get(r, "matrix"), i), j));
}

/* rows and op (JSON text) against the printed value, or entry [i][j] */
struct want {
    const char *args;
    const char *value;
    int i, j; /* entry of the matrix answer; -1 for value */
};

static void check_all(const struct want *w, size_t n) {
    for (size_t k = 0; k < n; k++) {
        json_t *r = matrix(w[k].args);
        const char *got = w[k].i < 0 ? value(r) : entry(r, (size_t)w[k].i, (size_t)w[k].j);
        if (!got || strcmp(got, w[k].value) != 0)
            fprintf(stderr, "  %s: got %s\n", w[k].args, got ? got : "(null)");
        CHECK_STREQ(got, w[k].value);
        json_decref(r);
    }
}

#define DET(rows) "{\"rows\": " rows ", \"op\": \"det\"}"

/* det [[1e-200, 0], [0, 1e-200]] is 1e-400: it was printed "0.0" (a
 * nonsingular matrix reported with determinant 0). */
static void test_float_answer_below_binary64_not_zero(void) {
    static const struct want w[] = {
        {DET("[[1e-200, 0], [0, 1e-200]]"), "1.00000000000000e-400", -1, 0},
        {DET("[[-1e-200, 0], [0, 1e-200]]"), "-1.00000000000000e-400", -1, 0},
        {DET("[[0.0, 0], [0, 1]]"), "0.0", -1, 0}, /* a true zero stays 0.0 */
    };
    check_all(w, sizeof w / sizeof w[0]);
}

/* det [[1e155, 0], [0, 1e155]] is 1e310: it failed with "out of memory". */
static void test_float_answer_above_binary64_printed(void) {
    static const struct want w[] = {
        {DET("[[1e155, 0], [0, 1e155]]"), "1.00000000000000e+310", -1, 0},
        {DET("[[1e200, 1], [1, 1e200]]"), "1.00000000000000e+400", -1, 0},
        {"{\"rows\": [[1e-200, 0], [0, 2e-200]], \"op\": \"inverse\"}", "1.00000000000000e+200", 0, 0},
        {"{\"rows\": [[1e-200, 0], [0, 2e-200]], \"op\": \"inverse\"}", "5.00000000000000e+199", 1, 1},
    };
    check_all(w, sizeof w / sizeof w[0]);
}

/* det [[1e-20, 0], [0, I]] is 1e-20*I: giac's evalf dropped the part below
 * its epsilon and printed "0.0"; (1 + I)/10^20 lost its imaginary part. */
static void test_float_answer_small_complex_part_kept(void) {
    static const struct want w[] = {
        {DET("[[1e-20, 0], [0, \"I\"]]"), "1.0e-20*I", -1, 0},
        {DET("[[1e-20, 0], [0, \"1+I\"]]"), "1.0e-20 + 1.0e-20*I", -1, 0},
        {DET("[[1.5, 0], [0, \"1+I\"]]"), "1.5 + 1.5*I", -1, 0}, /* as before */
        {DET("[[0.5, 1], [2, 3]]"), "-0.500000000000000", -1, 0},
    };
    check_all(w, sizeof w / sizeof w[0]);
}

/* An expression entry's decimal was read as its double:
 * det [["1.0000000000000001", 1], [1, 1]] was "0.0" (it is 1e-16). */
static void test_string_entry_decimal_is_exact(void) {
    static const struct want w[] = {
        {DET("[[\"1.0000000000000001\", 1], [1, 1]]"), "1.00000000000000e-16", -1, 0},
        {DET("[[\"0.5\", \"x\"], [1, \"2.5*x\"]]"), "0.25*x", -1, 0},
        {DET("[[\"x+1\", \"2\"], [\"3\", \"4\"]]"), "4*x - 2", -1, 0}, /* no decimal */
    };
    check_all(w, sizeof w / sizeof w[0]);
}

/* The eigenvalues of [[1,2,0],[3,4,1],[0,1,5]] (roots of an irreducible
 * cubic) were keys like "rootof([-3, 0, 170, 0, -618], [1, 0, -68, 0,
 * 1156, 0, -2981])/277": no value a caller can read. */
static void test_eigenvalues_without_closed_form_are_values(void) {
    json_t *r = matrix("{\"rows\": [[1,2,0],[3,4,1],[0,1,5]], \"op\": \"eigenvalues\"}");
    json_t *ev = json_object_get(r, "eigenvalues");
    CHECK(json_object_size(ev) == 3);
    CHECK(json_integer_value(json_object_get(ev, "-0.417472941735109")) == 1);
    CHECK(json_integer_value(json_object_get(ev, "4.32447262533630")) == 1);
    CHECK(json_integer_value(json_object_get(ev, "6.09300031639881")) == 1);
    CHECK(json_is_string(json_object_get(r, "note")));
    json_decref(r);
    r = matrix("{\"rows\": [[2,1,0],[1,3,1],[0,1,4]], \"op\": \"eigenvalues\"}"); /* closed forms stay */
    CHECK(json_integer_value(json_object_get(json_object_get(r, "eigenvalues"), "3 + sqrt(3)")) == 1);
    CHECK(json_object_get(r, "note") == NULL);
    json_decref(r);
}

/* numeric_eigenvalues_without_note: for a 5x5 integer matrix whose
 * characteristic polynomial is x times an irreducible quartic, giac solved
 * the quartic numerically itself: floats with no note, read as if exact */
static void test_numeric_eigenvalues_without_note(void) {
    json_t *r = matrix("{\"rows\": [[1,2,3,4,5],[2,3,4,5,6],[3,4,5,6,8],[1,1,1,1,9],[0,0,1,2,3]], "
                       "\"op\": \"eigenvalues\"}");
    json_t *ev = json_object_get(r, "eigenvalues");
    CHECK(json_object_size(ev) == 5);
    CHECK(json_integer_value(json_object_get(ev, "0")) == 1);
    const char *note = json_string_value(json_object_get(r, "note"));
    CHECK(note && strstr(note, "about 15 significant digits") != NULL);
    json_decref(r);
    r = matrix("{\"rows\": [[\"0.5\",1],[1,\"0.5\"]], \"op\": \"eigenvalues\"}"); /* decimals in, values out */
    CHECK(json_object_get(r, "note") == NULL);
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_float_answer_below_binary64_not_zero);
    RUN(test_float_answer_above_binary64_printed);
    RUN(test_float_answer_small_complex_part_kept);
    RUN(test_string_entry_decimal_is_exact);
    RUN(test_eigenvalues_without_closed_form_are_values);
    RUN(test_numeric_eigenvalues_without_note);
    return check_summary("sym_matrix_floats");
}
