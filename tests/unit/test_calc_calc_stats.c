/* Unit tests for the calc_stats tool (TOOLS.md 3.3.4): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#include "workers/calc/programmer_tools.h"
#define TOOL_FN cc_tool_calc_stats
#include "tests/unit/calc_harness.h"

static void test_examples(void) {
    json_t *r = run("{\"nums\": [1, 2, 3, 4, 5]}");
    CHECK(is_ok(r));
    CHECK_INTEQ(num(r, "n"), 5);
    CHECK(is_real(r, "mean") && num(r, "mean") == 3.0);
    CHECK(is_real(r, "median") && num(r, "median") == 3.0);
    CHECK(num(r, "stdev") == 1.5811388300841898);
    CHECK(num(r, "cv") == 0.5270462766947299);
    CHECK_STREQ(str(r, "cv_note"), "run-to-run noise swamps the effect (CV > 0.2)");
    json_decref(r);

    r = run("{\"nums\": [5, 5]}");
    CHECK(is_real(r, "cv") && num(r, "cv") == 0.0);
    CHECK_STREQ(str(r, "cv_note"), "within noise budget");
    json_decref(r);

    r = run("{\"nums\": [-1, 1]}");
    CHECK(json_is_null(at(r, "cv")));
    CHECK(num(r, "mean") == 0.0);
    CHECK(num(r, "stdev") == 1.4142135623730951);
    CHECK_STREQ(str(r, "cv_note"), "CV undefined: the mean is 0, so relative variation has no meaning");
    json_decref(r);

    r = run("{\"nums\": [1.0]}");
    CHECK(rejected(r, "validation", "need at least 2 numbers"));
    json_decref(r);
}

static void test_exactness(void) {
    /* Naive summation gives 0.30000000000000004/3; the exact mean of the
     * three doubles rounds to 0.2. */
    json_t *r = run("{\"nums\": [0.1, 0.2, 0.3]}");
    CHECK(num(r, "mean") == 0.2);
    CHECK(num(r, "median") == 0.2);
    CHECK(num(r, "stdev") == 0.09999999999999999); /* exact: 0.09999999999999999167... */
    CHECK(num(r, "cv") == 0.49999999999999994);
    json_decref(r);

    /* Catastrophic cancellation for a naive algorithm. */
    r = run("{\"nums\": [1e16, 1, -1e16, 3]}");
    CHECK(num(r, "mean") == 1.0);
    CHECK(num(r, "median") == 2.0);
    json_decref(r);

    /* Negative mean keeps its sign in cv; the note reads its size. */
    r = run("{\"nums\": [-1, -2, -3, -4, -5]}");
    CHECK(num(r, "cv") == -0.5270462766947299);
    CHECK_STREQ(str(r, "cv_note"), "run-to-run noise swamps the effect (CV > 0.2)");
    json_decref(r);

    r = run("{\"nums\": [10, 10.5, 9.5, 10]}");
    CHECK(num(r, "median") == 10.0);
    CHECK(num(r, "stdev") == 0.408248290463863);
    json_decref(r);

    /* Tiny values: subnormal results stay exact. */
    r = run("{\"nums\": [5e-324, 5e-324, 5e-324]}");
    CHECK(num(r, "mean") == 5e-324);
    CHECK(num(r, "stdev") == 0.0);
    json_decref(r);
    r = run("{\"nums\": [1.7976931348623157e308, 1.7976931348623157e308]}");
    CHECK(num(r, "mean") == 1.7976931348623157e308);
    CHECK(num(r, "median") == 1.7976931348623157e308); /* the mean of the middle pair, exact */
    json_decref(r);
}

static void test_rejections(void) {
    json_t *r = run("{\"nums\": [1, \"1e999\"]}");
    CHECK(rejected(r, "validation", "nums[1] = inf is not finite; stats needs finite numbers"));
    json_decref(r);
    r = run("{\"nums\": [\"-1e999\", 2, 3]}");
    CHECK(rejected(r, "validation", "nums[0] = -inf is not finite; stats needs finite numbers"));
    json_decref(r);
    r = run("{\"nums\": []}");
    CHECK(rejected(r, "validation", "need at least 2 numbers"));
    json_decref(r);
    r = run("{\"nums\": [1, true]}");
    CHECK(rejected(r, "validation", "nums[1] must be a number"));
    json_decref(r);
    r = run("{\"nums\": [1, {}]}");
    CHECK(rejected(r, "validation", "nums[1] must be a number"));
    json_decref(r);
    r = run("{\"nums\": 3}");
    CHECK(rejected(r, "validation", "nums must be an array of numbers"));
    json_decref(r);
    r = run("{}");
    CHECK(rejected(r, "validation", "nums must be an array of numbers"));
    json_decref(r);
    r = run("{\"nums\": [\"2\", \"4\"]}"); /* numeric strings are coerced */
    CHECK(num(r, "mean") == 3.0);
    json_decref(r);
}

/* cv keeps the mean's sign, and the note compared it with 0.2 signed: a
 * negative mean always read "within noise budget", whatever the spread. */
