/* Regression: a value from giac's numeric quadrature of an integral left
 * unevaluated was wrong in its 9th digit, shown with 12:
 * N(Integral(sqrt(1 - x)*sqrt(x**2 + 1/2), (x, -2, 1))) was
 * 4.32511002302826 and integrate(sqrt(Abs(x - 1))*sqrt(x**2 + 1/2), (x, -2,
 * 1)) had value 4.32511002303 (it is 4.32511004097105; lane symred3,
 * generated integrals, seed 101). A tanh-sinh quadrature now checks it. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void test_quadrature_wrong_in_ninth_digit(void) {
    json_t *r = sym_eval("N(Integral(sqrt(1-x)*sqrt(x**2+1/2), (x, -2, 1)))");
    const char *e = sym_str(r, "error");
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(e && strstr(e, "tanh-sinh quadrature gives 4.325110040971"));
    json_decref(r);
    r = sym_eval("integrate(sqrt(Abs(x-1))*sqrt(x**2+1/2), (x, -2, 1))");
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK(json_object_get(r, "value") == NULL);
    json_decref(r);
}

/* giac's integrate itself answered a float flagged "about 15 significant
 * digits": log(1 + x**2)*cos(x)**2 over (-3, -1) was 1.35912350256044 (it
 * is 1.35912352148104; seed 303) */
static void test_float_integral_wrong_in_ninth_digit(void) {
    json_t *r = sym_eval("integrate(log(1+x**2)*cos(x)**2, (x, -3, -1))");
    const char *e = sym_str(r, "error");
    CHECK_STREQ(sym_str(r, "code"), "validation");
    CHECK(e && strstr(e, "tanh-sinh quadrature gives 1.359123521481"));
    json_decref(r);
}

static void test_good_quadratures_keep_their_value(void) {
    sym_expect_field("N(Integral(exp(-x**2), (x, 0, 3)))", "value", "0.886207348260");
    sym_expect_field("N(Integral(1/sqrt(x), (x, 0, 1)))", "value", "2.00000000000");
    sym_expect_field("N(Integral(x**x, (x, 0, 1)))", "value", "0.783430510712");
    sym_expect_field("N(Integral(sin(x)/x, (x, 1, 10)))", "value", "0.712264523852");
    sym_expect_field("integrate(sqrt(x)*exp(-x)*cos(x**2), (x, 0, 2))", "value", "0.243662946943");
    sym_expect_field("integrate(exp(x**2), (x, 0, 1))", "value", "1.46265174591");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_quadrature_wrong_in_ninth_digit);
    RUN(test_float_integral_wrong_in_ninth_digit);
    RUN(test_good_quadratures_keep_their_value);
    return check_summary("test_sym_integral_quadrature_digits");
}
