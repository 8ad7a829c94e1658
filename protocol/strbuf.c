/* Growable buffer and the JSON string escaper. */
#include "protocol/strbuf.h"
#include "protocol/utf8.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cc_sb_init(struct cc_strbuf *sb) { memset(sb, 0, sizeof *sb); }

void cc_sb_free(struct cc_strbuf *sb) {
    free(sb->data);
    memset(sb, 0, sizeof *sb);
}

void cc_sb_reserve(struct cc_strbuf *sb, size_t extra) {
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1) cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p) {
        fputs("codecalc: out of memory\n", stderr);
        abort();
    }
    sb->data = p;
    sb->cap = cap;
}

void cc_sb_put(struct cc_strbuf *sb, const void *p, size_t n) {
    cc_sb_reserve(sb, n);
    memcpy(sb->data + sb->len, p, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void cc_sb_puts(struct cc_strbuf *sb, const char *s) { cc_sb_put(sb, s, strlen(s)); }

void cc_sb_putc(struct cc_strbuf *sb, char c) { cc_sb_put(sb, &c, 1); }

void cc_sb_printf(struct cc_strbuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    cc_sb_reserve(sb, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void cc_sb_json_string(struct cc_strbuf *sb, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    cc_sb_reserve(sb, n + 2);
    cc_sb_putc(sb, '"');
    size_t run = 0; /* bytes copied verbatim in one go */
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            run++, i++;
            continue;
        }
        if (run) cc_sb_put(sb, p + i - run, run), run = 0;
        if (c < 0x80) {
            char esc[7] = {'\\', 0};
            switch (c) {
            case '"': esc[1] = '"'; break;
            case '\\': esc[1] = '\\'; break;
            case '\n': esc[1] = 'n'; break;
            case '\r': esc[1] = 'r'; break;
            case '\t': esc[1] = 't'; break;
            case '\b': esc[1] = 'b'; break;
            case '\f': esc[1] = 'f'; break;
            default:
                memcpy(esc, "\\u00", 4);
                esc[4] = hex[c >> 4];
                esc[5] = hex[c & 15];
            }
            cc_sb_puts(sb, esc);
            i++;
            continue;
        }
        size_t l = cc_utf8_seq(p + i, n - i);
        if (l == 0) {
            cc_sb_put(sb, "\xEF\xBF\xBD", 3);
            i++;
        } else {
            cc_sb_put(sb, p + i, l);
            i += l;
        }
    }
    if (run) cc_sb_put(sb, p + n - run, run);
    cc_sb_putc(sb, '"');
}

char *cc_sb_take(struct cc_strbuf *sb, size_t *len) {
    cc_sb_reserve(sb, 0);
    sb->data[sb->len] = '\0'; /* reserve alone does not terminate an empty buffer */
    char *d = sb->data;
    if (len) *len = sb->len;
    memset(sb, 0, sizeof *sb);
    return d;
}
