/* Unit tests for the radix_convert tool (TOOLS.md 3.3.11): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_radix_convert
#include "tests/unit/calc_harness.h"

/* Shorthand: convert and return the value string (owned by *keep). */
static const char *conv(const char *value, int from, int to, json_t **keep) {
    *keep = run_obj(json_pack("{sssisi}", "value", value, "from_base", from, "to_base", to));
    return str(*keep, "value");
}

static void test_examples(void) {
    json_t *r;
    CHECK_STREQ(conv("0.1", 10, 2, &r), "0.00011\xe2\x80\xa6");
    CHECK(json_is_true(at(r, "non_terminating")));
    CHECK(is_ok(r));
    json_decref(r);
    CHECK_STREQ(conv("ff", 16, 10, &r), "255");
    CHECK(json_is_false(at(r, "non_terminating")));
    json_decref(r);
    CHECK_STREQ(conv("zz", 36, 7, &r), "3530");
    json_decref(r);
    CHECK_STREQ(conv("0.5", 10, 2, &r), "0.1");
    json_decref(r);
    CHECK_STREQ(conv("0.2", 10, 5, &r), "0.1");
    json_decref(r);
    CHECK_STREQ(conv("-10.25", 10, 16, &r), "-a.4");
    json_decref(r);
    conv("12", 2, 10, &r);
    CHECK(rejected(r, "validation", "invalid digit '2' for base 2"));
    json_decref(r);
}

static void test_more(void) {
    static const struct { const char *v; int from, to; const char *want; bool periodic; } t[] = {
        {"3.", 10, 2, "11", false},   /* zero fraction: no point */
        {"-0", 10, 2, "-0", false},   /* sign kept for zero */
        {"", 10, 2, "0", false},
        {".", 10, 2, "0", false},
        {"  FF.8  ", 16, 10, "255.5", false},
        {"0.1", 3, 10, "0.3\xe2\x80\xa6", true},      /* 1/3: the period once */
        {"0.1", 7, 10, "0.142857\xe2\x80\xa6", true},
        {"0.1", 36, 10, "0.027\xe2\x80\xa6", true},   /* pre-period "02", period "7" */
        {"0.1", 10, 3, "0.0022\xe2\x80\xa6", true},
        {"0.01", 10, 3, "0.00002102121110200122\xe2\x80\xa6", true},
        {"0.1", 23, 10, "0.0434782608695652173913\xe2\x80\xa6", true},
        {"0.01", 10, 17, "0.02f239bc6g85a64fdd19\xe2\x80\xa6", true},
        {"0.1", 2, 10, "0.5", false},
        {"0.0000000001", 10, 10, "0.0000000001", false},
        {"-7.75", 10, 2, "-111.11", false},
        {"1010.101", 2, 8, "12.5", false},
        /* period longer than 64 digits: cut at 64 */
        {"0.1666", 10, 6, "0.0555525200531022100344505124104031204213321150002023521514231532\xe2\x80\xa6", true},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        json_t *r;
        CHECK_STREQ(conv(t[i].v, t[i].from, t[i].to, &r), t[i].want);
        CHECK(json_boolean_value(at(r, "non_terminating")) == t[i].periodic);
        json_decref(r);
    }
    json_t *r = run("{\"value\": \"101\"}"); /* defaults 10 -> 10 */
    CHECK_STREQ(str(r, "value"), "101");
    json_decref(r);
}

/* A terminating expansion cut at 100 digits was shown bare, as if exact:
 * 2^-101 in decimal lost its last digit. Every binary64 fraction (up to
 * 1074 digits) is now written whole; a longer one is cut, marked with the
 * ellipsis and truncated: true. */
static void test_terminating_expansion_cut_is_marked(void) {
    static char v[1300] = "0.";
    for (int i = 0; i < 100; i++) strcat(v, "0");
    strcat(v, "1");
    json_t *r;
    const char *got = conv(v, 2, 10, &r); /* 2^-101: 101 digits, all of them */
    CHECK(got && strlen(got) == 103);
    CHECK(got && strncmp(got, "0.000000000000000000000000000000394430452610505", 47) == 0);
    CHECK(got && strcmp(got + strlen(got) - 6, "203125") == 0);
    CHECK(json_is_false(at(r, "non_terminating")) && at(r, "truncated") == NULL);
    json_decref(r);

    v[2] = '\0';
    for (int i = 0; i < 1199; i++) strcat(v, "0");
    strcat(v, "1");
    got = conv(v, 2, 10, &r); /* 2^-1200: 1200 digits, cut at 1100 */
    CHECK(got && strlen(got) == 2 + 1100 + 3 && strcmp(got + strlen(got) - 3, "\xe2\x80\xa6") == 0);
    CHECK(json_is_false(at(r, "non_terminating")) && json_is_true(at(r, "truncated")));
    json_decref(r);
}

static void test_rejections(void) {
    json_t *r;
    conv("1", 1, 10, &r);
    CHECK(rejected(r, "validation", "bases must be 2..36"));
    json_decref(r);
    conv("1", 10, 37, &r);
    CHECK(rejected(r, "validation", "bases must be 2..36"));
    json_decref(r);
    conv("1.2.3", 10, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit '.' for base 10"));
    json_decref(r);
    conv("--1", 10, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit '-' for base 10"));
    json_decref(r);
    conv("1 2", 10, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit ' ' for base 10"));
    json_decref(r);
    conv("0.9", 8, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit '9' for base 8"));
    json_decref(r);
    conv("1\xc3\xa9", 16, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit '\xc3\xa9' for base 16"));
    json_decref(r);
    r = run("{\"value\": 12}");
    CHECK(rejected(r, "validation", "value must be a string"));
    json_decref(r);
    r = run("{\"value\": \"1\", \"from_base\": \"ten\"}");
    CHECK(rejected(r, "validation", "bases must be 2..36"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_more);
    RUN(test_terminating_expansion_cut_is_marked);
    RUN(test_rejections);
    return check_summary("calc_radix_convert");
}
