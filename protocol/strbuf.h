/* A growable byte buffer. Allocation failure aborts: every caller would have
 * to answer "out of memory" anyway, and a half-built message is worse. */
#ifndef CC_STRBUF_H
#define CC_STRBUF_H

#include <stddef.h>

struct cc_strbuf {
    char *data;
    size_t len, cap;
};

void cc_sb_init(struct cc_strbuf *sb);
void cc_sb_free(struct cc_strbuf *sb);
void cc_sb_reserve(struct cc_strbuf *sb, size_t extra);
void cc_sb_put(struct cc_strbuf *sb, const void *p, size_t n);
void cc_sb_puts(struct cc_strbuf *sb, const char *s);
void cc_sb_putc(struct cc_strbuf *sb, char c);
void cc_sb_printf(struct cc_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append s as a JSON string literal (quotes included). Invalid UTF-8 is
 * replaced by U+FFFD so the output is always valid JSON. */
void cc_sb_json_string(struct cc_strbuf *sb, const char *s, size_t n);
/* NUL-terminate and hand the bytes to the caller (who frees them). */
char *cc_sb_take(struct cc_strbuf *sb, size_t *len);

#endif
