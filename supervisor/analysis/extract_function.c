/* extract_function (TOOLS.md 3.5.3): cut a named function (and, for
 * python3, what it needs) out of a program into a standalone one, and run
 * it on test inputs.
 *
 * The supervisor only orchestrates, on the verification tools' fan-out
 * (supervisor/verify/fanout.h): first the extraction, an exec-pool request
 * (workers/exec/extract.h: the code is parsed inside the sandbox); then the
 * extracted program as a one-program matrix (supervisor/verify/programs.h):
 * compiled once into the compile cache, then run on every input in
 * parallel, as far as the call's share of the exec pool goes. A client
 * that cancels or leaves stops what is still running. */
#include <stdlib.h>
#include <string.h>

#include "protocol/utf8.h"
#include "supervisor/mcp/local_tools.h"
#include "supervisor/sessions/sessions.h"
#include "supervisor/verify/programs.h"
#include "workers/common/tool_api.h"
#include "workers/exec/extract.h"

#define RUN_TIMEOUT_S 15
/* The extraction request's own bound: its run's 15 s plus the sandbox. */
#define EXTRACT_DEADLINE_MS ((CC_EXTRACT_TIMEOUT_S + 30) * 1000)

struct call {
    json_t *args;         /* the client's arguments (referenced) */
    json_t *inputs;       /* strings */
    json_t *extraction;   /* the exec worker's answer, once it came */
    struct cc_prog prog;  /* the extracted program */
    struct cc_matrix mx;  /* its runs, once started */
    bool running;
};

static json_t *head(const json_t *v, size_t chars) {
    const char *s = json_string_value(v);
    if (!s) return json_string("");
    return json_stringn(s, cc_utf8_prefix(s, json_string_length(v), chars));
}

/* {input (60 chars), ok, stdout (400), stderr (200), verdict}. A run
 * refused before it started shows its error as stderr. */
static json_t *run_record(const json_t *input, const json_t *res) {
    const json_t *err = json_object_get(res, "stderr");
    if (!json_object_get(res, "verdict") && json_is_string(json_object_get(res, "error")))
        err = json_object_get(res, "error");
    json_t *verdict = json_object_get(res, "verdict");
    json_t *rec = json_pack("{s:o,s:b,s:o,s:o,s:O}", "input", head(input, 60), "ok", cc_res_ok(res), "stdout",
                            head(json_object_get(res, "stdout"), 400), "stderr", head(err, 200), "verdict",
                            json_is_string(verdict) ? verdict : json_null());
    /* A traceback's first 200 characters rarely reach its error line. */
    const char *e = json_string_value(err);
    size_t n = e ? json_string_length(err) : 0;
    if (rec && e && cc_utf8_prefix(e, n, 200) < n) {
        size_t from = n > 200 ? n - 200 : 0;
        while (from < n && ((unsigned char)e[from] & 0xC0) == 0x80) from++; /* a whole character */
        json_object_set_new(rec, "stderr_tail", json_stringn(e + from, n - from));
    }
    return rec;
}

static json_t *answer(struct call *c) {
    json_t *out = json_deep_copy(c->extraction), *runs = json_array();
    bool passed = true;
    for (size_t i = 0; i < json_array_size(c->inputs); i++) {
        json_t *rec = run_record(json_array_get(c->inputs, i), cc_matrix_res(&c->mx, 0, i));
        passed = passed && json_is_true(json_object_get(rec, "ok"));
        json_array_append_new(runs, rec);
    }
    json_object_del(out, "contract_version");
    json_object_set_new(out, "runs", runs);
    json_object_set_new(out, "passed", json_boolean(passed));
    return out;
}

/* The extracted program, ready for the matrix. 0, or -1 on OOM. */
static int program_of(struct call *c) {
    json_t *x = c->extraction;
    c->prog = (struct cc_prog){.lang = json_string_value(json_object_get(x, "language")),
                               .code = json_string_value(json_object_get(x, "extracted_program")),
                               .code_len = json_string_length(json_object_get(x, "extracted_program")),
                               .label = strdup("extracted program"), .known = true};
    return c->prog.lang && c->prog.code && c->prog.label ? 0 : -1;
}

static void on_extracted(struct cc_fanout *fo, void *ud, json_t *result) {
    (void)fo;
    struct call *c = ud;
    c->extraction = result;
}

/* Between stages: after the extraction, run the program (or answer a
 * refusal or an extraction-only result as it is); after the runs, answer. */
static void idle(struct cc_fanout *fo, void *ud) {
    struct call *c = ud;
    if (c->running) {
        cc_fanout_answer(fo, answer(c));
        return;
    }
    json_t *x = c->extraction;
    if (!json_is_true(json_object_get(x, "ok")) || json_object_get(x, "warning")) {
        c->extraction = NULL;
        cc_fanout_answer(fo, x ? x : cc_err("internal", "the extraction gave no answer"));
        return;
    }
    c->running = true;
    if (program_of(c) != 0 || cc_matrix_start(&c->mx, fo, &c->prog, 1, c->inputs, RUN_TIMEOUT_S, false, false) != 0)
        cc_fanout_answer(fo, cc_err("internal", "out of memory"));
}

static void destroy(void *ud) {
    struct call *c = ud;
    if (c->running) cc_matrix_free(&c->mx);
    cc_prog_free(&c->prog);
    json_decref(c->extraction);
    json_decref(c->inputs);
    json_decref(c->args);
    free(c);
}

CC_LOCAL_TOOL(extract_function) {
    json_t *err = NULL, *call = json_object_get(args, "call");
    const char *name = json_string_value(json_object_get(args, "function_name"));
    struct call *c = calloc(1, sizeof *c);
    if (!c) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    c->args = json_incref(args);
    if (!name || !*name) err = cc_err("validation", "function_name must not be empty");
    else c->inputs = cc_verify_inputs_arg(args, "test_inputs", &err);
    struct cc_fanout *fo = cc_fanout_open(srv, r, c, idle, destroy, err);
    if (!fo) return;
    json_t *sub = json_pack("{s:O,s:O,s:s,s:O}", "language", json_object_get(args, "language"), "code",
                            json_object_get(args, "code"), "function_name", name, "call",
                            call ? call : json_null());
    cc_fanout_add(fo, &(struct cc_fo_job_spec){.op = CC_EXEC_OP_EXTRACT, .args = sub,
                                               .deadline_ms = EXTRACT_DEADLINE_MS, .label = "extraction",
                                               .done = on_extracted, .ud = c});
}
