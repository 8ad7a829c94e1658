#include "protocol/base64.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

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

static int b64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

unsigned char *cc_base64_decode(const char *text, size_t len, size_t *n) {
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r' || text[len - 1] == '\n')) len--;
    while (len && (*text == ' ' || *text == '\t')) text++, len--;
    if (len % 4) return NULL;
    unsigned char *out = malloc(len / 4 * 3 + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)text[i + k];
            bool last = i + 4 == len;
            if (c == '=' && last && k >= 2 && (k == 3 || text[i + 3] == '=')) {
                v[k] = 0;
                pad++;
            } else if ((v[k] = b64_value(c)) < 0 || pad) {
                free(out);
                return NULL;
            }
        }
        unsigned w = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 | (unsigned)v[3];
        out[o++] = (unsigned char)(w >> 16);
        if (pad < 2) out[o++] = (unsigned char)(w >> 8);
        if (pad < 1) out[o++] = (unsigned char)w;
    }
    *n = o;
    return out;
}
