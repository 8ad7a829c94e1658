/* verify_optimization (TOOLS.md 3.4.5): accept a candidate only if it is
 * equivalent to the original (gate 1: verify_translation's comparison,
 * runs in parallel) and measurably faster (gate 2: timed runs, one at a
 * time, never beside another run of this call). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/mcp/local_tools.h"
#include "supervisor/sessions/sessions.h"
#include "supervisor/verify/rules.h"
#include "supervisor/verify/translation.h"
#include "workers/common/tool_api.h"

#define RUN_TIMEOUT_S 30
#define SIZES_MAX 8
#define SIZE_MAX_N 1000000000000LL   /* 10^12: four x10 auto-scales stay within 10^16 */
#define ATTEMPTS 3
#define PROBE_RUNS 5               /* at n = 1: the median of five shrugs off two slow runs */
#define SCALES_MAX 4
#define RUN_LOAD_MARGIN 3           /* a scaled run's estimate may be this much too fast under load */
#define RUNS_PER_SIZE (2 * ATTEMPTS) /* the original's: three alone, three between the candidate's */

static const int64_t default_sizes[] = {2000, 5000, 10000, 20000};

struct call {
    json_t *args;
    const char *lang;
    double min_speedup;
    char min_text[40];
    struct cc_translation t;
    json_t *verification;         /* gate 1's result */
    int64_t *sizes;
    size_t nsizes;
    int scales;
    double unscaled_need_ms;      /* > 0: a x10 round was due but would not fit the time left */
    double unscaled_left_ms;
    double unscaled_run_ms;       /* > 0: a x10 round was due but its longest run would near RUN_TIMEOUT_S */
    /* The timing cursor: which program, size and attempt runs now. */
    int side;                     /* 0 original, 1 candidate */
    size_t size_i;
    int attempt;
    int64_t run_timeout;          /* of the run in flight */
    double *best[2];              /* per size: minimum duration_ms, -1 none yet */
    double *worst[2];             /* per size: maximum duration_ms, -1 none yet */
    double *runs[2];              /* per size: RUNS_PER_SIZE slots of duration_ms */
    int *nruns[2];                /* per size: the slots filled */
    char **out[2];                /* per size: the first run's normalised stdout */
    bool *varied[2];              /* per side and size: that program's runs printed differently */
    json_t *failure;              /* a timing run that timed out or failed */
    bool timing;                  /* gate 2 started */
    /* The start-up probe: each program PROBE_RUNS times at n = 1, before timing. */
    bool probing;
    double probe_ms[2][PROBE_RUNS];
    int probe_n[2];               /* runs recorded per program */
    char *probe_error;            /* why a run at n = 1 failed (then raw durations) */
    struct cc_startup startup;
};

static void run_next(struct call *c, struct cc_fanout *fo);

/* Which program the run at the cursor times. Gate 2 times the original
 * alone first (auto-scaling reads it), then the candidate with the
 * original again between its runs, alternating: a machine whose load
 * changes between the two phases (other calls, other tenants) slowed one
 * program only, and the same program twice read as 1.28x "verified
 * faster". Interleaved, both see the same load; the original's fastest of
 * six runs against the candidate's of three leans, if anything, against
 * the candidate. */
static int run_side(const struct call *c) {
    if (c->probing || c->side == 0) return c->side;
    return c->attempt % 2 == 0 ? 1 : 0;
}

static int attempts_per_size(const struct call *c) {
    if (c->probing) return PROBE_RUNS;
    return c->side == 1 ? 2 * ATTEMPTS : ATTEMPTS;
}

