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

int main(void) {
    RUN(test_one_to_hundred);
    RUN(test_small);
    RUN(test_rejections);
    return check_summary("calc_percentiles");
}
