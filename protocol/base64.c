#include "protocol/base64.h"

#include <stdint.h>

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void cc_base64_append(struct cc_strbuf *sb, const void *data, size_t n) {
    const unsigned char *p = data;
    cc_sb_reserve(sb, (n + 2) / 3 * 4);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char q[4] = {b64[v >> 18 & 63], b64[v >> 12 & 63], i + 1 < n ? b64[v >> 6 & 63] : '=',
                     i + 2 < n ? b64[v & 63] : '='};
        cc_sb_put(sb, q, 4);
    }
}

char *cc_base64(const void *data, size_t n) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_base64_append(&sb, data, n);
    return cc_sb_take(&sb, NULL);
}
