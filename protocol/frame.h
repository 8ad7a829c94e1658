/* Frames between processes: a 4-byte big-endian length, then one msgpack map
 * of exactly that many bytes. A frame larger than CC_FRAME_MAX is a protocol
 * error: the peer is recycled, never trusted to resynchronise. */
#ifndef CC_FRAME_H
#define CC_FRAME_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CC_FRAME_MAX (32u * 1024u * 1024u)

/* Incremental reader over bytes arriving from a pipe or socket. */
struct cc_frame_reader {
    char *buf;
    size_t len, cap;
    size_t consumed;   /* bytes of buf already handed out as frames */
};

void cc_frame_reader_init(struct cc_frame_reader *r);
void cc_frame_reader_free(struct cc_frame_reader *r);
/* Append raw bytes. Returns 0, or -1 on allocation failure. */
int cc_frame_reader_feed(struct cc_frame_reader *r, const void *data, size_t n);
/* Read once from fd straight into the reader's buffer (no staging copy),
 * at most `want` bytes (the buffer grows to hold them). Returns read(2)'s
 * result; -1 with errno EMSGSIZE when the unconsumed bytes already reach
 * the bound a well-behaved peer never needs (two maximal frames). */
ssize_t cc_frame_reader_read(struct cc_frame_reader *r, int fd, size_t want);
/* Next complete frame body: 1 and (*body, *len) pointing into the reader's
 * buffer (valid until the next feed/next call); 0 when more bytes are needed;
 * -1 when the length prefix exceeds CC_FRAME_MAX or is zero. */
int cc_frame_next(struct cc_frame_reader *r, const char **body, size_t *len);

/* 1 when a complete frame is buffered (cc_frame_next would return it),
 * else 0. */
int cc_frame_ready(const struct cc_frame_reader *r);

/* Decode one frame body into a msgpack map. Returns 0 when body is exactly
 * one msgpack map, -1 otherwise (truncated, trailing bytes, wrong type, a
 * container count the bytes cannot hold: see cc_mp_counts_fit).
 * On success the caller owns *out and releases it with msgpack_unpacked_destroy. */
int cc_frame_decode(const char *body, size_t len, msgpack_unpacked *out);

/* cc_frame_decode into a caller-owned zone that is cleared first, so a
 * loop decoding frame after frame allocates nothing per frame. *out lives
 * until the zone is cleared again. */
int cc_frame_decode_in(const char *body, size_t len, msgpack_zone *zone, msgpack_object *out);

/* Can p[0..n) hold the elements its arrays and maps announce? msgpack-c
 * allocates a container's element slots before reading them, so a 5-byte
 * header claiming 2^32 elements would make the reader allocate 64 GiB.
 * Every element takes at least one byte, so a count beyond the bytes left
 * is a lie; this walk (no allocation, no recursion) refuses it before
 * msgpack-c sees it, which bounds what decoding allocates by the body's
 * size. It does not check anything else (types, UTF-8, trailing bytes). */
bool cc_mp_counts_fit(const char *p, size_t n);

/* Write the 4-byte prefix for a body of len bytes. */
static inline void cc_frame_prefix(uint32_t len, unsigned char out[4]) {
    out[0] = (unsigned char)(len >> 24);
    out[1] = (unsigned char)(len >> 16);
    out[2] = (unsigned char)(len >> 8);
    out[3] = (unsigned char)len;
}

/* A packer that writes a frame into an sbuffer: call cc_frame_begin, pack one
 * map, then cc_frame_end to patch the length. Returns -1 if the body is over
 * CC_FRAME_MAX. cc_frame_end expects the frame at the start of sb; to append
 * a frame after others, note sb->size before cc_frame_begin and pass it to
 * cc_frame_end_at. */
void cc_frame_begin(msgpack_sbuffer *sb);
int cc_frame_end(msgpack_sbuffer *sb);
int cc_frame_end_at(msgpack_sbuffer *sb, size_t start);

/* Look up key in a msgpack map; NULL if absent or obj is not a map. */
const msgpack_object *cc_mp_get(const msgpack_object *map, const char *key);
/* String value as (ptr, len); returns 0 or -1 if not a str. */
int cc_mp_str(const msgpack_object *o, const char **s, size_t *n);
/* true when o is a str equal to lit. */
int cc_mp_str_eq(const msgpack_object *o, const char *lit);

#endif
