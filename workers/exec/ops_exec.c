/* Tool handlers of the exec worker: list_languages, list_execution_providers
 * and execute_code (one-shot). Argument reading, provider selection, the
 * broker and the receipt live here; running lives in execute.c. */
#include "workers/common/provider_select.h"
#include "protocol/text_knob.h"
#include "workers/common/tool_api.h"
#include "protocol/flag.h"
#include "protocol/monotonic.h"
#include "workers/common/deps.h"
#include "workers/exec/deps_env.h"
#include "workers/exec/execute.h"
#include "workers/exec/languages.h"
#include "workers/exec/receipt.h"
#include "workers/sandbox/sandbox.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXEC_TIMEOUT_DEFAULT 10
#define EXEC_TIMEOUT_MAX 120

CC_TOOL(list_languages) {
    (void)args, (void)ctx;
    return cc_list_languages_json();
}

CC_TOOL(list_execution_providers) {
    (void)args, (void)ctx;
    return cc_list_providers_json();
}

/* ---- argument reading ---------------------------------------------------- */

/* Integer argument (absent/null = dflt), saturated to int64. -1 if not an
 * integer. */
static int arg_int(json_t *args, const char *key, int64_t dflt, int64_t *out) {
    json_t *v = json_object_get(args, key);
    if (!v || json_is_null(v)) {
        *out = dflt;
        return 0;
    }
    mpz_t z;
    mpz_init(z);
    int rc = cc_json_get_mpz(v, z);
    if (rc == 0) {
        if (mpz_fits_slong_p(z)) *out = mpz_get_si(z);
        else *out = mpz_sgn(z) < 0 ? INT64_MIN : INT64_MAX;
    }
    mpz_clear(z);
    return rc;
}

/* Optional string: absent/null -> dflt. -1 when present but not a string. */
static int arg_str(json_t *args, const char *key, const char *dflt, const char **out, size_t *len) {
    json_t *v = json_object_get(args, key);
    if (!v || json_is_null(v)) {
        *out = dflt;
        if (len) *len = dflt ? strlen(dflt) : 0;
        return 0;
    }
    if (!json_is_string(v)) return -1;
    *out = json_string_value(v);
    if (len) *len = json_string_length(v);
    return 0;
}

static int arg_bool(json_t *args, const char *key, bool *out) {
    json_t *v = json_object_get(args, key);
    if (!v || json_is_null(v)) return *out = false, 0;
    if (!json_is_boolean(v)) return -1;
    *out = json_is_true(v);
    return 0;
}

struct exec_args {
    struct cc_exec_spec spec;
    const char *session_id, *provider;
    bool compact;
    bool receipt;             /* the full receipt instead of its short form */
    const char *workdir;      /* "_workdir": set by the supervisor only */
    int64_t capture_kb;       /* "_capture_kb": likewise */
    const char *entry;        /* "_entry": likewise (session_run) */
    int64_t output_kb_asked;  /* max_output_kb before the clamp */
};

/* A cap above the ceiling is applied as the ceiling: say so in unenforced
 * (1.8), or a program within the cap it asked for reads as OLE with
 * nothing explaining why, and the receipt claims max_output_kb enforced. */
static void note_output_clamp(json_t *unenforced, int64_t asked) {
    char *t = NULL;
    if (!json_is_array(unenforced) || asked <= CC_MAX_OUTPUT_KB ||
        asprintf(&t, "max_output_kb_clamped: %lld KiB was asked for; each stream was capped at the %d KiB "
                 "ceiling (a result carries each stream twice and MCP clients refuse messages over 10 MiB); "
                 "write larger output to a file in a workspace session", (long long)asked, CC_MAX_OUTPUT_KB) < 0)
        return;
    json_array_append_new(unenforced, json_string(t));
    free(t);
}

/* A session workspace stays on the host's disk (it outlives the run, and
 * a server restart): no tmpfs or quota holds it during the run, only the
 * sandbox's 50 ms watch of the host's free space and the quota checks
 * before and after the call (hostile5; docs/contract.md 4.6). */
#define WORKSPACE_DISK_BOUND "workspace_disk_bound: on the host's disk; only the CODECALC_MIN_HOST_FREE_MB " \
                             "watch (every 50 ms) and the quota checks before and after the call bound it"

const char *cc_exec_workspace_disk_bound(void) { return WORKSPACE_DISK_BOUND; }

