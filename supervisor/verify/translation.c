/* verify_translation's comparison (see translation.h). */
#include "supervisor/verify/translation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/verify/rules.h"
#include "workers/common/tool_api.h"

#define INPUT_CHARS 60
#define OUT_CHARS 400
#define ERR_CHARS 200
struct rslot {
    struct cc_translation *t;
    size_t i;
};

/* A match's repeat: side 0 source, 1 target; x its index in again[side]. */
struct aslot {
    struct cc_translation *t;
    size_t x;
    int side;
};

static int init_prog(struct cc_prog *p, const char *lang, json_t *code, const char *role) {
    *p = (struct cc_prog){.lang = lang, .code = json_string_value(code),
                          .code_len = json_string_length(code), .known = true};
    return asprintf(&p->label, "%s (%s)", role, lang) < 0 ? -1 : 0;
}

static int start(struct cc_translation *t, struct cc_fanout *fo, const char *src_lang,
                 json_t *src_code, const char *tgt_lang, json_t *tgt_code, struct cc_edges *edges,
                 int64_t timeout_s) {
    memset(t, 0, sizeof *t);
    t->edges = *edges;
    *edges = (struct cc_edges){0};
    json_t *inputs = t->edges.inputs;
    if (!inputs) return -1;
    t->inputs = json_incref(inputs);
    t->timeout_s = timeout_s;
    size_t n = json_array_size(inputs);
    t->rerun_side = calloc(n + 1, sizeof *t->rerun_side);
    t->rerun = calloc(n + 1, sizeof *t->rerun);
    t->rslots = calloc(n + 1, sizeof(struct rslot));
    if (!t->rerun_side || !t->rerun || !t->rslots ||
        init_prog(&t->prog[0], src_lang, src_code, "source") ||
        init_prog(&t->prog[1], tgt_lang, tgt_code, "target"))
        return -1;
    if (cc_matrix_start(&t->mx, fo, t->prog, 2, inputs, timeout_s, false, false) != 0) return -1;
    cc_matrix_edges(&t->mx, t->edges.given, timeout_s < CC_EDGE_TIMEOUT_S ? timeout_s : CC_EDGE_TIMEOUT_S);
    return 0;
}

void cc_translation_start(struct cc_translation *t, struct cc_fanout *fo, const char *src_lang,
                          json_t *src_code, const char *tgt_lang, json_t *tgt_code, struct cc_edges *edges,
                          int64_t timeout_s) {
    if (start(t, fo, src_lang, src_code, tgt_lang, tgt_code, edges, timeout_s) == 0) return;
    json_t *e = cc_err("internal", "out of memory");
    cc_verify_grade_refusal(e);
    cc_fanout_answer(fo, e);
}

/* One side (program k) of input i: its report and the rules' view (norm
 * owned). */
static json_t *side(const struct cc_translation *t, int k, size_t i, const json_t *res, struct cc_side *s,
                    char **norm) {
    json_t *j = cc_side_json(res, OUT_CHARS, ERR_CHARS, norm);
    *s = (struct cc_side){.ran = res != NULL, .ok = res && cc_res_ok(res),
                          .compile_failed = res && cc_res_compile_failed(res),
                          .out = *norm ? *norm : "", .truncated = res && cc_res_stdout_cut(res)};
    json_t *code = json_object_get(res, "exit_code");
    const char *verdict = json_string_value(json_object_get(res, "verdict"));
    const json_t *sig = json_object_get(res, "signal");
    s->exited = res && !s->ok && !s->compile_failed && json_is_integer(code) && verdict &&
                strcmp(verdict, "RTE") == 0 && !json_is_true(json_object_get(res, "timed_out")) &&
                (!sig || json_is_null(sig)) && !s->truncated;
    s->signalled = res && !s->ok && !s->compile_failed && verdict && strcmp(verdict, "RTE") == 0 &&
                   !json_is_true(json_object_get(res, "timed_out")) && sig && !json_is_null(sig) &&
                   !s->truncated;
    s->exit_code = s->exited ? (int)json_integer_value(code) : 0;
    s->crash_code = cc_lang_crash_code(t->prog[k].lang);
    /* perl's die exits with errno when that is set (2 after a failed
     * open): its uncaught error whatever the code. */
    const char *err = json_string_value(json_object_get(res, "stderr"));
    if (s->exited && cc_uncaught_exit(t->prog[k].lang, s->exit_code, err)) s->crash_code = s->exit_code;
    s->complete = s->exited && cc_lang_output_complete(t->prog[k].lang);
    s->timed_out = res && json_is_true(json_object_get(res, "timed_out"));
    s->edge = i >= t->edges.given;
    return j;
}

static void on_rerun(struct cc_fanout *fo, void *ud, json_t *res) {
    (void)fo;
    struct rslot *s = ud;
    json_decref(s->t->rerun[s->i]);
    s->t->rerun[s->i] = res;
}

