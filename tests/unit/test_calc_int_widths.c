/* Unit tests for the int_widths tool (TOOLS.md 3.3.13): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_int_widths
#include "tests/unit/calc_harness.h"

/* The array at path joined with '|' for one-line comparisons. */
static const char *joined(json_t *r, const char *path) {
    static char buf[1024];
    json_t *a = at(r, path);
    buf[0] = '\0';
    if (!json_is_array(a)) return NULL;
    for (size_t i = 0; i < json_array_size(a); i++) {
        const char *s = json_string_value(json_array_get(a, i));
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? "|" : "", s ? s : "?");
    }
    return buf;
}

static void test_examples(void) {
    json_t *r = run("{\"n\": 3000000000}");
    CHECK(is_ok(r));
    CHECK_STREQ(intstr(r, "value"), "3000000000");
    CHECK_STREQ(joined(r, "fits"), "u32|i64|u64");
    CHECK_STREQ(joined(r, "wraps"),
                "i8/u8: too large (above 255)|i16/u16: too large (above 65535)|i32: wraps to -1294967296");
    CHECK(json_is_null(at(r, "note")));
    json_decref(r);

    r = run("{\"n\": -200}");
    CHECK_STREQ(joined(r, "fits"), "i16|i32|i64");
    CHECK_STREQ(joined(r, "wraps"), "i8/u8: too negative (below -128)");
    json_decref(r);

    r = run("{\"n\": 127}");
    CHECK_STREQ(joined(r, "fits"), "i8|u8|i16|u16|i32|u32|i64|u64");
    CHECK_STREQ(joined(r, "wraps"), "");
    json_decref(r);

    r = run("{\"n\": 1152921504606846976}"); /* 2^60 */
    CHECK_STREQ(str(r, "note"), ">2^53 cannot round-trip through a JS number or JSON float");
    CHECK_STREQ(joined(r, "fits"), "i64|u64");
    json_decref(r);

    json_t *a = json_object();
    json_object_set_new(a, "n", bigint("-1180591620717411303424")); /* -2^70 */
    r = run_obj(a);
    CHECK_STREQ(joined(r, "fits"), "");
    CHECK_STREQ(joined(r, "wraps"), "i8/u8: too negative (below -128)|i16/u16: too negative (below -32768)|"
                                    "i32/u32: too negative (below -2147483648)|"
                                    "i64/u64: too negative (below -9223372036854775808)");
    CHECK_STREQ(intstr(r, "value"), "-1180591620717411303424");
    CHECK(str(r, "note") != NULL);
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"n\": 255}");
    CHECK_STREQ(joined(r, "fits"), "u8|i16|u16|i32|u32|i64|u64");
    CHECK_STREQ(joined(r, "wraps"), "i8: wraps to -1");
    json_decref(r);
    r = run("{\"n\": -1}");
    CHECK_STREQ(joined(r, "fits"), "i8|i16|i32|i64"); /* negatives never fit unsigned */
    json_decref(r);
    json_t *a = json_object();
    json_object_set_new(a, "n", bigint("18446744073709551615")); /* 2^64 - 1 */
    r = run_obj(a);
    CHECK_STREQ(joined(r, "fits"), "u64");
    CHECK(strstr(joined(r, "wraps"), "i64: wraps to -1") != NULL);
    json_decref(r);
    a = json_object();
    json_object_set_new(a, "n", bigint("18446744073709551616"));
    r = run_obj(a);
    CHECK(strstr(joined(r, "wraps"), "i64/u64: too large (above 18446744073709551615)") != NULL);
    json_decref(r);
    r = run("{\"n\": 9007199254740992}"); /* exactly 2^53: no note */
    CHECK(json_is_null(at(r, "note")));
    json_decref(r);
    r = run("{\"n\": -9007199254740993}");
    CHECK(str(r, "note") != NULL);
    json_decref(r);
    r = run("{\"n\": 1.5}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
    r = run("{\"n\": [1]}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_edges);
    return check_summary("calc_int_widths");
}