/* Clamps of 3.1.3; NULL on success, else the validation result. */
/* A path with a ".." component. */
static bool climbs(const char *path) {
    for (const char *p = path; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
        if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0')) return true;
    return false;
}

static json_t *read_args(json_t *args, struct exec_args *a, int64_t tdefault, int64_t tmax) {
    struct cc_exec_spec *s = &a->spec;
    memset(a, 0, sizeof *a);
    json_t *lang = json_object_get(args, "language"), *code = json_object_get(args, "code");
    if (!json_is_string(lang)) return cc_err("validation", "language must be a string");
    if (!json_is_string(code)) return cc_err("validation", "code must be a string");
    s->language = json_string_value(lang);
    s->code = json_string_value(code);
    s->code_len = json_string_length(code);
    if (arg_str(args, "stdin", "", &s->stdin_data, &s->stdin_len))
        return cc_err("validation", "stdin must be a string");
    if (arg_int(args, "timeout", tdefault, &s->timeout))
        return cc_err("validation", "timeout must be an integer");
    s->timeout = cc_exec_clamp_timeout(s->timeout, tmax);
    if (arg_int(args, "max_memory_mb", 0, &s->max_memory_mb))
        return cc_err("validation", "max_memory_mb must be an integer");
    if (arg_int(args, "max_output_kb", 0, &s->max_output_kb))
        return cc_err("validation", "max_output_kb must be an integer");
    a->output_kb_asked = s->max_output_kb;
    if (s->max_output_kb > CC_MAX_OUTPUT_KB) s->max_output_kb = CC_MAX_OUTPUT_KB;
    if (arg_int(args, "max_cpu", 0, &s->max_cpu))
        return cc_err("validation", "max_cpu must be an integer");
    if (arg_bool(args, "no_net", &s->no_net)) return cc_err("validation", "no_net must be a boolean");
    if (arg_bool(args, "compact", &a->compact)) return cc_err("validation", "compact must be a boolean");
    if (arg_bool(args, "receipt", &a->receipt)) return cc_err("validation", "receipt must be a boolean");
    if (arg_str(args, "session_id", NULL, &a->session_id, NULL))
        return cc_err("validation", "session_id must be a string or null");
    if (arg_str(args, "provider", NULL, &a->provider, NULL))
        return cc_err("validation", "provider must be a string or null");
    /* The supervisor strips every client "_" key from calls that carry a
     * session_id and adds these itself; without a session_id they are
     * ignored, so a client can never choose a work directory. */
    if (a->session_id) {
        if (arg_str(args, "_workdir", NULL, &a->workdir, NULL) || (a->workdir && a->workdir[0] != '/'))
            return cc_err("internal", "malformed session work directory");
        if (arg_int(args, "_capture_kb", 0, &a->capture_kb))
            return cc_err("internal", "malformed session capture size");
        if (arg_str(args, "_entry", NULL, &a->entry, NULL) ||
            (a->entry && (a->entry[0] == '/' || climbs(a->entry) || !a->workdir)))
            return cc_err("internal", "malformed session entry file");
    }
    return NULL;
}

/* ---- provider selection (10.1) ------------------------------------------- */

/* ---- execute_code -------------------------------------------------------- */

/* The receipt joins every result once the local provider was selected:
 * the full one with receipt: true (or for compact, which reduces it), else
 * its short form (docs/languages.md "Execution results"). */
static json_t *with_receipt(json_t *r, const struct exec_args *a, const json_t *caps) {
    json_t *un = json_object_get(r, "unenforced");
    json_t *empty = json_array();
    json_t *receipt = cc_receipt_local(&a->spec, a->session_id, json_is_array(un) ? un : empty, caps);
    json_decref(empty);
    if (!receipt) {
        json_decref(r);
        return NULL;
    }
    if (!a->receipt && !a->compact) {
        json_t *brief = cc_receipt_brief(receipt);
        json_decref(receipt);
        receipt = brief;
    }
    json_object_set_new(r, "provider", receipt);
    return r;
}

/* With CODECALC_EXEC_TIMINGS set (make bench), where the call spent its
 * time inside the worker, in microseconds. */
static void add_timings(json_t *r, cc_wctx *ctx, int64_t t_handler, const struct cc_exec_timing *t) {
    if (!ctx || !r || !cc_flag(CC_FLAG_EXEC_TIMINGS) || !t->given_us) return;
    int64_t t_end = cc_now_us(), rx = cc_wctx_received_us(ctx);
    int64_t prepare = t->given_us - t_handler, run_end = t->given_us + t->sbx.start_us +
                      t->sbx.exec_us + t->sbx.wait_us + t->sbx.collect_us;
    json_object_set_new(r, "timings_us", json_pack("{s:I, s:I, s:I, s:I, s:I}",
        "receive", (json_int_t)(rx ? t_handler - rx : 0), "prepare", (json_int_t)prepare,
        "exec", (json_int_t)(t->sbx.start_us + t->sbx.exec_us), "wait", (json_int_t)t->sbx.wait_us,
        "collect", (json_int_t)(t->sbx.collect_us + (t_end - run_end))));
}

/* Stop the run when the supervisor cancels the call. */
static int cancel_tick(void *ud) { return cc_wctx_cancelled(ud) ? 1 : 0; }

/* The shared path of execute_code and execute_code_stream. hooks may be NULL
 * (then only cancellation is watched). */
static json_t *run_request(json_t *args, cc_wctx *ctx, int64_t tdefault, int64_t tmax,
                           const struct cc_exec_hooks *hooks) {
    int64_t t_handler = cc_now_us();
    struct exec_args a;
    json_t *r = read_args(args, &a, tdefault, tmax);
    if (r) return r;
    if ((r = cc_provider_reject(a.provider))) return r;
    if (a.session_id && !a.workdir) return cc_err("validation", "unknown session '%s'", a.session_id);
    struct cc_broker b;
    if (cc_broker_decide(&a.spec, cc_local_network_control(), cc_text(CC_TEXT_CAPABILITY_POLICY),
                         "local", &b) != 0)
        return NULL;
    if (b.rejected) {
        r = json_incref(b.rejection);
        cc_broker_free(&b);
        return r;
    }
    struct cc_exec_hooks cancel_only = {.tick = cancel_tick, .ud = ctx};
    const struct cc_exec_hooks *h = hooks ? hooks : &cancel_only;
    /* Dependencies: checked, then refused without the network, then
     * installed (or found in the cache) before the program runs; the
     * install stops when the call (or run) is cancelled. */
    struct cc_deps deps = {0};
    struct cc_deps_use use = {.lock_fd = -1};
    const struct cc_lang *lang = cc_lang_find(a.spec.language);
    bool no_net = a.spec.no_net || b.force_no_net;
    r = lang ? cc_deps_read(args, lang->name, a.spec.code, a.spec.code_len, &deps) : NULL;
    if (!r && deps.n) r = cc_deps_locate(&deps);
    if (!r && deps.n) r = cc_deps_refusal(&deps, a.spec.no_net, b.policy_denies_network);
    if (!r && deps.n) r = cc_deps_prepare(&deps, !no_net && !b.policy_denies_network, h->tick, h->ud, &use);
    if (r) {
        if (deps.n) json_object_set_new(r, "dependencies", cc_deps_report(&deps, &use));
        cc_deps_free(&deps);
        cc_broker_free(&b);
        return r;
    }
    struct cc_exec_timing timing = {0};
    const struct cc_exec_spec *s = &a.spec;
    struct cc_exec_req q = {.language = s->language, .code = s->code, .code_len = s->code_len,
                            .stdin_data = s->stdin_data, .stdin_len = s->stdin_len,
                            .timeout = s->timeout, .max_memory_mb = s->max_memory_mb,
                            .max_output_kb = s->max_output_kb, .max_cpu = s->max_cpu,
                            .no_net = no_net, .deps_view = deps.n ? use.view : NULL,
                            .deps_node = deps.n && !strcmp(deps.eco, "node"),
                            .hooks = h,
                            .workdir = a.workdir, .capture_kb = a.capture_kb, .entry = a.entry,
                            .timing = &timing};
    r = cc_execute(&q);
    if (r && !a.workdir) note_output_clamp(json_object_get(r, "unenforced"), a.output_kb_asked);
    json_t *un = r ? json_object_get(r, "unenforced") : NULL;
    if (a.workdir && json_is_array(un)) json_array_append_new(un, json_string(WORKSPACE_DISK_BOUND));
    if (r && deps.n) json_object_set_new(r, "dependencies", cc_deps_report(&deps, &use));
    cc_deps_release(&use);
    cc_deps_free(&deps);
    if (r) r = with_receipt(r, &a, b.capabilities);
    if (r && !a.compact) add_timings(r, ctx, t_handler, &timing);
    cc_broker_free(&b);
    if (r && a.compact) {
        json_t *c = cc_exec_compact(r);
        json_decref(r);
        r = c;
    }
    return r;
}

CC_TOOL(execute_code) {
    return run_request(args, ctx, EXEC_TIMEOUT_DEFAULT, EXEC_TIMEOUT_MAX, NULL);
}

json_t *cc_exec_run_request(json_t *args, cc_wctx *ctx, int64_t tdefault, int64_t tmax,
                            const struct cc_exec_hooks *hooks) {
    return run_request(args, ctx, tdefault, tmax, hooks);
}
