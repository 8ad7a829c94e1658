/* verify_optimization's gate 2 arithmetic (TOOLS.md 3.4.5): auto-scale,
 * speedup and the decision. */
#include "supervisor/verify/rules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/tool_api.h"

bool cc_speed_should_scale(const double *ms, size_t n) {
    double lo = 0, hi = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (ms[i] == 0) continue;
        if (k == 0 || ms[i] < lo) lo = ms[i];
        if (k == 0 || ms[i] > hi) hi = ms[i];
        k++;
    }
    return k > 0 && hi < 20 && lo < 5;
}

double cc_round2(double x) {
    /* printf rounds the exact binary value, ties to even: Python's round. */
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", x);
    return strtod(buf, NULL);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static json_t *not_measurable(const char *why) {
    return json_pack("{s:n, s:b, s:s}", "ratio", "measurable", 0, "reason", why);
}

/* The sizes where the candidate was slower (ratio below 1): the median can
 * accept a candidate that loses at the largest size, where the trend is. */
static json_t *slower_sizes(const json_t *per) {
    json_t *out = json_array(), *p;
    size_t i;
    json_array_foreach(per, i, p) if (json_real_value(json_object_get(p, "ratio")) < 1.0)
        json_array_append(out, json_object_get(p, "n"));
    return out;
}

json_t *cc_speedup(const int64_t *sizes, const double *before, size_t nb, const double *after,
                   size_t na) {
    if (nb != na || nb == 0) return not_measurable("no comparable timings");
    double *ratios = malloc(nb * sizeof *ratios);
    json_t *per = json_array();
    size_t k = 0;
    for (size_t i = 0; ratios && i < nb; i++) {
        if (!(before[i] > 1.0 && after[i] > 0.0)) continue;
        ratios[k++] = before[i] / after[i];
        /* Durations are whole milliseconds (duration_ms). */
        json_array_append_new(per, json_pack("{s:I, s:I, s:I, s:f}", "n", (json_int_t)sizes[i],
                                             "before_ms", (json_int_t)before[i], "after_ms",
                                             (json_int_t)after[i], "ratio",
                                             cc_round2(before[i] / after[i])));
    }
    json_t *r;
    if (k == 0) {
        json_decref(per);
        r = not_measurable("no size where both runs were measurable (baseline below the 1ms noise "
                           "floor, or the optimized run measured 0ms)");
    } else {
        json_t *slower = slower_sizes(per);
        r = json_pack("{s:f, s:b, s:o}", "ratio", cc_round2(median(ratios, k)), "measurable", 1,
                      "per_size", per);
        if (json_array_size(slower)) json_object_set(r, "slower_at", slower);
        json_decref(slower);
    }
    free(ratios);
    return r;
}

const char *cc_number_text(const json_t *v, char buf[40]) {
    if (json_is_integer(v)) snprintf(buf, 40, "%lld", (long long)json_integer_value(v));
    else cc_float_repr(json_number_value(v), buf);
    return buf;
}

char *cc_speed_decision(const json_t *speedup, double min_speedup, const char *min_text,
                        bool *accepted) {
    char *r = NULL, rb[40];
    *accepted = false;
    if (!json_is_true(json_object_get(speedup, "measurable")))
        return strdup("equivalent but not measurably faster");
    double ratio = json_number_value(json_object_get(speedup, "ratio"));
    cc_float_repr(ratio, rb);
    int n;
    if (min_speedup <= 1)
        n = asprintf(&r, "min_speedup=%s does not demand a speedup (it must be > 1) — refusing to "
                     "certify a non-improvement", min_text);
    else if (ratio <= 1)
        n = asprintf(&r, "measured ratio %sx is not a speedup (> 1x); equivalent but not faster", rb);
    else if (ratio < min_speedup)
        n = asprintf(&r, "measured %sx is below the required %sx", rb, min_text);
    else {
        *accepted = true;
        n = asprintf(&r, "verified faster");
    }
    return n < 0 ? NULL : r;
}

/* ---- net of start-up (docs/contract.md, 3.4.5) ----
 * An interpreter's start-up (python about 40 ms) is paid by both programs
 * at every size; on raw durations it dominates the ratio, so a candidate
 * doing a tenth of the work read as 1.1x and was refused, and auto-scaling
 * never ran because the durations never fell below 20 ms. */

#define SCALE_NEED_CAP_MS 2000.0

double cc_speed_median_of(const double *ms, size_t n) {
    double sorted[16];
    if (n == 0) return -1;
    if (n > sizeof sorted / sizeof *sorted) n = sizeof sorted / sizeof *sorted;
    memcpy(sorted, ms, n * sizeof *ms);
    return median(sorted, n);
}

double cc_speed_jitter(const double *ms, size_t n) {
    if (n == 0) return 1;
    double lo = ms[0];
    for (size_t i = 1; i < n; i++)
        if (ms[i] < lo) lo = ms[i];
    double j = cc_speed_median_of(ms, n) - lo;
    return j < 1 ? 1 : j;
}

double cc_speed_net_floor(const struct cc_startup *st) {
    return 10 * st->jitter_ms;
}

static double net_of(double raw, const struct cc_startup *st) {
    double v = raw - st->floor_ms;
    return v > 0 ? v : 0;
}

bool cc_speed_should_scale_net(const double *ms, size_t n, const struct cc_startup *st) {
    /* Twice the floor a size needs to count: the candidate's phase times
     * the original again, and its fastest run may fall below a floor the
     * first phase only just passed. */
    double hi = 0, need = 2 * cc_speed_net_floor(st);
    if (need < 20) need = 20;
    /* A loaded host's jitter (hundreds of ms at n = 1) asked for seconds of
     * work per run: four x10 scales of a linear loop took a fresh-clone CI's
     * call past three minutes and its deadline. Past this much work a size
     * that still does not count is reported as not measurable. */
    if (need > SCALE_NEED_CAP_MS) need = SCALE_NEED_CAP_MS;
    for (size_t i = 0; i < n; i++)
        if (net_of(ms[i], st) > hi) hi = net_of(ms[i], st);
    return hi < need;
}

/* The growth exponent k this round showed between its smallest and
 * largest size, held to 1..3: jitter at small sizes reads as no growth,
 * and a cubic loop is the worst the x10 steps are meant for. */
static double round_growth(const int64_t *sizes, const double *ms, size_t n, double floor_ms) {
    double k = 1;
    if (n >= 2 && sizes[n - 1] > sizes[0] && ms[0] - floor_ms > 0 && ms[n - 1] - floor_ms > 0) {
        k = log((ms[n - 1] - floor_ms) / (ms[0] - floor_ms)) / log((double)sizes[n - 1] / (double)sizes[0]);
        k = k < 1 ? 1 : k > 3 ? 3 : k;
    }
    return k;
}

/* One size's run after x10: its fixed part (floor_ms) as is, the rest
 * grown by 10^k. */
static double grown_run_ms(double ms, double floor_ms, double k) {
    double fixed = ms < floor_ms ? ms : floor_ms;
    return fixed + pow(10, k) * (ms - fixed);
}

double cc_speed_next_round_ms(const int64_t *sizes, const double *ms, size_t n, double floor_ms, int runs) {
    double k = round_growth(sizes, ms, n, floor_ms), total = 0;
    for (size_t i = 0; i < n; i++) total += grown_run_ms(ms[i], floor_ms, k);
    return total * runs;
}

double cc_speed_next_run_ms(const int64_t *sizes, const double *ms, size_t n, double floor_ms) {
    double k = round_growth(sizes, ms, n, floor_ms), longest = 0;
    for (size_t i = 0; i < n; i++)
        if (grown_run_ms(ms[i], floor_ms, k) > longest) longest = grown_run_ms(ms[i], floor_ms, k);
    return longest;
}

static json_t *startup_json(const struct cc_startup *st) {
    return json_pack("{s:I, s:I, s:I, s:I, s:I}", "n", (json_int_t)1, "original_ms", (json_int_t)st->orig_ms,
                     "candidate_ms", (json_int_t)st->cand_ms, "floor_ms", (json_int_t)st->floor_ms,
                     "jitter_ms", (json_int_t)st->jitter_ms);
}

static char *net_method(const struct cc_startup *st) {
    char *m = NULL;
    if (asprintf(&m, "net of start-up: each size's fastest run less %lld ms, the faster program's fastest run "
                 "at n = 1 (start-up and fixed work both pay); a size counts when the original's net time is "
                 "at least %lld ms (10x the %lld ms jitter of the runs at n = 1), and the candidate's net time "
                 "is read as at least that jitter", (long long)st->floor_ms,
                 (long long)cc_speed_net_floor(st), (long long)st->jitter_ms) < 0)
        return NULL;
    return m;
}

json_t *cc_speedup_net(const int64_t *sizes, const double *before, const double *after, size_t n,
                       const struct cc_startup *st) {
    double *ratios = n ? malloc(n * sizeof *ratios) : NULL;
    json_t *per = json_array();
    size_t k = 0;
    for (size_t i = 0; ratios && i < n; i++) {
        double b = net_of(before[i], st), a = net_of(after[i], st), a_read = a < st->jitter_ms ? st->jitter_ms : a;
        if (b < cc_speed_net_floor(st)) continue;
        ratios[k++] = b / a_read;
        json_array_append_new(per, json_pack("{s:I, s:I, s:I, s:I, s:I, s:f}", "n", (json_int_t)sizes[i],
                                             "before_ms", (json_int_t)before[i], "after_ms", (json_int_t)after[i],
                                             "before_net_ms", (json_int_t)b, "after_net_ms", (json_int_t)a,
                                             "ratio", cc_round2(b / a_read)));
    }
    json_t *r;
    if (k == 0) {
        json_decref(per);
        char *why = NULL;
        if (asprintf(&why, "no size where the original's time above start-up reached %lld ms (10x the %lld ms "
                     "jitter of the runs at n = 1), even after auto-scaling: its work does not grow enough with "
                     "n to time", (long long)cc_speed_net_floor(st), (long long)st->jitter_ms) < 0)
            why = NULL;
        r = not_measurable(why ? why : "no size measurable above start-up");
        free(why);
    } else {
        json_t *slower = slower_sizes(per);
        r = json_pack("{s:f, s:b, s:o}", "ratio", cc_round2(median(ratios, k)), "measurable", 1, "per_size", per);
        if (json_array_size(slower)) json_object_set(r, "slower_at", slower);
        json_decref(slower);
    }
    char *m = net_method(st);
    json_object_set_new(r, "method", json_string(m ? m : "net of start-up"));
    json_object_set_new(r, "startup", startup_json(st));
    free(m);
    free(ratios);
    return r;
}

/* The original's own spread at a row: its median run over its fastest,
 * both net of the start-up the row subtracted (raw rows subtract none). */
static double row_spread(const json_t *row, double orig_min, double orig_mid) {
    json_t *net = json_object_get(row, "before_net_ms");
    double floor_ms = json_is_integer(net) ? orig_min - (double)json_integer_value(net) : 0;
    double lo = orig_min - floor_ms, mid = orig_mid - floor_ms;
    return lo >= 1 && mid > lo ? mid / lo : 1;
}

int cc_speed_separation(json_t *speedup, const int64_t *sizes, const struct cc_speed_runs *runs, size_t n,
                        int *counted, double *spread) {
    json_t *per = json_object_get(speedup, "per_size"), *row;
    size_t r, i = 0;
    int sep = 0;
    bool one = json_array_size(per) == 1;
    double spreads[16];
    size_t k = 0;
    *counted = 0;
    json_array_foreach(per, r, row) {
        json_int_t want = json_integer_value(json_object_get(row, "n"));
        while (i < n && sizes[i] != want) i++;
        if (i == n) break;
        double cand = one ? runs->cand_max[i] : runs->cand_mid[i];
        bool s = cand >= 0 && runs->orig_min[i] >= 0 && cand < runs->orig_min[i];
        double sp = row_spread(row, runs->orig_min[i], runs->orig_mid[i]);
        if (k < sizeof spreads / sizeof *spreads) spreads[k++] = sp;
        json_object_set_new(row, "original_median_ms", json_integer((json_int_t)runs->orig_mid[i]));
        json_object_set_new(row, "original_spread", json_real(cc_round2(sp)));
        json_object_set_new(row, "candidate_median_ms", json_integer((json_int_t)runs->cand_mid[i]));
        json_object_set_new(row, "candidate_slowest_ms", json_integer((json_int_t)runs->cand_max[i]));
        json_object_set_new(row, "separated", json_boolean(s));
        sep += s;
        (*counted)++;
        i++;
    }
    *spread = k ? median(spreads, k) : 1;
    return sep;
}

char *cc_speed_noise_refusal(const json_t *speedup, double spread) {
    char rb[40], sb[40], *r = NULL;
    double ratio = json_number_value(json_object_get(speedup, "ratio"));
    if (ratio > spread) return NULL;
    json_t *s = json_real(cc_round2(spread));
    if (asprintf(&r, "measured %sx, but the original's own runs vary by %sx (its median run over its fastest, net "
                 "of start-up; original_spread in per_size, the median across sizes): the speedup cannot be told "
                 "from noise on this host; equivalent but not measurably faster",
                 cc_number_text(json_object_get(speedup, "ratio"), rb), cc_number_text(s, sb)) < 0)
        r = NULL;
    json_decref(s);
    return r;
}

char *cc_speed_overlap_refusal(const json_t *speedup, int separated, int counted) {
    char rb[40], *r = NULL;
    if (counted == 0 || 2 * separated > counted) return NULL;
    if (asprintf(&r, "measured %sx, but the timings overlap: at %d of %d size(s) the candidate's %s run was not "
                 "faster than the original's fastest, so the speedup cannot be told from noise on this host; "
                 "equivalent but not measurably faster", cc_number_text(json_object_get(speedup, "ratio"), rb),
                 counted - separated, counted, counted == 1 ? "slowest" : "median") < 0)
        return NULL;
    return r;
}
