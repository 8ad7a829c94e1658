/* compare_edge_cases (TOOLS.md 3.4.4): the same logic in several languages
 * on edge-case inputs; every program compiled once and run on every input
 * through the call's fan-out, then each input's runs compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/mcp/local_tools.h"
#include "supervisor/sessions/sessions.h"
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
    json_t *inputs;
    struct cc_snippets sn;
    struct cc_matrix mx;
};

/* {lang: run} of input i; *ok and *norm (malloc'd each) for the comparison. */
static json_t *runs_of(struct call *c, size_t i, bool *ok, char **norm) {
    json_t *runs = json_object();
    for (size_t j = 0; j < c->sn.k; j++) {
        const json_t *res = cc_matrix_res(&c->mx, j, i);
        json_t *side = cc_side_json(res, OUT_CHARS, ERR_CHARS, &norm[j]);
        json_object_del(side, "phase");
        ok[j] = cc_res_ok(res);
        json_object_set_new(runs, c->sn.names[j], side);
    }
    return runs;
}

static const char *const kind_name[] = {"none", "content", "order"};

static json_t *build(struct call *c, struct cc_fanout *fo) {
    size_t n = json_array_size(c->inputs);
    json_t *results = json_array(), *divs = json_array(), *langs = json_array(), *shown = json_array();
    for (size_t j = 0; j < c->sn.k; j++) json_array_append_new(langs, json_string(c->sn.names[j]));
    bool *ok = calloc(c->sn.k, sizeof *ok);
    char **norm = calloc(c->sn.k, sizeof *norm);
    for (size_t i = 0; ok && norm && i < n; i++) {
        char *in = cc_verify_prefix(json_string_value(json_array_get(c->inputs, i)), INPUT_CHARS);
        json_array_append_new(shown, json_string(in ? in : ""));
        json_t *runs = runs_of(c, i, ok, norm);
        enum cc_divergence d = c->sn.k >= 2 ? cc_edge_divergence(c->sn.k, ok, (const char *const *)norm) : CC_DIV_NONE;
        if (d != CC_DIV_NONE)
            json_array_append_new(divs, json_pack("{s:s, s:O, s:s, s:O}", "input", in ? in : "", "languages",
                                                  langs, "kind", kind_name[d], "runs", runs));
        json_array_append_new(results, json_pack("{s:s, s:o}", "input", in ? in : "", "runs", runs));
        for (size_t j = 0; j < c->sn.k; j++) free(norm[j]);
        free(in);
    }
    free(ok);
    free(norm);
    json_t *r = json_pack("{s:b, s:o, s:o, s:I, s:o, s:o}", "ok", 1, "inputs", shown, "languages", langs,
                          "divergence_count", (json_int_t)json_array_size(divs), "results", results,
                          "divergences", divs);
    json_object_set_new(r, "execution", cc_verify_execution(fo, cc_matrix_compiles(&c->mx, c->sn.names)));
    return r;
}

static void idle(struct cc_fanout *fo, void *ud) {
    cc_fanout_answer(fo, build(ud, fo));
}

static void destroy(void *ud) {
    struct call *c = ud;
    cc_matrix_free(&c->mx);
    cc_snippets_free(&c->sn);
    json_decref(c->inputs);
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
    size_t runs = c->sn.k * json_array_size(c->inputs);
    if (runs > RUNS_MAX)
        return cc_verify_invalid("use fewer inputs or fewer languages per call",
                                 "%zu snippets x %zu inputs = %zu runs, over the %d one call may make", c->sn.k,
                                 json_array_size(c->inputs), runs, RUNS_MAX);
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
    c->inputs = cc_verify_inputs_arg(args, "inputs", &err);
    if (c->inputs) err = read_snippets(c, json_object_get(args, "snippets"));
    struct cc_fanout *fo = cc_fanout_open(srv, r, c, idle, destroy, err);
    if (!fo) return;
    if (cc_matrix_start(&c->mx, fo, c->sn.prog, c->sn.k, c->inputs, RUN_TIMEOUT_S, false, false) != 0) {
        json_t *e = cc_err("internal", "out of memory");
        cc_fanout_answer(fo, e);
    }
}
