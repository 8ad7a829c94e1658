/* extract_function's extraction: the embedded extractor, run with python3
 * in the sandbox on the client's code (workers/exec/extract.h). */
#include "workers/exec/extract.h"

#include <stdlib.h>
#include <string.h>

#include "workers/exec/execute.h"
#include "workers/exec/lang_refusal.h"
#include "workers/exec/languages.h"

#define NO_CALL_WARNING "pass `call` (a valid expression in the target language) to execute; only extraction done"

/* The extractor's source (scripts/embed-text of extract_function.py). */
extern const char cc_extract_function_py[];

static int cancel_tick(void *ud) { return cc_wctx_cancelled(ud) ? 1 : 0; }

/* The extractor's run, as an answer: its own JSON, or why there is none. */
static json_t *run_extractor(const char *request, cc_wctx *ctx) {
    struct cc_exec_hooks hooks = {.tick = cancel_tick, .ud = ctx};
    struct cc_exec_req q = {.language = "python3", .code = cc_extract_function_py,
                            .code_len = strlen(cc_extract_function_py), .stdin_data = request,
                            .stdin_len = strlen(request), .timeout = CC_EXTRACT_TIMEOUT_S,
                            .max_output_kb = CC_MAX_OUTPUT_KB, .hooks = ctx ? &hooks : NULL};
    json_t *r = cc_execute(&q);
    if (!r) return cc_err("internal", "out of memory");
    if (!json_object_get(r, "verdict")) return r; /* python3 missing, executor failure */
    const char *verdict = json_string_value(json_object_get(r, "verdict"));
    json_t *out;
    if (json_is_true(json_object_get(r, "output_truncated")))
        out = cc_err("resource_exhausted", "the extracted program is larger than %d KiB", CC_MAX_OUTPUT_KB);
    else if (verdict && strcmp(verdict, "TLE") == 0)
        out = cc_err("timeout", "extraction took longer than %d s", CC_EXTRACT_TIMEOUT_S);
    else if (verdict && strcmp(verdict, "MLE") == 0)
        out = cc_err("resource_exhausted", "extraction ran out of memory");
    else if (!json_is_true(json_object_get(r, "ok")))
        out = cc_err("internal", "the extractor failed (%s): %.300s", verdict ? verdict : "?",
                     json_string_value(json_object_get(r, "stderr")));
    else {
        const char *text = json_string_value(json_object_get(r, "stdout"));
        json_error_t je;
        out = text ? json_loads(text, 0, &je) : NULL;
        if (!json_is_object(out)) {
            json_decref(out);
            out = cc_err("internal", "the extractor printed no answer");
        }
    }
    json_decref(r);
    return out;
}

json_t *cc_exec_extract(json_t *args, cc_wctx *ctx) {
    const char *language = json_string_value(json_object_get(args, "language"));
    const char *name = json_string_value(json_object_get(args, "function_name"));
    json_t *code = json_object_get(args, "code"), *call = json_object_get(args, "call");
    if (!language || !name || !json_is_string(code) || (call && !json_is_null(call) && !json_is_string(call)))
        return cc_err("internal", "malformed extraction request");
    const struct cc_lang *l = cc_lang_find(language);
    if (!l) return cc_unknown_language(language);
    bool python = strcmp(l->name, "python3") == 0;
    json_t *req = json_pack("{s:s,s:O,s:s,s:O}", "mode", python ? "python" : "braces", "code", code, "name", name,
                            "call", call ? call : json_null());
    char *text = req ? json_dumps(req, JSON_COMPACT) : NULL;
    json_decref(req);
    if (!text) return cc_err("internal", "out of memory");
    json_t *ans = run_extractor(text, ctx);
    free(text);
    if (!json_is_boolean(json_object_get(ans, "ok"))) return ans;
    if (!json_is_true(json_object_get(ans, "ok"))) {
        const char *why = json_string_value(json_object_get(ans, "error"));
        json_t *r = json_object_get(ans, "code") ? json_incref(ans) : cc_err("validation", "%s", why ? why : "?");
        json_decref(ans);
        return r;
    }
    json_t *r = json_pack("{s:b,s:s,s:s,s:O,s:O}", "ok", 1, "language", l->name, "function", name,
                          "extracted_program", json_object_get(ans, "program"), "signature",
                          json_object_get(ans, "signature"));
    if (!python && (!call || json_is_null(call))) json_object_set_new(r, "warning", json_string(NO_CALL_WARNING));
    json_t *missing = json_object_get(ans, "not_carried");
    if (json_array_size(missing) > 0) {
        json_object_set(r, "not_carried", missing);
        json_object_set_new(r, "not_carried_note",
                            json_string("the function uses these module-level names, which module-level code "
                                        "other than plain assignments may change (a loop filling a table, a "
                                        "call mutating a list, a conditional definition), so they are not "
                                        "carried and a run stops at a NameError: define them inside the "
                                        "function, or extract with a `call` that defines them first"));
    }
    json_decref(ans);
    return r;
}
