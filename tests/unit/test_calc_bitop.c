/* Unit tests for the bitop tool (TOOLS.md 3.3.15): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_bitop
#include "tests/unit/calc_harness.h"

static json_t *op(long long a, const char *o, const char *b, int width) {
    char args[256];
    if (width)
        snprintf(args, sizeof args, "{\"a\": %lld, \"op\": \"%s\", \"b\": %s, \"width\": %d}", a, o, b, width);
    else
        snprintf(args, sizeof args, "{\"a\": %lld, \"op\": \"%s\", \"b\": %s}", a, o, b);
    return run(args);
}

static void test_examples(void) {
    json_t *r = op(0x80, "shr", "1", 8);
    CHECK(is_ok(r));
    CHECK_STREQ(str(r, "op"), "shr");
    CHECK_INTEQ(num(r, "width"), 8);
    CHECK_STREQ(intstr(r, "unsigned"), "64");
    CHECK_STREQ(intstr(r, "signed"), "64");
    CHECK_STREQ(str(r, "hex"), "0x40");
    CHECK_STREQ(str(r, "oct"), "0o100");
    CHECK_STREQ(str(r, "bin"), "01000000");
    CHECK(at(r, "overflow") == NULL && at(r, "unbounded") == NULL);
    json_decref(r);

    r = op(0x80, "sar", "1", 8);
    CHECK_STREQ(intstr(r, "unsigned"), "192");
    CHECK_STREQ(intstr(r, "signed"), "-64");
    CHECK_STREQ(str(r, "hex"), "0xc0");
    json_decref(r);

    json_t *a = json_object();
    json_object_set_new(a, "a", bigint("9223372036854775808")); /* 0x8000000000000000 */
    json_object_set_new(a, "op", json_string("shl"));
    json_object_set_new(a, "b", json_integer(1));
    json_object_set_new(a, "width", json_integer(64));
    r = run_obj(a);
    CHECK_STREQ(intstr(r, "unsigned"), "0");
    CHECK(json_is_true(at(r, "overflow")));
    CHECK_STREQ(intstr(r, "unbounded"), "18446744073709551616");
    /* big_ints_are_strings: 2^64 would lose digits as a JSON number */
    CHECK(json_is_string(at(r, "unbounded")));
    json_decref(r);

    r = op(1, "shl", "256", 8);
    CHECK_STREQ(intstr(r, "unsigned"), "0");
    CHECK_STREQ(str(r, "overflow"), "shift 256 >= width 8");
    CHECK(at(r, "unbounded") == NULL);
    json_decref(r);

    r = op(0, "not", "null", 8);
    CHECK_STREQ(intstr(r, "unsigned"), "255");
    CHECK_STREQ(intstr(r, "signed"), "-1");
    json_decref(r);

    r = op(0x0F, "rol", "4", 8);
    CHECK_STREQ(str(r, "hex"), "0xf0");
    json_decref(r);
    r = op(0xF0, "ror", "4", 8);
    CHECK_STREQ(str(r, "hex"), "0x0f");
    json_decref(r);
    r = op(10, "xor", "6", 8);
    CHECK_STREQ(intstr(r, "unsigned"), "12");
    json_decref(r);

    r = op(1, "shl", "-1", 32);
    CHECK(rejected(r, "validation", "negative shift/rotate count -1"));
    json_decref(r);
    r = op(1, "zzz", "2", 0);
    CHECK(rejected(r, "validation",
                   "unknown op 'zzz'; use and, or, xor, nand, nor, xnor, not, shl, shr, sar, rol, ror"));
    json_decref(r);
}

