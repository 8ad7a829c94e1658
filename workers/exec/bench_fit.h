/* The arithmetic of benchmark (TOOLS.md 3.5.2 steps 4-7): baseline
 * correction, the least-squares fit of each growth class, the doubling
 * ratios and the estimate. Pure functions of the measured points, so they
 * are unit-tested with synthetic timings (tests/unit/test_bench_fit.c). */
#ifndef CC_EXEC_BENCH_FIT_H
#define CC_EXEC_BENCH_FIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Below this spread of corrected times (ms) nothing grows measurably. */
#define CC_BENCH_NOISE_FLOOR_MS 5.0

/* The result fields of steps 4-7 for k >= 3 kept points (sizes n[i] in
 * measuring order, minimal durations t[i] in ms): a new object holding
 * estimate, candidate_scores and doubling_ratios, and, unless the work is
 * below the noise floor (*noise_floor set), best_score, ratio_confidence
 * and baseline_ms. */
json_t *cc_bench_estimate(const int64_t *n, const double *t, size_t k, bool *noise_floor);

/* The class of a median doubling ratio (step 7). */
const char *cc_bench_ratio_class(double median);

/* x rounded to d decimals the way Python's round() does it (the exact
 * binary value, half to even). */
double cc_bench_round(double x, int d);

/* The run-to-run noise of a round of size records (benchmark's runs:
 * n, duration_ms = the fastest of all_runs_ms), in ms: the larger of the
 * largest gap between one size's two fastest runs and the largest amount
 * by which a larger n was measured faster than a smaller one. */
int64_t cc_bench_run_noise(const json_t *runs);

#endif
