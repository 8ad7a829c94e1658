/* compare_edge_cases (TOOLS.md 3.4.4): the same logic in several languages
 * on edge-case inputs; every program compiled once and run on every input
 * through the call's fan-out, then each input's runs compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/mcp/local_tools.h"
#include "supervisor/sessions/sessions.h"
#include "supervisor/verify/edge_inputs.h"
#include "supervisor/verify/programs.h"
#include "supervisor/verify/rules.h"
#include "workers/common/tool_api.h"

#define RUN_TIMEOUT_S 15
#define RUNS_MAX 512
#define INPUT_CHARS 60
#define OUT_CHARS 300
#define ERR_CHARS 150
struct call {
    json_t *args;                 /* the programs live here */
    json_t *inputs;               /* the inputs run: edges.inputs (borrowed) */
    struct cc_edges edges;
    struct cc_snippets sn;
    struct cc_matrix mx;
    int stage;                    /* 0 first runs, 1 repeats, 2 done */
    int reps;                     /* repeats per agreeing input and snippet (runs beyond the first) */
    size_t repeated;              /* inputs whose runs agreed and were repeated */
    size_t all_died;              /* inputs whose runs all died alike: no agreement, not repeated */
    bool diverged;                /* some input's first runs diverged: one repeat per input */
    json_t **again;               /* reps*k*n: repeat r of snippet j on input i, [(r*k + j)*n + i] */
    struct again_slot *aslots;
};

/* A repeat of an input that did not diverge: one run per snippet and
 * input agreed by luck with a snippet wrong one time in ten (rule 37 of
 * verify_translation, applied here). */
struct again_slot {
    struct call *c;
    size_t x;                     /* its index in again */
};

/* The run timed out (it is compared by nothing on an added edge input). */
static bool timed_out(const json_t *res) { return json_is_true(json_object_get(res, "timed_out")); }

/* A failed run's exit class (cc_exit_class), or -1: a success, or a run
 * that did not exit (a timeout, a compile failure). A death by a signal
 * is the class of an uncaught error (-2): a C++ uncaught exception, a zig
 * panic and a C abort are SIGABRT where python's exception is exit 1, and
 * verify_translation reads the two alike (rule 7, rule 41). A python raise
 * against a C++ throw, both printing nothing, was a content divergence
 * here and inconclusive there. */
static int exit_of(const json_t *res, const char *lang) {
    json_t *code = json_object_get(res, "exit_code");
    const char *verdict = json_string_value(json_object_get(res, "verdict"));
    if (!res || cc_res_ok(res) || !verdict || strcmp(verdict, "RTE") != 0 || timed_out(res))
        return -1;
    if (json_is_object(json_object_get(res, "signal"))) return -2;
    if (!json_is_integer(code)) return -1;
    int c = (int)json_integer_value(code);
    /* perl's die exits with errno when that is set: still its uncaught error. */
    if (cc_uncaught_exit(lang, c, json_string_value(json_object_get(res, "stderr")))) return -2;
    return cc_exit_class(c, lang);
}

/* A run that exited with a code in a runtime that writes out all it
 * printed (cc_lang_output_complete): its output has no lost tail. */
static bool complete_of(const json_t *res, const char *lang) {
    const char *verdict = json_string_value(json_object_get(res, "verdict"));
    return res && !cc_res_ok(res) && verdict && strcmp(verdict, "RTE") == 0 && !timed_out(res) &&
           !json_is_object(json_object_get(res, "signal")) && json_is_integer(json_object_get(res, "exit_code")) &&
           !cc_res_stdout_cut(res) && cc_lang_output_complete(lang);
}

static size_t again_at(const struct call *c, int r, size_t j, size_t i) {
    return ((size_t)r * c->sn.k + j) * c->mx.n + i;
}

/* The run failed after it started (an exit code, a signal, a timeout):
 * not a compile failure, not a success. */
static bool died(const json_t *res) { return res && !cc_res_ok(res) && !cc_res_compile_failed(res); }

/* The comparison of one input's runs (runs_of). */
struct cmp {
    bool *ok;
    char **norm;
    int *ex;
    bool *died;
    bool *cut;    /* stdout was cut at the output cap */
    bool *complete; /* complete_of */
    bool late;
};