static void test_ops(void) {
    static const struct { long long a; const char *op, *b; int w; const char *u, *s, *hex, *oct; } t[] = {
        {0xF0, "AND", "60", 8, "48", "48", "0x30", "0o060"},
        {0xF0, "or", "15", 8, "255", "-1", "0xff", "0o377"},
        {0xF0, "nand", "60", 8, "207", "-49", "0xcf", "0o317"},
        {0xF0, "nor", "15", 8, "0", "0", "0x00", "0o000"},
        {10, "xnor", "6", 8, "243", "-13", "0xf3", "0o363"},
        {-1, "and", "255", 16, "255", "255", "0x00ff", "0o000377"},
        {5, "and", "-1", 8, "5", "5", "0x05", "0o005"}, /* b is masked too */
        {1, "shl", "7", 8, "128", "-128", "0x80", "0o200"},
        {3, "shl", "7", 8, "128", "-128", "0x80", "0o200"}, /* overflow: true */
        {0x80, "shr", "8", 8, "0", "0", "0x0", "0o0"},     /* unpadded past width */
        {0x80, "shr", "100", 32, "0", "0", "0x0", "0o0"},
        {0x80, "sar", "7", 8, "255", "-1", "0xff", "0o377"},
        {0x80, "sar", "8", 8, "255", "-1", "0xff", "0o377"},
        {0x40, "sar", "9", 8, "0", "0", "0x00", "0o000"},
        {-8, "sar", "1", 32, "4294967292", "-4", "0xfffffffc", "0o37777777774"},
        {0x81, "rol", "9", 8, "3", "3", "0x03", "0o003"},   /* 9 mod 8 = 1 */
        {0x81, "ror", "8", 8, "129", "-127", "0x81", "0o201"},
        {0x81, "ror", "1", 8, "192", "-64", "0xc0", "0o300"},
        {1, "rol", "63", 64, "9223372036854775808", "-9223372036854775808", "0x8000000000000000",
         "0o1000000000000000000000"},
        {-1, "not", "null", 64, "0", "0", "0x0000000000000000", "0o0000000000000000000000"},
        {0, "not", "null", 64, "18446744073709551615", "-1", "0xffffffffffffffff", "0o1777777777777777777777"},
        {0x1234, "not", "null", 16, "60875", "-4661", "0xedcb", "0o166713"},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        json_t *r = op(t[i].a, t[i].op, t[i].b, t[i].w);
        CHECK_STREQ(intstr(r, "unsigned"), t[i].u);
        CHECK_STREQ(intstr(r, "signed"), t[i].s);
        CHECK_STREQ(str(r, "hex"), t[i].hex);
        CHECK_STREQ(str(r, "oct"), t[i].oct);
        if (!r || !str(r, "hex")) fprintf(stderr, "  row %zu\n", i);
        json_decref(r);
    }
    json_t *r = op(3, "shl", "7", 8);
    CHECK(json_is_true(at(r, "overflow")));
    CHECK_STREQ(intstr(r, "unbounded"), "384");
    json_decref(r);
    r = op(0x80, "shr", "8", 8);
    CHECK_STREQ(str(r, "bin"), "00000000");
    json_decref(r);
    r = op(5, "and", "3", 0); /* default width 64 */
    CHECK_INTEQ(num(r, "width"), 64);
    CHECK_STREQ(str(r, "bin"), "0000000000000000000000000000000000000000000000000000000000000001");
    json_decref(r);
    r = run("{\"a\": 1, \"op\": \"SHL\", \"b\": \"99999999999999999999999\", \"width\": 16}");
    CHECK_STREQ(str(r, "overflow"), "shift 99999999999999999999999 >= width 16");
    CHECK_STREQ(str(r, "op"), "shl");
    json_decref(r);
}