static void on_again(struct cc_fanout *fo, void *ud, json_t *res) {
    (void)fo;
    struct aslot *s = ud;
    json_decref(s->t->again[s->side][s->x]);
    s->t->again[s->side][s->x] = res;
}

/* A match of input i: both programs reps more times on the same input.
 * One run per program and input matched by luck a program that answers
 * wrongly one time in ten, or prints a set in hash order (rule 37). */
static void queue_again(struct cc_translation *t, struct cc_fanout *fo, size_t i, size_t n) {
    json_t *in = json_array_get(t->inputs, i);
    char *il = cc_input_label(json_string_value(in), i, n);
    cc_fanout_plan(fo, 2 * t->reps);
    for (int r = 0; r < t->reps; r++)
        for (int k = 0; k < 2; k++) {
            const struct cc_prog *p = &t->prog[k];
            char *label = NULL;
            if (asprintf(&label, "%s: %s, repeat %d of %d to check the match reproduces", il ? il : "input",
                         p->label, r + 1, t->reps) < 0)
                label = NULL;
            size_t x = (size_t)r * n + i;
            struct aslot *as = (struct aslot *)t->aslots + 2 * x + (size_t)k;
            *as = (struct aslot){t, x, k};
            cc_prog_add_run(fo, p, json_string_value(in), json_string_length(in), cc_matrix_timeout(&t->mx, i),
                            false, label, on_again, as);
            free(label);
        }
    free(il);
}

/* The slowest first run (duration_ms of the run step). */
static double slowest_ms(const struct cc_translation *t, size_t n) {
    double m = 0;
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < n; i++) {
            const json_t *d = json_object_get(cc_matrix_res(&t->mx, k, i), "duration_ms");
            if (json_is_integer(d) && (double)json_integer_value(d) > m) m = (double)json_integer_value(d);
        }
    return m;
}

/* The repeats per matched input (cc_repeat_runs less the first run) over
 * the matched given inputs, and the matched edges too when one repeat of
 * every match fits the budget (red team 6: a port nondeterministic only
 * on large or odd values passed on edges run once; the edges first kept
 * out because their repeats pushed a JVM port past its deadline, which
 * the budget now bounds). After a first-run mismatch the call fails
 * whatever the repeats show: one repeat per match. Allocates the
 * repeats' slots. -1 on OOM. */
static int plan_repeats(struct cc_translation *t, struct cc_fanout *fo, size_t n, size_t given, size_t edges) {
    double slowest = slowest_ms(t, n);
    int share = cc_fanout_stats(fo)->limit;
    int64_t left = cc_fanout_remaining_ms(fo);
    t->edges_repeated = edges > 0 && cc_repeat_affordable(given + edges, 2, slowest, share, left);
    size_t matches = given + (t->edges_repeated ? edges : 0);
    t->reps = (t->mismatched_first ? 2 : cc_repeat_runs(matches, 2, slowest, share, left)) - 1;
    size_t slots = (size_t)t->reps * n + 1;
    t->again[0] = calloc(slots, sizeof *t->again[0]);
    t->again[1] = calloc(slots, sizeof *t->again[1]);
    t->aslots = calloc(2 * slots, sizeof(struct aslot));
    return t->again[0] && t->again[1] && t->aslots ? 0 : -1;
}

/* After the first runs: queue the vanished-output re-runs and the second
 * runs of matches. Returns how many inputs have runs queued. */
/* The first runs' verdict of input i. */
static struct cc_pair_verdict first_verdict(const struct cc_translation *t, size_t i, struct cc_side s[2]) {
    char *norm[2];
    json_decref(side(t, 0, i, cc_matrix_res(&t->mx, 0, i), &s[0], &norm[0]));
    json_decref(side(t, 1, i, cc_matrix_res(&t->mx, 1, i), &s[1], &norm[1]));
    struct cc_pair_verdict v = cc_verify_classify(&s[0], &s[1]);
    free(norm[0]);
    free(norm[1]);
    return v;
}

/* Input i's matches are repeated (plan_repeats). */
static bool repeats_input(const struct cc_translation *t, size_t i) {
    return i < t->edges.given || t->edges_repeated;
}