static bool cmp_alloc(struct cmp *m, size_t k) {
    *m = (struct cmp){calloc(k + 1, sizeof(bool)), calloc(k + 1, sizeof(char *)), calloc(k + 1, sizeof(int)),
                      calloc(k + 1, sizeof(bool)), calloc(k + 1, sizeof(bool)), calloc(k + 1, sizeof(bool)), false};
    return m->ok && m->norm && m->ex && m->died && m->cut && m->complete;
}

static void cmp_free(struct cmp *m) {
    free(m->ok);
    free(m->norm);
    free(m->ex);
    free(m->died);
    free(m->cut);
    free(m->complete);
}

/* {lang: run} of input i; m's ok, norm (malloc'd each), ex and died for
 * the comparison; late when a run timed out. */
static json_t *runs_of(struct call *c, size_t i, struct cmp *m) {
    json_t *runs = json_object();
    bool *ok = m->ok, *late = &m->late;
    char **norm = m->norm;
    int *ex = m->ex;
    *late = false;
    for (size_t j = 0; j < c->sn.k; j++) {
        const json_t *res = cc_matrix_res(&c->mx, j, i);
        m->died[j] = died(res);
        m->cut[j] = res && cc_res_stdout_cut(res);
        m->complete[j] = complete_of(res, c->sn.prog[j].lang);
        json_t *side = cc_side_json(res, OUT_CHARS, ERR_CHARS, &norm[j]);
        json_object_del(side, "phase");
        ok[j] = cc_res_ok(res);
        ex[j] = exit_of(res, c->sn.prog[j].lang);
        *late = *late || timed_out(res);
        json_object_set_new(runs, c->sn.names[j], side);
    }
    return runs;
}

/* The first snippet with a repeat of input i that behaved otherwise than
 * its first run (ok, output, exit class), or -1; *rep gets that repeat. */
static long unstable(struct call *c, size_t i, const bool *ok, char *const *norm, const int *ex, int *rep) {
    for (size_t j = 0; j < c->sn.k; j++)
        for (int r = 0; r < c->reps; r++) {
            const json_t *res = c->again[again_at(c, r, j, i)];
            /* A repeat out of time (a loaded host, or an edge input near
             * its time limit) is no evidence either way. */
            if (!res || timed_out(res)) continue;
            char *n2 = cc_res_stdout_norm(res, NULL);
            bool same = cc_res_ok(res) == ok[j] && n2 && strcmp(n2, norm[j]) == 0 &&
                        exit_of(res, c->sn.prog[j].lang) == ex[j];
            free(n2);
            if (!same) {
                *rep = r;
                return (long)j;
            }
        }
    return -1;
}

static const char *const kind_name[] = {"none", "content", "order"};

/* The divergence of input i whose snippet u behaved differently on its
 * repeat rep: kind content, the reason, that run, nondeterministic. */
static json_t *repeat_divergence(struct call *c, size_t i, size_t u, int rep, const char *in, json_t *langs,
                                 json_t *runs) {
    json_t *again = json_object();
    json_t *r2 = cc_side_json(c->again[again_at(c, rep, u, i)], OUT_CHARS, ERR_CHARS, NULL);
    json_object_del(r2, "phase");
    json_object_set_new(again, c->sn.names[u], r2);
    char *why = NULL;
    if (asprintf(&why, "%s behaved differently on a second run of the same input: it is not deterministic here, "
                 "so the agreement of the first runs was luck", c->sn.names[u]) < 0)
        why = NULL;
    json_t *d = json_pack("{s:s, s:O, s:s, s:s, s:O, s:o, s:b}", "input", in, "languages", langs, "kind", "content",
                          "reason", why ? why : "", "runs", runs, "repeat", again, "nondeterministic", 1);
    free(why);
    return d;
}

/* The note of a row whose runs all died: its output may be incomplete. */
static json_t *incomplete_note(void) {
    return json_string("every run of this input died at run time (an exit code, a signal or a timeout): what a dying "
                       "program wrote may still have been in its output buffer (C's stdio into a pipe, a bufio or "
                       "BufWriter, a killed process) and be lost, so each stdout may be only the start of what it "
                       "wrote; the runs were not compared on their output (not an agreement, not a divergence)");
}

