/* Regression: solve_expression answered log(x**2) = 2*log(x) with
 * solutions ["x"] (every value solves), ok true and no condition; at
 * x = -1 the left side is 0 and the right 2*pi*I (SymPy's log, the
 * principal branch). giac's root x is now checked at sample values of x,
 * like a root holding a parameter: it stays, listed in
 * conditional_solutions with the failing value. True identities keep
 * ["x"] with no condition. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void identity_on_a_half_plane_is_conditional(void) {
    json_t *r = sym_solve("log(x**2) = 2*log(x)");
    json_t *c = json_array_get(json_object_get(r, "conditional_solutions"), 0);
    const char *sol = json_string_value(json_object_get(c, "solution"));
    const char *at = json_string_value(json_object_get(c, "fails_at"));
    if (!sol || !at) {
        char *d = json_dumps(r, 0);
        fprintf(stderr, "  %s\n", d ? d : "(null)");
        free(d);
    }
    CHECK_STREQ(sol, "x");
    CHECK_STREQ(at, "x = -1");
    CHECK(json_is_string(json_object_get(r, "conditions_note")));
    json_decref(r);
}

static void true_identities_unconditional(void) {
    static const char *const every[] = {"x"};
    sym_expect_roots("sin(x)**2 + cos(x)**2 = 1", every, 1);
    sym_expect_roots("exp(log(x)) = x", every, 1);
    json_t *r = sym_solve("sin(x)**2 + cos(x)**2 = 1");
    CHECK(json_object_get(r, "conditional_solutions") == NULL);
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(identity_on_a_half_plane_is_conditional);
    RUN(true_identities_unconditional);
    return check_summary("sym_solve_every_value_checked");
}
