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
    int stage;                    /* 0 first runs, 1 second runs, 2 done */
    json_t **again;               /* k*n: snippet j's second run of input i, [j*n + i] */
    struct again_slot *aslots;
};

/* A second run of an input that did not diverge: one run per snippet and
 * input agreed by luck with a snippet wrong one time in ten (rule 37 of
 * verify_translation, applied here). */
struct again_slot {
    struct call *c;
    size_t j, i;
};

/* The run timed out (it is compared by nothing on an added edge input). */
static bool timed_out(const json_t *res) { return json_is_true(json_object_get(res, "timed_out")); }

/* A failed run's exit class (cc_exit_class), or -1: a success, or a run
 * that did not exit (a signal, a timeout, a compile failure). */
static int exit_of(const json_t *res, const char *lang) {
    json_t *code = json_object_get(res, "exit_code");
    const char *verdict = json_string_value(json_object_get(res, "verdict"));
    if (!res || cc_res_ok(res) || !json_is_integer(code) || !verdict || strcmp(verdict, "RTE") != 0 ||
        timed_out(res))
        return -1;
    return cc_exit_class((int)json_integer_value(code), lang);
}

static const json_t *res_of(struct call *c, size_t j, size_t i, bool second) {
    return second ? c->again[j * c->mx.n + i] : cc_matrix_res(&c->mx, j, i);
}

/* {lang: run} of input i (its second runs when second); *ok, *norm
 * (malloc'd each) and *ex for the comparison; *late when a run timed out. */
static json_t *runs_of(struct call *c, size_t i, bool second, bool *ok, char **norm, int *ex, bool *late) {
    json_t *runs = json_object();
    *late = false;
    for (size_t j = 0; j < c->sn.k; j++) {
        const json_t *res = res_of(c, j, i, second);
        json_t *side = cc_side_json(res, OUT_CHARS, ERR_CHARS, &norm[j]);
        json_object_del(side, "phase");
        ok[j] = cc_res_ok(res);
        ex[j] = exit_of(res, c->sn.prog[j].lang);
        *late = *late || timed_out(res);
        json_object_set_new(runs, c->sn.names[j], side);
    }
    return runs;
}

/* The first snippet whose second run of input i behaved otherwise than
 * its first (ok, output, exit class), or -1. */
static long unstable(struct call *c, size_t i, const bool *ok, char *const *norm, const int *ex) {
    for (size_t j = 0; j < c->sn.k; j++) {
        const json_t *res = c->again[j * c->mx.n + i];
        /* A second run out of time (a loaded host, or an edge input near
         * its time limit) is no evidence either way. */
        if (!res || timed_out(res)) continue;
        char *n2 = cc_res_stdout_norm(res, NULL);
        bool same = cc_res_ok(res) == ok[j] && n2 && strcmp(n2, norm[j]) == 0 &&
                    exit_of(res, c->sn.prog[j].lang) == ex[j];
        free(n2);
        if (!same) return (long)j;
    }
    return -1;
}

static const char *const kind_name[] = {"none", "content", "order"};

/* The divergence of input i whose snippet u behaved differently on its
 * second run: kind content, the reason, and that second run. */
static json_t *repeat_divergence(struct call *c, size_t i, size_t u, const char *in, json_t *langs, json_t *runs) {
    json_t *again = json_object(), *r2 = cc_side_json(res_of(c, u, i, true), OUT_CHARS, ERR_CHARS, NULL);
    json_object_del(r2, "phase");
    json_object_set_new(again, c->sn.names[u], r2);
    char *why = NULL;
    if (asprintf(&why, "%s behaved differently on a second run of the same input: it is not deterministic here, "
                 "so the agreement of the first runs was luck", c->sn.names[u]) < 0)
        why = NULL;
    json_t *d = json_pack("{s:s, s:O, s:s, s:s, s:O, s:o}", "input", in, "languages", langs, "kind", "content",
                          "reason", why ? why : "", "runs", runs, "repeat", again);
    free(why);
    return d;
}