/* "program timed out at n=..." / "program failed at n=...": the failure. */
static json_t *timing_failure(const struct call *c, const json_t *res, int64_t n, int64_t timeout_s) {
    const char *which = run_side(c) == 0 ? "baseline" : "candidate";
    if (json_is_true(json_object_get(res, "timed_out")))
        return cc_err("timeout", "%s measurement failed: program timed out at n=%lld (%llds)", which,
                      (long long)n, (long long)timeout_s);
    const char *v = json_string_value(json_object_get(res, "verdict"));
    const char *why = json_string_value(json_object_get(res, v ? "stderr" : "error"));
    char *head = cc_verify_prefix(why ? why : "", 200);
    json_t *code = json_object_get(res, "exit_code");
    char exit_text[48] = "";
    if (json_is_integer(code))
        snprintf(exit_text, sizeof exit_text, ", exit code %lld", (long long)json_integer_value(code));
    json_t *e = cc_err("validation", "%s measurement failed: program failed at n=%lld (%s%s): %s", which,
                       (long long)n, v ? v : "not run", exit_text, head ? head : "");
    free(head);
    return e;
}

/* A timed run's output is compared too: a candidate that agrees on the
 * small test inputs and prints something else at the timing sizes (an
 * int overflow, a shortcut above some n) is not equivalent. */
static void keep_output(struct call *c, const json_t *res) {
    int side = run_side(c);
    size_t i = c->size_i;
    char *n = cc_res_stdout_norm(res, NULL);
    char **first = &c->out[side][i];
    if (!n) return;
    if (!*first) {
        *first = n;
        return;
    }
    if (strcmp(*first, n) == 0) {
        free(n);
        return;
    }
    c->varied[side][i] = true;
    /* A candidate whose runs disagree among themselves, beside an original
     * whose output (timed alone first) is known: keep the run that differs
     * from it. A candidate printing a wrong answer one run in three was
     * "verified faster" when its first run at each size was right. */
    if (side == 1 && c->out[0][i] && strcmp(*first, c->out[0][i]) == 0) {
        free(*first);
        *first = n;
    } else {
        free(n);
    }
}

/* The first timing size where the original's runs printed differently
 * from each other, or -1: no equivalence can be claimed with a program
 * seen to give two outputs on one input (red team 5). */
static ssize_t original_unstable(const struct call *c) {
    for (size_t i = 0; i < c->nsizes; i++)
        if (c->varied[0][i]) return (ssize_t)i;
    return -1;
}

/* The first timing size where a candidate's run printed other than the
 * original, or -1. An original that printed differently from run to run
 * is no oracle there, and that size is not compared. */
static ssize_t timing_mismatch(const struct call *c) {
    for (size_t i = 0; i < c->nsizes; i++)
        if (!c->varied[0][i] && c->out[0][i] && c->out[1][i] && strcmp(c->out[0][i], c->out[1][i]) != 0)
            return (ssize_t)i;
    return -1;
}

/* A run at n = 1 of the start-up probe: its duration, never its output
 * (gate 1 compared outputs); a failure leaves the raw durations. */
static void on_probe(struct cc_fanout *fo, struct call *c, json_t *res) {
    json_t *d = json_object_get(res, "duration_ms");
    cc_prog_count_compile(&c->t.prog[c->side], res);
    if (!cc_res_ok(res) || !json_is_integer(d)) {
        if (!c->probe_error) {
            json_t *f = timing_failure(c, res, 1, c->run_timeout);
            c->probe_error = strdup(json_string_value(json_object_get(f, "error")) ?: "failed");
            json_decref(f);
        }
    } else {
        c->probe_ms[c->side][c->probe_n[c->side]++] = (double)json_integer_value(d);
    }
    json_decref(res);
    if (++c->attempt == PROBE_RUNS) c->attempt = 0, c->side++;
    if (c->side < 2 && !c->probe_error) run_next(c, fo);
}

static double fastest(const double *ms, int n) {
    double lo = ms[0];
    for (int i = 1; i < n; i++)
        if (ms[i] < lo) lo = ms[i];
    return lo;
}

/* What the probe measured; measured only if every run succeeded. */
static void settle_startup(struct call *c) {
    struct cc_startup *st = &c->startup;
    c->probing = false;
    st->measured = !c->probe_error && c->probe_n[0] == PROBE_RUNS && c->probe_n[1] == PROBE_RUNS;
    if (!st->measured) return;
    st->orig_ms = fastest(c->probe_ms[0], PROBE_RUNS);
    st->cand_ms = fastest(c->probe_ms[1], PROBE_RUNS);
    st->floor_ms = st->orig_ms < st->cand_ms ? st->orig_ms : st->cand_ms;
    double j0 = cc_speed_jitter(c->probe_ms[0], PROBE_RUNS), j1 = cc_speed_jitter(c->probe_ms[1], PROBE_RUNS);
    st->jitter_ms = j0 > j1 ? j0 : j1;
}

