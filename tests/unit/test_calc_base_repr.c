/* Unit tests for the base_repr tool (TOOLS.md 3.3.10): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_base_repr
#include "tests/unit/calc_harness.h"

static void test_examples(void) {
    json_t *r = run("{\"n\": 255}");
    CHECK(is_ok(r));
    CHECK_STREQ(intstr(r, "value"), "255");
    CHECK_STREQ(str(r, "hex"), "ff");
    CHECK_STREQ(str(r, "oct"), "377");
    CHECK_STREQ(str(r, "bin"), "11111111");
    CHECK(at(r, "overflow") == NULL && at(r, "two_complement_bin") == NULL);
    json_decref(r);

    r = run("{\"n\": -5}");
    CHECK_STREQ(str(r, "hex"), "-5");
    CHECK_STREQ(str(r, "oct"), "-5");
    CHECK_STREQ(str(r, "bin"), "-101");
    json_decref(r);

    r = run("{\"n\": 3000000000, \"width\": 32}");
    CHECK_STREQ(intstr(r, "signed_i32"), "-1294967296");
    CHECK_STREQ(intstr(r, "unsigned_u32"), "3000000000");
    CHECK_STREQ(str(r, "two_complement_bin"), "10110010110100000101111000000000");
    CHECK_STREQ(intstr(r, "wrapped_signed"), "-1294967296");
    CHECK_STREQ(str(r, "signed_overflow"),
                "does not fit in signed i32 (range -2147483648..2147483647); fits u32 only");
    CHECK_STREQ(str(r, "hex"), "b2d05e00");
    json_decref(r);

    r = run("{\"n\": -5, \"width\": 8}");
    CHECK_STREQ(intstr(r, "signed_i8"), "-5");
    CHECK_STREQ(intstr(r, "unsigned_u8"), "251");
    CHECK_STREQ(str(r, "two_complement_bin"), "11111011");
    CHECK(at(r, "signed_overflow") == NULL && at(r, "wrapped_signed") == NULL);
    json_decref(r);

    r = run("{\"n\": 1099511627776, \"width\": 32}");
    CHECK_STREQ(str(r, "overflow"),
                "does not fit in signed i32 (range -2147483648..2147483647) nor unsigned u32");
    CHECK(at(r, "signed_i32") == NULL);
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"n\": 0, \"width\": 4}");
    CHECK_STREQ(str(r, "hex"), "0");
    CHECK_STREQ(str(r, "two_complement_bin"), "0000");
    CHECK_STREQ(intstr(r, "unsigned_u4"), "0");
    json_decref(r);
    r = run("{\"n\": 5, \"width\": 8}"); /* non-negative in signed range: unsigned is n */
    CHECK_STREQ(intstr(r, "unsigned_u8"), "5");
    CHECK_STREQ(str(r, "two_complement_bin"), "00000101");
    json_decref(r);
    r = run("{\"n\": -129, \"width\": 8}");
    CHECK_STREQ(str(r, "overflow"), "does not fit in signed i8 (range -128..127) nor unsigned u8");
    json_decref(r);
    r = run("{\"n\": 256, \"width\": 8}");
    CHECK(str(r, "overflow") != NULL);
    json_decref(r);
    r = run("{\"n\": 255, \"width\": 8}");
    CHECK_STREQ(intstr(r, "signed_i8"), "-1");
    json_decref(r);
    r = run("{\"n\": 3, \"width\": null}");
    CHECK(is_ok(r) && at(r, "two_complement_bin") == NULL);
    json_decref(r);
    json_t *a = json_object();
    json_object_set_new(a, "n", bigint("-1180591620717411303424")); /* -2^70 */
    json_object_set_new(a, "width", json_integer(128));
    r = run_obj(a);
    CHECK_STREQ(intstr(r, "value"), "-1180591620717411303424");
    CHECK_STREQ(str(r, "hex"), "-400000000000000000");
    CHECK_STREQ(intstr(r, "unsigned_u128"), "340282366920938462282782986714356908032");
    CHECK_STREQ(intstr(r, "signed_i128"), "-1180591620717411303424");
    json_decref(r);
}

static void test_rejections(void) {
    json_t *r = run("{\"n\": 1, \"width\": 0}");
    CHECK(rejected(r, "validation", "width must be positive"));
    json_decref(r);
    r = run("{\"n\": 1, \"width\": -8}");
    CHECK(rejected(r, "validation", "width must be positive"));
    json_decref(r);
    r = run("{\"n\": 1, \"width\": 1000000000000}");
    CHECK(rejected(r, "validation", "width must be at most 65536"));
    json_decref(r);
    r = run("{\"n\": 1, \"width\": 2.5}");
    CHECK(rejected(r, "validation", "width must be an integer or null"));
    json_decref(r);
    r = run("{\"n\": \"0x10\"}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
    r = run("{}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_edges);
    RUN(test_rejections);
    return check_summary("calc_base_repr");
}
