/* Unit tests for the collision_probability tool (TOOLS.md 3.3.6 as amended in
 * docs/contract.md: the exact birthday probability, correctly rounded): the
 * spec's examples with their exact values, plus edge cases and bad inputs. */
#include <string.h>
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_collision_probability
#include "tests/unit/calc_harness.h"

static void test_examples(void) {
    json_t *r = run("{\"items\": 100000, \"bits\": 32}");
    CHECK(is_ok(r));
    CHECK(num(r, "probability") == 0.6878122819636975);
    CHECK(num(r, "percent") == 68.781228);
    CHECK_INTEQ(num(r, "rounding.percent"), 6);
    CHECK_STREQ(intstr(r, "items"), "100000");
    CHECK_STREQ(intstr(r, "bits"), "32");
    json_decref(r);

    r = run("{\"items\": 1000000, \"bits\": 64}");
    CHECK(num(r, "probability") == 2.7105026839742543e-08);
    CHECK(num(r, "percent") == 3e-06);
    json_decref(r);

    r = run("{\"items\": 1, \"bits\": 64}");
    CHECK(is_real(r, "probability") && num(r, "probability") == 0.0);
    CHECK(at(r, "percent") == NULL);  /* fewer than two items: no percent */
    CHECK(at(r, "rounding") == NULL);
    CHECK_STREQ(intstr(r, "items"), "1");
    json_decref(r);

    r = run("{\"items\": 10, \"bits\": 0}");
    CHECK(rejected(r, "validation", "items >= 0 and bits >= 1"));
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"items\": 0, \"bits\": 1}");
    CHECK(num(r, "probability") == 0.0 && at(r, "percent") == NULL);
    json_decref(r);
    r = run("{\"items\": -1, \"bits\": 8}");
    CHECK(rejected(r, "validation", "items >= 0 and bits >= 1"));
    json_decref(r);
    r = run("{\"items\": 2, \"bits\": 1}"); /* two 1-bit values: exactly 1/2 */
    CHECK(num(r, "probability") == 0.5);
    CHECK(num(r, "percent") == 50.0);
    json_decref(r);
    r = run("{\"items\": 3, \"bits\": 1}"); /* pigeonhole: certain */
    CHECK(num(r, "probability") == 1.0);
    json_decref(r);
    r = run("{\"items\": 10, \"bits\": 128}"); /* 45/2^128, not a rounded 0 */
    CHECK(num(r, "probability") == 45.0 / 340282366920938463463374607431768211456.0);
    json_decref(r);
    /* quotient overflows binary64: certain collision */
    json_t *a = json_object();
    json_object_set_new(a, "items", bigint("1000000000000000000000000000000000000000000000000000000000000000"
                                          "0000000000000000000000000000000000000000000000000000000000000000"
                                          "0000000000000000000000000000000000000000000000000000000000000000"
                                          "0000000000000000000000000000000000000000000000000000000000000000"
                                          "0000000000000000000000000000000000000000000000000000000000000000"));
    json_object_set_new(a, "bits", json_integer(8));
    r = run_obj(a);
    CHECK(num(r, "probability") == 1.0);
    CHECK(num(r, "percent") == 100.0);
    CHECK(json_is_string(at(r, "items")) && json_string_value(at(r, "items"))[0] == '1');
    json_decref(r);
    /* quotient underflows: 0.0, percent 0.0; a huge bits builds nothing huge */
    r = run("{\"items\": 5, \"bits\": 4000000000000}");
    CHECK(num(r, "probability") == 0.0);
    CHECK(is_real(r, "percent") && num(r, "percent") == 0.0);
    json_decref(r);
    r = run("{\"items\": 1e5, \"bits\": \"32\"}"); /* lenient integral forms */
    CHECK(num(r, "probability") == 0.6878122819636975);
    json_decref(r);
    r = run("{\"items\": 1.5, \"bits\": 32}");
    CHECK(rejected(r, "validation", "items and bits must be integers"));
    json_decref(r);
    r = run("{\"bits\": 32}");
    CHECK(rejected(r, "validation", "items and bits must be integers"));
    json_decref(r);
}

/* percent was rounded to 6 decimals: a probability of 1.3e-37 read as
 * percent 0.0 beside it. */
static void test_small_percent_not_rounded_to_zero(void) {
    json_t *r = run("{\"items\": 10, \"bits\": 128}");
    CHECK(num(r, "probability") == 1.3224311446750734e-37);
    CHECK(num(r, "percent") == 1.32243e-35);
    json_decref(r);
}

/* Regression (percent was 100 times the double probability, which below
 * 2.2e-308 carries too few bits: 123457 hashes of 1090 bits had percent
 * 5.74514e-317, the truth 5.74517e-317; and a probability below every
 * double was a bare 0.0): percent comes from the 256-bit probability, and
 * a nonzero probability no double holds says so. */
static void test_subnormal_probability_percent_and_zero(void) {
    json_t *r = run("{\"items\": 123457, \"bits\": 1090}");
    CHECK(num(r, "probability") == 5.74514e-319);
    CHECK(num(r, "percent") == 5.74517e-317);
    CHECK(json_object_get(r, "note") == NULL);
    json_decref(r);
    r = run("{\"items\": 1000, \"bits\": 10000}");
    CHECK(num(r, "probability") == 0.0);
    CHECK(strstr(json_string_value(json_object_get(r, "note")), "about 2^-9981") != NULL);
    json_decref(r);
}

/* The probability is a dyadic rational and can be a tie exactly: of
 * binary64, or of the six decimals of percent. The 256-bit evaluation
 * rounded those ties either way; the references are Python's
 * float(Fraction) and round(Fraction, 6) of the exact product. */
static void test_exact_ties_were_misrounded(void) {
    static const struct { const char *args; double p, pct; } t[] = {
        /* 94/1024: percent 9.1796875, a tie, to even */
        {"{\"items\": 3, \"bits\": 5}", 0.091796875, 9.179688},
        /* 3*2^-53 - 2^-105: half an ulp below 3*2^-53 */
        {"{\"items\": 3, \"bits\": 53}", 3.3306690738754696e-16, 3.33067e-14},
        /* 13510798513012739 / 2^77: 54 significant bits */
        {"{\"items\": 4, \"bits\": 26}", 8.940696472059531e-08, 9e-06},
        /* 2^-1075: the tie between 0 and the smallest subnormal, to 0 */
        {"{\"items\": 2, \"bits\": 1075}", 0.0, 2.47e-322},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        json_t *r = run(t[i].args);
        CHECK(num(r, "probability") == t[i].p);
        CHECK(num(r, "percent") == t[i].pct);
        json_decref(r);
    }
    /* percent is nonzero there, so the note says only the probability is 0 */
    json_t *r = run("{\"items\": 2, \"bits\": 1075}");
    const char *note = json_string_value(json_object_get(r, "note"));
    CHECK(note && strstr(note, "probability is 0.0 only as a double") != NULL);
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_subnormal_probability_percent_and_zero);
    RUN(test_edges);
    RUN(test_small_percent_not_rounded_to_zero);
    RUN(test_exact_ties_were_misrounded);
    return check_summary("calc_collision_probability");
}