static void on_timed(struct cc_fanout *fo, void *ud, json_t *res) {
    struct call *c = ud;
    if (c->probing) {
        on_probe(fo, c, res);
        return;
    }
    int64_t n = c->sizes[c->size_i];
    json_t *d = json_object_get(res, "duration_ms");
    cc_prog_count_compile(&c->t.prog[run_side(c)], res);
    if (!cc_res_ok(res) || !json_is_integer(d)) {
        c->failure = timing_failure(c, res, n, c->run_timeout);
        json_decref(res);
        return; /* nothing more is queued: the idle function answers */
    }
    double ms = (double)json_integer_value(d), *b = &c->best[run_side(c)][c->size_i];
    double *w = &c->worst[run_side(c)][c->size_i];
    if (*b < 0 || ms < *b) *b = ms;
    if (*w < 0 || ms > *w) *w = ms;
    int *k = &c->nruns[run_side(c)][c->size_i];
    if (*k < RUNS_PER_SIZE) c->runs[run_side(c)][c->size_i * RUNS_PER_SIZE + (size_t)(*k)++] = ms;
    keep_output(c, res);
    json_decref(res);
    if (++c->attempt == attempts_per_size(c)) {
        c->attempt = 0;
        c->size_i++;
    }
    if (c->size_i < c->nsizes) run_next(c, fo);
}

/* Queue the run at the cursor (one at a time: the fan-out's limit is 1). */
static void run_next(struct call *c, struct cc_fanout *fo) {
    struct cc_prog *p = &c->t.prog[run_side(c)];
    char in[32], label[96];
    long long n = c->probing ? 1 : (long long)c->sizes[c->size_i];
    int len = snprintf(in, sizeof in, "%lld\n", n);
    snprintf(label, sizeof label, "%s %s at n=%lld, run %d of %d", c->probing ? "start-up of" : "timing",
             run_side(c) ? "candidate" : "original", n, c->attempt + 1, attempts_per_size(c));
    /* A run never outlasts the call's response deadline. */
    int64_t left_s = (cc_fanout_remaining_ms(fo) - 2000) / 1000;
    c->run_timeout = left_s < RUN_TIMEOUT_S ? (left_s < 1 ? 1 : left_s) : RUN_TIMEOUT_S;
    cc_fanout_plan(fo, 1);
    cc_prog_add_run(fo, p, in, (size_t)len, c->run_timeout, true, label, on_timed, c);
}

/* Start timing program side over the current sizes. */
static void start_side(struct call *c, struct cc_fanout *fo, int side) {
    c->side = side;
    c->size_i = 0;
    c->attempt = 0;
    for (size_t i = 0; i < c->nsizes; i++) {
        c->best[side][i] = -1;
        c->worst[side][i] = -1;
        c->nruns[side][i] = 0;
        free(c->out[side][i]);
        c->out[side][i] = NULL;
        c->varied[1][i] = false;
        if (side == 0) c->varied[0][i] = false;
    }
    run_next(c, fo);
}

/* Gate 2 begins with the start-up probe: each program at n = 1. */
static void start_probe(struct call *c, struct cc_fanout *fo) {
    c->probing = true;
    c->side = 0;
    c->attempt = 0;
    c->probe_n[0] = c->probe_n[1] = 0;
    run_next(c, fo);
}

/* The raw durations' speedup (the spec's) when start-up was not measured,
 * saying why. */
static json_t *raw_speedup(const struct call *c) {
    json_t *s = cc_speedup(c->sizes, c->best[0], c->nsizes, c->best[1], c->nsizes);
    char *m = NULL;
    if (asprintf(&m, "raw durations: start-up could not be measured (%s), so it is not subtracted",
                 c->probe_error ? c->probe_error : "no run at n = 1") < 0)
        m = NULL;
    json_object_set_new(s, "method", json_string(m ? m : "raw durations"));
    free(m);
    return s;
}

