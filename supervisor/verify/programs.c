/* Arguments, programs and the run matrix of the verification tools (see
 * programs.h). */
#include "supervisor/verify/programs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/sessions/sessions.h"
#include "supervisor/verify/rules.h"
#include "workers/common/tool_api.h"
#include "workers/exec/execute.h"
#include "workers/exec/lang_refusal.h"
#include "workers/exec/program_ops.h"

/* ---- arguments ------------------------------------------------------------ */

json_t *cc_verify_invalid(const char *remedy, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *e = cc_err("validation", "%s", msg);
    if (remedy) json_object_set_new(e, "remedy", json_string(remedy));
    return e;
}

static const char *checked_string(json_t *v, const char *key, bool is_code, json_t **err) {
    if (!json_is_string(v)) {
        *err = cc_verify_invalid(NULL, "%s must be a string", key);
        return NULL;
    }
    if (is_code && json_string_length(v) > CC_VERIFY_CODE_MAX) {
        *err = cc_verify_invalid("send the function under test and a small driver, not a whole code base",
                                 "%s is %zu bytes, over the %u-byte limit for one program", key,
                                 json_string_length(v), CC_VERIFY_CODE_MAX);
        return NULL;
    }
    return json_string_value(v);
}

const char *cc_verify_str_arg(json_t *args, const char *key, bool is_code, json_t **err) {
    return checked_string(json_object_get(args, key), key, is_code, err);
}

/* A snippet's code (snippets.<lang>): NULL when it is a string within the
 * code cap, else the refusal. */
static json_t *snippet_code(const char *lang, json_t *code) {
    char key[96];
    json_t *err = NULL;
    snprintf(key, sizeof key, "snippets.%.80s", lang);
    checked_string(code, key, true, &err);
    return err;
}

json_t *cc_snippets_read(struct cc_snippets *sn, json_t *snippets, bool unknown_ok) {
    memset(sn, 0, sizeof *sn);
    if (!json_is_object(snippets)) return cc_verify_invalid(NULL, "snippets must be an object {language: code}");
    size_t k = json_object_size(snippets);
    if (k > CC_VERIFY_SNIPPETS_MAX)
        return cc_verify_invalid(NULL, "snippets has %zu languages; at most %d are compared in one call", k,
                                 CC_VERIFY_SNIPPETS_MAX);
    sn->prog = calloc(k + 1, sizeof *sn->prog);
    sn->names = calloc(k + 1, sizeof *sn->names);
    if (!sn->prog || !sn->names) return cc_err("internal", "out of memory");
    const char *key;
    json_t *code, *err;
    json_object_foreach(snippets, key, code) {
        const char *lang = cc_session_lang(key);
        if (!lang && !unknown_ok) return cc_verify_unknown_language("snippets", key);
        if ((err = snippet_code(key, code))) return err;
        sn->names[sn->k] = key;
        sn->prog[sn->k++] = (struct cc_prog){.lang = lang ? lang : key, .code = json_string_value(code),
                                             .code_len = json_string_length(code), .known = lang != NULL,
                                             .label = strdup(key)};
    }
    return NULL;
}

void cc_snippets_free(struct cc_snippets *sn) {
    for (size_t j = 0; sn->prog && j < sn->k; j++) cc_prog_free(&sn->prog[j]);
    free(sn->prog);
    free(sn->names);
    memset(sn, 0, sizeof *sn);
}

const char *cc_verify_lang_arg(json_t *args, const char *key, json_t **err) {
    json_t *err_ = NULL;
    const char *spelled = cc_verify_str_arg(args, key, false, &err_);
    if (!spelled) {
        *err = err_;
        return NULL;
    }
    const char *lang = cc_session_lang(spelled);
    if (!lang) *err = cc_verify_unknown_language(key, spelled);
    return lang;
}

json_t *cc_verify_unknown_language(const char *field, const char *spelled) {
    json_t *e = cc_unknown_language(spelled);
    char *msg = NULL;
    if (asprintf(&msg, "%s: %s", field, json_string_value(json_object_get(e, "error"))) >= 0) {
        json_object_set_new(e, "error", json_string(msg));
        free(msg);
    }
    json_object_set_new(e, "remedy", json_string("use a name from available_languages (list_languages "
                                                  "tells which are installed here)"));
    return e;
}

