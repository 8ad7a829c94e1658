/* SHA-256 (FIPS 180-4), written for codecalc: receipts hash the canonical
 * spec and the source, the compile cache keys entries, and the dependency
 * cache keys environments (in the supervisor too, hence protocol/).
 * Streaming API: init, update any number of times, final. No allocation. */
#ifndef CC_SHA256_H
#define CC_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct cc_sha256 {
    uint32_t h[8];
    uint64_t total;       /* bytes hashed so far */
    uint8_t block[64];    /* pending partial block */
    size_t fill;          /* bytes used in block */
};

void cc_sha256_init(struct cc_sha256 *s);
void cc_sha256_update(struct cc_sha256 *s, const void *data, size_t len);
void cc_sha256_final(struct cc_sha256 *s, uint8_t out[32]);

/* One-shot digest as 64 lower-case hex digits plus NUL. Returns hex. */
char *cc_sha256_hex(const void *data, size_t len, char hex[65]);
/* Lower-case hex of a 32-byte digest. Returns hex. */
char *cc_sha256_tohex(const uint8_t d[32], char hex[65]);

#endif