/* The note of a row whose runs agree up to the output cap, where a
 * stdout was cut. */
static json_t *cut_note(void) {
    return json_string("the runs' stdout agrees up to the output cap, but a run's stdout was cut there: what it "
                       "wrote after the cap was never compared (not an agreement, not a divergence)");
}

static bool any_cut(const struct cmp *m, size_t k) {
    for (size_t j = 0; j < k; j++)
        if (m->cut[j]) return true;
    return false;
}

/* The divergence of input i (appended to divs); marks row. *incomplete
 * when its runs all died alike, or agree only up to the output cap (not
 * compared on the whole of their output), *nondet when a snippet's repeat
 * behaved otherwise than its first run. */
static void judge_input(struct call *c, size_t i, const char *in, const struct cmp *m, json_t *row, json_t *runs,
                        json_t *langs, json_t *divs, bool *nondet, bool *incomplete) {
    const char *edge = cc_edges_label(&c->edges, i);
    bool compared = c->sn.k >= 2 && !(edge && m->late);
    enum cc_divergence d = compared ? cc_edge_divergence(c->sn.k, m->ok, (const char *const *)m->norm, m->ex)
                                    : CC_DIV_NONE;
    *incomplete = compared && d != CC_DIV_ORDER &&
                  cc_edge_all_died_alike_complete(c->sn.k, m->died, (const char *const *)m->norm, m->ex,
                                                  m->complete);
    if (*incomplete) d = CC_DIV_NONE;
    bool cut = compared && d == CC_DIV_NONE && !*incomplete && any_cut(m, c->sn.k);
    *incomplete |= cut;
    int rep = 0;
    long u = d == CC_DIV_NONE && c->again ? unstable(c, i, m->ok, m->norm, m->ex, &rep) : -1;
    json_t *div = NULL;
    if (d != CC_DIV_NONE) {
        div = json_pack("{s:s, s:O, s:s, s:O}", "input", in, "languages", langs, "kind", kind_name[d], "runs", runs);
    } else if (u >= 0) {
        div = repeat_divergence(c, i, (size_t)u, rep, in, langs, runs);
        *nondet = true;
        *incomplete = false;
    }
    if (edge && m->late)
        json_object_set_new(row, "note", json_string("a run of this added edge input ran out of its time "
                                                     "limit: the input was not compared"));
    if (*incomplete) {
        json_object_set_new(row, "incomplete", json_true());
        json_object_set_new(row, "note", cut ? cut_note() : incomplete_note());
    }
    if (div && edge) json_object_set_new(div, "edge", json_string(edge));
    if (div) json_array_append_new(divs, div);
}

static json_t *build(struct call *c, struct cc_fanout *fo) {
    size_t n = json_array_size(c->inputs);
    json_t *results = json_array(), *divs = json_array(), *langs = json_array(), *shown = json_array();
    for (size_t j = 0; j < c->sn.k; j++) json_array_append_new(langs, json_string(c->sn.names[j]));
    struct cmp m;
    bool nondet = false, incomplete, have = cmp_alloc(&m, c->sn.k);
    size_t n_incomplete = 0;
    for (size_t i = 0; have && i < n; i++) {
        char *in = cc_verify_prefix(json_string_value(json_array_get(c->inputs, i)), INPUT_CHARS);
        json_array_append_new(shown, json_string(in ? in : ""));
        json_t *runs = runs_of(c, i, &m);
        json_t *row = json_pack("{s:s, s:o}", "input", in ? in : "", "runs", runs);
        const char *edge = cc_edges_label(&c->edges, i);
        if (edge) json_object_set_new(row, "edge", json_string(edge));
        judge_input(c, i, in ? in : "", &m, row, runs, langs, divs, &nondet, &incomplete);
        n_incomplete += incomplete;
        json_array_append_new(results, row);
        for (size_t j = 0; j < c->sn.k; j++) free(m.norm[j]), m.norm[j] = NULL;
        free(in);
    }
    cmp_free(&m);
    json_t *r = json_pack("{s:b, s:o, s:o, s:I, s:I, s:b, s:o, s:o}", "ok", 1, "inputs", shown, "languages", langs,
                          "divergence_count", (json_int_t)json_array_size(divs), "incomplete_count",
                          (json_int_t)n_incomplete, "nondeterministic", nondet, "results", results, "divergences",
                          divs);
    if (c->repeated || c->all_died)
        json_object_set_new(r, "odds", cc_edge_odds(c->repeated ? 1 + c->reps : 1, (int)c->repeated,
                                                    (int)c->all_died, c->diverged));
    if (c->edges.probed) json_object_set(r, "edge_inputs", c->edges.probed);
    json_object_set_new(r, "execution", cc_verify_execution(fo, cc_matrix_compiles(&c->mx, c->sn.names)));
    return r;
}

