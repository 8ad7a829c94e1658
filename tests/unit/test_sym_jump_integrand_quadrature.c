/* Regression: definite integrals of integrands that jump were answered
 * with giac's numeric quadrature, wrong in the 4th to 7th digit and
 * flagged "about 15 significant digits": integrate(floor(x**2), (x, 1, 3))
 * was 7.69399883186981 (24 - sqrt(1) - ... - sqrt(8) = 7.69399947396428),
 * integrate(floor(exp(x)), (x, 0, 2)) 5.47490152391742 (14 - log(5040) =
 * 5.47483863893), integrate(floor(log(1 + x)), (x, -1, 2)) -1.30072670683425
 * (3 - e - e/(e - 1) = -1.30025853534), found by a generated batch. giac's
 * gaussquad agrees with its own value, so the check is our adaptive
 * Simpson quadrature, split down to each jump: a value it refutes is
 * refused. And integrate(floor(1/x), (x, 0.01, 1)) answered a list of two
 * estimates with ok true; a quadrature that did not converge is refused.
 * Values the quadrature confirms stand. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void refuted_quadrature_is_refused(void) {
    static const char *const WRONG[] = {
        "integrate(floor(x**2), (x, 1, 3))",
        "integrate(floor(exp(x)), (x, 0, 2))",
        "integrate(floor(log(1+x)), (x, -1, 2))",
        "integrate(sinh(x)*log(1+x) - floor(x**2), (x, 1, 3))",
        "integrate(floor(1/x), (x, 0.01, 1))",
    };
    for (size_t i = 0; i < sizeof WRONG / sizeof *WRONG; i++) {
        json_t *r = sym_eval(WRONG[i]);
        if (!json_is_false(json_object_get(r, "ok")))
            fprintf(stderr, "  %s: %s\n", WRONG[i], sym_str(r, "expression"));
        CHECK_STREQ(sym_str(r, "code"), "validation");
        json_decref(r);
    }
}

static void confirmed_values_stand(void) {
    sym_expect("integrate(floor(atan(x)), (x, 0.5, 2.5))", "0.942592275344975");
    sym_expect("integrate(floor(sin(x)), (x, 0.5, 3.5))", "-0.358407346410548");
    sym_expect("integrate(sign(sin(1/x)), (x, 0.1, 1))", "0.569483523026690");
    sym_expect("integrate(Heaviside(sin(x))*x, (x, 0, 10))", "29.6088132032634");
    sym_expect("integrate(sign(cos(x)), (x, 1, 2))", "-3 + pi");
    sym_expect("integrate(floor(x), (x, 0, 3))", "3");
    sym_expect("integrate(exp(x**2), (x, 0, 1))", "1.46265174590717");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(refuted_quadrature_is_refused);
    RUN(confirmed_values_stand);
    return check_summary("sym_jump_integrand_quadrature");
}
