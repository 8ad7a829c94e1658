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
#include "protocol/base64.h" /* cc_base64 */

#include "protocol/utf8.h" /* cc_utf8_valid, cc_utf8_repair */

#endif