static void on_again(struct cc_fanout *fo, void *ud, json_t *res) {
    (void)fo;
    struct again_slot *s = ud;
    json_decref(s->c->again[s->x]);
    s->c->again[s->x] = res;
}

/* The slowest first run (duration_ms of the run step; a timed-out run is
 * not repeated). */
static double slowest_ms(struct call *c) {
    double m = 0;
    for (size_t j = 0; j < c->sn.k; j++)
        for (size_t i = 0; i < c->mx.n; i++) {
            const json_t *d = json_object_get(cc_matrix_res(&c->mx, j, i), "duration_ms");
            if (json_is_integer(d) && (double)json_integer_value(d) > m) m = (double)json_integer_value(d);
        }
    return m;
}

/* How many repeats each agreeing input gets (cc_repeat_runs, less the
 * first run), the repeats within RUNS_MAX. Once some input diverged the
 * call's answer is a divergence whatever the repeats show: one repeat per
 * input still flags a snippet that is often nondeterministic, at a
 * fraction of the cost (red team 6). */
static int repeats_for(struct call *c, struct cc_fanout *fo, size_t agreeing) {
    int runs = c->diverged ? 2
                           : cc_repeat_runs(agreeing, c->sn.k, slowest_ms(c), cc_fanout_stats(fo)->limit,
                                            cc_fanout_remaining_ms(fo));
    while (runs > 2 && (size_t)(runs - 1) * agreeing * c->sn.k > RUNS_MAX) runs--;
    return runs - 1;
}

/* The inputs whose first runs agreed (no divergence, no run out of time,
 * not all died: runs that all died were not compared on their output, so
 * they are no agreement to test, red team 6). Sets c->all_died and
 * c->diverged. */
static bool *agreeing_inputs(struct call *c, size_t *count) {
    size_t n = c->mx.n, k = c->sn.k;
    bool *agreed = calloc(n + 1, sizeof *agreed);
    struct cmp m;
    bool have = cmp_alloc(&m, k);
    *count = 0;
    for (size_t i = 0; agreed && have && i < n; i++) {
        json_decref(runs_of(c, i, &m));
        const char *const *norm = (const char *const *)m.norm;
        enum cc_divergence d = cc_edge_divergence(k, m.ok, norm, m.ex);
        bool died = d != CC_DIV_ORDER && cc_edge_all_died_alike_complete(k, m.died, norm, m.ex, m.complete);
        bool edge_late = m.late && cc_edges_label(&c->edges, i);
        c->diverged |= d != CC_DIV_NONE && !died && !edge_late;
        agreed[i] = !m.late && d == CC_DIV_NONE && !died;
        c->all_died += died && !edge_late;
        *count += agreed[i];
        for (size_t j = 0; j < k; j++) free(m.norm[j]), m.norm[j] = NULL;
    }
    cmp_free(&m);
    return agreed;
}

/* After the first runs: every input whose runs agreed runs each snippet
 * again, c->reps times (not a compile failure). Returns how many runs
 * were queued. */