static const char *const default_inputs[] = {"", "0", "1", "-1", "10", "100", "0.1\n0.2", NULL};

json_t *cc_verify_inputs_arg(json_t *args, const char *key, json_t **err) {
    json_t *v = json_object_get(args, key);
    if (!v || json_is_null(v) || (json_is_array(v) && json_array_size(v) == 0)) {
        json_t *d = json_array();
        for (int i = 0; default_inputs[i]; i++) json_array_append_new(d, json_string(default_inputs[i]));
        return d;
    }
    if (!json_is_array(v)) {
        *err = cc_verify_invalid(NULL, "%s must be an array of strings (each one program's stdin) or null",
                                 key);
        return NULL;
    }
    if (json_array_size(v) > CC_VERIFY_INPUTS_MAX) {
        *err = cc_verify_invalid("split the inputs over several calls",
                                 "%s has %zu entries; at most %d are run in one call", key,
                                 json_array_size(v), CC_VERIFY_INPUTS_MAX);
        return NULL;
    }
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        if (!json_is_string(e)) {
            *err = cc_verify_invalid("write each input as the text the program reads, e.g. \"42\" not 42",
                                     "%s[%zu] is not a string: each input is one program's stdin", key, i);
            return NULL;
        }
        if (json_string_length(e) > CC_VERIFY_INPUT_MAX) {
            *err = cc_verify_invalid(NULL, "%s[%zu] is %zu bytes, over the %u-byte limit for one stdin", key,
                                     i, json_string_length(e), CC_VERIFY_INPUT_MAX);
            return NULL;
        }
    }
    return json_incref(v);
}

/* ---- programs ------------------------------------------------------------- */

void cc_prog_free(struct cc_prog *p) {
    free(p->label);
    json_decref(p->compile);
    p->label = NULL;
    p->compile = NULL;
}

void cc_prog_count_compile(struct cc_prog *p, const json_t *result) {
    /* "cached" is present for a compiled language: false when the
     * compiler ran for this request. */
    if (json_is_false(json_object_get(result, "cached"))) p->compiles++;
}

static json_t *program_args(const struct cc_prog *p, int64_t timeout_s) {
    return json_pack("{s:s, s:s%, s:I, s:I}", "language", p->lang, "code", p->code, p->code_len,
                     "timeout", (json_int_t)timeout_s, "max_memory_mb", (json_int_t)CC_VERIFY_MEMORY_MB);
}

void cc_prog_add_compile(struct cc_fanout *fo, const struct cc_prog *p, int64_t timeout_s,
                         cc_fo_done_fn done, void *ud) {
    char label[96];
    snprintf(label, sizeof label, "compile %s", p->label);
    struct cc_fo_job_spec s = {.op = CC_EXEC_OP_COMPILE, .args = program_args(p, timeout_s),
                               .deadline_ms = timeout_s * 1000 + CC_VERIFY_SLACK_MS, .label = label,
                               .done = done, .ud = ud};
    cc_fanout_add(fo, &s);
}

void cc_prog_add_run(struct cc_fanout *fo, const struct cc_prog *p, const char *in, size_t in_len,
                     int64_t timeout_s, bool timed, const char *label, cc_fo_done_fn done, void *ud) {
    json_t *args = program_args(p, timeout_s);
    json_object_set_new(args, "stdin", json_stringn(in, in_len));
    struct cc_fo_job_spec s = {.op = CC_EXEC_OP_RUN, .args = args,
                               .deadline_ms = timeout_s * 1000 + CC_VERIFY_SLACK_MS, .label = label,
                               .counted = true, .timed = timed, .done = done, .ud = ud};
    cc_fanout_add(fo, &s);
}

void cc_prog_compiled(struct cc_prog *p, json_t *result) {
    cc_prog_count_compile(p, result);
    json_decref(p->compile);
    p->compile = result;
    /* Only a compile step that ran and failed stands for every run; a
     * request that failed (no verdict) leaves each run to compile. */
    p->compile_failed = cc_res_compile_failed(result);
}

char *cc_input_label(const char *in, size_t i, size_t n) {
    char *head = cc_verify_prefix(in, 20);
    json_t *s = json_string(head ? head : "");
    char *q = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;
    char *label = NULL;
    if (asprintf(&label, "input %zu/%zu %s%s", i + 1, n, q ? q : "\"\"",
                 head && strlen(head) < strlen(in) ? "..." : "") < 0)
        label = NULL;
    free(q);
    json_decref(s);
    free(head);
    return label;
}

