/* Growable buffer and the JSON string escaper. */
#include "protocol/strbuf.h"
#include "protocol/utf8.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

void cc_sb_init(struct cc_strbuf *sb) { memset(sb, 0, sizeof *sb); }

void cc_sb_free(struct cc_strbuf *sb) {
    free(sb->data);
    memset(sb, 0, sizeof *sb);
}

void cc_sb_grow(struct cc_strbuf *sb, size_t extra) {
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

void cc_sb_put_u64(struct cc_strbuf *sb, uint64_t v) {
    char d[20];
    size_t i = sizeof d;
    do {
        d[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    cc_sb_put(sb, d + i, sizeof d - i);
}

void cc_sb_put_i64(struct cc_strbuf *sb, int64_t v) {
    if (v < 0) {
        cc_sb_putc(sb, '-');
        cc_sb_put_u64(sb, (uint64_t)0 - (uint64_t)v);
    } else {
        cc_sb_put_u64(sb, (uint64_t)v);
    }
}

/* How a byte goes into a JSON string: 0 verbatim, 1 after a backslash
 * ('"' and '\\'), 2 as an escape of its own (control bytes), 3 the first
 * byte of a multi-byte (or invalid) UTF-8 sequence. */
static const unsigned char kind[256] = {
    [0 ... 0x1f] = 2, ['"'] = 1, ['\\'] = 1, [0x80 ... 0xff] = 3,
};

/* The bytes of w (8 of the input, little-endian) that are not verbatim
 * (kind[] non-zero: a control byte, '"', '\\' or a byte >= 0x80), as the
 * high bit of each such byte and exactly those: the zero-byte tests used
 * here carry no borrow from one byte into the next, so the lowest set bit
 * is the first byte that needs care. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "care_mask's first-byte-by-lowest-bit reading assumes a little-endian machine"
#endif
static inline uint64_t care_mask(uint64_t w) {
    const uint64_t ones = 0x0101010101010101ull, low7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    uint64_t zero_q = ~(((q & low7) + low7) | q);   /* high bit where the byte is '"' */
    uint64_t zero_b = ~(((b & low7) + low7) | b);   /* ... '\\' */
    uint64_t ctl = ~((w & low7) + ones * 0x60);      /* ... below 0x20 (for bytes < 0x80) */
    return (zero_q | zero_b | ctl | w) & ~low7;
}

/* The escape of a control byte; returns its length. */
static size_t control_escape(unsigned char c, char out[6]) {
    static const char hex[] = "0123456789abcdef";
    char e = 0;
    switch (c) {
    case '\n': e = 'n'; break;
    case '\r': e = 'r'; break;
    case '\t': e = 't'; break;
    case '\b': e = 'b'; break;
    case '\f': e = 'f'; break;
    }
    out[0] = '\\';
    if (e) {
        out[1] = e;
        return 2;
    }
    memcpy(out, "\\u00", 4);
    out[4] = hex[c >> 4];
    out[5] = hex[c & 15];
    return 6;
}

/* Invariant: the free room is at least twice the input left plus the
 * closing quote, so verbatim bytes and the two-byte escapes of '"' and '\\'
 * (JSON text inside a string is full of them) need no check; only a
 * control byte or a replaced sequence reserves. */
void cc_sb_json_string(struct cc_strbuf *sb, const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    cc_sb_reserve(sb, 2 * n + 2);
    char *o = sb->data + sb->len;
    *o++ = '"';
    size_t i = 0;
    while (i < n) {
        /* Eight bytes at a time: all copied (the room allows it), and the
         * output advanced to the first byte that needs care. JSON text
         * inside a string has a quote every few bytes, so this is the
         * common case, not only the long plain runs. */
        if (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            memcpy(o, &w, 8);
            uint64_t m = care_mask(w);
            if (!m) {
                o += 8, i += 8;
                continue;
            }
            size_t k = (size_t)__builtin_ctzll(m) >> 3;
            o += k, i += k;
        } else {
            while (i < n && !kind[p[i]]) *o++ = (char)p[i++];
            if (i == n) break;
        }
        unsigned char c = p[i];
        switch (kind[c]) {
        case 1:
            *o++ = '\\';
            *o++ = (char)c;
            i++;
            continue;
        case 2:
            sb->len = (size_t)(o - sb->data);
            cc_sb_reserve(sb, 6 + 2 * (n - i) + 1);
            o = sb->data + sb->len;
            o += control_escape(c, o);
            i++;
            continue;
        }
        size_t l = cc_utf8_seq(p + i, n - i);
        if (l == 0) {
            sb->len = (size_t)(o - sb->data);
            cc_sb_reserve(sb, 3 + 2 * (n - i) + 1);
            o = sb->data + sb->len;
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
        } else {
            memcpy(o, p + i, l);
            o += l;
            i += l;
        }
    }
    *o++ = '"';
    sb->len = (size_t)(o - sb->data);
    sb->data[sb->len] = '\0';
}

/* JSON text is printable ASCII with a quote every few bytes: sixteen bytes
 * are tested at once, and the quotes and backslashes among them escaped
 * one after another from the mask, each run before one copied with a
 * single 16-byte store from a copy of the block (so nothing is read past
 * the input; the store's excess is overwritten next, within the room's
 * 16 spare bytes). The first byte outside 0x20..0x7f (a control byte, or
 * UTF-8 that would have to be checked) hands the whole text to
 * cc_sb_json_string. */
#ifdef __SSE2__
#define TEXT_STRING_SLACK 16
void cc_sb_json_text_string(struct cc_strbuf *sb, const char *s, size_t n) {
    size_t start = sb->len;
    cc_sb_reserve(sb, 2 * n + 2 + TEXT_STRING_SLACK);
    char *o = sb->data + sb->len;
    *o++ = '"';
    size_t i = 0;
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    char block[32] = {0};
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
        /* signed: bytes >= 0x80 are negative, so below 0x20 too */
        if (_mm_movemask_epi8(_mm_cmplt_epi8(v, space))) goto general;
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        if (!m) {
            _mm_storeu_si128((__m128i *)o, v);
            o += 16;
            continue;
        }
        _mm_storeu_si128((__m128i *)block, v);
        unsigned from = 0; /* bytes of this block written */
        for (;;) {
            unsigned k = m ? (unsigned)__builtin_ctz(m) : 16;
            _mm_storeu_si128((__m128i *)o, _mm_loadu_si128((const __m128i *)(block + from)));
            o += k - from;
            if (k == 16) break;
            *o++ = '\\';
            *o++ = block[k];
            from = k + 1;
            m &= m - 1;
        }
    }
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x80) goto general;
        if (c == '"' || c == '\\') *o++ = '\\';
        *o++ = (char)c;
    }
    *o++ = '"';
    sb->len = (size_t)(o - sb->data);
    sb->data[sb->len] = '\0';
    return;
general:
    sb->len = start;
    cc_sb_json_string(sb, s, n);
}
#else
void cc_sb_json_text_string(struct cc_strbuf *sb, const char *s, size_t n) { cc_sb_json_string(sb, s, n); }
#endif

void cc_sb_borrow(struct cc_strbuf *keep, struct cc_strbuf *out) {
    *out = *keep;
    memset(keep, 0, sizeof *keep);
    out->len = 0;
    if (out->data) out->data[0] = '\0';
}

void cc_sb_return(struct cc_strbuf *keep, struct cc_strbuf *sb) {
    if (keep->data || sb->cap > (1u << 20)) cc_sb_free(sb);
    else *keep = *sb;
    memset(sb, 0, sizeof *sb);
}

char *cc_sb_take(struct cc_strbuf *sb, size_t *len) {
    cc_sb_reserve(sb, 0);
    sb->data[sb->len] = '\0'; /* reserve alone does not terminate an empty buffer */
    char *d = sb->data;
    if (len) *len = sb->len;
    memset(sb, 0, sizeof *sb);
    return d;
}
