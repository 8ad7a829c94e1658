/* benchmark (TOOLS.md 3.5.2): run a program at growing N (the stdin-N
 * contract: N on the first line of stdin), fit the timings, estimate the
 * growth class.
 *
 * Every measurement is one sandboxed run in this worker, one after another
 * (never two timed runs at once), and its time is the run step's own
 * duration_ms as the sandbox measured it: no queueing, no compile step, no
 * sandbox set-up. Each run's CPU time is reported beside it. A progress
 * event marks each size as its measuring starts. The arithmetic is
 * bench_fit.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/utf8.h"
#include "workers/common/tool_api.h"
#include "workers/exec/bench_fit.h"
#include "workers/exec/execute.h"
#include "workers/exec/lang_refusal.h"
#include "workers/exec/languages.h"

#define DEFAULT_SIZES "100,1000,10000,100000"
#define DEFAULT_TIMEOUT_S 30
#define TIMEOUT_MAX_S 900       /* the tool's own response deadline */
#define RUNS_PER_SIZE 3
/* A size whose runs have taken this long is not repeated further: the
 * deadline is 900 s for the whole call, and long runs are the least noisy. */
#define REPEAT_BUDGET_MS 10000
/* The fastest size is re-run up to this many times in all, while its runs
 * have taken less than BASELINE_BUDGET_MS together (steady_baseline). */
#define BASELINE_RUNS 7
#define BASELINE_BUDGET_MS 2000
#define SCALE_STEPS_MAX 5
#define SCALE_LIMIT 100000000LL
#define SPREAD_MIN_MS 50
/* Growth is read only when the spread of the sizes' times is this many
 * times the run-to-run noise (docs/contract.md 3.5.2). */
#define NOISE_FACTOR 5
#define MAX_SIZES 64
#define TEXT_CHARS 200

struct bench {
    const char *language, *code;
    size_t code_len;
    int64_t timeout;
    cc_wctx *ctx;
    json_t *runs;        /* the size records of the current round (owned) */
    int progress;        /* sizes measured so far, over all rounds */
};

/* ---- arguments ---- */

/* "100, 200,,400": integers, blanks ignored. The count; -1 when an item is
 * not a 64-bit integer, -2 when there are more than cap. *negative says
 * whether one is below 0. */
static int parse_sizes(const char *s, int64_t *out, int cap, bool *negative) {
    int n = 0;
    *negative = false;
    while (*s) {
        while (*s == ' ' || *s == '\t') s++;
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) len--;
        if (len > 0) {
            char item[32], *stop;
            if (n >= cap) return -2;
            if (len >= sizeof item) return -1;
            memcpy(item, s, len);
            item[len] = '\0';
            errno = 0;
            long long v = strtoll(item, &stop, 10);
            if (errno || *stop || stop == item) return -1;
            if (v < 0) *negative = true;
            out[n++] = v;
        }
        if (!end) break;
        s = end + 1;
    }
    return n;
}

static int distinct_sizes(const int64_t *sizes, int n) {
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) seen = sizes[j] == sizes[i];
        distinct += !seen;
    }
    return distinct;
}

static json_t *read_args(json_t *args, struct bench *b, int64_t *sizes, int *nsizes) {
    json_t *code = json_object_get(args, "code"), *lang = json_object_get(args, "language");
    json_t *js = json_object_get(args, "sizes"), *jt = json_object_get(args, "timeout");
    if (!json_is_string(code)) return cc_err("validation", "code must be a string");
    if (lang && !json_is_null(lang) && !json_is_string(lang)) return cc_err("validation", "language must be a string");
    if (js && !json_is_null(js) && !json_is_string(js)) return cc_err("validation", "sizes must be comma-separated integers");
    b->code = json_string_value(code);
    b->code_len = json_string_length(code);
    b->language = json_is_string(lang) ? json_string_value(lang) : "python3";
    b->timeout = DEFAULT_TIMEOUT_S;
    if (jt && !json_is_null(jt)) {
        mpz_t z;
        mpz_init(z);
        int rc = cc_json_get_mpz(jt, z);
        if (rc == 0) b->timeout = mpz_fits_slong_p(z) ? mpz_get_si(z) : mpz_sgn(z) < 0 ? 0 : TIMEOUT_MAX_S + 1;
        mpz_clear(z);
        if (rc) return cc_err("validation", "timeout must be an integer");
    }
    if (b->timeout < 1 || b->timeout > TIMEOUT_MAX_S)
        return cc_err("validation", "timeout must be between 1 and %d seconds (the tool's response deadline)",
                      TIMEOUT_MAX_S);
    bool negative;
    *nsizes = parse_sizes(json_is_string(js) ? json_string_value(js) : DEFAULT_SIZES, sizes, MAX_SIZES, &negative);
    if (*nsizes == -2) return cc_err("validation", "at most %d sizes", MAX_SIZES);
    if (*nsizes < 0) return cc_err("validation", "sizes must be comma-separated integers");
    if (negative) return cc_err("validation", "sizes must be non-negative integers (each is the N a run reads)");
    if (*nsizes < 3) return cc_err("validation", "need at least 3 sizes for a meaningful fit");
    if (distinct_sizes(sizes, *nsizes) < 3)
        return cc_err("validation", "need at least 3 distinct sizes for a meaningful fit: a repeated size adds no point "
                      "to the curve (and equal sizes never spread their timings, so auto-scaling would grow them "
                      "until a run times out)");
    if (!cc_lang_find(b->language)) return cc_unknown_language(b->language);
    return NULL;
}

