/* Shared text helpers: base64 (RFC 4648 vectors) and UTF-8 validation and
 * repair. */
#include <stdlib.h>
#include <string.h>

#include "protocol/base64.h"
#include "protocol/utf8.h"
#include "tests/unit/check.h"

static void base64_rfc4648_vectors(void) {
    const char *in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    const char *out[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char *b = cc_base64(in[i], strlen(in[i]));
        CHECK_STREQ(b, out[i]);
        free(b);
    }
    char *b = cc_base64("\xff\x00\x80", 3);
    CHECK_STREQ(b, "/wCA");
    free(b);
}

static void utf8_rejects_overlongs_surrogates_and_truncation(void) {
    const char *ok = "plain \xc3\xa9 \xe2\x88\x91 \xf0\x9f\x98\x80";
    CHECK(cc_utf8_valid(ok, strlen(ok)));
    CHECK(!cc_utf8_valid("\xc0\xaf", 2));          /* overlong '/' */
    CHECK(!cc_utf8_valid("\xed\xa0\x80", 3));      /* surrogate */
    CHECK(!cc_utf8_valid("\xf4\x90\x80\x80", 4));  /* above U+10FFFF */
    CHECK(!cc_utf8_valid("\xe2\x88", 2));          /* truncated */
    CHECK(cc_utf8_seq((const unsigned char *)"\xf0\x9f\x98\x80", 4) == 4);
}

static void utf8_repair_replaces_each_bad_byte(void) {
    size_t n;
    char *r = cc_utf8_repair("a\xff" "b\xc0\xaf" "c", 6, &n);
    CHECK_STREQ(r, "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd" "c");
    CHECK_INTEQ(n, 12);
    free(r);
}

int main(void) {
    RUN(base64_rfc4648_vectors);
    RUN(utf8_rejects_overlongs_surrogates_and_truncation);
    RUN(utf8_repair_replaces_each_bad_byte);
    return check_summary("proto_text");
}