static int queue_again(struct call *c, struct cc_fanout *fo) {
    size_t n = c->mx.n, k = c->sn.k, count;
    if (k < 2) return 0;
    bool *agreed = agreeing_inputs(c, &count);
    if (!agreed) return 0;
    c->reps = repeats_for(c, fo, count);
    size_t slots = (size_t)c->reps * k * n + 1;
    if (!(c->again = calloc(slots, sizeof *c->again)) || !(c->aslots = calloc(slots, sizeof *c->aslots))) {
        free(agreed);
        return 0;
    }
    int queued = 0;
    for (size_t i = 0; i < n; i++) {
        if (!agreed[i]) continue;
        int before = queued;
        json_t *in = json_array_get(c->inputs, i);
        char *il = cc_input_label(json_string_value(in), i, n);
        for (size_t j = 0; j < k; j++) {
            if (c->sn.prog[j].compile_failed) continue;
            for (int r = 0; r < c->reps; r++) {
                char *label = NULL;
                if (asprintf(&label, "%s: %s, repeat %d of %d to check the agreement reproduces",
                             il ? il : "input", c->sn.prog[j].label, r + 1, c->reps) < 0)
                    label = NULL;
                size_t x = again_at(c, r, j, i);
                c->aslots[x] = (struct again_slot){c, x};
                cc_fanout_plan(fo, 1);
                cc_prog_add_run(fo, &c->sn.prog[j], json_string_value(in), json_string_length(in),
                                cc_matrix_timeout(&c->mx, i), false, label, on_again, &c->aslots[x]);
                free(label);
                queued++;
            }
        }
        c->repeated += queued > before; /* not when every snippet failed to compile */
        free(il);
    }
    free(agreed);
    return queued;
}

static void idle(struct cc_fanout *fo, void *ud) {
    struct call *c = ud;
    if (c->stage == 0) {
        c->stage = 1;
        if (queue_again(c, fo) > 0) return;
    }
    c->stage = 2;
    cc_fanout_answer(fo, build(ud, fo));
}

static void destroy(void *ud) {
    struct call *c = ud;
    for (size_t x = 0; c->again && x < (size_t)c->reps * c->sn.k * c->mx.n; x++) json_decref(c->again[x]);
    free(c->again);
    free(c->aslots);
    cc_matrix_free(&c->mx);
    cc_snippets_free(&c->sn);
    cc_edges_free(&c->edges);
    json_decref(c->args);
    free(c);
}

/* The snippets as programs; NULL when valid, else the refusal. */
static json_t *read_snippets(struct call *c, json_t *snippets) {
    if (json_is_object(snippets) && json_object_size(snippets) == 0)
        return cc_verify_invalid("pass snippets as {\"python3\": \"...\", \"node\": \"...\"}",
                                 "provide at least one {language: code} snippet");
    json_t *err = cc_snippets_read(&c->sn, snippets, false);
    if (err) return err;
    size_t runs = c->sn.k * c->edges.given;
    if (runs > RUNS_MAX)
        return cc_verify_invalid("use fewer inputs or fewer languages per call",
                                 "%zu snippets x %zu inputs = %zu runs, over the %d one call may make", c->sn.k,
                                 c->edges.given, runs, RUNS_MAX);
    /* The added edges fit in what is left (the second runs of inputs that
     * agreed are not counted). */
    cc_edges_trim(&c->edges, RUNS_MAX / c->sn.k);
    return NULL;
}

CC_LOCAL_TOOL(compare_edge_cases) {
    json_t *err = NULL;
    struct call *c = calloc(1, sizeof *c);
    if (!c) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    c->args = json_incref(args);
    json_t *given = cc_verify_inputs_arg(args, "inputs", &err);
    bool wanted = given && cc_edges_arg(args, &err);
    if (given && !err && cc_edges_build(&c->edges, given, cc_edges_defaulted(args, "inputs"), wanted) != 0)
        err = cc_err("internal", "out of memory");
    json_decref(given);
    c->inputs = c->edges.inputs;
    if (c->inputs && !err) err = read_snippets(c, json_object_get(args, "snippets"));
    struct cc_fanout *fo = cc_fanout_open(srv, r, c, idle, destroy, err);
    if (!fo) return;
    if (cc_matrix_start(&c->mx, fo, c->sn.prog, c->sn.k, c->inputs, RUN_TIMEOUT_S, false, false) != 0) {
        json_t *e = cc_err("internal", "out of memory");
        cc_fanout_answer(fo, e);
        return;
    }
    cc_matrix_edges(&c->mx, c->edges.given, CC_EDGE_TIMEOUT_S);
}
