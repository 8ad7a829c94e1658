/* Regression: matrix eigenvalues of [[1, 1e-20], [1e-20, 1]] answered
 * {"1.00000000000000": 2}, one eigenvalue of multiplicity 2; its
 * eigenvalues are 1 - 1e-20 and 1 + 1e-20, each simple (the entries are
 * the fractions they spell). Distinct eigenvalues whose 15-digit floats
 * print alike are printed with as many digits as tell them apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/symbolic/sym_tools.h"

static json_t *eigenvalues(const char *rows) {
    char buf[256];
    snprintf(buf, sizeof buf, "{\"rows\": %s, \"op\": \"eigenvalues\"}", rows);
    json_error_t e;
    json_t *args = json_loads(buf, 0, &e);
    json_t *r = args ? cc_tool_matrix(args, NULL) : NULL;
    json_decref(args);
    json_t *ev = json_incref(json_object_get(r, "eigenvalues"));
    json_decref(r);
    return ev;
}

static void dump(json_t *ev) {
    char *d = json_dumps(ev, 0);
    fprintf(stderr, "  %s\n", d ? d : "(null)");
    free(d);
}

static void alike_floats_are_told_apart(void) {
    json_t *ev = eigenvalues("[[1, 1e-20], [1e-20, 1]]");
    bool ok = json_object_size(ev) == 2 &&
              json_integer_value(json_object_get(ev, "0.99999999999999999999")) == 1 &&
              json_integer_value(json_object_get(ev, "1.0000000000000000000")) == 1;
    if (!ok)
        dump(ev);
    CHECK(ok);
    json_decref(ev);
}

/* a true double eigenvalue keeps its count and its 15 digits */
static void repeated_float_eigenvalue_kept(void) {
    json_t *ev = eigenvalues("[[1.5, 0], [0, 1.5]]");
    bool ok = json_object_size(ev) == 1 && json_integer_value(json_object_get(ev, "1.50000000000000")) == 2;
    if (!ok)
        dump(ev);
    CHECK(ok);
    json_decref(ev);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(alike_floats_are_told_apart);
    RUN(repeated_float_eigenvalue_kept);
    return check_summary("sym_eigen_alike_floats");
}
