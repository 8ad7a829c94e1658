/* UTF-8 validation and repair, shared by everything that turns bytes from a
 * program or a file into JSON text (which must be valid UTF-8). Overlong
 * forms, surrogates and code points above U+10FFFF are invalid. */
#ifndef CC_UTF8_H
#define CC_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length (1..4) of the valid sequence at p[0..n), or 0 when invalid. */
size_t cc_utf8_seq(const unsigned char *p, size_t n);
bool cc_utf8_valid(const char *s, size_t n);
/* Copy of s with every invalid byte replaced by U+FFFD; malloc'd and
 * NUL-terminated, *outlen set. NULL on OOM. */
char *cc_utf8_repair(const char *s, size_t n, size_t *outlen);
/* Bytes of the first `chars` characters of the valid UTF-8 text s[0..n)
 * (results quote "the first 200 chars" of a program's output). */
size_t cc_utf8_prefix(const char *s, size_t n, size_t chars);

#endif
