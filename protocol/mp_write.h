/* msgpack written straight into a msgpack_sbuffer, a value at a time,
 * without msgpack-c's packer (which calls its writer once per token).
 * The bytes are exactly those the packer writes for the same calls (the
 * same smallest encodings), so frames read the same either way; the frame
 * builders of protocol/msg.h use these. */
#ifndef CC_MP_WRITE_H
#define CC_MP_WRITE_H

#include <jansson.h>
#include <msgpack.h>
#include <stddef.h>
#include <stdint.h>

void cc_mpw_map(msgpack_sbuffer *sb, size_t n);
void cc_mpw_array(msgpack_sbuffer *sb, size_t n);
void cc_mpw_str(msgpack_sbuffer *sb, const char *s, size_t n);
void cc_mpw_uint(msgpack_sbuffer *sb, uint64_t v);
void cc_mpw_int(msgpack_sbuffer *sb, int64_t v);
void cc_mpw_bool(msgpack_sbuffer *sb, int b);
/* Any JSON value, the bytes msgpack-c's packer writes for it (the tests
 * hold that packer's version, tests/unit/mp_packer_ref.h): big-integer
 * strings as ext CC_MP_EXT_BIGINT. Returns 0, or -1 past
 * CC_MP_MAX_NESTING containers (sb then holds garbage). */
int cc_mpw_json(msgpack_sbuffer *sb, const json_t *j);

#endif