/* ---- sides of a result ------------------------------------------------------ */

bool cc_res_ok(const json_t *res) { return json_is_true(json_object_get(res, "ok")); }

bool cc_res_stdout_cut(const json_t *res) {
    const json_t *out = json_object_get(res, "stdout");
    size_t len = json_string_length(out), m = strlen(CC_TRUNC_MARKER);
    return json_is_true(json_object_get(res, "output_truncated")) && json_is_string(out) && len >= m &&
           memcmp(json_string_value(out) + len - m, CC_TRUNC_MARKER, m) == 0;
}

bool cc_res_compile_failed(const json_t *res) {
    const char *phase = json_string_value(json_object_get(res, "phase"));
    return !cc_res_ok(res) && phase && strcmp(phase, "compile") == 0;
}

char *cc_res_stdout_norm(const json_t *res, char **visible) {
    json_t *out = json_object_get(res, "stdout");
    const char *sha = json_string_value(json_object_get(res, "stdout_sha256"));
    char *n = cc_verify_normalise(json_string_value(out) ? json_string_value(out) : "",
                                  json_string_value(out) ? json_string_length(out) : 0);
    if (visible) *visible = n ? strdup(n) : NULL;
    if (!n || !sha) return n;
    char *tagged = NULL;
    if (asprintf(&tagged, "%s%s%s", n, CC_RAW_TAG, sha) < 0) tagged = NULL;
    free(n);
    return tagged;
}

json_t *cc_side_json(const json_t *res, size_t out_chars, size_t err_chars, char **norm) {
    json_t *verdict = json_object_get(res, "verdict");
    const char *err = json_string_value(json_object_get(res, "stderr"));
    /* A rejected request (no verdict) tells why in its error. */
    if (!verdict) err = json_string_value(json_object_get(res, "error"));
    const char *phase = json_string_value(json_object_get(res, "phase"));
    char *shown = NULL, *n = cc_res_stdout_norm(res, &shown);
    char *o = cc_verify_prefix(shown ? shown : "", out_chars), *e = cc_verify_prefix(err ? err : "", err_chars);
    json_t *side = json_pack("{s:b, s:s, s:O, s:o, s:s}", "ok", cc_res_ok(res), "phase", phase ? phase : "run",
                             "verdict", verdict ? verdict : json_null(), "stdout",
                             cc_verify_text_json(o ? o : ""), "stderr", e ? e : "");
    /* A failed run's exit code: two failures are compared by it (rule 39). */
    json_t *code = json_object_get(res, "exit_code");
    if (!cc_res_ok(res) && json_is_integer(code)) json_object_set(side, "exit_code", code);
    free(o);
    free(e);
    free(shown);
    if (norm) *norm = n;
    else free(n);
    return side;
}

/* ---- the matrix ------------------------------------------------------------ */

struct slot {
    struct cc_matrix *mx;
    size_t j, i;                  /* program, input (i unused for a compile) */
};

static struct slot *run_slot(struct cc_matrix *mx, size_t j, size_t i) {
    return (struct slot *)mx->slots + mx->k + j * mx->n + i;
}

static const char *input_at(const struct cc_matrix *mx, size_t i, size_t *len) {
    json_t *v = json_array_get(mx->inputs, i);
    *len = json_string_length(v);
    return json_string_value(v);
}

static void on_run(struct cc_fanout *fo, void *ud, json_t *res) {
    (void)fo;
    struct slot *s = ud;
    struct cc_matrix *mx = s->mx;
    cc_prog_count_compile(&mx->prog[s->j], res);
    json_decref(mx->res[s->j * mx->n + s->i]);
    mx->res[s->j * mx->n + s->i] = res;
}

static char *run_label(const struct cc_matrix *mx, size_t j, size_t i) {
    size_t len;
    char *in = cc_input_label(input_at(mx, i, &len), i, mx->n), *label = NULL;
    if (asprintf(&label, "%s: %s", in ? in : "input", mx->prog[j].label) < 0) label = NULL;
    free(in);
    return label;
}