static json_t *answer_base(struct call *c, bool accepted, const char *reason) {
    return json_pack("{s:b, s:b, s:s, s:O, s:s}", "ok", 1, "accepted", accepted, "reason", reason,
                     "verification", c->verification, "language", c->lang);
}

/* The largest n whose outputs agreed: a matched gate-1 input that is one
 * integer, or a compared timing size. */
static long long largest_n(const struct call *c, size_t sizes_compared) {
    long long m = 0;
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(c->verification, "cases"), i, k) {
        const char *in = json_string_value(json_object_get(k, "input"));
        char *end = NULL;
        long long n = in ? strtoll(in, &end, 10) : 0;
        if (json_is_true(json_object_get(k, "match")) && end && end != in && !end[strspn(end, " \t\r\n")] &&
            n > m)
            m = n;
    }
    for (i = 0; i < c->nsizes && i < sizes_compared; i++)
        if ((long long)c->sizes[i] > m) m = (long long)c->sizes[i];
    return m;
}

/* What the equivalence rests on (red team 5): the inputs gate 1 compared
 * (how many were sizes the tool added) and the timing sizes whose outputs
 * were compared. Samples, never a proof: a candidate wrong at one rare n
 * (a table entry) or only past the largest n compared (an overflow, a
 * shortcut above a threshold) passes them; the largest n is said, and how
 * to reach past it (red team 6). */
static json_t *equivalence(const struct call *c, size_t sizes_compared) {
    const json_t *v = c->verification, *e = json_object_get(v, "edge_inputs");
    json_int_t added = json_integer_value(json_object_get(e, "added"));
    json_t *sizes = json_array();
    for (size_t i = 0; i < c->nsizes && i < sizes_compared; i++) json_array_append_new(sizes, json_integer(c->sizes[i]));
    long long top = largest_n(c, sizes_compared);
    char *beyond = NULL;
    if (asprintf(&beyond, "no n above %lld was run: a candidate that differs only past it (an overflow, a shortcut "
                 "or table that holds up to some n) would pass. To check further, pass larger n in test_inputs "
                 "(each compared in a run of up to 30 s) or in sizes (timed, and their outputs compared; up to "
                 "10^12)", top) < 0)
        beyond = NULL;
    json_t *j = json_pack("{s:s, s:I, s:I, s:I, s:o, s:I, s:s, s:s}", "method", "sampled", "inputs_compared",
                     json_integer_value(json_object_get(v, "total")), "inputs_matched",
                     json_integer_value(json_object_get(v, "matched")), "sizes_added", added, "timing_sizes_compared",
                     sizes, "largest_n_compared", (json_int_t)top, "beyond_largest_n",
                     beyond ? beyond : "no n above largest_n_compared was run", "note",
                     "a sampled check, not a proof: the outputs agreed on these inputs (the given ones, then small "
                     "sizes where closed forms and shortcuts break: 0, 1, primes, powers of two and their "
                     "neighbours, perfect squares, odd n; verification.cases marks them edge) and at these timing "
                     "sizes; an n outside them (a rare value, a size past the largest timed, values near overflow "
                     "that were not reached) was never run. Negative n is compared only where test_inputs has it "
                     "(-1 is among the defaults)");
    free(beyond);
    return j;
}

/* Accepted on the median although some sizes were slower: said beside the
 * verdict, and most strongly when the largest size is one of them. */
static json_t *slower_caution(const json_t *slower, int64_t largest) {
    char list[256] = "", *text = NULL;
    size_t i, at = 0;
    bool at_largest = false;
    json_t *n;
    json_array_foreach(slower, i, n) {
        json_int_t v = json_integer_value(n);
        at_largest |= v == largest;
        int w = snprintf(list + at, sizeof list - at, "%s%lld", i ? ", " : "", (long long)v);
        if (w < 0 || (size_t)w >= sizeof list - at) break;
        at += (size_t)w;
    }
    if (asprintf(&text, "the candidate was slower at n = %s; accepted on the median ratio across sizes%s", list,
                 at_largest ? ", but the largest size is one of them: the speedup may not hold as n grows" : "") < 0)
        return json_string("the candidate was slower at some sizes; accepted on the median ratio");
    json_t *j = json_string(text);
    free(text);
    return j;
}

