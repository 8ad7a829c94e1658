/* The test oracle for protocol/mp_write.c: any JSON value packed with
 * msgpack-c's own packer, by the rules cc_mpw_json follows (big-integer
 * strings as ext CC_MP_EXT_BIGINT, at most CC_MP_MAX_NESTING containers).
 * The frames are written by cc_mpw_json alone; this was
 * protocol/json_convert.c's cc_json_to_mp, which nothing but the tests
 * (test_proto_frame.c) and the fuzzer (tests/fuzz/fuzz_convert.c) called,
 * to check that the writer writes the packer's very bytes. It lives with
 * them now. */
#ifndef CC_TEST_MP_PACKER_REF_H
#define CC_TEST_MP_PACKER_REF_H

#include <jansson.h>
#include <msgpack.h>
#include <string.h>

#include "protocol/json_convert.h"

/* depth: containers already open around j. 0, or -1 past the nesting
 * bound (pk then holds garbage). */
static inline int ref_pack_at(msgpack_packer *pk, const json_t *j, int depth) {
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        if (depth >= CC_MP_MAX_NESTING) return -1;
        msgpack_pack_map(pk, json_object_size(j));
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) {
            msgpack_pack_str_with_body(pk, k, strlen(k));
            if (ref_pack_at(pk, v, depth + 1) < 0) return -1;
        }
        return 0;
    }
    case JSON_ARRAY: {
        if (depth >= CC_MP_MAX_NESTING) return -1;
        size_t n = json_array_size(j);
        msgpack_pack_array(pk, n);
        for (size_t i = 0; i < n; i++)
            if (ref_pack_at(pk, json_array_get(j, i), depth + 1) < 0) return -1;
        return 0;
    }
    case JSON_STRING: {
        size_t n;
        const char *d = cc_json_bigint_digits(j, &n);
        if (d) return msgpack_pack_ext_with_body(pk, d, n, CC_MP_EXT_BIGINT);
        return msgpack_pack_str_with_body(pk, json_string_value(j), json_string_length(j));
    }
    case JSON_INTEGER: return msgpack_pack_int64(pk, json_integer_value(j));
    case JSON_REAL: return msgpack_pack_double(pk, json_real_value(j));
    case JSON_TRUE: return msgpack_pack_true(pk);
    case JSON_FALSE: return msgpack_pack_false(pk);
    case JSON_NULL: return msgpack_pack_nil(pk);
    }
    return -1;
}

static inline int ref_json_to_mp(msgpack_packer *pk, const json_t *j) { return ref_pack_at(pk, j, 0); }

#endif