static int queue_reruns(struct cc_translation *t, struct cc_fanout *fo) {
    int k = 0;
    size_t n = json_array_size(t->inputs), given = 0, edges = 0;
    for (size_t i = 0; i < n; i++) {
        struct cc_side s[2];
        enum cc_outcome o = first_verdict(t, i, s).outcome;
        t->mismatched_first |= o == CC_MISMATCH;
        *(i < t->edges.given ? &given : &edges) += o == CC_MATCH;
    }
    if (plan_repeats(t, fo, n, given, edges) != 0) return 0;
    for (size_t i = 0; i < n; i++) {
        struct cc_side s[2];
        char *norm[2];
        json_decref(side(t, 0, i, cc_matrix_res(&t->mx, 0, i), &s[0], &norm[0]));
        json_decref(side(t, 1, i, cc_matrix_res(&t->mx, 1, i), &s[1], &norm[1]));
        struct cc_pair_verdict v = cc_verify_classify(&s[0], &s[1]);
        t->rerun_side[i] = cc_verify_rerun_side(&v, &s[0], &s[1]);
        free(norm[0]);
        free(norm[1]);
        if (v.outcome == CC_MATCH && repeats_input(t, i)) {
            queue_again(t, fo, i, n);
            k++;
        }
        if (!t->rerun_side[i]) continue;
        const struct cc_prog *p = &t->prog[t->rerun_side[i] - 1];
        json_t *in = json_array_get(t->inputs, i);
        char *il = cc_input_label(json_string_value(in), i, n), *label = NULL;
        if (asprintf(&label, "%s: %s, re-run after empty output", il ? il : "input", p->label) < 0) label = NULL;
        struct rslot *rs = (struct rslot *)t->rslots + i;
        *rs = (struct rslot){t, i};
        cc_fanout_plan(fo, 1);
        cc_prog_add_run(fo, p, json_string_value(in), json_string_length(in), cc_matrix_timeout(&t->mx, i), false,
                        label, on_rerun, rs);
        free(il);
        free(label);
        k++;
    }
    return k;
}

/* The two runs printed different bytes (a match is on normalised text). */
static bool raw_stdout_differs(const json_t *a, const json_t *b) {
    const json_t *x = json_object_get(a, "stdout"), *y = json_object_get(b, "stdout");
    return !json_is_string(x) || !json_is_string(y) || json_string_length(x) != json_string_length(y) ||
           memcmp(json_string_value(x), json_string_value(y), json_string_length(x)) != 0;
}

/* The case of input i, classified; counts its outcome, and in *ws the
 * matches whose raw outputs differ in whitespace the rules ignore. */
static json_t *build_case(struct cc_translation *t, size_t i, int count[3], int *ws) {
    struct cc_side s[2];
    char *norm[2], *reason = NULL;
    json_t *js = side(t, 0, i, cc_matrix_res(&t->mx, 0, i), &s[0], &norm[0]);
    json_t *jt = side(t, 1, i, cc_matrix_res(&t->mx, 1, i), &s[1], &norm[1]);
    struct cc_pair_verdict v = cc_verify_classify(&s[0], &s[1]);
    json_t *rerun = NULL;
    if (t->rerun_side[i]) {
        char *again = NULL;
        json_t *rj = cc_side_json(t->rerun[i], OUT_CHARS, ERR_CHARS, &again);
        v = cc_verify_after_rerun(t->rerun_side[i], again, &reason);
        rerun = json_pack("{s:s, s:o}", "side", t->rerun_side[i] == 1 ? "source" : "target", "result", rj);
        free(again);
    }
    json_t *repeat = NULL;
    size_t n = json_array_size(t->inputs);
    for (int r = 0; v.outcome == CC_MATCH && t->again[0] && t->again[1] && r < t->reps; r++) {
        size_t x = (size_t)r * n + i;
        if (!t->again[0][x] || !t->again[1][x]) continue;
        struct cc_side a[2];
        char *anorm[2];
        json_t *ja = side(t, 0, i, t->again[0][x], &a[0], &anorm[0]);
        json_t *jb = side(t, 1, i, t->again[1][x], &a[1], &anorm[1]);
        v = cc_verify_after_repeat(&s[0], &s[1], &a[0], &a[1]);
        /* The source printed two outputs on one input: no port can be
         * cross-checked against it (finish() fails the call). */
        if (v.outcome == CC_INCONCLUSIVE && a[0].ran && a[0].ok && strcmp(a[0].out, s[0].out) != 0)
            t->source_unstable++;
        if (v.outcome != CC_MATCH) repeat = json_pack("{s:o, s:o, s:i}", "source", ja, "target", jb, "run", r + 2);
        else json_decref(ja), json_decref(jb);
        free(anorm[0]);
        free(anorm[1]);
    }
    count[v.outcome]++;
    if (v.outcome == CC_MATCH && repeats_input(t, i)) t->repeated_matched++;
    json_t *in = json_array_get(t->inputs, i);
    char *shown = cc_verify_prefix(json_string_value(in), INPUT_CHARS);
    json_t *c = json_pack("{s:s, s:s, s:s, s:b, s:o, s:o}", "input", shown ? shown : "", "outcome",
                          cc_outcome_name(v.outcome), "reason", v.reason ? v.reason : "", "match",
                          v.outcome == CC_MATCH, "source", js, "target", jt);
    const char *edge = cc_edges_label(&t->edges, i);
    if (edge) {
        json_object_set_new(c, "edge", json_string(edge));
        if (v.outcome == CC_MISMATCH) t->edge_mismatched++;
    }
    if (rerun) json_object_set_new(c, "rerun", rerun);
    if (repeat) json_object_set_new(c, "repeat", repeat);
    if (v.outcome == CC_MATCH && raw_stdout_differs(cc_matrix_res(&t->mx, 0, i), cc_matrix_res(&t->mx, 1, i))) {
        json_object_set_new(c, "whitespace_differs", json_true());
        (*ws)++;
    }
    free(shown);
    free(reason);
    free(norm[0]);
    free(norm[1]);
    return c;
}