/* ---- one size ---- */

/* The first `chars` characters of a string field of r. */
static json_t *head_chars(const json_t *r, const char *key, size_t chars) {
    const char *s = json_string_value(json_object_get(r, key));
    if (!s) return json_string("");
    return json_stringn(s, cc_utf8_prefix(s, json_string_length(json_object_get(r, key)), chars));
}

static int cancel_tick(void *ud) { return cc_wctx_cancelled(ud) ? 1 : 0; }

static json_t *run_once(const struct bench *b, int64_t n) {
    char in[32];
    int len = snprintf(in, sizeof in, "%lld\n", (long long)n);
    struct cc_exec_hooks hooks = {.tick = cancel_tick, .ud = b->ctx};
    struct cc_exec_req q = {.language = b->language, .code = b->code, .code_len = b->code_len,
                            .stdin_data = in, .stdin_len = (size_t)len, .timeout = b->timeout,
                            .hooks = b->ctx ? &hooks : NULL};
    return cc_execute(&q);
}

/* The failure of 3.5.2 step 1, carrying the last run and the runs so far. */
static json_t *measure_failure(const struct bench *b, int64_t n, json_t *last) {
    json_t *r;
    if (json_is_true(json_object_get(last, "timed_out")))
        r = cc_err("timeout", "program timed out at n=%lld (%llds); no growth estimate is possible from a timeout",
                   (long long)n, (long long)b->timeout);
    else if (!json_object_get(last, "verdict")) /* refused before it ran: keep its own code */
        r = json_incref(last);
    else
        r = cc_err("validation", "program failed at n=%lld", (long long)n);
    if (r != last) json_object_set(r, "detail", last);
    json_object_set(r, "runs", b->runs);
    return r;
}

static bool deadline_near(const struct bench *b) {
    return b->ctx && cc_wctx_remaining_ms(b->ctx) < b->timeout * 1000 + 5000;
}

/* One progress event as each size starts: which N is being measured and
 * what the size before it took. Sent before the runs rather than after them
 * so that the last one does not arrive just ahead of the answer (a client
 * may drop a notification it sees after it has settled the request). */
static void progress(struct bench *b, int64_t n, int index, int count) {
    if (!b->ctx) return;
    char msg[200];
    int o = snprintf(msg, sizeof msg, "measuring n=%lld (size %d of %d)", (long long)n, index + 1, count);
    json_t *prev = json_array_get(b->runs, json_array_size(b->runs) - 1);
    if (prev && o > 0 && (size_t)o < sizeof msg)
        snprintf(msg + o, sizeof msg - (size_t)o, "; n=%lld took %lld ms",
                 (long long)json_integer_value(json_object_get(prev, "n")),
                 (long long)json_integer_value(json_object_get(prev, "duration_ms")));
    json_t *ev = json_pack("{s:i,s:s}", "progress", ++b->progress, "message", msg);
    if (ev) cc_wctx_event(b->ctx, "progress", ev);
    json_decref(ev);
}

/* Up to RUNS_PER_SIZE runs of size n; NULL with the size recorded, or the
 * failure result. */