static void test_rejections(void) {
    json_t *r = op(1, "and", "1", 12);
    CHECK(rejected(r, "validation", "width must be 8/16/32/64"));
    json_decref(r);
    r = op(1, "zzz", "null", 12); /* width is checked first */
    CHECK(rejected(r, "validation", "width must be 8/16/32/64"));
    json_decref(r);
    r = op(1, "and", "null", 8);
    CHECK(rejected(r, "validation", "and needs two operands"));
    json_decref(r);
    r = run("{\"a\": 1, \"op\": \"Xor\"}");
    CHECK(rejected(r, "validation", "xor needs two operands"));
    json_decref(r);
    r = op(1, "rol", "-3", 8);
    CHECK(rejected(r, "validation", "negative shift/rotate count -3"));
    json_decref(r);
    r = op(1, "and", "-3", 8); /* a negative value operand is fine */
    CHECK(is_ok(r));
    json_decref(r);
    r = run("{\"a\": 1, \"op\": 5, \"b\": 1}");
    CHECK(rejected(r, "validation", "op must be a string"));
    json_decref(r);
    r = run("{\"a\": \"x\", \"op\": \"and\", \"b\": 1}");
    CHECK(rejected(r, "validation", "a must be an integer"));
    json_decref(r);
    r = run("{\"a\": 1, \"op\": \"and\", \"b\": 1.5}");
    CHECK(rejected(r, "validation", "b must be an integer or null"));
    json_decref(r);
    /* A float from 2^53 on is not the integer written: 1e23 was read as
     * 99999999999999991611392, 9007199254740993.0 as 2^53. Below 2^53 an
     * integral float is still that integer. */
    r = run("{\"a\": 1e23, \"op\": \"and\", \"b\": -1}");
    CHECK(rejected(r, "validation", "a must be an integer"));
    json_decref(r);
    r = run("{\"a\": 9007199254740993.0, \"op\": \"and\", \"b\": -1}");
    CHECK(rejected(r, "validation", "a must be an integer"));
    json_decref(r);
    r = run("{\"a\": 9007199254740991.0, \"op\": \"shr\", \"b\": 52}");
    CHECK(is_ok(r) && num(r, "unsigned") == 1);
    json_decref(r);
    r = run("{\"a\": 1, \"op\": \"and\", \"b\": 1, \"width\": \"wide\"}");
    CHECK(rejected(r, "validation", "width must be 8/16/32/64"));
    json_decref(r);
}

/* bitop_wide_operand_is_reported: TOOLS.md masks an operand wider than the
 * width, and bitop(256, and, 255, 8) answered 0 with nothing to say that
 * 256 was not the operand used. */
static void test_wide_operand_masked_says_so(void) {
    json_t *r = op(256, "and", "255", 8);
    CHECK_STREQ(intstr(r, "unsigned"), "0");
    json_t *m = at(r, "masked");
    CHECK(json_array_size(m) == 1 && strcmp(json_string_value(json_array_get(m, 0)), "a") == 0);
    CHECK_STREQ(str(r, "note"), "a = 256 does not fit in 8 bits (-2^7..2^8-1): its low 8 bits, 0, were used; "
                                "pass width=16 to keep it");
    json_decref(r);
    r = op(-129, "xor", "70000", 8); /* both operands, b counted as a value */
    m = at(r, "masked");
    CHECK(json_array_size(m) == 2);
    CHECK(str(r, "note") && strstr(str(r, "note"), "; b = 70000 does not fit in 8 bits"));
    json_decref(r);
    r = op(-128, "and", "255", 8); /* both fit one reading of 8 bits: nothing masked */
    CHECK(at(r, "masked") == NULL && at(r, "note") == NULL);
    json_decref(r);
    r = op(1, "shl", "300", 8); /* a count is never masked */
    CHECK(at(r, "masked") == NULL);
    json_decref(r);
    json_t *a = json_object();
    json_object_set_new(a, "a", bigint("340282366920938463463374607431768211457")); /* 2^128 + 1 */
    json_object_set_new(a, "op", json_string("not"));
    json_object_set_new(a, "width", json_integer(64));
    r = run_obj(a);
    CHECK_STREQ(intstr(r, "unsigned"), "18446744073709551614");
    CHECK(str(r, "note") && strstr(str(r, "note"), "no width up to 64 holds it"));
    CHECK(str(r, "note") && strncmp(str(r, "note"), "a = 340282366920938463463374607431768211457 does", 48) == 0);
    json_decref(r);
    /* an operand past 40 digits is named by its first 20 and its length */
    char digits[64];
    memset(digits, '9', 50);
    digits[50] = '\0';
    a = json_object();
    json_object_set_new(a, "a", bigint(digits));
    json_object_set_new(a, "op", json_string("not"));
    json_object_set_new(a, "width", json_integer(8));
    r = run_obj(a);
    CHECK(str(r, "note") && strncmp(str(r, "note"), "a = 99999999999999999999... (50 digits) does not fit", 52) == 0);
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_ops);
    RUN(test_rejections);
    RUN(test_wide_operand_masked_says_so);
    return check_summary("calc_bitop");
}
