/* Regression: matrix eigenvalues answered ok:true with wrong or missing
 * eigenvalues.
 * - [[1, 10**21 + 8, 10**11], [-3, 1, 3], [1, 0, -10**17]] has the
 *   eigenvalues -1e17 and 1.0000005 +- 54772255750.5166*I (SymPy,
 *   mpmath.eig at 80 digits); giac wrote them as rootof(...) forms whose
 *   binary64 value cancelled, and the answer was -6105585240160.00,
 *   6104374494120.00 and -9.99999987893000e+16.
 * - a 3x3 with symbolic entries and no closed-form eigenvalue answered
 *   {} (no eigenvalue at all), and a singular 4x4 {"0": 1}: the
 *   eigenvalues giac could not write were left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/sym_tools.h"

static json_t *matrix(const char *json) { return sym_matrix(json); }

/* the sum of the multiplicities: every eigenvalue is counted */
static json_int_t counted(json_t *r) {
    json_int_t n = 0;
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(r, "eigenvalues"), k, v) n += json_integer_value(v);
    return n;
}

static void dump_if(bool bad, json_t *r) {
    if (!bad)
        return;
    char *d = json_dumps(r, 0);
    fprintf(stderr, "  %s\n", d ? d : "(null)");
    free(d);
}

static void ill_conditioned_rootof_is_valued_from_the_polynomial(void) {
    json_t *r = matrix("{\"rows\": [[1, \"1000000000000000000008\", 100000000000], [-3, 1, 3], "
                       "[1, 0, \"-100000000000000000\"]], \"op\": \"eigenvalues\"}");
    json_t *ev = json_object_get(r, "eigenvalues");
    bool ok = json_integer_value(json_object_get(ev, "-1.00000000000000e+17")) == 1 &&
              json_integer_value(json_object_get(ev, "1.00000049999985 - 54772255750.5166*I")) == 1 &&
              json_integer_value(json_object_get(ev, "1.00000049999985 + 54772255750.5166*I")) == 1;
    dump_if(!ok, r);
    CHECK(ok);
    CHECK(json_is_string(json_object_get(r, "note")));
    json_decref(r);
}

/* closed forms and multiplicities stay as they were */
static void exact_eigenvalues_unchanged(void) {
    json_t *r = matrix("{\"rows\": [[2,1,0],[0,2,1],[0,0,2]], \"op\": \"eigenvalues\"}");
    CHECK(json_integer_value(json_object_get(json_object_get(r, "eigenvalues"), "2")) == 3);
    json_decref(r);
    r = matrix("{\"rows\": [[\"a\",\"b\"],[\"c\",\"d\"]], \"op\": \"eigenvalues\"}");
    CHECK(counted(r) == 2);
    json_decref(r);
    r = matrix("{\"rows\": [[1,2,0],[3,4,1],[0,1,5]], \"op\": \"eigenvalues\"}");
    json_t *ev = json_object_get(r, "eigenvalues");
    CHECK(json_integer_value(json_object_get(ev, "4.32447262533630")) == 1);
    CHECK(counted(r) == 3);
    json_decref(r);
    /* irrational entries: giac's own values and print, as before */
    r = matrix("{\"rows\": [[\"sqrt(2)\",1,0],[1,\"sqrt(3)\",1],[0,1,1]], \"op\": \"eigenvalues\"}");
    CHECK(json_integer_value(json_object_get(json_object_get(r, "eigenvalues"), "0.00992379716479064")) == 1);
    json_decref(r);
}

/* a rootof factor repeated: each root counted as often as the factor */
static void repeated_irreducible_cubic_counted_twice(void) {
    json_t *r = matrix("{\"rows\": [[0,0,1,0,0,0],[1,0,-1,0,0,0],[0,1,0,0,0,0],"
                       "[0,0,0,0,0,1],[0,0,0,1,0,-1],[0,0,0,0,1,0]], \"op\": \"eigenvalues\"}");
    dump_if(counted(r) != 6, r);
    CHECK(counted(r) == 6);
    json_decref(r);
}

static void symbolic_matrix_missing_eigenvalues_fails(void) {
    json_t *r = matrix("{\"rows\": [[\"x**2\", 1, \"x**2\"], [\"1-x\", -1, \"x+1\"], "
                       "[\"x*y\", \"x**2\", 2]], \"op\": \"eigenvalues\"}");
    bool ok = json_is_false(json_object_get(r, "ok")) &&
              !strcmp(json_string_value(json_object_get(r, "code")), "validation") &&
              strstr(json_string_value(json_object_get(r, "error")), "0 of the 3") != NULL;
    dump_if(!ok, r);
    CHECK(ok);
    json_decref(r);
    r = matrix("{\"rows\": [[\"1-x\", \"x**2\", \"x\", 2], [\"2*x\", \"x\", \"2*x\", 2], "
               "[\"2*x\", \"x**2\", 0, \"x\"], [\"1+x\", \"x**2+x\", \"3*x\", 4]], \"op\": \"eigenvalues\"}");
    dump_if(json_is_true(json_object_get(r, "ok")), r);
    CHECK(json_is_false(json_object_get(r, "ok")));
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(ill_conditioned_rootof_is_valued_from_the_polynomial);
    RUN(exact_eigenvalues_unchanged);
    RUN(repeated_irreducible_cubic_counted_twice);
    RUN(symbolic_matrix_missing_eigenvalues_fails);
    return check_summary("sym_eigen_incomplete");
}
