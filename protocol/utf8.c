#include "protocol/utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t cc_utf8_seq(const unsigned char *p, size_t n) {
    unsigned char c = p[0];
    size_t len;
    uint32_t cp, min;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07, min = 0x10000;
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

bool cc_utf8_valid(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        size_t k = cc_utf8_seq((const unsigned char *)s + i, n - i);
        if (!k) return false;
        i += k;
    }
    return true;
}

char *cc_utf8_repair(const char *s, size_t n, size_t *outlen) {
    /* Worst case every byte becomes the 3-byte U+FFFD. */
    char *out = malloc(n * 3 + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = cc_utf8_seq((const unsigned char *)s + i, n - i);
        if (k) {
            memcpy(out + o, s + i, k);
            o += k;
            i += k;
        } else {
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
        }
    }
    out[o] = '\0';
    *outlen = o;
    return out;
}

size_t cc_utf8_prefix(const char *s, size_t n, size_t chars) {
    size_t i = 0;
    for (size_t c = 0; i < n && c < chars; c++) {
        i++;
        while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    }
    return i;
}
