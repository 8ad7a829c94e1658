/* Canonical spec hashing, the capability broker and the local receipt. */
#include "workers/exec/receipt.h"
#include "protocol/cap_policy.h"
#include "workers/common/audit.h"
#include "workers/common/tool_api.h"
#include "protocol/sha256.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- canonical JSON ---------------------------------------------------- */

/* Escapes exactly what Python's json.dumps(ensure_ascii=False) escapes, so
 * hashes agree with the reference implementation byte for byte. */
static void put_string(FILE *f, const char *s, size_t n) {
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (c < 0x20) fprintf(f, "\\u%04x", c);
            else fputc(c, f);
        }
    }
    fputc('"', f);
}

static int cmp_keys(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int put_value(FILE *f, const json_t *v);

static int put_object(FILE *f, const json_t *v) {
    size_t n = json_object_size(v), i = 0;
    const char **keys = malloc((n ? n : 1) * sizeof *keys);
    if (!keys) return -1;
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)v, k, x) keys[i++] = k;
    /* strcmp on UTF-8 bytes orders by code point. */
    qsort(keys, n, sizeof *keys, cmp_keys);
    int rc = 0;
    fputc('{', f);
    for (i = 0; i < n && rc == 0; i++) {
        if (i) fputc(',', f);
        put_string(f, keys[i], strlen(keys[i]));
        fputc(':', f);
        rc = put_value(f, json_object_get(v, keys[i]));
    }
    fputc('}', f);
    free(keys);
    return rc;
}

static int put_value(FILE *f, const json_t *v) {
    char buf[32];
    switch (json_typeof(v)) {
    case JSON_OBJECT: return put_object(f, v);
    case JSON_ARRAY:
        fputc('[', f);
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i) fputc(',', f);
            if (put_value(f, json_array_get(v, i))) return -1;
        }
        fputc(']', f);
        return 0;
    case JSON_STRING: put_string(f, json_string_value(v), json_string_length(v)); return 0;
    case JSON_INTEGER: fprintf(f, "%lld", (long long)json_integer_value(v)); return 0;
    case JSON_REAL:
        if (!isfinite(json_real_value(v))) return -1;
        fputs(cc_float_repr(json_real_value(v), buf), f);
        return 0;
    case JSON_TRUE: fputs("true", f); return 0;
    case JSON_FALSE: fputs("false", f); return 0;
    case JSON_NULL: fputs("null", f); return 0;
    }
    return -1;
}

