/* Unit tests for workers/calc/numfmt: exact rounding against vectors taken
 * from Python's round() and float(Fraction), subnormal and overflow edges of
 * the rational-to-double conversion, and the fixed-point rendering. */
#include "tests/unit/check.h"
#include "workers/calc/numfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_round_dec(void) {
    static const struct { double x; int n; double want; } v[] = {
        {2.675, 2, 2.67},   /* 2.675 is stored below the tie */
        {0.125, 2, 0.12},   /* exact tie: to even */
        {0.375, 2, 0.38},
        {1.0000005, 6, 1.000001},
        {68.78130956937922, 6, 68.78131},
        {2.7105053979070703e-06, 6, 3e-06},
        {1e300, 6, 1e300},
        {123456789.1234565, 6, 123456789.123456},
        {0.5, 0, 0.0},
        {1.5, 0, 2.0},
        {2.5, 0, 2.0},
        {-2.5, 0, -2.0},
        {5e-324, 6, 0.0},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) CHECK(cc_nf_round_dec(v[i].x, v[i].n) == v[i].want);
    double z = cc_nf_round_dec(-4e-07, 6);
    CHECK(z == 0 && signbit(z)); /* the sign of a zero result follows x */
    CHECK(isinf(cc_nf_round_dec(INFINITY, 6)));
    CHECK(isnan(cc_nf_round_dec(NAN, 6)));
}

static double from_ratio(const char *num, const char *den) {
    mpq_t q;
    mpq_init(q);
    mpz_set_str(mpq_numref(q), num, 10);
    mpz_set_str(mpq_denref(q), den, 10);
    mpq_canonicalize(q);
    double d = cc_nf_mpq_to_double(q);
    mpq_clear(q);
    return d;
}

static void test_mpq_to_double(void) {
    CHECK(from_ratio("1", "3") == 1.0 / 3);
    CHECK(from_ratio("1", "10") == 0.1);
    CHECK(from_ratio("-7", "2") == -3.5);
    /* 9007199254740993 = 2^53 + 1 is a tie between 2^53 and 2^53 + 2: even wins */
    CHECK(from_ratio("9007199254740993", "1") == 9007199254740992.0);
    CHECK(from_ratio("9007199254740995", "1") == 9007199254740996.0);
    /* subnormal ties, rounded once at the subnormal position */
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(q, 3, 2);
    mpq_div_2exp(q, q, 1074);
    CHECK(cc_nf_mpq_to_double(q) == 1e-323); /* 1.5 ulp -> 2 ulp */
    mpq_set_ui(q, 5, 2);
    mpq_div_2exp(q, q, 1074);
    CHECK(cc_nf_mpq_to_double(q) == 1e-323); /* 2.5 ulp -> 2 ulp */
    mpq_set_ui(q, 1, 2);
    mpq_div_2exp(q, q, 1074);
    CHECK(cc_nf_mpq_to_double(q) == 0.0); /* half the smallest subnormal -> 0 */
    /* overflow: the midpoint above DBL_MAX rounds to infinity */
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    mpz_setbit(a, 1024);
    mpz_setbit(b, 971);
    mpz_sub(a, a, b);
    mpq_set_z(q, a);
    CHECK(cc_nf_mpq_to_double(q) == 1.7976931348623157e308);
    mpz_set_ui(b, 0);
    mpz_setbit(b, 970);
    mpz_add(a, a, b);
    mpq_set_z(q, a);
    CHECK(isinf(cc_nf_mpq_to_double(q)));
    mpz_clears(a, b, NULL);
    mpq_clear(q);
}

static void test_parse_decimal(void) {
    mpq_t q;
    mpq_init(q);
    char buf[128];
    static const struct { const char *in, *want; } ok[] = {
        {"2.5", "5/2"}, {"-1e3", "-1000"}, {"+.5", "1/2"}, {"5.", "5"}, {"1E-2", "1/100"},
        {"0.0", "0"},   {"1e+16", "10000000000000000"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        CHECK_INTEQ(cc_nf_parse_decimal(ok[i].in, strlen(ok[i].in), q), 0);
        mpq_get_str(buf, 10, q);
        CHECK_STREQ(buf, ok[i].want);
    }
    static const char *bad[] = {"", ".", "e5", "1e", "1e+", "--1", "1.2.3", "0x10", "1 ", "inf"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) CHECK_INTEQ(cc_nf_parse_decimal(bad[i], strlen(bad[i]), q), -1);
    CHECK_INTEQ(cc_nf_parse_decimal("1e100001", 8, q), -2);
    CHECK_INTEQ(cc_nf_parse_decimal("1e-99999999999999999999", 23, q), -2);
    mpq_clear(q);
}

static void test_fixed(void) {
    char *s = cc_nf_double_fixed(0.1, 50, 40);
    CHECK_STREQ(s, "0.1000000000000000055511151231257827021182");
    free(s);
    s = cc_nf_double_fixed(-2.5, 50, 40);
    CHECK_STREQ(s, "-2.5");
    free(s);
    s = cc_nf_double_fixed(1e22, 50, 40);
    CHECK_STREQ(s, "10000000000000000000000");
    free(s);
    s = cc_nf_double_fixed(100.0, 50, 40); /* integer zeros are not stripped */
    CHECK_STREQ(s, "100");
    free(s);
    s = cc_nf_double_fixed(-1e-300, 50, 40);
    CHECK_STREQ(s, "0");
    free(s);
    s = cc_nf_double_fixed(0.5, 50, 0);
    CHECK_STREQ(s, "0"); /* half-even at zero digits */
    free(s);
    CHECK(cc_nf_double_fixed(NAN, 50, 40) == NULL);
    mpz_t u;
    mpz_init_set_ui(u, 5);
    s = cc_nf_mpz_padded(u, 2, 8);
    CHECK_STREQ(s, "00000101");
    free(s);
    s = cc_nf_mpz_padded(u, 16, 0);
    CHECK_STREQ(s, "5");
    free(s);
    mpz_clear(u);
}

static void test_json_helpers(void) {
    json_t *j = cc_nf_real(INFINITY);
    CHECK(json_is_null(j));
    json_decref(j);
    j = cc_nf_real(1.5);
    CHECK(json_is_real(j) && json_real_value(j) == 1.5);
    json_decref(j);
    json_t *o = json_object();
    CHECK(cc_nf_set(o, "a", json_integer(1)));
    CHECK(!cc_nf_set(o, "b", NULL));
    CHECK(json_object_size(o) == 1);
    json_decref(o);
    double d;
    j = json_true();
    CHECK_INTEQ(cc_nf_get_number(j, &d), -1);
    CHECK_INTEQ(cc_nf_get_number(NULL, &d), -1);
    j = json_string("2.5");
    CHECK(cc_nf_get_number(j, &d) == 0 && d == 2.5);
    json_decref(j);
}

/* cc_nf_finish hands back the object on success and drops it on failure
 * (a leak here would show under the sanitizer build). */
static void test_finish(void) {
    json_t *o = json_object();
    CHECK(cc_nf_finish(o, true) == o);
    CHECK(json_object_size(o) == 0);
    json_decref(o);
    CHECK(cc_nf_finish(json_object(), false) == NULL);
    CHECK(cc_nf_finish(NULL, false) == NULL);
}

int main(void) {
    RUN(test_round_dec);
    RUN(test_mpq_to_double);
    RUN(test_parse_decimal);
    RUN(test_fixed);
    RUN(test_json_helpers);
    RUN(test_finish);
    return check_summary("calc_numfmt");
}
