/* Session-file resource URIs (TOOLS.md 4.9): the one place that writes a
 * workspace path into codecalc://session/{session_id}/files/{+path} and
 * reads it back, so the URI a server hands out and the one a client builds
 * from the template (RFC 6570 expansion percent-encodes a space, a '%' or a
 * non-ASCII byte) both name the file. */
#ifndef CC_SUP_RES_URI_H
#define CC_SUP_RES_URI_H

#include <stddef.h>

#define CC_RES_URI_PREFIX "codecalc://session/"

/* The URI of workspace file `rel` of session `sid`, each byte outside RFC
 * 3986's unreserved and reserved-but-harmless set percent-encoded ('%',
 * '?', '#', a space, every byte >= 0x80 among them). Caller frees; NULL
 * when memory runs out. */
char *cc_res_uri(const char *sid, const char *rel);

/* `n` bytes of `s` with every %XX (two hex digits) decoded; a '%' not
 * followed by two hex digits stays as it is, so a URI written raw still
 * names its file. Caller frees; NULL when the text decodes to a NUL byte
 * (no file name holds one) or memory runs out. */
char *cc_res_uri_unescape(const char *s, size_t n);

#endif
