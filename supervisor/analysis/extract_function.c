/* extract_function (TOOLS.md 3.5.3): cut a named function (and, for
 * python3, what it needs) out of a program into a standalone one, and run
 * it on test inputs.
 *
 * The supervisor only orchestrates: the extraction is an exec-pool request
 * (workers/exec/extract.h: the code is parsed inside the sandbox), and the
 * runs are one execute_code per input, handed to the exec pool together
 * (supervisor/exec_fanout.h) so they run in parallel. The first input runs
 * alone first, so a compiled language is compiled once and the other runs
 * find it in the compile cache instead of compiling side by side. */
#include <stdlib.h>
#include <string.h>

#include "protocol/utf8.h"
#include "supervisor/exec_fanout.h"
#include "supervisor/mcp/local_tools.h"
#include "supervisor/sessions/sessions.h"
#include "workers/common/tool_api.h"
#include "workers/exec/extract.h"

#define RUN_TIMEOUT_S 15
/* Each input is its own exec-pool request: bounded like the verification
 * tools' inputs. */
#define INPUTS_MAX 64
/* Backstop of each sub-request; the tool's own deadline (900 s) and each
 * run's timeout end things first. */
#define SUB_DEADLINE_S 900

static const char *const default_inputs[] = {"", "0", "1", "-1", "10", "100", "0.1\n0.2"};

struct job {
    struct cc_req *r;
    uint64_t wid;
    json_t *inputs;       /* strings (owned) */
    json_t *extraction;   /* the exec worker's answer (owned) */
    json_t *results;      /* execute_code results so far, input order (owned) */
};

static void job_free(struct job *j) {
    json_decref(j->inputs);
    json_decref(j->extraction);
    json_decref(j->results);
    free(j);
}

/* The job's request is still waiting for its answer. */
static bool alive(struct cc_server *srv, struct job *j) { return cc_session_req_alive(srv, j->r, j->wid); }

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
    return json_pack("{s:o,s:b,s:o,s:o,s:O}", "input", head(input, 60), "ok",
                     json_is_true(json_object_get(res, "ok")), "stdout", head(json_object_get(res, "stdout"), 400),
                     "stderr", head(err, 200), "verdict", json_is_string(verdict) ? verdict : json_null());
}

static void answer_runs(struct job *j) {
    json_t *out = json_deep_copy(j->extraction), *runs = json_array();
    bool passed = true;
    for (size_t i = 0; i < json_array_size(j->inputs); i++) {
        json_t *rec = run_record(json_array_get(j->inputs, i), json_array_get(j->results, i));
        passed = passed && json_is_true(json_object_get(rec, "ok"));
        json_array_append_new(runs, rec);
    }
    json_object_set_new(out, "runs", runs);
    json_object_set_new(out, "passed", json_boolean(passed));
    cc_session_answer(j->r, out);
    json_decref(out);
}

/* execute_code arguments for inputs [from, to). */
static json_t *run_calls(const struct job *j, size_t from, size_t to) {
    json_t *list = json_array();
    json_t *x = j->extraction;
    for (size_t i = from; i < to; i++)
        json_array_append_new(list, json_pack("{s:O,s:O,s:O,s:i}", "language", json_object_get(x, "language"),
                                              "code", json_object_get(x, "extracted_program"), "stdin",
                                              json_array_get(j->inputs, i), "timeout", RUN_TIMEOUT_S));
    return list;
}

static void on_runs(struct cc_server *srv, void *ud, json_t *results);

static void submit_runs(struct cc_server *srv, struct job *j, size_t from, size_t to) {
    json_t *calls = run_calls(j, from, to);
    int rc = cc_fanout_exec(srv, "execute_code", calls, SUB_DEADLINE_S, on_runs, j);
    json_decref(calls);
    if (rc != 0) {
        cc_req_answer_fail(j->r, "internal", "out of memory");
        job_free(j);
    }
}

static void on_runs(struct cc_server *srv, void *ud, json_t *results) {
    struct job *j = ud;
    if (!alive(srv, j)) {
        job_free(j);
        return;
    }
    json_array_extend(j->results, results);
    size_t done = json_array_size(j->results), total = json_array_size(j->inputs);
    if (done < total) {
        submit_runs(srv, j, done, total);
        return;
    }
    answer_runs(j);
    job_free(j);
}

static void on_extracted(struct cc_server *srv, void *ud, json_t *result, const char *err) {
    struct job *j = ud;
    if (!alive(srv, j)) {
        job_free(j);
        return;
    }
    if (!result) {
        cc_req_answer_fail(j->r, "internal", "extraction failed: %s", err ? err : "no answer");
        job_free(j);
        return;
    }
    /* A refusal, or extraction only (no `call` outside python3): as is. */
    if (!json_is_true(json_object_get(result, "ok")) || json_object_get(result, "warning")) {
        json_t *copy = json_deep_copy(result);
        cc_session_answer(j->r, copy);
        json_decref(copy);
        job_free(j);
        return;
    }
    j->extraction = json_deep_copy(result);
    submit_runs(srv, j, 0, 1);
}

/* test_inputs, or the seven defaults for null / [] / absent. */
static json_t *inputs_of(json_t *args) {
    json_t *given = json_object_get(args, "test_inputs");
    if (json_is_array(given) && json_array_size(given) > 0) return json_deep_copy(given);
    json_t *d = json_array();
    for (size_t i = 0; i < sizeof default_inputs / sizeof default_inputs[0]; i++)
        json_array_append_new(d, json_string(default_inputs[i]));
    return d;
}

CC_LOCAL_TOOL(extract_function) {
    json_t *call = json_object_get(args, "call");
    const char *name = json_string_value(json_object_get(args, "function_name"));
    if (!name || !*name) {
        cc_req_answer_fail(r, "validation", "function_name must not be empty");
        return;
    }
    if (json_array_size(json_object_get(args, "test_inputs")) > INPUTS_MAX) {
        cc_req_answer_fail(r, "validation", "at most %d test inputs (each is one run)", INPUTS_MAX);
        return;
    }
    struct job *j = calloc(1, sizeof *j);
    if (!j) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    j->r = r;
    j->wid = r->wid;
    j->inputs = inputs_of(args);
    j->results = json_array();
    json_t *sub = json_pack("{s:O,s:O,s:O,s:O}", "language", json_object_get(args, "language"), "code",
                            json_object_get(args, "code"), "function_name", json_object_get(args, "function_name"),
                            "call", call ? call : json_null());
    if (!sub || cc_sub_exec(srv, CC_EXEC_OP_EXTRACT, sub, SUB_DEADLINE_S, on_extracted, j) != 0) {
        cc_req_answer_fail(r, "internal", "cannot reach the exec workers");
        job_free(j);
    }
    json_decref(sub);
}
