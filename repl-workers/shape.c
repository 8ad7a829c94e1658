/* The session-worker result (TOOLS.md 1.11) and its unenforced list (4.4),
 * built here because the launcher is the one process that knows both the
 * request and how the host answered (or failed to). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl-workers/launcher.h"
#include "protocol/text_knob.h"
#include "workers/common/tool_api.h"
#include "workers/exec/execute.h"
#include "workers/exec/receipt.h"

static const char *const per_call[][2] = {
    {"max_memory_mb", "max_memory_mb: fixed at worker start; use a workspace session or omit session_id"},
    {"max_cpu", "max_cpu: cumulative across a long-lived worker; the per-call wall clock applies instead"},
    {"no_net", "no_net: enforcement (seccomp where the Linux kernel supports it, a symbol shim "
               "otherwise) is applied at exec; start the session without a worker to use it"},
    {"max_output_kb", "max_output_kb: the worker caps at 64 KiB; a custom cap needs a fresh process"},
};

static bool name_present(json_t *arr, const char *entry) {
    size_t n = strcspn(entry, ":");
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        const char *s = json_string_value(v);
        if (s && strncmp(s, entry, n) == 0 && (s[n] == ':' || s[n] == '\0')) return true;
    }
    return false;
}

static void add_unique(json_t *arr, const char *entry) {
    if (!name_present(arr, entry)) json_array_append_new(arr, json_string(entry));
}

json_t *rl_structural_unenforced(const struct launcher *L) {
    json_t *a = json_array();
    add_unique(a, "no_net: the host is long-lived and started without the network filter, so this "
                  "session reaches the network");
    add_unique(a, "process_group_kill: applied per call on the one-shot path; here the host's tree "
                  "is killed at timeout, memory exhaustion or session_stop, so a background child "
                  "outlives the call that started it");
    add_unique(a, "peak_memory_kb: not measured for worker calls; the field is null rather than zero");
    char mem[160];
    snprintf(mem, sizeof mem, "memory_ceiling: the host's whole tree shares one %llu MiB ceiling "
             "(CODECALC_REPL_MEMORY_MB); reaching it kills the host and loses its state",
             (unsigned long long)rl_host_memory_mb());
    add_unique(a, mem);
    add_unique(a, cc_exec_workspace_disk_bound());
    for (size_t i = 0; i < L->setup.n_unenforced; i++) add_unique(a, L->setup.unenforced[i]);
    if (!rl_host_confined(L))
        add_unique(a, "filesystem_confinement: the host's sandbox could not hide the rest of the "
                      "filesystem here; it can read any path this user can");
    return a;
}

static bool arg_set(json_t *args, const char *key) {
    json_t *v = json_object_get(args, key);
    if (json_is_integer(v)) return json_integer_value(v) > 0;
    return json_is_true(v);
}

/* 4.4: per-call entries (only ceilings the caller set), then structure. */
static json_t *unenforced_for(const struct launcher *L, json_t *args) {
    json_t *a = json_array();
    for (size_t i = 0; i < sizeof per_call / sizeof per_call[0]; i++)
        if (arg_set(args, per_call[i][0])) add_unique(a, per_call[i][1]);
    json_t *s = rl_structural_unenforced(L);
    size_t i;
    json_t *v;
    json_array_foreach(s, i, v) add_unique(a, json_string_value(v));
    json_decref(s);
    return a;
}

static int64_t int_arg(json_t *args, const char *key, int64_t dflt) {
    json_t *v = json_object_get(args, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : dflt;
}

static void add_receipt(const struct launcher *L, json_t *res, json_t *args) {
    json_t *lang = json_object_get(args, "language"), *code = json_object_get(args, "code");
    json_t *in = json_object_get(args, "stdin");
    int64_t t = int_arg(args, "timeout", 30);
    struct cc_exec_spec spec = {
        .language = json_is_string(lang) ? json_string_value(lang) : L->lang,
        .code = json_is_string(code) ? json_string_value(code) : "",
        .code_len = json_is_string(code) ? json_string_length(code) : 0,
        .stdin_data = json_is_string(in) ? json_string_value(in) : "",
        .stdin_len = json_is_string(in) ? json_string_length(in) : 0,
        .timeout = t < 1 ? 1 : t,
        .max_memory_mb = int_arg(args, "max_memory_mb", 0),
        .max_output_kb = int_arg(args, "max_output_kb", 0),
        .max_cpu = int_arg(args, "max_cpu", 0),
        .no_net = json_is_true(json_object_get(args, "no_net")),
    };
    struct cc_broker b;
    memset(&b, 0, sizeof b);
    if (cc_broker_decide(&spec, false, cc_text(CC_TEXT_CAPABILITY_POLICY), "local", &b) != 0) return;
    json_t *receipt = cc_receipt_local(&spec, L->id, json_object_get(res, "unenforced"), b.capabilities);
    if (receipt) json_object_set_new(res, "provider", receipt);
    cc_broker_free(&b);
}

static json_t *base(const struct launcher *L, json_t *args, bool ok, const char *verdict) {
    return json_pack("{s:b,s:s,s:s,s:o,s:b}", "ok", ok, "verdict", verdict, "backend", "session-worker",
                     "unenforced", unenforced_for(L, args), "confined", rl_host_confined(L));
}

json_t *rl_shape_answer(const struct launcher *L, json_t *args, json_t *hr) {
    json_t *v = json_object_get(hr, "verdict");
    const char *verdict = json_string_value(v);
    /* TLE: the host itself stopped waiting for the call's timers (node). */
    if (!verdict || (strcmp(verdict, "OK") && strcmp(verdict, "OLE") && strcmp(verdict, "RTE") &&
                     strcmp(verdict, "TLE") && strcmp(verdict, "MLE")))
        verdict = "RTE";
    json_t *res = base(L, args, json_is_true(json_object_get(hr, "ok")), verdict);
    static const char *const keys[] = {"stdout", "stderr", "exit_code", "output_truncated", NULL};
    for (int i = 0; keys[i]; i++) {
        json_t *x = json_object_get(hr, keys[i]);
        json_object_set(res, keys[i], x ? x : json_null());
    }
    /* Why it ended, when the host knows (python: an allocation the
     * address-space ceiling refused). */
    json_t *why = json_object_get(hr, "reason");
    if (json_is_string(why)) json_object_set(res, "reason", why);
    json_object_set_new(res, "timed_out", json_boolean(json_is_true(json_object_get(hr, "timed_out"))));
    json_object_set_new(res, "session", json_true());
    add_receipt(L, res, args);
    return res;
}

json_t *rl_shape_failure(const struct launcher *L, json_t *args, const char *code, const char *verdict,
                         const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *res = base(L, args, false, verdict);
    json_t *err = cc_err(code, "%s", msg);
    json_object_update_missing(res, err);
    json_decref(err);
    json_object_set(res, "ok", json_false());
    add_receipt(L, res, args);
    return res;
}
