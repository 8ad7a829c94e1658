/* Base64 (RFC 4648, with padding): binary data in JSON, blobs and images
 * in MCP content. */
#ifndef CC_BASE64_H
#define CC_BASE64_H

#include <stddef.h>

#include "protocol/strbuf.h"

void cc_base64_append(struct cc_strbuf *sb, const void *data, size_t n);
/* Malloc'd, NUL-terminated; aborts on OOM like every strbuf user. */
char *cc_base64(const void *data, size_t n);
/* Decode padded base64 (surrounding whitespace ignored). Malloc'd bytes
 * with *n set, or NULL when text is not base64. */
unsigned char *cc_base64_decode(const char *text, size_t len, size_t *n);

#endif