/* Program j's runs: real ones, or its compile failure standing for each. */
static void queue_runs(struct cc_matrix *mx, size_t j) {
    struct cc_prog *p = &mx->prog[j];
    for (size_t i = 0; i < mx->n; i++) {
        char *label = run_label(mx, j, i);
        if (!p->known) {
            /* compare_execution: an unknown language is a failed row. */
            mx->res[j * mx->n + i] = cc_unknown_language(p->lang);
            cc_fanout_note(mx->fo, label);
        } else if (p->compile_failed) {
            mx->res[j * mx->n + i] = json_incref(p->compile);
            cc_fanout_note(mx->fo, label);
        } else {
            size_t len;
            const char *in = input_at(mx, i, &len);
            cc_prog_add_run(mx->fo, p, in, len, cc_matrix_timeout(mx, i), mx->timed, label, on_run,
                            run_slot(mx, j, i));
        }
        free(label);
    }
}

static void on_compile(struct cc_fanout *fo, void *ud, json_t *res) {
    (void)fo;
    struct slot *s = ud;
    cc_prog_compiled(&s->mx->prog[s->j], res);
    if (!s->mx->staged) queue_runs(s->mx, s->j);
}

int cc_matrix_start(struct cc_matrix *mx, struct cc_fanout *fo, struct cc_prog *prog, size_t k,
                    json_t *inputs, int64_t timeout_s, bool staged, bool timed) {
    *mx = (struct cc_matrix){.fo = fo, .k = k, .n = json_array_size(inputs), .prog = prog,
                             .inputs = inputs, .timeout_s = timeout_s, .staged = staged, .timed = timed,
                             .edge_from = json_array_size(inputs), .edge_timeout_s = timeout_s};
    mx->res = calloc(k * mx->n + 1, sizeof *mx->res);
    struct slot *slots = calloc(k + k * mx->n + 1, sizeof *slots);
    mx->slots = slots;
    if (!mx->res || !slots) return -1;
    for (size_t j = 0; j < k; j++) {
        slots[j] = (struct slot){mx, j, 0};
        for (size_t i = 0; i < mx->n; i++) *run_slot(mx, j, i) = (struct slot){mx, j, i};
    }
    cc_fanout_plan(fo, (int)(k * mx->n));
    for (size_t j = 0; j < k; j++) {
        if (prog[j].known) cc_prog_add_compile(fo, &prog[j], timeout_s, on_compile, &slots[j]);
        else if (!staged) queue_runs(mx, j);
    }
    return 0;
}

void cc_matrix_edges(struct cc_matrix *mx, size_t from, int64_t timeout_s) {
    mx->edge_from = from;
    mx->edge_timeout_s = timeout_s;
}

int64_t cc_matrix_timeout(const struct cc_matrix *mx, size_t i) {
    return i >= mx->edge_from ? mx->edge_timeout_s : mx->timeout_s;
}

void cc_matrix_runs(struct cc_matrix *mx) {
    for (size_t j = 0; j < mx->k; j++) queue_runs(mx, j);
}

const json_t *cc_matrix_res(const struct cc_matrix *mx, size_t j, size_t i) {
    return mx->res ? mx->res[j * mx->n + i] : NULL;
}

void cc_matrix_free(struct cc_matrix *mx) {
    for (size_t x = 0; mx->res && x < mx->k * mx->n; x++) json_decref(mx->res[x]);
    free(mx->res);
    free(mx->slots);
    mx->res = NULL;
    mx->slots = NULL;
}

json_t *cc_matrix_compiles(const struct cc_matrix *mx, const char *const *names) {
    json_t *o = json_object();
    for (size_t j = 0; j < mx->k; j++) json_object_set_new(o, names[j], json_integer(mx->prog[j].compiles));
    return o;
}

json_t *cc_verify_execution(const struct cc_fanout *fo, json_t *compiles) {
    const struct cc_fanout_stats *st = cc_fanout_stats(fo);
    json_t *e = json_pack("{s:i, s:o, s:i, s:i}", "runs", st->runs, "compiles", compiles, "max_in_flight",
                          st->max_in_flight, "share", st->limit);
    if (st->timed_runs)
        json_object_set_new(e, "timing", json_pack("{s:i, s:i, s:s}", "timed_runs", st->timed_runs,
                                                   "max_in_flight", st->timed_overlap, "measured",
                                                   CC_VERIFY_TIMING_NOTE));
    return e;
}