static json_t *measure_size(struct bench *b, int64_t n) {
    json_t *walls = json_array(), *cpus = json_array(), *first = NULL, *fail = NULL;
    int64_t best = -1, spent = 0;
    for (int i = 0; i < RUNS_PER_SIZE && spent < REPEAT_BUDGET_MS; i++) {
        if (b->ctx && cc_wctx_cancelled(b->ctx)) {
            fail = cc_err("timeout", "benchmark cancelled at n=%lld", (long long)n);
            break;
        }
        if (deadline_near(b)) {
            fail = cc_err("timeout", "benchmark stopped at n=%lld: another %llds run would pass the tool's "
                          "response deadline; ask for fewer or smaller sizes", (long long)n, (long long)b->timeout);
            json_object_set(fail, "runs", b->runs);
            break;
        }
        json_t *r = run_once(b, n);
        if (!r || !json_is_true(json_object_get(r, "ok"))) {
            fail = r ? measure_failure(b, n, r) : cc_err("internal", "out of memory");
            json_decref(r);
            break;
        }
        json_t *d = json_object_get(r, "duration_ms");
        if (json_is_integer(d)) {
            int64_t ms = json_integer_value(d);
            json_array_append_new(walls, json_integer(ms));
            json_array_append(cpus, json_object_get(r, "cpu_ms") ? json_object_get(r, "cpu_ms") : json_null());
            if (best < 0 || ms < best) best = ms;
            spent += ms;
        }
        if (!first) first = r;
        else json_decref(r);
    }
    if (fail) {
        json_decref(walls), json_decref(cpus), json_decref(first);
        return fail;
    }
    json_t *rec = json_pack("{s:I,s:b,s:o,s:o,s:o,s:o,s:o}", "n", (json_int_t)n, "ok", best >= 0, "duration_ms",
                            best >= 0 ? json_integer(best) : json_null(), "all_runs_ms", walls, "all_runs_cpu_ms",
                            cpus, "stdout", head_chars(first, "stdout", TEXT_CHARS), "stderr",
                            head_chars(first, "stderr", TEXT_CHARS));
    json_decref(first);
    json_array_append_new(b->runs, rec);
    return NULL;
}

/* The record of the round's fastest size, or NULL. */
static json_t *fastest_record(const json_t *runs) {
    json_t *best = NULL, *rec;
    size_t i;
    json_array_foreach(runs, i, rec) {
        json_t *d = json_object_get(rec, "duration_ms");
        if (json_is_integer(d) && (!best || json_integer_value(d) <
                                              json_integer_value(json_object_get(best, "duration_ms"))))
            best = rec;
    }
    return best;
}

static int64_t sum_ms(const json_t *walls) {
    int64_t s = 0;
    size_t i;
    json_t *v;
    json_array_foreach(walls, i, v) s += json_integer_value(v);
    return s;
}

/* The fastest size's time is subtracted from every other size's, so it
 * moves the whole curve: for python3's sleep(n/1000) at sizes
 * 1,300,1000,3000 the fit reads O(n log n) once the three start-ups at
 * n = 1 are all 60 ms late (any other size can be 400 ms late). That size is also the cheapest, so it is run again at the
 * end of the round (load comes in bursts) until BASELINE_RUNS runs or
 * BASELINE_BUDGET_MS. A run that fails fails the call, as in
 * measure_size; a cancel or a near deadline only ends the extra runs. */
static json_t *steady_baseline(struct bench *b) {
    json_t *rec = fastest_record(b->runs);
    if (!rec) return NULL;
    json_t *walls = json_object_get(rec, "all_runs_ms"), *cpus = json_object_get(rec, "all_runs_cpu_ms");
    int64_t n = json_integer_value(json_object_get(rec, "n"));
    int64_t best = json_integer_value(json_object_get(rec, "duration_ms")), spent = sum_ms(walls);
    while (json_array_size(walls) < BASELINE_RUNS && spent < BASELINE_BUDGET_MS) {
        if ((b->ctx && cc_wctx_cancelled(b->ctx)) || deadline_near(b)) break;
        json_t *r = run_once(b, n);
        if (!r || !json_is_true(json_object_get(r, "ok"))) {
            json_t *fail = r ? measure_failure(b, n, r) : cc_err("internal", "out of memory");
            json_decref(r);
            return fail;
        }
        json_t *d = json_object_get(r, "duration_ms");
        if (json_is_integer(d)) {
            int64_t ms = json_integer_value(d);
            json_array_append_new(walls, json_integer(ms));
            json_array_append(cpus, json_object_get(r, "cpu_ms") ? json_object_get(r, "cpu_ms") : json_null());
            if (ms < best) best = ms;
            spent += ms;
        } else {
            spent = BASELINE_BUDGET_MS; /* no time to read: nothing more to learn */
        }
        json_decref(r);
    }
    json_object_set_new(rec, "duration_ms", json_integer(best));
    return NULL;
}

/* One round over every size; NULL, or the failure result. */
static json_t *measure_all(struct bench *b, const int64_t *sizes, int count) {
    json_decref(b->runs);
    b->runs = json_array();
    for (int i = 0; i < count; i++) {
        progress(b, sizes[i], i, count);
        json_t *fail = measure_size(b, sizes[i]);
        if (fail) return fail;
    }
    return steady_baseline(b);
}

/* max - min of the measured durations (0 with fewer than two). */
static int64_t spread(const json_t *runs) {
    int64_t lo = -1, hi = -1;
    size_t i;
    json_t *rec;
    json_array_foreach(runs, i, rec) {
        json_t *d = json_object_get(rec, "duration_ms");
        if (!json_is_integer(d)) continue;
        int64_t v = json_integer_value(d);
        if (lo < 0 || v < lo) lo = v;
        if (hi < 0 || v > hi) hi = v;
    }
    return lo < 0 ? 0 : hi - lo;
}

