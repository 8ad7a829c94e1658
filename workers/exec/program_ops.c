/* The verification tools' exec ops (program_ops.h): compile once, run one
 * input. Arguments come from the supervisor, which checked the client's;
 * they are read defensively all the same. */
#include "workers/exec/program_ops.h"

#include <stdint.h>
#include <string.h>

#include "workers/exec/execute.h"

static int cancel_tick(void *ud) { return cc_wctx_cancelled(ud) ? 1 : 0; }

static int64_t int_arg(json_t *args, const char *key, int64_t dflt) {
    json_t *v = json_object_get(args, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : dflt;
}

static json_t *program(json_t *args, cc_wctx *ctx, bool compile_only) {
    json_t *lang = json_object_get(args, "language"), *code = json_object_get(args, "code");
    json_t *in = json_object_get(args, "stdin");
    if (!json_is_string(lang) || !json_is_string(code) || (in && !json_is_string(in)))
        return cc_err("internal", "malformed program request");
    struct cc_exec_hooks cancel_only = {.tick = cancel_tick, .ud = ctx};
    int64_t timeout = int_arg(args, "timeout", 15);
    struct cc_exec_req q = {
        .language = json_string_value(lang), .code = json_string_value(code),
        .code_len = json_string_length(code), .stdin_data = in ? json_string_value(in) : "",
        .stdin_len = in ? json_string_length(in) : 0, .timeout = timeout < 1 ? 1 : timeout,
        .max_memory_mb = int_arg(args, "max_memory_mb", 0), .hooks = &cancel_only,
        .compile_only = compile_only, .repeated = true};
    return cc_execute(&q);
}

json_t *cc_exec_program_compile(json_t *args, cc_wctx *ctx) { return program(args, ctx, true); }

json_t *cc_exec_program_run(json_t *args, cc_wctx *ctx) { return program(args, ctx, false); }