/* Why auto-scaling stopped short of its floor, or NULL. New ref. */
static json_t *unscaled_note(const struct call *c) {
    char *note = NULL;
    int rc = -1;
    if (c->unscaled_run_ms > 0)
        rc = asprintf(&note, "auto-scaling stopped at these sizes: the next x10 round's longest run would take "
                      "about %.0f s at its fastest, and a timed run may take %d s (a loaded host runs up to "
                      "%dx slower than the estimate)", c->unscaled_run_ms / 1000, RUN_TIMEOUT_S, RUN_LOAD_MARGIN);
    else if (c->unscaled_need_ms > 0)
        rc = asprintf(&note, "auto-scaling stopped at these sizes: the next x10 round would take about %.0f s and "
                      "%.0f s of the call's deadline were left", c->unscaled_need_ms / 1000,
                      c->unscaled_left_ms / 1000);
    if (rc < 0) return NULL;
    json_t *j = json_string(note);
    free(note);
    return j;
}

static json_t *decide(struct call *c, struct cc_fanout *fo) {
    json_t *speedup = c->startup.measured
                          ? cc_speedup_net(c->sizes, c->best[0], c->best[1], c->nsizes, &c->startup)
                          : raw_speedup(c);
    bool accepted;
    char *reason = cc_speed_decision(speedup, c->min_speedup, c->min_text, &accepted);
    /* Per size, each program's median run: the candidate's of three, the
     * original's of six (its spread above its fastest is the noise a
     * speedup must clear). */
    double *mid[2] = {calloc(c->nsizes + 1, sizeof(double)), calloc(c->nsizes + 1, sizeof(double))};
    for (int side = 0; side < 2; side++)
        for (size_t i = 0; mid[side] && i < c->nsizes; i++)
            mid[side][i] = cc_speed_median_of(&c->runs[side][i * RUNS_PER_SIZE], (size_t)c->nruns[side][i]);
    const struct cc_speed_runs runs = {c->best[0], mid[0], mid[1], c->worst[1]};
    int counted = 0;
    double spread = 1;
    int sep = 0;
    if (mid[0] && mid[1]) sep = cc_speed_separation(speedup, c->sizes, &runs, c->nsizes, &counted, &spread);
    free(mid[0]);
    free(mid[1]);
    char *overlap = accepted ? cc_speed_overlap_refusal(speedup, sep, counted) : NULL;
    if (accepted && !overlap)
        overlap = cc_speed_noise_refusal(speedup, spread);
    if (overlap) {
        free(reason);
        reason = overlap;
        accepted = false;
    }
    json_t *r = answer_base(c, accepted, reason ? reason : "");
    json_object_set_new(r, "equivalence", equivalence(c, c->nsizes));
    json_object_set(r, "speedup", speedup);
    json_t *sizes = json_array();
    for (size_t i = 0; i < c->nsizes; i++) json_array_append_new(sizes, json_integer(c->sizes[i]));
    json_object_set_new(r, "sizes", sizes); /* the list timing settled on (after auto-scaling) */
    json_t *note = unscaled_note(c);
    if (note) json_object_set_new(r, "note", note);
    json_t *m = json_object_get(c->args, "min_speedup");
    json_object_set_new(r, "min_speedup", json_is_number(m) ? json_incref(m) : json_real(1.15));
    double ratio = json_number_value(json_object_get(speedup, "ratio"));
    json_t *slower = json_object_get(speedup, "slower_at");
    if (accepted && slower) json_object_set_new(r, "caution", slower_caution(slower, c->sizes[c->nsizes - 1]));
    if (accepted && ratio > 1) {
        char rb[40], *basis = NULL;
        const json_t *v = c->verification;
        if (asprintf(&basis, "cross-checked: original and candidate independently agreed on %lld/%lld test "
                     "input(s) under %s execution (sampled: no n above %lld compared); speed measured at %sx "
                     "(median) across %zu size(s)",
                     (long long)json_integer_value(json_object_get(v, "matched")),
                     (long long)json_integer_value(json_object_get(v, "total")), c->lang, largest_n(c, c->nsizes),
                     cc_float_repr(ratio, rb), json_array_size(json_object_get(speedup, "per_size"))) < 0)
            basis = NULL;
        cc_verify_grade(r, true, basis ? basis : "cross-checked");
        free(basis);
    } else {
        cc_verify_grade(r, false, reason);
    }
    const char *sides[] = {"original", "candidate"};
    json_object_set_new(r, "execution", cc_verify_execution(fo, cc_matrix_compiles(&c->t.mx, sides)));
    json_decref(speedup);
    free(reason);
    return r;
}

