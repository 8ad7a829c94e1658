/* Unit tests for the data_sizes tool (TOOLS.md 3.3.7): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_data_sizes
#include "tests/unit/calc_harness.h"

static void test_examples(void) {
    json_t *r = run("{\"n\": 305135616}");
    CHECK(is_ok(r));
    CHECK_STREQ(intstr(r, "bytes"), "305135616");
    CHECK(is_real(r, "binary.MiB") && num(r, "binary.MiB") == 291.0);
    CHECK(num(r, "binary.KiB") == 297984.0);
    CHECK(num(r, "decimal.MB") == 305.135616);
    CHECK(num(r, "decimal.KB") == 305135.616);
    CHECK(num(r, "binary.GiB") == 291.0 / 1024);
    CHECK(num(r, "decimal.TB") == 0.000305135616);
    json_decref(r);

    r = run("{\"n\": 1536}");
    CHECK(num(r, "binary.KiB") == 1.5);
    CHECK(num(r, "decimal.KB") == 1.536);
    json_decref(r);

    r = run("{\"n\": -1024}");
    CHECK(rejected(r, "validation", "n = -1024 is negative; byte counts are >= 0"));
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"n\": 0}");
    CHECK(is_real(r, "binary.TiB") && num(r, "binary.TiB") == 0.0);
    CHECK(num(r, "decimal.KB") == 0.0);
    json_decref(r);
    /* correctly rounded, not (double)n / 1000: 2^53 + 1 is not a double */
    r = run("{\"n\": 9007199254740993}");
    CHECK(num(r, "decimal.KB") == 9007199254740.993);
    json_decref(r);
    json_t *a = json_object();
    json_object_set_new(a, "n", bigint("1208925819614629174706176")); /* 2^80 */
    r = run_obj(a);
    CHECK_STREQ(intstr(r, "bytes"), "1208925819614629174706176");
    CHECK(num(r, "binary.TiB") == 1099511627776.0);
    CHECK(num(r, "decimal.TB") == 1208925819614.6292);
    json_decref(r);
    a = json_object();
    json_object_set_new(a, "n", bigint("-99999999999999999999999"));
    r = run_obj(a);
    CHECK(rejected(r, "validation", "n = -99999999999999999999999 is negative; byte counts are >= 0"));
    json_decref(r);
    r = run("{\"n\": \"abc\"}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
    r = run("{\"n\": 1.5}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
}

/* data_sizes_beyond_binary64: 10^400 bytes answered eight bare nulls */
static void test_beyond_binary64_has_note(void) {
    char digits[402];
    digits[0] = '1';
    memset(digits + 1, '0', 400);
    digits[401] = '\0';
    json_t *a = json_object();
    json_object_set_new(a, "n", bigint(digits));
    json_t *r = run_obj(a);
    CHECK(json_is_null(at(r, "binary.KiB")) && json_is_null(at(r, "decimal.TB")));
    CHECK_STREQ(str(r, "note"), "n/1000 is beyond the largest double (1.7976931348623157e+308): each quotient "
                                "no double holds is null");
    json_decref(r);
    r = run("{\"n\": 1000}");
    CHECK(at(r, "note") == NULL);
    json_decref(r);
}

int main(void) {
    RUN(test_beyond_binary64_has_note);
    RUN(test_examples);
    RUN(test_edges);
    return check_summary("calc_data_sizes");
}
