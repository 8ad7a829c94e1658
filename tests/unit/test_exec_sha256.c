/* SHA-256 against the FIPS 180-4 example vectors (and the long 'a' vector). */
#include "tests/unit/check.h"
#include "protocol/sha256.h"

#include <stdlib.h>

static void test_short_vectors(void) {
    char hex[65];
    CHECK_STREQ(cc_sha256_hex("abc", 3, hex),
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK_STREQ(cc_sha256_hex("", 0, hex),
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    CHECK_STREQ(cc_sha256_hex(two, strlen(two), hex),
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *four = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    CHECK_STREQ(cc_sha256_hex(four, strlen(four), hex),
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_million_a_streamed(void) {
    /* Fed in odd-sized pieces so block boundaries fall mid-update. */
    struct cc_sha256 s;
    uint8_t d[32];
    char hex[65], chunk[997];
    memset(chunk, 'a', sizeof chunk);
    cc_sha256_init(&s);
    size_t left = 1000000;
    while (left) {
        size_t n = left < sizeof chunk ? left : sizeof chunk;
        cc_sha256_update(&s, chunk, n);
        left -= n;
    }
    cc_sha256_final(&s, d);
    CHECK_STREQ(cc_sha256_tohex(d, hex),
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_padding_edges(void) {
    /* 55, 56 and 64 bytes straddle the one-block/two-block padding boundary. */
    char hex[65], buf[64];
    memset(buf, 'a', sizeof buf);
    CHECK_STREQ(cc_sha256_hex(buf, 55, hex),
                "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    CHECK_STREQ(cc_sha256_hex(buf, 56, hex),
                "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    CHECK_STREQ(cc_sha256_hex(buf, 64, hex),
                "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

int main(void) {
    RUN(test_short_vectors);
    RUN(test_million_a_streamed);
    RUN(test_padding_edges);
    return check_summary("exec_sha256");
}
