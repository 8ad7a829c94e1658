/* Unit tests for the bit_analysis tool (TOOLS.md 3.3.14): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_bit_analysis
#include "tests/unit/calc_harness.h"

static void test_examples(void) {
    json_t *r = run("{\"n\": 12}");
    CHECK(is_ok(r));
    CHECK_STREQ(intstr(r, "value"), "12");
    CHECK_INTEQ(num(r, "popcount"), 2);
    CHECK_INTEQ(num(r, "bit_length"), 4);
    CHECK_INTEQ(num(r, "trailing_zeros"), 2);
    CHECK(json_is_false(at(r, "is_power_of_two")));
    CHECK_STREQ(intstr(r, "next_power_of_two"), "16");
    CHECK(at(r, "aligned_to") == NULL);
    json_decref(r);

    r = run("{\"n\": 7, \"align\": 8}");
    CHECK_STREQ(intstr(r, "aligned_to"), "8");
    CHECK_STREQ(intstr(r, "padding_needed"), "1");
    CHECK_STREQ(intstr(r, "aligned_value"), "8");
    json_decref(r);

    r = run("{\"n\": 0}");
    CHECK(json_is_null(at(r, "trailing_zeros")));
    CHECK(json_is_null(at(r, "next_power_of_two")));
    CHECK_INTEQ(num(r, "bit_length"), 0);
    CHECK_INTEQ(num(r, "popcount"), 0);
    CHECK(json_is_false(at(r, "is_power_of_two")));
    json_decref(r);

    r = run("{\"n\": -1}");
    CHECK(rejected(r, "validation",
                   "bit_analysis requires n >= 0 (bit semantics are undefined for a negative int without a "
                   "fixed width); use bitop(n, ..., width=W) for two's-complement bits at a specific width"));
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"n\": 16, \"align\": 16}");
    CHECK(json_is_true(at(r, "is_power_of_two")));
    CHECK_STREQ(intstr(r, "next_power_of_two"), "16"); /* a power of two maps to itself */
    CHECK_STREQ(intstr(r, "padding_needed"), "0");
    CHECK_STREQ(intstr(r, "aligned_value"), "16");
    json_decref(r);
    r = run("{\"n\": 1}");
    CHECK_STREQ(intstr(r, "next_power_of_two"), "1");
    CHECK_INTEQ(num(r, "trailing_zeros"), 0);
    json_decref(r);
    r = run("{\"n\": 0, \"align\": 4096}");
    CHECK_STREQ(intstr(r, "padding_needed"), "0");
    json_decref(r);
    r = run("{\"n\": 4097, \"align\": 4096, \"unused\": 1}");
    CHECK_STREQ(intstr(r, "padding_needed"), "4095");
    CHECK_STREQ(intstr(r, "aligned_value"), "8192");
    json_decref(r);
    r = run("{\"n\": 10, \"align\": null}");
    CHECK(is_ok(r) && at(r, "aligned_to") == NULL);
    json_decref(r);
    json_t *a = json_object();
    json_object_set_new(a, "n", bigint("18446744073709551617")); /* 2^64 + 1 */
    r = run_obj(a);
    CHECK_INTEQ(num(r, "popcount"), 2);
    CHECK_INTEQ(num(r, "bit_length"), 65);
    CHECK_STREQ(intstr(r, "next_power_of_two"), "36893488147419103232");
    json_decref(r);
    r = run("{\"n\": 7, \"align\": 0}");
    CHECK(rejected(r, "validation", "alignment must be positive"));
    json_decref(r);
    r = run("{\"n\": 7, \"align\": -8}");
    CHECK(rejected(r, "validation", "alignment must be positive"));
    json_decref(r);
    r = run("{\"n\": 7, \"align\": \"x\"}");
    CHECK(rejected(r, "validation", "align must be an integer or null"));
    json_decref(r);
    r = run("{\"n\": true}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_edges);
    return check_summary("calc_bit_analysis");
}
