/* benchmark's arithmetic (TOOLS.md 3.5.2 steps 4-7) on synthetic timings:
 * the class each growth gets, the doubling ratios, the noise floor, the
 * fit, Python-style rounding. The timed end-to-end runs are in make bench
 * (scripts/bench-analysis); these are the numbers those runs rely on. */
#include <math.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/exec/bench_fit.h"

static json_t *estimate(const int64_t *n, const double *t, size_t k, bool *floor) {
    return cc_bench_estimate(n, t, k, floor);
}

static double ratio(json_t *r, size_t i) {
    return json_real_value(json_array_get(json_object_get(r, "doubling_ratios"), i));
}

static void linear_by_doubling(void) {
    int64_t n[] = {1000, 2000, 4000, 8000, 16000};
    double t[5];
    for (int i = 0; i < 5; i++) t[i] = 20 + 0.01 * (double)n[i]; /* 30 40 60 100 180 */
    bool floor;
    json_t *r = estimate(n, t, 5, &floor);
    CHECK(!floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(n)");
    CHECK_INTEQ(json_array_size(json_object_get(r, "doubling_ratios")), 3);
    CHECK(ratio(r, 0) == 2.0 && ratio(r, 1) == 2.0 && ratio(r, 2) == 2.0); /* the spec's 3.0 2.33 2.14, unbiased */
    CHECK_STREQ(json_string_value(json_object_get(r, "ratio_confidence")), "robust");
    CHECK(json_real_value(json_object_get(r, "baseline_ms")) == 30.0);
    CHECK_INTEQ(json_array_size(json_object_get(r, "candidate_scores")), 8);
    json_decref(r);
}

static void quadratic_by_doubling(void) {
    int64_t n[] = {1000, 2000, 4000, 8000, 16000};
    double t[5];
    for (int i = 0; i < 5; i++) t[i] = 20 + (double)n[i] * (double)n[i] / 1e5;
    bool floor;
    json_t *r = estimate(n, t, 5, &floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(n^2)");
    CHECK(ratio(r, 0) == 4.0 && ratio(r, 1) == 4.0 && ratio(r, 2) == 4.0); /* the spec's 5.0 4.2 4.05 */
    json_decref(r);
}

/* Sizes that do not double: the fit decides, and it tells n log n from n. */
static void n_log_n_by_fit(void) {
    int64_t n[] = {1000, 10000, 100000, 1000000};
    double t[4];
    for (int i = 0; i < 4; i++) t[i] = 1 + (double)n[i] * log((double)n[i]) / 1000;
    bool floor;
    json_t *r = estimate(n, t, 4, &floor);
    CHECK_INTEQ(json_array_size(json_object_get(r, "doubling_ratios")), 0);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(n log n)");
    json_t *best = json_object_get(r, "best_score");
    CHECK_STREQ(json_string_value(json_object_get(best, "class")), "O(n log n)");
    CHECK(json_real_value(json_object_get(best, "relative_error")) < 0.05); /* baseline-corrected */
    /* Sorted by error, ascending. */
    json_t *scores = json_object_get(r, "candidate_scores");
    for (size_t i = 1; i < json_array_size(scores); i++)
        CHECK(json_real_value(json_object_get(json_array_get(scores, i - 1), "relative_error")) <=
              json_real_value(json_object_get(json_array_get(scores, i), "relative_error")));
    CHECK_STREQ(json_string_value(json_object_get(r, "ratio_confidence")),
                "low (0 ratio(s); a median needs >= 3 to reject an outlier, which needs >= 5 doubling sizes "
                "because the first gap is always discarded)");
    json_decref(r);
}

static void noise_floor(void) {
    int64_t n[] = {100, 1000, 10000};
    double t[] = {10, 12, 14};
    bool floor;
    json_t *r = estimate(n, t, 3, &floor);
    CHECK(floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(1) (work below noise floor at all sizes)");
    CHECK_INTEQ(json_object_size(r), 3); /* estimate, candidate_scores, doubling_ratios */
    CHECK_INTEQ(json_array_size(json_object_get(r, "candidate_scores")), 0);
    json_decref(r);
}

static void too_few_points_to_fit(void) {
    int64_t n[] = {1, 2, 3};
    double t[] = {10, 20, 10};
    bool floor;
    json_t *r = estimate(n, t, 3, &floor);
    CHECK(!floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "insufficient data (need >=3 sizes)");
    CHECK(json_is_null(json_object_get(r, "best_score")));
    CHECK_STREQ(json_string_value(json_object_get(r, "note")),
                "3 size(s) measured, 1 point(s) to fit: the fastest size is the baseline (its corrected time is 0), "
                "and a fit needs 2 sizes slower than it; give sizes spread far enough apart that each takes "
                "longer than the one before");
    CHECK_INTEQ(json_array_size(json_object_get(r, "candidate_scores")), 0);
    json_decref(r);
}

/* Four doubling sizes of linear work were O(n log n): the spec's ratios
 * corrected(2n) / corrected(n) subtract the first size's own work, so a
 * line gives 3, then 2.33. Read through the baseline, they are 2. */
static void four_doubling_sizes_of_linear_work_were_n_log_n(void) {
    int64_t n[] = {5000, 10000, 20000, 40000};
    double t[] = {60, 110, 210, 410}; /* 10 ms start-up + 0.01 ms per item */
    bool floor;
    json_t *r = estimate(n, t, 4, &floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(n)");
    CHECK_INTEQ(json_array_size(json_object_get(r, "doubling_ratios")), 2);
    CHECK(ratio(r, 0) == 2.0 && ratio(r, 1) == 2.0);
    CHECK_STREQ(json_string_value(json_object_get(json_object_get(r, "best_score"), "class")), "O(n)");
    json_decref(r);
}

/* Three sizes were "insufficient data (need >=3 sizes)": the fastest is the
 * baseline, and the spec fits only the two others. Each class has one
 * coefficient, so two points tell them apart. */
static void three_sizes_were_insufficient_data(void) {
    int64_t n[] = {1000, 10000, 100000};
    double t[] = {12, 30, 210}; /* 10 + 0.002 n */
    bool floor;
    json_t *r = estimate(n, t, 3, &floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(n)");
    CHECK(json_real_value(json_object_get(json_object_get(r, "best_score"), "relative_error")) == 0.0);
    CHECK(json_object_get(r, "note") == NULL);
    json_decref(r);
    double tq[] = {10.01, 11, 110}; /* 10 + n^2 / 1e8 */
    r = estimate(n, tq, 3, &floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(n^2)");
    json_decref(r);
}

/* Successive gaps (the first unbiased reading) rest on two small
 * differences each: a quadratic program under load read [2.71, 2.66, 4.62]
 * (O(n log n)). The same noisy timings through the corrected times stay
 * O(n^2). */
static void noisy_quadratic_stays_quadratic(void) {
    int64_t n[] = {100, 200, 400, 800, 1600};
    double t[] = {30, 74, 254, 734, 2654}; /* 20 + n^2/1e3, the 200 and 400 runs 14 and 60 ms late */
    bool floor;
    json_t *r = estimate(n, t, 5, &floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(n^2)");
    json_decref(r);
}

/* Sorting at doubling sizes read O(n): n log n doubles by about 2.1, which
 * the spec's thresholds put in O(n). The fit decides between the two, and
 * the note says it did. */
static void n_log_n_at_doubling_sizes_was_linear(void) {
    int64_t n[] = {10000, 20000, 40000, 80000, 160000};
    double t[5];
    for (int i = 0; i < 5; i++) t[i] = 20 + (double)n[i] * log((double)n[i]) / 1000;
    bool floor;
    json_t *r = estimate(n, t, 5, &floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(n log n)");
    const char *note = json_string_value(json_object_get(r, "note"));
    CHECK(note && strstr(note, "the fit over all sizes chose O(n log n)"));
    json_decref(r);
    for (int i = 0; i < 5; i++) t[i] = 20 + (double)n[i] / 100;
    r = estimate(n, t, 5, &floor);
    CHECK_STREQ(json_string_value(json_object_get(r, "estimate")), "O(n)");
    json_decref(r);
}

static void ratio_classes(void) {
    CHECK_STREQ(cc_bench_ratio_class(1.49), "O(1)");
    CHECK_STREQ(cc_bench_ratio_class(1.5), "O(n)");
    CHECK_STREQ(cc_bench_ratio_class(2.5), "O(n log n)");
    CHECK_STREQ(cc_bench_ratio_class(3.2), "O(n^2)");
    CHECK_STREQ(cc_bench_ratio_class(5.5), "O(n^3)");
    CHECK_STREQ(cc_bench_ratio_class(11), "O(c^n) (exponential or worse)");
}

static void python_rounding(void) {
    CHECK(cc_bench_round(2.675, 2) == 2.67);  /* 2.675 is 2.67499999... in binary */
    CHECK(cc_bench_round(0.125, 2) == 0.12);  /* exact half: to even */
    CHECK(cc_bench_round(0.375, 2) == 0.38);
    CHECK(cc_bench_round(1.23456, 4) == 1.2346);
}

/* quadratic_read_as_constant_under_load: python's O(n^2) at n = 100..800
 * on a loaded host (these are its runs) read O(1), then O(n): its 102 ms
 * spread was start-up jitter, 25 ms of it a smaller n measured slower. */
static void run_noise_of_a_round(void) {
    json_t *runs = json_loads("[{\"n\":100,\"duration_ms\":92,\"all_runs_ms\":[92,111,124]},"
                              "{\"n\":200,\"duration_ms\":67,\"all_runs_ms\":[76,67,208]},"
                              "{\"n\":400,\"duration_ms\":116,\"all_runs_ms\":[205,132,116]},"
                              "{\"n\":800,\"duration_ms\":169,\"all_runs_ms\":[169,170,277]}]", 0, NULL);
    CHECK_INTEQ(cc_bench_run_noise(runs), 25); /* n=100 at 92 ms against n=200 at 67 */
    json_decref(runs);
    /* the gap between a size's two fastest runs (19 ms at n=100) */
    runs = json_loads("[{\"n\":100,\"duration_ms\":92,\"all_runs_ms\":[111,92,124]},"
                      "{\"n\":200,\"duration_ms\":95,\"all_runs_ms\":[95,96]}]", 0, NULL);
    CHECK_INTEQ(cc_bench_run_noise(runs), 19);
    json_decref(runs);
    /* one run per size, growing times: nothing witnesses noise */
    runs = json_loads("[{\"n\":1,\"duration_ms\":5,\"all_runs_ms\":[5]},"
                      "{\"n\":2,\"duration_ms\":9,\"all_runs_ms\":[9]},"
                      "{\"n\":4,\"duration_ms\":null,\"all_runs_ms\":[]}]", 0, NULL);
    CHECK_INTEQ(cc_bench_run_noise(runs), 0);
    json_decref(runs);
}

int main(void) {
    RUN(linear_by_doubling);
    RUN(quadratic_by_doubling);
    RUN(n_log_n_by_fit);
    RUN(noise_floor);
    RUN(too_few_points_to_fit);
    RUN(four_doubling_sizes_of_linear_work_were_n_log_n);
    RUN(three_sizes_were_insufficient_data);
    RUN(noisy_quadratic_stays_quadratic);
    RUN(n_log_n_at_doubling_sizes_was_linear);
    RUN(ratio_classes);
    RUN(python_rounding);
    RUN(run_noise_of_a_round);
    return check_summary("bench_fit");
}
