/* Unit tests for the float_repr tool (TOOLS.md 3.3.12): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_float_repr
#include "tests/unit/calc_harness.h"

static void test_point_one(void) {
    json_t *r = run("{\"x\": 0.1}");
    CHECK(is_ok(r));
    CHECK_STREQ(str(r, "literal"), "0.1");
    CHECK_STREQ(str(r, "stored"), "0.1000000000000000055511151231257827021182");
    CHECK_STREQ(str(r, "bits_hex"), "0x3fb999999999999a");
    CHECK_INTEQ(num(r, "sign"), 0);
    CHECK_INTEQ(num(r, "exponent"), 1019);
    CHECK_STREQ(str(r, "fraction_hex"), "0x999999999999a");
    CHECK(json_is_false(at(r, "exact")));
    CHECK_STREQ(str(r, "error"), "1/180143985094819840");
    CHECK(num(r, "relative_error") == 5.551115123125783e-17);
    CHECK(num(r, "ulp") == 1.3877787807814457e-17);
    CHECK(num(r, "prev") == 0.09999999999999999);
    CHECK(num(r, "next") == 0.10000000000000002);
    CHECK(json_is_null(at(r, "note")));
    json_decref(r);
}

static void test_examples(void) {
    json_t *r = run("{\"x\": 0.25}");
    CHECK_STREQ(str(r, "stored"), "0.25");
    CHECK(json_is_true(at(r, "exact")));
    CHECK_STREQ(str(r, "error"), "0");
    CHECK(is_real(r, "relative_error") && num(r, "relative_error") == 0.0);
    json_decref(r);

    r = run("{\"x\": -0.0}");
    CHECK_STREQ(str(r, "literal"), "-0.0");
    CHECK_STREQ(str(r, "stored"), "0");
    CHECK_STREQ(str(r, "bits_hex"), "0x8000000000000000");
    CHECK_INTEQ(num(r, "sign"), 1);
    CHECK_INTEQ(num(r, "exponent"), 0);
    CHECK(num(r, "prev") == -5e-324);
    CHECK(num(r, "next") == 5e-324);
    CHECK(num(r, "ulp") == 5e-324);
    CHECK(json_is_true(at(r, "exact")));
    CHECK(num(r, "relative_error") == 0.0);
    json_decref(r);

    r = run("{\"x\": 0.0}");
    CHECK(num(r, "prev") == -5e-324 && num(r, "next") == 5e-324);
    CHECK(!signbit(num(r, "next")) && signbit(num(r, "prev")));
    json_decref(r);

    r = run("{\"x\": 9007199254740994.0}");
    CHECK_STREQ(str(r, "literal"), "9007199254740994.0");
    CHECK_STREQ(str(r, "stored"), "9007199254740994");
    CHECK(num(r, "ulp") == 2.0);
    CHECK_STREQ(str(r, "note"), ">2^53: consecutive integers no longer distinguishable");
    json_decref(r);
}

static void test_more(void) {
    json_t *r = run("{\"x\": -0.25}");
    CHECK_STREQ(str(r, "stored"), "-0.25");
    CHECK_INTEQ(num(r, "sign"), 1);
    CHECK(num(r, "ulp") == 2.7755575615628914e-17);
    json_decref(r);

    r = run("{\"x\": 1e22}");
    CHECK_STREQ(str(r, "literal"), "1e+22");
    CHECK_STREQ(str(r, "stored"), "10000000000000000000000");
    CHECK(json_is_true(at(r, "exact")));
    CHECK(num(r, "ulp") == 2097152.0);
    json_decref(r);

    r = run("{\"x\": 0.3333333333333333}");
    CHECK_STREQ(str(r, "stored"), "0.3333333333333333148296162562473909929395");
    CHECK_STREQ(str(r, "error"), "40763338773/2748779069440000000000000000");
    CHECK(num(r, "relative_error") == 4.448884876874218e-17);
    json_decref(r);

    r = run("{\"x\": 5e-324}");
    CHECK_STREQ(str(r, "literal"), "5e-324");
    /* stored_never_zero_for_a_nonzero_double: TOOLS.md's 40 fixed decimals
     * printed the smallest subnormal as "0" */
    CHECK_STREQ(str(r, "stored"), "4.9406564584124654417656879286822137236505980261432e-324");
    CHECK_INTEQ(num(r, "exponent"), 0);
    CHECK_STREQ(str(r, "fraction_hex"), "0x0000000000001");
    CHECK(num(r, "relative_error") == 0.012011266536553091);
    CHECK(num(r, "prev") == 0.0 && num(r, "next") == 1e-323);
    json_decref(r);

    /* stored_not_a_round_decimal_for_an_inexact_double: the fixed form
     * 0.000...1 hid that 1e-40 is stored as 9.99...e-41 */
    r = run("{\"x\": 1e-40}");
    CHECK_STREQ(str(r, "stored"), "9.9999999999999992929287939988014500233064511906197e-41");
    json_decref(r);

    r = run("{\"x\": 123456.789}");
    CHECK_STREQ(str(r, "stored"), "123456.789000000004307366907596588134765625");
    CHECK_STREQ(str(r, "error"), "37/8589934592000");
    json_decref(r);

    r = run("{\"x\": 1.7976931348623157e308}");
    CHECK_STREQ(str(r, "bits_hex"), "0x7fefffffffffffff");
    CHECK_INTEQ(num(r, "exponent"), 2046);
    CHECK(json_is_null(at(r, "ulp")));  /* next is inf: non-finite -> null */
    CHECK(json_is_null(at(r, "next")));
    CHECK(num(r, "prev") == 1.7976931348623155e308);
    const char *s = str(r, "stored");
    CHECK(s && strlen(s) == 309 && strncmp(s, "17976931348623157081452742373170435679807056752584", 50) == 0);
    json_decref(r);

    r = run("{\"x\": 3}"); /* an integer argument is a float here */
    CHECK_STREQ(str(r, "literal"), "3.0");
    CHECK_STREQ(str(r, "bits_hex"), "0x4008000000000000");
    json_decref(r);
}