/* The aggregate's reason, saying how many mismatches were on added edge
 * values (a caller may rule those inputs out). Takes reason. */
static char *edge_reason(char *reason, int edge_mismatched) {
    char *r = NULL;
    if (!reason || !edge_mismatched) return reason;
    if (asprintf(&r, "%s (%d of them edge input(s) the tool added: see the cases marked edge)", reason,
                 edge_mismatched) < 0)
        return reason;
    free(reason);
    return r;
}

static json_t *finish(struct cc_translation *t, struct cc_fanout *fo) {
    size_t n = json_array_size(t->inputs);
    int count[3] = {0, 0, 0};
    json_t *cases = json_array();
    int ws = 0;
    for (size_t i = 0; i < n; i++) json_array_append_new(cases, build_case(t, i, count, &ws));
    bool passed;
    char *reason = cc_verify_aggregate(count[CC_MATCH], count[CC_MISMATCH], (int)n, &passed);
    reason = edge_reason(reason, t->edge_mismatched);
    /* Matches elsewhere do not make a nondeterministic source an oracle:
     * it passed cross_checked with its unstable inputs inconclusive. */
    if (passed && t->source_unstable) {
        passed = false;
        free(reason);
        if (asprintf(&reason, "the source printed different output on repeated runs of the same input (%d case(s) "
                     "with a repeat): it is not deterministic, so no translation can be cross-checked against it",
                     t->source_unstable) < 0)
            reason = NULL;
    }
    json_t *r = json_pack("{s:b, s:b, s:o, s:i, s:i, s:i, s:i, s:o}", "ok", 1, "passed", passed, "reason",
                          reason ? json_string(reason) : json_null(), "matched", count[CC_MATCH],
                          "mismatched", count[CC_MISMATCH], "inconclusive", count[CC_INCONCLUSIVE],
                          "total", (int)n, "cases", cases);
    char *basis = passed ? cc_verify_translation_basis(t->prog[0].lang, t->prog[1].lang, count[CC_MATCH],
                                                       (int)n)
                         : NULL;
    if (ws)
        json_object_set_new(r, "whitespace_note",
                            json_string("the cases marked whitespace_differs matched after the comparison's "
                                        "normalisation, but their raw stdout differs: in spaces or tabs at line "
                                        "ends, \\r, or blank lines and spaces at the start or end of the whole "
                                        "output; if that whitespace matters, compare the raw outputs"));
    if (t->edges.probed) json_object_set(r, "edge_inputs", t->edges.probed);
    if (t->source_unstable) json_object_set_new(r, "nondeterministic", json_true());
    if (t->repeated_matched)
        json_object_set_new(r, "odds", cc_verify_odds(t->repeated_matched, 1 + t->reps, t->edges_repeated,
                                                      t->mismatched_first));
    cc_verify_grade(r, passed, passed ? basis : reason);
    const char *names[] = {"source", "target"};
    json_object_set_new(r, "execution", cc_verify_execution(fo, cc_matrix_compiles(&t->mx, names)));
    free(basis);
    free(reason);
    return r;
}

json_t *cc_translation_step(struct cc_translation *t, struct cc_fanout *fo) {
    if (t->stage == 0) {
        t->stage = 1;
        if (queue_reruns(t, fo) > 0) return NULL;
    }
    t->stage = 2;
    return finish(t, fo);
}

void cc_translation_free(struct cc_translation *t) {
    size_t n = json_array_size(t->inputs);
    for (size_t i = 0; t->rerun && i < n; i++) json_decref(t->rerun[i]);
    free(t->rerun);
    free(t->rerun_side);
    free(t->rslots);
    for (int k = 0; k < 2; k++) {
        for (size_t x = 0; t->again[k] && x < (size_t)t->reps * n; x++) json_decref(t->again[k][x]);
        free(t->again[k]);
    }
    free(t->aslots);
    cc_matrix_free(&t->mx);
    cc_edges_free(&t->edges);
    cc_prog_free(&t->prog[0]);
    cc_prog_free(&t->prog[1]);
    json_decref(t->inputs);
}
