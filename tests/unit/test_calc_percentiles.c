/* Unit tests for the percentiles tool (TOOLS.md 3.3.5): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_percentiles
#include "tests/unit/calc_harness.h"

static void test_one_to_hundred(void) {
    char args[600] = "{\"nums\": [";
    for (int i = 100; i >= 1; i--) /* descending: the tool must sort */
        snprintf(args + strlen(args), sizeof args - strlen(args), "%d%s", i, i > 1 ? "," : "]}");
    json_t *r = run(args);
    CHECK(is_ok(r));
    CHECK_INTEQ(num(r, "n"), 100);
    CHECK(is_real(r, "percentiles.p50.nearest_rank") && num(r, "percentiles.p50.nearest_rank") == 50.0);
    CHECK(num(r, "percentiles.p50.interpolated") == 50.5);
    CHECK(num(r, "percentiles.p90.nearest_rank") == 90.0);
    CHECK(num(r, "percentiles.p90.interpolated") == 90.1);
    CHECK(num(r, "percentiles.p95.nearest_rank") == 95.0);
    CHECK(num(r, "percentiles.p95.interpolated") == 95.05);
    CHECK(num(r, "percentiles.p99.nearest_rank") == 99.0);
    CHECK(num(r, "percentiles.p99.interpolated") == 99.01);
    CHECK_INTEQ(num(r, "percentiles.p99.rounding.interpolated"), 6);
    CHECK(json_is_null(at(r, "warning")));
    json_decref(r);
}

static void test_small(void) {
    json_t *r = run("{\"nums\": [3, 1, 2]}");
    CHECK(num(r, "percentiles.p50.nearest_rank") == 2.0);
    CHECK(is_real(r, "percentiles.p50.interpolated") && num(r, "percentiles.p50.interpolated") == 2.0);
    CHECK(num(r, "percentiles.p90.nearest_rank") == 3.0);
    CHECK(num(r, "percentiles.p90.interpolated") == 2.8);
    CHECK(num(r, "percentiles.p95.nearest_rank") == 3.0);
    CHECK(num(r, "percentiles.p95.interpolated") == 2.9);
    CHECK(num(r, "percentiles.p99.nearest_rank") == 3.0);
    CHECK(num(r, "percentiles.p99.interpolated") == 2.98);
    CHECK_STREQ(str(r, "warning"), "n < 100: p99 is just the maximum wearing a label");
    json_decref(r);

    r = run("{\"nums\": [7]}");
    CHECK_INTEQ(num(r, "n"), 1);
    CHECK(num(r, "percentiles.p50.nearest_rank") == 7.0);
    CHECK(num(r, "percentiles.p99.interpolated") == 7.0);
    json_decref(r);

    /* interpolation rounded half-even to 6 decimals */
    r = run("{\"nums\": [0, 0.0000015]}");
    CHECK(num(r, "percentiles.p50.interpolated") == 1e-06); /* 7.5e-07 -> 1e-06 */
    CHECK(num(r, "percentiles.p50.nearest_rank") == 0.0);
    json_decref(r);
    r = run("{\"nums\": [-5, -1]}");
    CHECK(num(r, "percentiles.p50.interpolated") == -3.0);
    CHECK(num(r, "percentiles.p90.nearest_rank") == -1.0);
    json_decref(r);
}

static void test_rejections(void) {
    json_t *r = run("{\"nums\": []}");
    CHECK(rejected(r, "validation", "need at least 1 number"));
    json_decref(r);
    r = run("{\"nums\": [1, 2, \"1e400\"]}");
    CHECK(rejected(r, "validation", "nums[2] = inf is not finite; percentiles needs finite numbers"));
    json_decref(r);
    r = run("{\"nums\": [null]}");
    CHECK(rejected(r, "validation", "nums[0] must be a number"));
    json_decref(r);
    r = run("{\"nums\": \"1,2\"}");
    CHECK(rejected(r, "validation", "nums must be an array of numbers"));
    json_decref(r);
}

/* Interpolated values below 1e-6 were rounded to 6 decimals: latencies in
 * seconds all read 0.0. */
static void test_interpolated_small_values_not_rounded_to_zero(void) {
    json_t *r = run("{\"nums\": [1e-7, 2e-7, 3e-7]}");
    CHECK(num(r, "percentiles.p50.interpolated") == 2e-07);
    CHECK(num(r, "percentiles.p90.interpolated") == 2.8e-07);
    CHECK(num(r, "percentiles.p99.interpolated") == 2.98e-07);
    json_decref(r);
    r = run("{\"nums\": [1.23456789e-9, 1.23456789e-10]}");
    CHECK(num(r, "percentiles.p50.interpolated") == 6.79012e-10); /* (1.23456789e-9 + 1.23456789e-10) / 2 */
    json_decref(r);
}

/* v[hi] - v[lo] overflowed binary64 for values of opposite sign near the
 * top of the range: interpolated was null. */
static void test_interpolated_opposite_extremes_not_null(void) {
    json_t *r = run("{\"nums\": [-1.5e308, 1.5e308]}");
    CHECK(is_real(r, "percentiles.p50.interpolated") && num(r, "percentiles.p50.interpolated") == 0.0);
    CHECK(num(r, "percentiles.p90.interpolated") == 1.2e308);
    CHECK(num(r, "percentiles.p99.interpolated") == 1.47e308);
    json_decref(r);
}

/* The interpolation is of the exact values: (p/100)(n-1) in binary64 made
 * 2e299 read 2.0000000000000284e+299. */
static void test_interpolated_exact_fraction(void) {
    char args[4096] = "{\"nums\": [1e300";
    for (int i = 1; i < 99; i++) snprintf(args + strlen(args), sizeof args - strlen(args), ", 0");
    snprintf(args + strlen(args), sizeof args - strlen(args), "]}");
    json_t *r = run(args); /* 98 zeros and 1e300: p90 idx = 88.2, between two zeros */
    CHECK(num(r, "percentiles.p90.interpolated") == 0.0);
    CHECK(num(r, "percentiles.p99.interpolated") == 2.0000000000000002e298); /* idx 97.02: 0.02 * 1e300 */
    json_decref(r);
    r = run("{\"nums\": [0, 1e300]}");
    CHECK(num(r, "percentiles.p90.interpolated") == 9e299);
    json_decref(r);
}

/* percentiles_of_integers_past_2_53: the order and the interpolation were
 * of the doubles, which tie for 2^53 + 1 and 2^53 (the transport carries the digits). */
static void test_big_integers_ranked_exactly(void) {
    json_t *a = json_object(), *nums = json_array();
    json_array_append_new(nums, bigint("69599900000000000000000000"));
    json_array_append_new(nums, json_integer(9007199254741006));
    json_array_append_new(nums, json_integer(9007199254740987));
    json_object_set_new(a, "nums", nums);
    json_t *r = run_obj(a);
    CHECK(num(r, "percentiles.p90.interpolated") == 5.567992000180144e+25);
    CHECK(num(r, "percentiles.p50.nearest_rank") == 9007199254741006.0);
    json_decref(r);
}

int main(void) {
    RUN(test_one_to_hundred);
    RUN(test_small);
    RUN(test_rejections);
    RUN(test_interpolated_small_values_not_rounded_to_zero);
    RUN(test_interpolated_opposite_extremes_not_null);
    RUN(test_interpolated_exact_fraction);
    RUN(test_big_integers_ranked_exactly);
    return check_summary("calc_percentiles");
}
