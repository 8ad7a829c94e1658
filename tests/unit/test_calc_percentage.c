/* Unit tests for the percentage tool (TOOLS.md 3.3.3): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_percentage
#include "tests/unit/calc_harness.h"

static void test_examples(void) {
    json_t *r = run("{\"part\": \"3\", \"total\": \"8\"}");
    CHECK(is_ok(r));
    CHECK_STREQ(str(r, "part"), "3");
    CHECK_STREQ(str(r, "total"), "8");
    CHECK_STREQ(str(r, "share"), "3/8");
    CHECK(is_real(r, "percent") && num(r, "percent") == 37.5);
    CHECK_INTEQ(num(r, "rounding.percent"), 6);
    json_decref(r);

    r = run("{\"part\": \"1\", \"total\": \"3\"}");
    CHECK(num(r, "percent") == 33.333333);
    CHECK_STREQ(str(r, "share"), "1/3");
    json_decref(r);

    r = run("{\"part\": \"1\", \"total\": \"0\"}");
    CHECK(rejected(r, "validation", "total is zero"));
    json_decref(r);
}

static void test_literals(void) {
    json_t *r = run("{\"part\": \"4\", \"total\": \"2\"}");
    CHECK_STREQ(str(r, "share"), "2/1"); /* whole numbers still num/den */
    CHECK(num(r, "percent") == 200.0);
    json_decref(r);

    r = run("{\"part\": \" 2.5 \", \"total\": \"1e1\"}");
    CHECK_STREQ(str(r, "part"), "5/2");
    CHECK_STREQ(str(r, "total"), "10");
    CHECK_STREQ(str(r, "share"), "1/4");
    CHECK(num(r, "percent") == 25.0);
    json_decref(r);

    r = run("{\"part\": \"-1/3\", \"total\": \"2/3\"}");
    CHECK_STREQ(str(r, "part"), "-1/3");
    CHECK_STREQ(str(r, "share"), "-1/2");
    CHECK(num(r, "percent") == -50.0);
    json_decref(r);

    r = run("{\"part\": \"2/6\", \"total\": \".5\"}");
    CHECK_STREQ(str(r, "part"), "1/3");
    CHECK_STREQ(str(r, "share"), "2/3");
    CHECK(num(r, "percent") == 66.666667);
    json_decref(r);

    r = run("{\"part\": \"1\", \"total\": \"7\"}");
    CHECK(num(r, "percent") == 14.285714);
    json_decref(r);

    r = run("{\"part\": \"0\", \"total\": \"-5\"}");
    CHECK_STREQ(str(r, "share"), "0/1");
    CHECK(num(r, "percent") == 0.0);
    json_decref(r);
}

static void test_rejections(void) {
    static const char *bad[] = {
        "{\"part\": \"1+1\", \"total\": \"2\"}", "{\"part\": \"1/0\", \"total\": \"2\"}",
        "{\"part\": \"abc\", \"total\": \"2\"}", "{\"part\": \"\", \"total\": \"2\"}",
        "{\"part\": \"1\", \"total\": \"1/-3\"}", "{\"part\": \"1\"}",
        "{\"part\": true, \"total\": \"2\"}",   "{\"part\": \"1e\", \"total\": \"2\"}",
        "{\"part\": \"nan\", \"total\": \"2\"}", "{\"part\": \".\", \"total\": \"2\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_t *r = run(bad[i]);
        CHECK(rejected(r, "validation", "part and total must be numbers"));
        json_decref(r);
    }
    json_t *r = run("{\"part\": \"1e999999999\", \"total\": \"2\"}");
    CHECK(json_is_false(at(r, "ok")) && strcmp(str(r, "code"), "validation") == 0);
    json_decref(r);
    r = run("[]"); /* not even an object */
    CHECK(rejected(r, "validation", "part and total must be numbers"));
    json_decref(r);
}

static void test_huge(void) {
    /* Share beyond binary64: percent is not finite, so it is null. */
    json_t *r = run("{\"part\": \"1e400\", \"total\": \"1\"}");
    CHECK(is_ok(r));
    CHECK(json_is_null(at(r, "percent")));
    json_decref(r);
    r = run("{\"part\": 3, \"total\": 8}"); /* lenient: JSON numbers */
    CHECK(num(r, "percent") == 37.5);
    json_decref(r);
    r = run("{\"part\": 0.1, \"total\": 1}");
    CHECK_STREQ(str(r, "part"), "1/10");
    json_decref(r);
}

/* percent was rounded to 6 decimals whatever its size: 1 of 10^12 read
 * 0.0 percent. A nonzero value 6 decimals would zero keeps 6 significant
 * digits. */
static void test_small_percent_not_rounded_to_zero(void) {
    json_t *r = run("{\"part\": \"1\", \"total\": \"1e12\"}");
    CHECK(num(r, "percent") == 1e-10);
    json_decref(r);
    r = run("{\"part\": \"1\", \"total\": \"3e9\"}");
    CHECK(num(r, "percent") == 3.33333e-08);
    json_decref(r);
    r = run("{\"part\": \"-1\", \"total\": \"70000\"}"); /* not zeroed: 6 decimals as before */
    CHECK(num(r, "percent") == -0.001429);
    json_decref(r);
    r = run("{\"part\": \"1\", \"total\": \"200000001\"}"); /* 4.999999975e-07: below the tie */
    CHECK(num(r, "percent") == 5e-07);
    json_decref(r);
}

/* percent_beyond_binary64: 1 of 1e400 answered percent 0.0 (a confident
 * zero for a nonzero share) and 1e400 of 1 a bare null. */
static void test_percent_beyond_binary64_is_null_with_note(void) {
    json_t *r = run("{\"part\": \"1\", \"total\": \"1e400\"}");
    CHECK(is_ok(r) && json_is_null(at(r, "percent")));
    CHECK(str(r, "note") && strstr(str(r, "note"), "below the smallest double"));
    json_decref(r);
    r = run("{\"part\": \"-3\", \"total\": \"7e900\"}");
    CHECK(json_is_null(at(r, "percent")));
    CHECK(str(r, "note") && strncmp(str(r, "note"), "percent = share x 100 is about -2^", 34) == 0);
    json_decref(r);
    r = run("{\"part\": \"1e400\", \"total\": \"1\"}");
    CHECK(json_is_null(at(r, "percent")));
    CHECK(str(r, "note") && strstr(str(r, "note"), "beyond the largest double"));
    json_decref(r);
    r = run("{\"part\": \"1\", \"total\": \"1e310\"}"); /* 1e-308: a double holds it */
    CHECK(num(r, "percent") == 1e-308 && at(r, "note") == NULL);
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_literals);
    RUN(test_rejections);
    RUN(test_huge);
    RUN(test_small_percent_not_rounded_to_zero);
    RUN(test_percent_beyond_binary64_is_null_with_note);
    return check_summary("calc_percentage");
}