static int64_t largest(const int64_t *sizes, int count) {
    int64_t m = sizes[0];
    for (int i = 1; i < count; i++)
        if (sizes[i] > m) m = sizes[i];
    return m;
}

/* Too little growth to read a class from: under SPREAD_MIN_MS (the
 * spec's rule), or within NOISE_FACTOR times the run-to-run noise. */
static bool too_flat(const json_t *runs) {
    int64_t s = spread(runs);
    return s < SPREAD_MIN_MS || s < NOISE_FACTOR * cc_bench_run_noise(runs);
}

/* note += sentence (a new sentence after any the estimate wrote). */
static void add_note(json_t *r, const char *sentence) {
    const char *old = json_string_value(json_object_get(r, "note"));
    json_object_set_new(r, "note", old ? json_sprintf("%s. %s", old, sentence) : json_string(sentence));
}

/* A class read from growth within the noise would be a guess
 * (python's O(n^2) at n = 100..800 under load read O(n): the 98 ms spread
 * was start-up jitter of up to 56 ms within one size). The estimate says
 * so; the scores stay for what they are worth. */
static void mark_noise(json_t *r, const json_t *runs) {
    int64_t noise = cc_bench_run_noise(runs), s = spread(runs);
    json_object_set_new(r, "noise_ms", json_integer(noise));
    if (s >= NOISE_FACTOR * noise) return;
    json_object_set_new(r, "estimate", json_string("inconclusive (growth within run-to-run noise)"));
    char buf[400];
    snprintf(buf, sizeof buf, "the fastest and slowest sizes differ by %lld ms, less than %d times the run-to-run "
             "noise (%lld ms: the largest gap between one size's two fastest runs, or a larger n measured "
             "faster), so no class is read from them; larger sizes or a quieter host would decide",
             (long long)s, NOISE_FACTOR, (long long)noise);
    add_note(r, buf);
}

/* Steps 3-7 over the sizes that have a duration. */
static json_t *conclude(struct bench *b, bool scaled) {
    size_t total = json_array_size(b->runs), k = 0;
    int64_t n[MAX_SIZES];
    double t[MAX_SIZES];
    for (size_t i = 0; i < total && k < MAX_SIZES; i++) {
        json_t *rec = json_array_get(b->runs, i), *d = json_object_get(rec, "duration_ms");
        if (!json_is_integer(d)) continue;
        n[k] = json_integer_value(json_object_get(rec, "n"));
        t[k++] = (double)json_integer_value(d);
    }
    if (k < 3) {
        json_t *r = cc_err("validation", "too few successful runs (timeouts or failures)");
        json_object_set(r, "runs", b->runs);
        return r;
    }
    bool floor;
    json_t *est = cc_bench_estimate(n, t, k, &floor);
    if (!est) return cc_err("internal", "out of memory");
    json_t *r = json_pack("{s:b,s:s,s:s,s:b}", "ok", 1, "language", b->language, "method", "empirical",
                          "auto_scaled", scaled);
    json_object_update(r, est);
    json_decref(est);
    if (!floor) mark_noise(r, b->runs);
    json_object_set(r, "runs", b->runs);
    return r;
}

CC_TOOL(benchmark) {
    struct bench b = {.ctx = ctx};
    int64_t sizes[MAX_SIZES];
    int count = 0;
    json_t *r = read_args(args, &b, sizes, &count);
    if (r) return r;
    b.language = cc_lang_find(b.language)->name;
    r = measure_all(&b, sizes, count);
    bool scaled = false;
    char stopped[400] = "";
    for (int step = 0; !r && step < SCALE_STEPS_MAX && too_flat(b.runs) && largest(sizes, count) < SCALE_LIMIT;
         step++) {
        json_t *kept = json_incref(b.runs);
        for (int i = 0; i < count; i++) sizes[i] *= 10;
        r = measure_all(&b, sizes, count);
        if (r && !(ctx && cc_wctx_cancelled(ctx))) {
            /* sizes the caller never asked for failed (a run out of time or
             * memory ten times larger): the last round that ran stands */
            snprintf(stopped, sizeof stopped, "auto-scaling stopped at sizes x10 (%s); the estimate rests on "
                     "the sizes before", json_string_value(json_object_get(r, "error")));
            json_decref(r);
            r = NULL;
            json_decref(b.runs);
            b.runs = kept;
            break;
        }
        json_decref(kept);
        if (!r) scaled = true;
    }
    if (!r) r = conclude(&b, scaled);
    if (stopped[0] && json_is_true(json_object_get(r, "ok"))) add_note(r, stopped);
    json_decref(b.runs);
    return r;
}
