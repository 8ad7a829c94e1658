/* Regression tests: an equation with Abs the CAS's solver cannot isolate
 * (abs(x - 1) = 2 was a validation error) is solved over the reals by its
 * sign cases (workers/symbolic/sym_abs_real.h). Roots by hand. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_abs_real.h"
#include "workers/symbolic/sym_tools.h"

/* abs(x - 1) = 2 was refused ("Unable to isolate function abs"): the
 * real roots of each sign case that satisfy the equation as written */
static void expect_roots(const char *eq, const char *const *want, size_t n) {
    json_t *r = sym_solve(eq);
    json_t *sol = json_object_get(r, "solutions");
    if (json_array_size(sol) != n) {
        char *d = json_dumps(r, 0);
        fprintf(stderr, "  %s: %s\n", eq, d ? d : "(null)");
        free(d);
    }
    CHECK(json_array_size(sol) == n);
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        size_t j;
        json_t *v;
        json_array_foreach(sol, j, v) found |= !strcmp(json_string_value(v), want[i]);
        CHECK(found);
    }
    CHECK_STREQ(sym_str(r, "domain"), "real");
    json_decref(r);
}

static void test_abs_equation_was_refused(void) {
    expect_roots("abs(x - 1) = 2", (const char *const[]){"-1", "3"}, 2);
    expect_roots("abs(x**2 - 4) = 5", (const char *const[]){"-3", "3"}, 2);
    expect_roots("abs(abs(x) - 3) = 1", (const char *const[]){"-4", "-2", "2", "4"}, 4);
    expect_roots("abs(x) = -1", NULL, 0);
}

/* the text rewriting: outermost first, fabs untouched */
static void test_abs_cases_text(void) {
    CHECK(sym_abs_count("abs(abs(x) - 3) = 1") == 2);
    CHECK(sym_abs_count("fabs(x) = 1") == 0);
    char *c = sym_abs_case("abs(abs(x) - 3) = 1", 1u);
    CHECK_STREQ(c, "(-((+(x)) - 3)) = 1");
    free(c);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_abs_equation_was_refused);
    RUN(test_abs_cases_text);
    return check_summary("sym_abs_equation");
}
