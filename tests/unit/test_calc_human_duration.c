/* Unit tests for the human_duration tool (TOOLS.md 3.3.8): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_human_duration
#include "tests/unit/calc_harness.h"

static void test_examples(void) {
    json_t *r = run("{\"seconds\": 90061}");
    CHECK(is_ok(r));
    CHECK_STREQ(str(r, "human"), "1d 1h 1m 1s");
    CHECK(is_real(r, "seconds") && num(r, "seconds") == 90061.0);
    CHECK(num(r, "per_day") == 1.042373);
    CHECK(num(r, "per_30d") == 0.034746);
    CHECK_INTEQ(num(r, "rounding.per_day"), 6);
    CHECK_INTEQ(num(r, "rounding.per_30d"), 6);
    json_decref(r);

    static const struct { const char *args, *human; } v[] = {
        {"{\"seconds\": 0.5}", "500ms"},     {"{\"seconds\": 1.5}", "1s 500ms"},
        {"{\"seconds\": 0.00025}", "250us"}, {"{\"seconds\": 0}", "0s"},
        {"{\"seconds\": 3600}", "1h 0s"},    {"{\"seconds\": 86400}", "1d 0s"},
        {"{\"seconds\": 86461}", "1d 1m 1s"}, {"{\"seconds\": 59}", "59s"},
        {"{\"seconds\": 0.0015}", "1.5ms"},  {"{\"seconds\": 61.25}", "1m 1s 250ms"},
        {"{\"seconds\": 1e-07}", "<1us"},    {"{\"seconds\": 0.0000005}", "<1us"},
        {"{\"seconds\": 0.0000015}", "2us"}, {"{\"seconds\": 2.000001}", "2s 1us"},
        /* rounding_carry: a fraction that rounds to a whole second carries */
        {"{\"seconds\": 0.9999999}", "1s"}, {"{\"seconds\": 59.9999999}", "1m 0s"},
        {"{\"seconds\": 3599.9999996}", "1h 0s"}, {"{\"seconds\": 1.9999994}", "1s 999.999ms"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        r = run(v[i].args);
        CHECK_STREQ(str(r, "human"), v[i].human);
        json_decref(r);
    }

    r = run("{\"seconds\": 1e30}");
    const char *h = str(r, "human");
    CHECK(h && strncmp(h, "~1.000000e+30s (too large", 25) == 0);
    CHECK_STREQ(h, "~1.000000e+30s (too large for an exact day/hour breakdown: a float64 carries ~15-17 "
                   "significant digits and this value needs more; per_day/per_30d below carry the same limit)");
    CHECK(num(r, "per_day") == 1e30 / 86400);
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"seconds\": 0}");
    CHECK(num(r, "per_day") == 0.0 && num(r, "per_30d") == 0.0);
    CHECK(is_real(r, "per_day"));
    json_decref(r);
    r = run("{\"seconds\": 9007199254740991}"); /* 2^53 - 1: still broken down */
    CHECK_STREQ(str(r, "human"), "104249991374d 7h 36m 31s");
    json_decref(r);
    r = run("{\"seconds\": 9007199254740992}");
    CHECK(str(r, "human") && str(r, "human")[0] == '~');
    json_decref(r);
    r = run("{\"seconds\": -1}");
    CHECK(rejected(r, "validation", "negative duration"));
    json_decref(r);
    r = run("{\"seconds\": \"1e999\"}");
    CHECK(rejected(r, "validation", "seconds = inf is not finite"));
    json_decref(r);
    r = run("{\"seconds\": \"-1e999\"}");
    CHECK(rejected(r, "validation", "seconds = -inf is not finite"));
    json_decref(r);
    r = run("{\"seconds\": \"soon\"}");
    CHECK(rejected(r, "validation", "seconds must be a number"));
    json_decref(r);
    r = run("{}");
    CHECK(rejected(r, "validation", "seconds must be a number"));
    json_decref(r);
}

/* A nonzero duration below half a microsecond read "0s". */
static void test_sub_microsecond_not_zero(void) {
    json_t *r = run("{\"seconds\": 5e-8}");
    CHECK_STREQ(str(r, "human"), "<1us");
    CHECK(num(r, "per_day") == 5.78704e-13); /* not rounded away either */
    json_decref(r);
    r = run("{\"seconds\": 0}");
    CHECK_STREQ(str(r, "human"), "0s");
    json_decref(r);
    r = run("{\"seconds\": 60.0000001}"); /* a whole part shows; the 100 ns are below its grain */
    CHECK_STREQ(str(r, "human"), "1m 0s");
    json_decref(r);
}

/* Regression (the microseconds were the double product frac * 10^6
 * rounded, which lands on a tie the exact one is not on: 0.0009995 is
 * 999.4999...us and read "1ms", 0.6779715 read "677.972ms", 0.0003285
 * read "328us" for 328.5000...us): the tie is decided on the exact product
 * (human_ref in tests/crosscheck/independent/oracle.py, Fractions). */
static void test_microsecond_tie_of_the_double_product(void) {
    static const struct { const char *args, *human; } v[] = {
        {"{\"seconds\": 0.0009995}", "999us"},       {"{\"seconds\": 0.6779715}", "677.971ms"},
        {"{\"seconds\": 0.0003285}", "329us"},       {"{\"seconds\": 0.4859095}", "485.909ms"},
        {"{\"seconds\": 0.0009635}", "963us"},       {"{\"seconds\": 0.0001365}", "137us"},
        {"{\"seconds\": 0.1945895}", "194.589ms"},   {"{\"seconds\": 0.0004615}", "461us"},
        /* true ties of the exact value (2^-7 s is 7812.5us) still go to even */
        {"{\"seconds\": 0.0078125}", "7.812ms"},     {"{\"seconds\": 0.0234375}", "23.438ms"},
        {"{\"seconds\": 0.5000005}", "500ms"},       {"{\"seconds\": 0.0000025}", "3us"},
        {"{\"seconds\": 0.5}", "500ms"},             {"{\"seconds\": 0.9999995}", "1s"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        json_t *r = run(v[i].args);
        const char *h = str(r, "human");
        if (!h || strcmp(h, v[i].human) != 0)
            fprintf(stderr, "  %s: %s, want %s\n", v[i].args, h ? h : "(none)", v[i].human);
        CHECK_STREQ(h, v[i].human);
        json_decref(r);
    }
}

int main(void) {
    RUN(test_microsecond_tie_of_the_double_product);
    RUN(test_examples);
    RUN(test_edges);
    RUN(test_sub_microsecond_not_zero);
    return check_summary("calc_human_duration");
}