char *cc_canonical_json(const json_t *v) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    int rc = put_value(f, v);
    if (fclose(f) != 0 || rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* ---- the spec hash ----------------------------------------------------- */

static json_t *spec_document(const struct cc_exec_spec *s) {
    json_t *spec = json_pack("{s:s%, s:s, s:I, s:I, s:I, s:b, s:s%, s:I, s:o}", "code",
                             s->code ? s->code : "", s->code ? s->code_len : 0, "language",
                             s->language ? s->language : "", "max_cpu", (json_int_t)s->max_cpu,
                             "max_memory_mb", (json_int_t)s->max_memory_mb, "max_output_kb",
                             (json_int_t)s->max_output_kb, "no_net", s->no_net, "stdin",
                             s->stdin_data ? s->stdin_data : "", s->stdin_data ? s->stdin_len : 0,
                             "timeout", (json_int_t)s->timeout, "workdir",
                             s->workdir ? json_string(s->workdir) : json_null());
    if (!spec) return NULL;
    return json_pack("{s:s, s:o}", "schema_version", CC_SPEC_SCHEMA_VERSION, "spec", spec);
}

int cc_spec_hash(const struct cc_exec_spec *s, char out[72]) {
    json_t *doc = spec_document(s);
    char *text = doc ? cc_canonical_json(doc) : NULL;
    json_decref(doc);
    if (!text) return -1;
    char hex[65];
    cc_sha256_hex(text, strlen(text), hex);
    free(text);
    snprintf(out, 72, "sha256:%s", hex);
    return 0;
}

/* ---- capability broker (10.2) ------------------------------------------ */

/* ["network"] or [] — the only brokered capability today. */
static json_t *capset(bool network) {
    return network ? json_pack("[s]", "network") : json_array();
}

static json_t *broker_reject(const char *sub, const char *provider_id, bool requested,
                             const char *fmt) {
    json_t *r = cc_err("permission_denied", fmt, provider_id);
    json_object_set_new(r, "provider_error", json_string(sub));
    json_object_set_new(r, "requested_capabilities", capset(requested));
    json_object_set_new(r, "requested_provider", json_string(provider_id));
    return r;
}

/* TOOLS.md 10.3: a brokered decision is an audit event. */
static void audit_broker(const char *decision, const char *reason, const char *provider_id, bool requested,
                         const char *policy) {
    char type[40];
    snprintf(type, sizeof type, "capability_%s", decision);
    json_t *meta = json_pack("{s:s,s:o,s:s}", "provider_id", provider_id, "requested_capabilities", capset(requested),
                             "policy", policy);
    cc_audit_event(type, NULL, NULL, decision, reason, meta);
    json_decref(meta);
}

/* Refuse the run: the answer (fmt names the provider) and its audit event.
 * Returns 0, what cc_broker_decide returns for a decision made. */
static int reject(struct cc_broker *out, const char *reason, const char *provider_id, bool requested,
                  const char *policy, const char *fmt) {
    out->rejected = true;
    out->rejection = broker_reject(reason, provider_id, requested, fmt);
    audit_broker("rejected", reason, provider_id, requested, policy);
    return 0;
}

int cc_broker_decide(const struct cc_exec_spec *s, bool network_control, const char *policy,
                     const char *provider_id, struct cc_broker *out) {
    memset(out, 0, sizeof *out);
    /* A directive the parser does not know refused the server's start
     * (protocol/text_knob.c); the known ones around it still count. */
    struct cc_cap_policy p;
    cc_cap_policy_parse(policy, &p, NULL, NULL);
    bool requested = !s->no_net;
    out->policy_denies_network = p.active && p.deny_network && !p.grant_network;
    if (p.active && p.grant_network && !requested)
        return reject(out, "capability_not_requested", provider_id, requested, policy,
                      "capability policy would grant 'network' on provider '%s', which the request did "
                      "not ask for (no_net is true); refusing to widen the request");
    bool approved = requested && !(p.active && p.deny_network && !p.grant_network);
    bool denied = requested && !approved;
    if (p.active && p.strict && denied && !network_control)
        return reject(out, "capability_unenforceable", provider_id, requested, policy,
                      "capability policy denies 'network' under 'strict', but provider '%s' cannot "
                      "enforce that denial; refusing to run");
    if (p.active && requested)
        audit_broker(denied ? "denied" : "approved", denied ? "policy_denies_network" : "policy_allows_network",
                     provider_id, requested, policy);
    bool effective = approved || (denied && !network_control);
    out->force_no_net = denied && network_control;
    out->capabilities = json_pack(
        "{s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "requested", capset(requested), "approved",
        capset(approved), "provider_supported", capset(network_control), "effective",
        capset(effective), "denied", capset(denied), "brokered", p.active, "policy",
        p.active ? json_string(policy) : json_null());
    return out->capabilities ? 0 : -1;
}

void cc_broker_free(struct cc_broker *b) {
    json_decref(b->rejection);
    json_decref(b->capabilities);
    b->rejection = b->capabilities = NULL;
}

/* ---- the receipt (1.9) ------------------------------------------------- */

/* true when any unenforced entry (lower-cased) contains one of the words. */
static bool mentioned(const json_t *unenforced, const char *w1, const char *w2) {
    size_t i;
    json_t *e;
    json_array_foreach(unenforced, i, e) {
        const char *s = json_string_value(e);
        if (s && (strcasestr(s, w1) || (w2 && strcasestr(s, w2)))) return true;
    }
    return false;
}

static json_t *reported_enforced(const struct cc_exec_spec *s, const json_t *unenforced) {
    json_t *a = json_array();
    if (!a) return NULL;
    if (s->timeout > 0 && !mentioned(unenforced, "timeout", NULL))
        json_array_append_new(a, json_string("timeout"));
    if (s->max_memory_mb > 0 && !mentioned(unenforced, "memory", NULL))
        json_array_append_new(a, json_string("max_memory_mb"));
    if (s->max_output_kb > 0 && !mentioned(unenforced, "output", NULL))
        json_array_append_new(a, json_string("max_output_kb"));
    if (s->max_cpu > 0 && !mentioned(unenforced, "cpu", NULL))
        json_array_append_new(a, json_string("max_cpu"));
    if (s->no_net && !mentioned(unenforced, "no_net", "network"))
        json_array_append_new(a, json_string("no_net"));
    return a;
}

static json_t *env_or_null(const char *name) {
    const char *v = getenv(name);
    return v ? json_string(v) : json_null();
}

static json_t *determinism_local(void) {
    json_t *lang = env_or_null("LANG"), *lc = env_or_null("LC_ALL");
    json_t *unrec = json_array();
    /* Already in sorted order: locale.LANG < locale.LC_ALL < seed < timezone. */
    if (json_is_null(lang)) json_array_append_new(unrec, json_string("locale.LANG"));
    if (json_is_null(lc)) json_array_append_new(unrec, json_string("locale.LC_ALL"));
    json_array_append_new(unrec, json_string("seed"));
    json_array_append_new(unrec, json_string("timezone"));
    return json_pack("{s:s, s:{s:o, s:o}, s:n, s:n, s:o}", "source", "env_allowlist", "locale",
                     "LANG", lang, "LC_ALL", lc, "timezone", "seed", "unrecorded", unrec);
}

json_t *cc_receipt_local(const struct cc_exec_spec *s, const char *session_id,
                         const json_t *unenforced, const json_t *capabilities) {
    char spec_hash[72], src[65], src_hash[72];
    if (cc_spec_hash(s, spec_hash)) return NULL;
    cc_sha256_hex(s->code ? s->code : "", s->code ? s->code_len : 0, src);
    snprintf(src_hash, sizeof src_hash, "sha256:%s", src);
    json_t *limits = json_pack(
        "{s:{s:I, s:I, s:I, s:I, s:b}, s:o, s:O}", "requested", "timeout_seconds",
        (json_int_t)s->timeout, "max_memory_mb", (json_int_t)s->max_memory_mb, "max_output_kb",
        (json_int_t)s->max_output_kb, "max_cpu_seconds", (json_int_t)s->max_cpu, "no_net",
        s->no_net, "provider_reported_enforced", reported_enforced(s, unenforced), "unenforced",
        unenforced);
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:s, s:s, s:o, s:o, s:O}",
                     "receipt_version", CC_RECEIPT_VERSION, "interface_version",
                     CC_PROVIDER_INTERFACE_VERSION, "provider_id", "local", "provider_version",
                     CC_SERVER_VERSION, "host_class", "local", "session_id",
                     session_id ? json_string(session_id) : json_null(), "spec_schema_version",
                     CC_SPEC_SCHEMA_VERSION, "spec_hash", spec_hash, "source_sha256", src_hash,
                     "determinism", determinism_local(), "limits", limits, "capabilities",
                     capabilities);
}

json_t *cc_receipt_brief(const json_t *full) {
    return json_pack("{s:O, s:O, s:s}", "provider_id", json_object_get(full, "provider_id"),
                     "spec_hash", json_object_get(full, "spec_hash"), "receipt_detail",
                     "call with receipt: true for the full receipt");
}