/* JSON carries no infinity (jansson refuses one), so a non-finite double
 * is only ever an overflowed number: see the regression test below. */
static void test_non_finite(void) {
    json_t *r = run("{\"x\": \"-1e999\"}");
    CHECK(is_ok(r));
    CHECK_STREQ(str(r, "literal"), "-inf");
    CHECK_STREQ(str(r, "stored"), "-inf");
    CHECK_STREQ(str(r, "bits"), "-inf");
    json_decref(r);
    r = run("{\"x\": \"pi\"}");
    CHECK(rejected(r, "validation", "x must be a number"));
    json_decref(r);
    r = run("{\"x\": null}");
    CHECK(rejected(r, "validation", "x must be a number"));
    json_decref(r);
    r = run("{\"x\": false}");
    CHECK(rejected(r, "validation", "x must be a number"));
    json_decref(r);
}

/* Regression (float_repr said exact: true for numbers binary64 cannot
 * hold, because it compared the double with its own shortest literal): a
 * number the caller wrote that is not the stored double is not exact, and
 * the error is measured from what was written. */
static void test_written_number_not_stored_is_not_exact(void) {
    json_t *r = run("{\"x\": 9007199254740993}");
    CHECK(json_is_false(at(r, "exact")));
    CHECK_STREQ(str(r, "literal"), "9007199254740992.0");
    CHECK_STREQ(str(r, "error"), "-1");
    CHECK_STREQ(str(r, "input"), "9007199254740993");
    CHECK_STREQ(str(r, "note"), "9007199254740993 is not a binary64 value: the nearest double, "
                                "9007199254740992.0, is stored");
    json_decref(r);
    r = run("{\"x\": \"1e999\"}");
    CHECK(json_is_false(at(r, "exact")));
    CHECK_STREQ(str(r, "stored"), "inf");
    CHECK_STREQ(str(r, "input"), "1e999");
    CHECK_STREQ(str(r, "note"), "1e999 overflows binary64 (the largest finite double is "
                                "1.7976931348623157e+308): it is stored as inf");
    json_decref(r);
    r = run("{\"x\": \"1e-400\"}");
    CHECK(json_is_false(at(r, "exact")));
    CHECK_STREQ(str(r, "stored"), "0");
    CHECK(json_real_value(at(r, "relative_error")) == 1.0);
    CHECK_STREQ(str(r, "note"), "1e-400 is below the smallest subnormal double (5e-324): it is stored as 0");
    json_decref(r);
    r = run("{\"x\": \"-2e-99999999\"}"); /* past the exact reader's exponent range */
    CHECK(json_is_false(at(r, "exact")));
    CHECK(json_is_null(at(r, "error")));
    CHECK_STREQ(str(r, "input"), "-2e-99999999");
    json_decref(r);
    r = run("{\"x\": \"0.10000000000000001\"}");
    CHECK(json_is_false(at(r, "exact")));
    CHECK_STREQ(str(r, "literal"), "0.1");
    CHECK_STREQ(str(r, "error"), "-122290016319/27487790694400000000000000000");
    json_decref(r);
    /* The same number written as the spec's literal: unchanged (no input,
     * note null), and a number written exactly stays exact. */
    r = run("{\"x\": \"0.1\"}");
    CHECK(json_is_false(at(r, "exact")));
    CHECK(at(r, "input") == NULL);
    CHECK(json_is_null(at(r, "note")));
    json_decref(r);
    r = run("{\"x\": \"0e99999999\"}");
    CHECK(json_is_true(at(r, "exact")));
    json_decref(r);
    r = run("{\"x\": 9007199254740992}");
    CHECK(json_is_true(at(r, "exact")));
    CHECK(at(r, "input") == NULL);
    json_decref(r);
}

int main(void) {
    RUN(test_point_one);
    RUN(test_examples);
    RUN(test_more);
    RUN(test_non_finite);
    RUN(test_written_number_not_stored_is_not_exact);
    return check_summary("calc_float_repr");
}
