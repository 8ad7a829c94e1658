/* Reading msgpack bytes in place, without decoding them into msgpack-c
 * objects: the supervisor's path for the answer a worker sends most often,
 * {id, ok: true, result}, whose result goes straight to JSON text.
 *
 * Only the plain forms are read (nil, booleans, integers, floats, strings,
 * arrays, and maps whose keys are strings, at most CC_MP_MAX_NESTING deep);
 * anything else (bin, ext, a non-string key, deeper nesting, a cut-off or
 * malformed value) makes these functions give up, and the caller decodes
 * the frame as before (protocol/frame.h, cc_mp_emit_json). Where they
 * succeed the JSON text is byte for byte what cc_mp_emit_json writes for
 * the decoded value (tests/fuzz/fuzz_convert.c checks it). */
#ifndef CC_MP_RAW_H
#define CC_MP_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "protocol/strbuf.h"

/* A member of a result map, found as cc_mp_get finds it (the first entry
 * whose key is that string). */
struct cc_mp_member {
    bool is_str;       /* present and a string: s, n */
    const char *s;
    size_t n;
};

struct cc_mp_answer {
    uint64_t id;
    struct cc_mp_member code, verdict; /* the result's, when it is a map */
};

/* body (a frame's body, len bytes) is exactly a map of the three entries
 * "id" (an unsigned integer), "ok" (true) and "result" (a plain value), in
 * any order: the result appended to sb as JSON text, *out filled. false
 * otherwise (sb then holds garbage past its former length). */
bool cc_mp_raw_answer_json(const char *body, size_t len, struct cc_strbuf *sb, struct cc_mp_answer *out);

/* Append the plain value that spans exactly p[0..n) as JSON text. false
 * when it is not one (sb then holds garbage past its former length). */
bool cc_mp_raw_json(struct cc_strbuf *sb, const char *p, size_t n);

/* A request frame {id, op, args[, deadline_ms]} (any order, no other
 * entries, args a plain map) read in place (the worker's path): its args
 * are spanned, not converted, so that a worker may answer from their bytes
 * (workers/calc/calc_fast.h); cc_mp_raw_request_args converts them straight
 * to jansson as cc_mp_to_json converts them, NULL where that conversion
 * would differ (a big unsigned integer, invalid UTF-8, a key holding NUL).
 * false for anything else: the caller decodes the frame as before. */
struct cc_mp_request {
    uint64_t id;
    const char *op; /* not NUL-terminated: op_len bytes */
    size_t op_len;
    bool has_deadline;
    uint64_t deadline_ms;
    const char *args_at; /* the args map's msgpack bytes (in body) */
    size_t args_len;
};
bool cc_mp_raw_request(const char *body, size_t len, struct cc_mp_request *out);
/* A new reference, or NULL. */
json_t *cc_mp_raw_request_args(const struct cc_mp_request *rq);

/* p[0..n) is exactly a map of one entry, key (a string) to a string: its
 * bytes into *s, *sn. */
bool cc_mp_raw_only_str(const char *p, size_t n, const char *key, const char **s, size_t *sn);

#endif
