/* How workspace bytes travel to a client: MIME type from the extension,
 * base64 for blobs and images, UTF-8 repair for text, and the MCP image
 * content answer of session_read_file (TOOLS.md 0.2, 3.2.6, 4.9). */
#ifndef CC_SESSION_CONTENT_H
#define CC_SESSION_CONTENT_H

#include <stdbool.h>
#include <stddef.h>

/* MIME type guessed from the extension (static string);
 * "application/octet-stream" when unknown. */
const char *cc_mime_guess(const char *path);
/* Base64 of data (malloc'd, NUL terminated); NULL on OOM. */
char *cc_base64(const char *data, size_t len);
/* Copy with invalid UTF-8 replaced by U+FFFD (malloc'd); NULL on OOM. */
char *cc_utf8_fix(const char *s, size_t n, size_t *outlen);
/* true when the bytes are valid UTF-8. */
bool cc_utf8_valid(const char *s, size_t n);

#endif