/* Gate 2 found the outputs differ at sizes[i]: gate 1's verdict, with
 * that size as the input the candidate got wrong. */
static json_t *not_equivalent_at(const struct call *c, size_t i) {
    json_t *r = answer_base((struct call *)c, false, "not equivalent");
    char *a = cc_verify_prefix(c->out[0][i], 200), *b = cc_verify_prefix(c->out[1][i], 200);
    char *detail = NULL;
    if (asprintf(&detail, "the candidate agreed on the test inputs but not at the timing size n=%lld%s; a faster "
                 "wrong answer is not an optimisation", (long long)c->sizes[i],
                 c->varied[1][i] ? " (its runs at that size printed different outputs: it is not deterministic)"
                                 : "") < 0)
        detail = NULL;
    json_object_set_new(r, "detail", json_string(detail ? detail : "not equivalent at a timing size"));
    json_object_set_new(r, "timing_mismatch",
                        json_pack("{s:I, s:o, s:o}", "n", (json_int_t)c->sizes[i], "original",
                                  cc_verify_text_json(a ? a : ""), "candidate", cc_verify_text_json(b ? b : "")));
    cc_verify_grade(r, false, "not equivalent");
    free(a), free(b), free(detail);
    return r;
}

/* The original printed differently on runs at sizes[i]: not accepted. */
static json_t *original_nondeterministic_at(const struct call *c, size_t i) {
    json_t *r = answer_base((struct call *)c, false, "not equivalent");
    char *detail = NULL;
    if (asprintf(&detail, "the original printed different outputs on two runs at the timing size n=%lld: it is not "
                 "deterministic there, so no candidate can be shown to reproduce it", (long long)c->sizes[i]) < 0)
        detail = NULL;
    json_object_set_new(r, "detail", json_string(detail ? detail : "the original is not deterministic"));
    json_object_set_new(r, "nondeterministic", json_true());
    cc_verify_grade(r, false, "not equivalent");
    free(detail);
    return r;
}

/* A x10 round costs ten times this one or more, and the call's deadline
 * bounds it: under load a round of a linear loop scaled to n = 4*10^7
 * left the candidate 17 s, it timed out, and the call answered only
 * "measurement failed" for sizes the caller never asked for. Each run is
 * bounded too: a fresh-clone CI scaled a python loop to n = 2*10^8, whose
 * estimated 20 s run took past the 30 s a timed run may take, and the
 * call failed the same way. A round that would not fit either bound is
 * not started; the sizes measured stand, and a note says why they were
 * not scaled. */
static bool next_round_fits(struct call *c, struct cc_fanout *fo) {
    double floor_ms = c->startup.measured ? c->startup.floor_ms : 0;
    double run = cc_speed_next_run_ms(c->sizes, c->best[0], c->nsizes, floor_ms);
    if (run * RUN_LOAD_MARGIN > RUN_TIMEOUT_S * 1000.0) {
        c->unscaled_run_ms = run;
        return false;
    }
    double need = cc_speed_next_round_ms(c->sizes, c->best[0], c->nsizes, floor_ms, 3 * ATTEMPTS);
    double left = (double)cc_fanout_remaining_ms(fo) - 2000;
    if (need <= left) return true;
    c->unscaled_need_ms = need;
    c->unscaled_left_ms = left > 0 ? left : 0;
    return false;
}