static json_t *build(struct call *c, struct cc_fanout *fo) {
    size_t n = json_array_size(c->inputs);
    json_t *results = json_array(), *divs = json_array(), *langs = json_array(), *shown = json_array();
    for (size_t j = 0; j < c->sn.k; j++) json_array_append_new(langs, json_string(c->sn.names[j]));
    bool *ok = calloc(c->sn.k, sizeof *ok), late;
    char **norm = calloc(c->sn.k, sizeof *norm);
    int *ex = calloc(c->sn.k, sizeof *ex);
    for (size_t i = 0; ok && norm && ex && i < n; i++) {
        char *in = cc_verify_prefix(json_string_value(json_array_get(c->inputs, i)), INPUT_CHARS);
        json_array_append_new(shown, json_string(in ? in : ""));
        json_t *runs = runs_of(c, i, false, ok, norm, ex, &late);
        const char *edge = cc_edges_label(&c->edges, i);
        enum cc_divergence d = c->sn.k >= 2 && !(edge && late)
                                   ? cc_edge_divergence(c->sn.k, ok, (const char *const *)norm, ex)
                                   : CC_DIV_NONE;
        long u = d == CC_DIV_NONE && c->again ? unstable(c, i, ok, norm, ex) : -1;
        json_t *row = json_pack("{s:s, s:o}", "input", in ? in : "", "runs", runs);
        if (edge) json_object_set_new(row, "edge", json_string(edge));
        if (edge && late)
            json_object_set_new(row, "note", json_string("a run of this added edge input ran out of its time "
                                                         "limit: the input was not compared"));
        if (d != CC_DIV_NONE)
            json_array_append_new(divs, json_pack("{s:s, s:O, s:s, s:O}", "input", in ? in : "", "languages",
                                                  langs, "kind", kind_name[d], "runs", runs));
        if (u >= 0) json_array_append_new(divs, repeat_divergence(c, i, (size_t)u, in ? in : "", langs, runs));
        if (edge) {
            json_t *last = json_array_size(divs) ? json_array_get(divs, json_array_size(divs) - 1) : NULL;
            if (last && (d != CC_DIV_NONE || u >= 0)) json_object_set_new(last, "edge", json_string(edge));
        }
        json_array_append_new(results, row);
        for (size_t j = 0; j < c->sn.k; j++) free(norm[j]);
        free(in);
    }
    free(ok);
    free(norm);
    free(ex);
    json_t *r = json_pack("{s:b, s:o, s:o, s:I, s:o, s:o}", "ok", 1, "inputs", shown, "languages", langs,
                          "divergence_count", (json_int_t)json_array_size(divs), "results", results,
                          "divergences", divs);
    if (c->edges.probed) json_object_set(r, "edge_inputs", c->edges.probed);
    json_object_set_new(r, "execution", cc_verify_execution(fo, cc_matrix_compiles(&c->mx, c->sn.names)));
    return r;
}

static void on_again(struct cc_fanout *fo, void *ud, json_t *res) {
    (void)fo;
    struct again_slot *s = ud;
    size_t x = s->j * s->c->mx.n + s->i;
    json_decref(s->c->again[x]);
    s->c->again[x] = res;
}

/* After the first runs: every input whose runs agreed runs each snippet
 * once more (not a compile failure, nor a run that timed out). Returns
 * how many runs were queued. */
static int queue_again(struct call *c, struct cc_fanout *fo) {
    size_t n = c->mx.n, k = c->sn.k;
    if (k < 2 || !(c->again = calloc(k * n + 1, sizeof *c->again)) ||
        !(c->aslots = calloc(k * n + 1, sizeof *c->aslots)))
        return 0;
    bool *ok = calloc(k, sizeof *ok), late;
    char **norm = calloc(k, sizeof *norm);
    int *ex = calloc(k, sizeof *ex), queued = 0;
    for (size_t i = 0; ok && norm && ex && i < n; i++) {
        json_decref(runs_of(c, i, false, ok, norm, ex, &late));
        bool agreed = !late && cc_edge_divergence(k, ok, (const char *const *)norm, ex) == CC_DIV_NONE;
        for (size_t j = 0; j < k; j++) free(norm[j]);
        if (!agreed) continue;
        json_t *in = json_array_get(c->inputs, i);
        char *il = cc_input_label(json_string_value(in), i, n);
        for (size_t j = 0; j < k; j++) {
            if (c->sn.prog[j].compile_failed) continue;
            char *label = NULL;
            if (asprintf(&label, "%s: %s, second run to check the agreement reproduces", il ? il : "input",
                         c->sn.prog[j].label) < 0)
                label = NULL;
            c->aslots[j * n + i] = (struct again_slot){c, j, i};
            cc_fanout_plan(fo, 1);
            cc_prog_add_run(fo, &c->sn.prog[j], json_string_value(in), json_string_length(in),
                            cc_matrix_timeout(&c->mx, i), false, label, on_again, &c->aslots[j * n + i]);
            free(label);
            queued++;
        }
        free(il);
    }
    free(ok);
    free(norm);
    free(ex);
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
    for (size_t x = 0; c->again && x < c->sn.k * c->mx.n; x++) json_decref(c->again[x]);
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
