/* Unit tests for the epoch_time tool (TOOLS.md 3.3.9): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_epoch_time
#include "tests/unit/calc_harness.h"

static void test_examples(void) {
    json_t *r = run("{\"n\": \"1700000000\"}");
    CHECK(is_ok(r));
    CHECK_STREQ(intstr(r, "input"), "1700000000");
    CHECK_STREQ(str(r, "interpretations.seconds"), "2023-11-14T22:13:20+00:00");
    CHECK_INTEQ(json_object_size(at(r, "interpretations")), 1);
    json_decref(r);

    r = run("{\"n\": \"1700000000000\"}");
    CHECK_STREQ(str(r, "interpretations.millis"), "2023-11-14T22:13:20+00:00");
    CHECK_INTEQ(json_object_size(at(r, "interpretations")), 1);
    json_decref(r);

    r = run("{\"n\": \"1700000000000000000\"}");
    CHECK_STREQ(str(r, "interpretations.nanos"), "2023-11-14T22:13:20+00:00");
    CHECK_STREQ(intstr(r, "input"), "1700000000000000000");
    json_decref(r);

    r = run("{\"n\": \"1700000000123\"}");
    CHECK_STREQ(str(r, "interpretations.millis"), "2023-11-14T22:13:20.123000+00:00");
    json_decref(r);

    r = run("{\"n\": \"5\"}");
    CHECK(rejected(r, "validation", "no plausible unit found"));
    json_decref(r);
}

static void test_calendar(void) {
    static const struct { const char *n, *unit, *iso; } v[] = {
        {"100000000", "seconds", "1973-03-03T09:46:40+00:00"},     /* lower window edge */
        {"10000000000", "seconds", "2286-11-20T17:46:40+00:00"},   /* upper window edge */
        {"951782400", "seconds", "2000-02-29T00:00:00+00:00"},     /* leap day, 400-year rule */
        {"4107542400", "seconds", "2100-03-01T00:00:00+00:00"},    /* 2100 is not leap */
        {"1704067199", "seconds", "2023-12-31T23:59:59+00:00"},
        {" 1_700_000_000 ", "seconds", "2023-11-14T22:13:20+00:00"},
        {"+1700000000", "seconds", "2023-11-14T22:13:20+00:00"},
        {"1700000000000001", "micros", "2023-11-14T22:13:20.000001+00:00"},
        {"1700000000999999999", "nanos", "2023-11-14T22:13:21+00:00"}, /* rounds into next second */
        {"1000000000000000000000", "nanos", NULL},                   /* 1e21 s/1e9 = 1e12: none */
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        json_t *r = run_obj(json_pack("{ss}", "n", v[i].n));
        if (v[i].iso) {
            CHECK_STREQ(str(at(r, "interpretations"), v[i].unit), v[i].iso);
            CHECK_INTEQ(json_object_size(at(r, "interpretations")), 1);
        } else {
            CHECK(rejected(r, "validation", "no plausible unit found"));
        }
        json_decref(r);
    }
}

static void test_rejections(void) {
    static const char *not_int[] = {"1.5", "abc", "", "1__0", "_1", "1_", "0x10", "1e9", "- 1", "12a"};
    for (size_t i = 0; i < sizeof not_int / sizeof *not_int; i++) {
        json_t *r = run_obj(json_pack("{ss}", "n", not_int[i]));
        CHECK(rejected(r, "validation", "epoch must be an integer"));
        json_decref(r);
    }
    json_t *r = run("{\"n\": \"-1700000000\"}");
    CHECK(rejected(r, "validation", "negative epoch"));
    json_decref(r);
    r = run("{\"n\": \"1000000000000000000001\"}");
    CHECK(rejected(r, "validation", "implausibly large epoch"));
    json_decref(r);
    r = run("{\"n\": \"0\"}");
    CHECK(rejected(r, "validation", "no plausible unit found"));
    json_decref(r);
    r = run("{\"n\": 1.5}");
    CHECK(rejected(r, "validation", "epoch must be an integer"));
    json_decref(r);
    r = run("{\"n\": 1700000000}"); /* a JSON integer is accepted as its digits */
    CHECK_STREQ(str(at(r, "interpretations"), "seconds"), "2023-11-14T22:13:20+00:00");
    json_decref(r);
    r = run_obj(json_pack("{s:s#}", "n", "17\0000", (size_t)4));
    CHECK(rejected(r, "validation", "epoch must be an integer"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_calendar);
    RUN(test_rejections);
    return check_summary("calc_epoch_time");
}
