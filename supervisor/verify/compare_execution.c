/* compare_execution (TOOLS.md 3.1.5): one snippet per language, side by
 * side, and which working run was fastest. Every program is compiled first
 * (in parallel), then the runs are timed one at a time so no run of this
 * call skews another's duration_ms; a timed-out run is run once more. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/mcp/local_tools.h"
#include "supervisor/sessions/sessions.h"
#include "supervisor/verify/programs.h"
#include "supervisor/verify/rules.h"
#include "workers/common/tool_api.h"

#define TIMEOUT_DEFAULT_S 15
#define DEADLINE_S 900
#define ERR_CHARS 500

struct retry {
    struct call *c;
    size_t j;
};

struct call {
    json_t *args;                 /* the programs live here */
    json_t *inputs;               /* [stdin] */
    int64_t timeout_s;
    struct cc_snippets sn;
    struct cc_matrix mx;
    int stage;                    /* 0 compiles, 1 runs, 2 retries, 3 done */
    json_t **retry;               /* per snippet: the second attempt */
    struct retry *rslots;
};

static bool timed_out(const json_t *res) { return json_is_true(json_object_get(res, "timed_out")); }

static void on_retry(struct cc_fanout *fo, void *ud, json_t *res) {
    (void)fo;
    struct retry *s = ud;
    cc_prog_count_compile(&s->c->sn.prog[s->j], res);
    json_decref(s->c->retry[s->j]);
    s->c->retry[s->j] = res;
}

/* Cold retry: each timed-out run once more, also one at a time. */
static int queue_retries(struct call *c, struct cc_fanout *fo) {
    int k = 0;
    json_t *in = json_array_get(c->inputs, 0);
    for (size_t j = 0; j < c->sn.k; j++) {
        if (!timed_out(cc_matrix_res(&c->mx, j, 0))) continue;
        char label[160];
        snprintf(label, sizeof label, "%s: cold retry after a timeout", c->sn.names[j]);
        c->rslots[j] = (struct retry){c, j};
        cc_fanout_plan(fo, 1);
        cc_prog_add_run(fo, &c->sn.prog[j], json_string_value(in), json_string_length(in), c->timeout_s, true,
                        label, on_retry, &c->rslots[j]);
        k++;
    }
    return k;
}

static json_t *int_or_null(const json_t *v) { return json_is_integer(v) ? json_incref((json_t *)v) : json_null(); }

/* Row j of the results; fills the rules' view of it. */
static json_t *build_row(struct call *c, size_t j, struct cc_cmp_row *view) {
    const json_t *first = cc_matrix_res(&c->mx, j, 0), *res = c->retry[j] ? c->retry[j] : first;
    bool envelope = json_object_get(res, "verdict") != NULL;
    /* The stdout as captured, NUL bytes included. */
    json_t *out_j = envelope ? json_object_get(res, "stdout") : NULL;
    const char *out = json_string_value(out_j);
    size_t out_len = out ? json_string_length(out_j) : 0;
    const char *err = envelope ? json_string_value(json_object_get(res, "stderr")) : "";
    char *err500 = cc_verify_prefix(err ? err : "", ERR_CHARS);
    json_t *dur = envelope ? int_or_null(json_object_get(res, "duration_ms")) : json_null();
    json_t *code = envelope ? int_or_null(json_object_get(res, "exit_code")) : json_null();
    json_t *row = json_pack("{s:s, s:b, s:o, s:s, s:o, s:O, s:b, s:b}", "language", c->sn.names[j], "ok",
                            cc_res_ok(res), "stdout", json_stringn(out ? out : "", out_len), "stderr",
                            err500 ? err500 : "",
                            "exit_code", code, "duration_ms", dur, "timed_out", timed_out(res), "cold_retry",
                            c->retry[j] != NULL);
    if (c->retry[j]) {
        json_object_set_new(row, "cold_retry_recovered", json_boolean(!timed_out(res)));
        json_object_set_new(row, "first_attempt_ms", int_or_null(json_object_get(first, "duration_ms")));
    }
    /* Why nothing ran (unknown language, a failed request): not a verdict. */
    if (!envelope) json_object_set(row, "error", json_object_get(res, "error"));
    size_t lead = 0;
    while (lead < out_len && strchr(" \t\n\r\v\f", out[lead]) && out[lead]) lead++;
    *view = (struct cc_cmp_row){.language = c->sn.names[j], .ok = cc_res_ok(res), .timed_out = timed_out(res),
                                .has_duration = json_is_integer(dur),
                                .duration_ms = json_integer_value(dur), .printed = lead < out_len,
                                .exit_code = code};
    json_decref(dur);
    free(err500);
    return row;
}