static void idle(struct cc_fanout *fo, void *ud) {
    struct call *c = ud;
    if (!c->verification) {
        json_t *v = cc_translation_step(&c->t, fo);
        if (!v) return; /* the re-runs */
        c->verification = v;
        if (!json_is_true(json_object_get(v, "passed"))) {
            json_t *r = answer_base(c, false, "not equivalent");
            json_object_set_new(r, "detail", json_string("the candidate does not reproduce the original's "
                                                         "output; speed was not measured, because a faster "
                                                         "wrong answer is not an optimisation"));
            cc_verify_grade(r, false, "not equivalent");
            cc_fanout_answer(fo, r);
            return;
        }
        cc_fanout_set_limit(fo, 1); /* gate 2: timed runs, one at a time */
        start_probe(c, fo);
        return;
    }
    if (c->probing) {
        settle_startup(c);
        start_side(c, fo, 0);
        return;
    }
    if (c->failure) {
        json_t *r = c->failure;
        c->failure = NULL;
        json_object_set(r, "verification", c->verification);
        json_object_set_new(r, "language", json_string(c->lang));
        cc_verify_grade(r, false, json_string_value(json_object_get(r, "error")));
        cc_fanout_answer(fo, r);
        return;
    }
    bool scale = c->startup.measured ? cc_speed_should_scale_net(c->best[0], c->nsizes, &c->startup)
                                     : cc_speed_should_scale(c->best[0], c->nsizes);
    if (c->side == 0 && c->scales < SCALES_MAX && scale && next_round_fits(c, fo)) {
        c->scales++;
        for (size_t i = 0; i < c->nsizes; i++) c->sizes[i] *= 10;
        start_side(c, fo, 0);
        return;
    }
    if (c->side == 0) {
        start_side(c, fo, 1);
        return;
    }
    ssize_t unstable = original_unstable(c), bad = timing_mismatch(c);
    cc_fanout_answer(fo, unstable >= 0 ? original_nondeterministic_at(c, (size_t)unstable)
                         : bad < 0     ? decide(c, fo)
                                       : not_equivalent_at(c, (size_t)bad));
}

static void destroy(void *ud) {
    struct call *c = ud;
    cc_translation_free(&c->t);
    json_decref(c->verification);
    json_decref(c->failure);
    free(c->probe_error);
    free(c->sizes);
    for (int side = 0; side < 2; side++) {
        free(c->best[side]);
        free(c->worst[side]);
        free(c->runs[side]);
        free(c->nruns[side]);
        for (size_t i = 0; c->out[side] && i < c->nsizes; i++) free(c->out[side][i]);
        free(c->out[side]);
        free(c->varied[side]);
    }
    json_decref(c->args);
    free(c);
}

/* One size as TOOLS.md 0.3's leniency lets it through the input schema
 * (items: integer): a JSON integer, an integral real (100.0) or a decimal
 * digit string ("2000"); 0 for anything else, which is then refused. */
static json_int_t size_value(const json_t *e) {
    if (json_is_integer(e)) return json_integer_value(e);
    double d = json_is_real(e) ? json_real_value(e) : 0;
    if (d >= 1 && d <= (double)SIZE_MAX_N && d == (double)(json_int_t)d) return (json_int_t)d;
    const char *t = json_string_value(e);
    if (!t || !*t || strspn(t, "0123456789") != strlen(t) || strlen(t) > 13) return 0;
    return (json_int_t)strtoll(t, NULL, 10);
}

