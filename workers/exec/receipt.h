/* The execution receipt (TOOLS.md 1.9): the canonical computation spec and
 * its hash, the capability broker (10.2), and the `provider` object attached
 * to every execute_code result.
 */
#ifndef CC_RECEIPT_H
#define CC_RECEIPT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CC_RECEIPT_VERSION "1.2.0"
#define CC_PROVIDER_INTERFACE_VERSION "1.0.0"
#define CC_SPEC_SCHEMA_VERSION "1.0.0"
#ifndef CC_SERVER_VERSION
#define CC_SERVER_VERSION "0.1.0"
/* The short form of a full receipt (new reference): provider_id,
 * spec_hash and a pointer to receipt: true. */
json_t *cc_receipt_brief(const json_t *full);

#endif

/* The request as written, after the tool's clamps. Strings are borrowed;
 * code and stdin carry lengths because JSON strings may hold U+0000. */
struct cc_exec_spec {
    const char *language;        /* as spelled by the caller */
    const char *code;
    size_t code_len;
    const char *stdin_data;
    size_t stdin_len;
    int64_t timeout;
    const char *workdir;         /* NULL = JSON null */
    int64_t max_memory_mb, max_output_kb, max_cpu;
    bool no_net;
};

/* Canonical JSON text of v (keys sorted by code point, "," and ":" with no
 * whitespace, non-ASCII raw, control characters as \u00xx). Malloc'd, NULL on
 * OOM or a value canonical JSON cannot hold (non-finite real). */
char *cc_canonical_json(const json_t *v);

/* "sha256:<hex>" of the canonical spec document. out holds >= 72 bytes.
 * Returns 0, or -1 on OOM. */
int cc_spec_hash(const struct cc_exec_spec *s, char out[72]);

/* The broker decision (10.2) for one call. */
struct cc_broker {
    bool rejected;               /* the call must not run */
    json_t *rejection;           /* rejected result when rejected (owned) */
    bool force_no_net;           /* run with no_net even if not requested */
    bool policy_denies_network;  /* the policy denies network, whatever the request */
    json_t *capabilities;        /* receipt's capabilities object (owned) */
};

/* Decide from the spec, whether the provider enforces network control, and
 * the raw policy text (NULL/blank = no brokering). provider_id names the
 * provider in a rejection. Returns 0, or -1 on OOM. Free with
 * cc_broker_free(). */
int cc_broker_decide(const struct cc_exec_spec *s, bool network_control, const char *policy,
                     const char *provider_id, struct cc_broker *out);
void cc_broker_free(struct cc_broker *b);

/* The full `provider` receipt for provider "local". unenforced and
 * capabilities are borrowed; session_id NULL = JSON null. New reference, NULL
 * on OOM. */
json_t *cc_receipt_local(const struct cc_exec_spec *s, const char *session_id,
                         const json_t *unenforced, const json_t *capabilities);

/* The short form of a full receipt (new reference): provider_id,
 * spec_hash and a pointer to receipt: true. */
json_t *cc_receipt_brief(const json_t *full);

#endif
