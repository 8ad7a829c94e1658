/* A growable byte buffer. Allocation failure aborts: every caller would have
 * to answer "out of memory" anyway, and a half-built message is worse. The
 * bytes are always NUL-terminated (data[len] == 0) once anything was put. */
#ifndef CC_STRBUF_H
#define CC_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cc_strbuf {
    char *data;
    size_t len, cap;
};

void cc_sb_init(struct cc_strbuf *sb);
void cc_sb_free(struct cc_strbuf *sb);
/* Room for extra more bytes plus the terminating NUL. */
void cc_sb_grow(struct cc_strbuf *sb, size_t extra);
static inline void cc_sb_reserve(struct cc_strbuf *sb, size_t extra) {
    if (sb->len + extra + 1 > sb->cap) cc_sb_grow(sb, extra);
}
static inline void cc_sb_put(struct cc_strbuf *sb, const void *p, size_t n) {
    cc_sb_reserve(sb, n);
    memcpy(sb->data + sb->len, p, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}
static inline void cc_sb_puts(struct cc_strbuf *sb, const char *s) { cc_sb_put(sb, s, strlen(s)); }
static inline void cc_sb_putc(struct cc_strbuf *sb, char c) {
    cc_sb_reserve(sb, 1);
    sb->data[sb->len++] = c;
    sb->data[sb->len] = '\0';
}
void cc_sb_printf(struct cc_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Decimal integers without printf. */
void cc_sb_put_u64(struct cc_strbuf *sb, uint64_t v);
void cc_sb_put_i64(struct cc_strbuf *sb, int64_t v);
/* Append s as a JSON string literal (quotes included). Invalid UTF-8 is
 * replaced by U+FFFD so the output is always valid JSON. */
void cc_sb_json_string(struct cc_strbuf *sb, const char *s, size_t n);
/* The same bytes as cc_sb_json_string, faster for printable ASCII full of
 * quotes (JSON text going into a string: a result's text item). */
void cc_sb_json_text_string(struct cc_strbuf *sb, const char *s, size_t n);
/* A buffer kept between uses so a hot path allocates nothing per call
 * (one thread only): cc_sb_borrow moves the kept buffer, emptied, into
 * *out (a fresh one when none is kept, e.g. in a nested use);
 * cc_sb_return keeps *sb unless one is already kept or it grew past
 * 1 MiB, and frees it otherwise. */
void cc_sb_borrow(struct cc_strbuf *keep, struct cc_strbuf *out);
void cc_sb_return(struct cc_strbuf *keep, struct cc_strbuf *sb);
/* NUL-terminate and hand the bytes to the caller (who frees them). */
char *cc_sb_take(struct cc_strbuf *sb, size_t *len);

#endif