static json_t *build(struct call *c, struct cc_fanout *fo) {
    json_t *rows = json_array();
    struct cc_cmp_row *view = calloc(c->sn.k + 1, sizeof *view);
    int succeeded = 0;
    for (size_t j = 0; view && j < c->sn.k; j++) {
        json_array_append_new(rows, build_row(c, j, &view[j]));
        succeeded += view[j].ok;
    }
    int f = view ? cc_cmp_fastest(view, c->sn.k) : -1;
    json_t *disc = view ? cc_cmp_discrepancies(view, c->sn.k, c->timeout_s) : json_array();
    json_t *r = json_pack("{s:b, s:I, s:i, s:o, s:o, s:o, s:o}", "ok", 1, "count", (json_int_t)c->sn.k,
                          "succeeded", succeeded, "results", rows, "fastest",
                          f >= 0 ? json_string(c->sn.names[f]) : json_null(), "fastest_note",
                          f >= 0 ? json_null() : json_string("no language ran successfully"),
                          "discrepancies", disc);
    json_object_set_new(r, "execution", cc_verify_execution(fo, cc_matrix_compiles(&c->mx, c->sn.names)));
    free(view);
    return r;
}

static void idle(struct cc_fanout *fo, void *ud) {
    struct call *c = ud;
    if (c->stage == 0 && c->sn.k > 0) {
        c->stage = 1;
        cc_fanout_set_limit(fo, 1); /* timing: one run at a time */
        cc_matrix_runs(&c->mx);
        return;
    }
    if (c->stage == 1) {
        c->stage = 2;
        if (queue_retries(c, fo) > 0) return;
    }
    c->stage = 3;
    cc_fanout_answer(fo, build(c, fo));
}

static void destroy(void *ud) {
    struct call *c = ud;
    cc_matrix_free(&c->mx);
    for (size_t j = 0; c->retry && j < c->sn.k; j++) json_decref(c->retry[j]);
    cc_snippets_free(&c->sn);
    free(c->retry);
    free(c->rslots);
    json_decref(c->inputs);
    json_decref(c->args);
    free(c);
}

/* Arguments; NULL when valid, else the refusal. */
static json_t *read_args(struct call *c, json_t *args) {
    json_t *in = json_object_get(args, "stdin"), *t = json_object_get(args, "timeout");
    if (in && !json_is_null(in) && !json_is_string(in)) return cc_verify_invalid(NULL, "stdin must be a string");
    if (in && json_is_string(in) && json_string_length(in) > CC_VERIFY_INPUT_MAX)
        return cc_verify_invalid(NULL, "stdin is %zu bytes, over the %u-byte limit", json_string_length(in),
                                 CC_VERIFY_INPUT_MAX);
    c->timeout_s = TIMEOUT_DEFAULT_S;
    if (t && !json_is_null(t)) {
        if (!json_is_integer(t) || json_integer_value(t) > DEADLINE_S)
            return cc_verify_invalid("use a timeout of at most 900 s",
                                     "timeout must be at most %d s, this tool's response deadline", DEADLINE_S);
        c->timeout_s = json_integer_value(t) < 1 ? 1 : json_integer_value(t);
    }
    json_t *err = cc_snippets_read(&c->sn, json_object_get(args, "snippets"), true);
    if (err) return err;
    c->inputs = json_is_string(in) ? json_pack("[O]", in) : json_pack("[s]", "");
    c->retry = calloc(c->sn.k + 1, sizeof *c->retry);
    c->rslots = calloc(c->sn.k + 1, sizeof *c->rslots);
    if (!c->inputs || !c->retry || !c->rslots) return cc_err("internal", "out of memory");
    return NULL;
}

CC_LOCAL_TOOL(compare_execution) {
    struct call *c = calloc(1, sizeof *c);
    if (!c) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    c->args = json_incref(args);
    json_t *err = read_args(c, args);
    struct cc_fanout *fo = cc_fanout_open(srv, r, c, idle, destroy, err);
    if (!fo) return;
    if (cc_matrix_start(&c->mx, fo, c->sn.prog, c->sn.k, c->inputs, c->timeout_s, true, true) != 0) {
        json_t *e = cc_err("internal", "out of memory");
        cc_fanout_answer(fo, e);
    }
}