/* sizes: null/[] -> the defaults; else 1..8 integers in [1, 10^12]. */
static json_t *read_sizes(struct call *c, json_t *v) {
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (v && !json_is_null(v) && !json_is_array(v))
        return cc_verify_invalid(NULL, "sizes must be an array of integers (the N each timing run reads) or null");
    if (n > SIZES_MAX)
        return cc_verify_invalid("time at most 8 sizes, e.g. [200000, 400000, 800000, 1600000]",
                                 "sizes has %zu entries; at most %d fit the 180 s deadline (each size costs "
                                 "up to six timed runs of up to 30 s, made one at a time)", n, SIZES_MAX);
    c->nsizes = n ? n : sizeof default_sizes / sizeof *default_sizes;
    c->sizes = calloc(c->nsizes, sizeof *c->sizes);
    c->best[0] = calloc(c->nsizes, sizeof(double));
    c->best[1] = calloc(c->nsizes, sizeof(double));
    c->worst[0] = calloc(c->nsizes, sizeof(double));
    c->worst[1] = calloc(c->nsizes, sizeof(double));
    for (int side = 0; side < 2; side++) {
        c->runs[side] = calloc(c->nsizes * RUNS_PER_SIZE, sizeof(double));
        c->nruns[side] = calloc(c->nsizes, sizeof(int));
    }
    c->out[0] = calloc(c->nsizes, sizeof(char *));
    c->out[1] = calloc(c->nsizes, sizeof(char *));
    c->varied[0] = calloc(c->nsizes, sizeof(bool));
    c->varied[1] = calloc(c->nsizes, sizeof(bool));
    if (!c->sizes || !c->best[0] || !c->best[1] || !c->worst[0] || !c->worst[1] || !c->runs[0] || !c->runs[1] ||
        !c->nruns[0] || !c->nruns[1] || !c->out[0] || !c->out[1] || !c->varied[0] || !c->varied[1])
        return cc_err("internal", "out of memory");
    for (size_t i = 0; i < c->nsizes; i++) {
        json_t *e = n ? json_array_get(v, i) : NULL;
        json_int_t size = e ? size_value(e) : 0;
        if (e && (size < 1 || size > SIZE_MAX_N))
            return cc_verify_invalid("write sizes as whole numbers, e.g. [2000, 5000, 10000, 20000]",
                                     "sizes[%zu] must be an integer from 1 to 10^12 (the N a timing run reads "
                                     "from stdin)", i);
        c->sizes[i] = e ? size : default_sizes[i];
    }
    return NULL;
}

static json_t *read_args(struct call *c, json_t *args, json_t **inputs) {
    json_t *err = NULL, *m = json_object_get(args, "min_speedup");
    if (!(c->lang = cc_verify_lang_arg(args, "language", &err))) return err;
    if (!cc_verify_str_arg(args, "original", true, &err) || !cc_verify_str_arg(args, "candidate", true, &err))
        return err;
    if (!(*inputs = cc_verify_inputs_arg(args, "test_inputs", &err))) return err;
    if ((err = read_sizes(c, json_object_get(args, "sizes")))) return err;
    if (m && !json_is_null(m) && !json_is_number(m)) return cc_verify_invalid(NULL, "min_speedup must be a number");
    c->min_speedup = m && json_is_number(m) ? json_number_value(m) : 1.15;
    if (m && json_is_number(m)) cc_number_text(m, c->min_text);
    else snprintf(c->min_text, sizeof c->min_text, "1.15");
    return NULL;
}

static long long smallest_size(const struct call *c) {
    long long m = 0;
    for (size_t i = 0; c && c->sizes && i < c->nsizes; i++)
        if (!m || (long long)c->sizes[i] < m) m = (long long)c->sizes[i];
    return m;
}

CC_LOCAL_TOOL(verify_optimization) {
    struct call *c = calloc(1, sizeof *c);
    json_t *inputs = NULL, *err = c ? read_args(c, args, &inputs) : NULL;
    if (c) c->args = json_incref(args);
    struct cc_fanout *fo = cc_fanout_open_shaped(srv, r, c, idle, destroy, err, cc_verify_grade_refusal);
    /* Not the typed edge values: the programs read a size n (the stdin-N
     * contract), and n = 2^63 is a size no loop finishes. Small sizes,
     * odd ones among them, none above the smallest timing size
     * (edge_inputs.h). */
    struct cc_edges edges = {0};
    if (fo && cc_edges_build_sizes(&edges, inputs, cc_edges_defaulted(args, "test_inputs"), smallest_size(c)) != 0)
        cc_edges_free(&edges);
    if (fo)
        cc_translation_start(&c->t, fo, c->lang, json_object_get(args, "original"), c->lang,
                             json_object_get(args, "candidate"), &edges, RUN_TIMEOUT_S);
    json_decref(inputs);
}