static void test_cv_note_negative_mean_is_noise(void) {
    json_t *r = run("{\"nums\": [-1, -100]}");
    CHECK(num(r, "cv") == -1.386209333415212);
    CHECK_STREQ(str(r, "cv_note"), "run-to-run noise swamps the effect (CV > 0.2)");
    json_decref(r);
    r = run("{\"nums\": [-10, -10.1]}");
    CHECK(num(r, "cv") < 0 && num(r, "cv") > -0.2);
    CHECK_STREQ(str(r, "cv_note"), "within noise budget");
    json_decref(r);
    r = run("{\"nums\": [1e308, -1e308, 1e-300]}"); /* cv overflows: null, and noise */
    CHECK(json_is_null(at(r, "cv")));
    CHECK_STREQ(str(r, "cv_note"), "run-to-run noise swamps the effect (CV > 0.2)");
    json_decref(r);
}

/* Regression (cv was the rounded stdev over the rounded mean, and "the mean
 * is 0" read the rounded mean): with subnormal values cv was 1.0 where the
 * truth is 0.4330127018922193, and [5e-324, 0], whose mean 2.5e-324 rounds
 * to 0.0, had cv null and "the mean is 0". */
static void test_cv_from_rounded_mean_and_stdev(void) {
    json_t *r = run("{\"nums\": [5e-324, 5e-324, 1e-323]}");
    CHECK(num(r, "cv") == 0.4330127018922193);
    json_decref(r);
    r = run("{\"nums\": [5e-324, 0]}");
    CHECK(num(r, "mean") == 0.0);
    CHECK(num(r, "cv") == 1.4142135623730951);
    CHECK_STREQ(str(r, "cv_note"), "run-to-run noise swamps the effect (CV > 0.2)");
    json_decref(r);
    r = run("{\"nums\": [3, 4, 5]}"); /* sqrt(1)/4 exactly */
    CHECK(num(r, "cv") == 0.25);
    json_decref(r);
}

/* stats_of_integers_past_2_53: the integers were read as doubles, so
 * 2^53 + 1 and 2^53 were one value (stdev 0.0 for values that differ) and
 * 10^30 + 7 was 10^30 (the transport carries their digits). */
static void test_big_integers_not_read_as_doubles(void) {
    json_t *r = run("{\"nums\": [9007199254740993, 9007199254740992]}");
    CHECK(num(r, "stdev") == 0.7071067811865476);
    CHECK(num(r, "mean") == 9007199254740992.0); /* 2^53 + 0.5 rounds to even */
    json_decref(r);
    json_t *a = json_object(), *nums = json_array();
    json_array_append_new(nums, bigint("1000000000000000000000000000007"));
    json_array_append_new(nums, bigint("1000000000000000000000000000001"));
    json_object_set_new(a, "nums", nums);
    r = run_obj(a);
    CHECK(num(r, "stdev") == 4.242640687119285); /* sqrt(18) */
    CHECK(num(r, "median") == 1e30);
    json_decref(r);
    /* an integer no double holds was "nums[1] must be a number" */
    char digits[401];
    memset(digits, '9', 400);
    digits[400] = '\0';
    a = json_object();
    nums = json_array();
    json_array_append_new(nums, json_integer(1));
    json_array_append_new(nums, bigint(digits));
    json_object_set_new(a, "nums", nums);
    r = run_obj(a);
    CHECK(rejected(r, "validation", "nums[1] is an integer of 400 digits, beyond binary64's range (about 1.8e308); "
                                    "stats needs finite numbers"));
    json_decref(r);
}

/* Regression: cv_note compared the double cv with 0.2. [4e20, 5e20,
 * 6e20 + 1] has cv 0.2 + 2e-22, which rounds to the double 0.2 and read
 * "within noise budget"; the note is now decided on the exact figures
 * (cv^2 = ss / mean^2 against 1/25), with cv exactly 0.2 within it. */
static void test_cv_note_knife_edge_read_by_the_double(void) {
    static const struct {
        const char *nums[3];
        bool noise;
    } w[] = {
        {{"400000000000000000000", "500000000000000000000", "600000000000000000001"}, true},
        {{"400000000000000000000", "500000000000000000000", "599999999999999999999"}, false},
        {{"400000000000000000001", "500000000000000000000", "600000000000000000000"}, false},
        {{"400000000000000000000", "500000000000000000000", "600000000000000000000"}, false},
        {{"-400000000000000000000", "-500000000000000000000", "-600000000000000000001"}, true},
        {{"4", "5", "6"}, false},
        {{"-4", "-5", "-6"}, false},
        {{"4", "5", "6.000000000000001"}, true},
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        json_t *a = json_object(), *nums = json_array();
        for (int k = 0; k < 3; k++) {
            const char *t = w[i].nums[k];
            json_array_append_new(nums, strchr(t, '.') ? json_real(strtod(t, NULL))
                                        : strlen(t) > 18 ? bigint(t) : json_integer(strtoll(t, NULL, 10)));
        }
        json_object_set_new(a, "nums", nums);
        json_t *r = run_obj(a);
        CHECK(is_ok(r));
        CHECK_STREQ(str(r, "cv_note"), w[i].noise ? "run-to-run noise swamps the effect (CV > 0.2)"
                                                  : "within noise budget");
        json_decref(r);
    }
}

int main(void) {
    RUN(test_cv_note_knife_edge_read_by_the_double);
    RUN(test_examples);
    RUN(test_cv_from_rounded_mean_and_stdev);
    RUN(test_exactness);
    RUN(test_rejections);
    RUN(test_cv_note_negative_mean_is_noise);
    RUN(test_big_integers_not_read_as_doubles);
    return check_summary("calc_stats");
}
