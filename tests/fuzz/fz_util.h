/* Helpers several targets share. */
#ifndef CC_FZ_UTIL_H
#define CC_FZ_UTIL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "workers/common/tool_api.h"

/* A tool result must exist, print as strict JSON and follow the result
 * contract's outline (ok; on failure one of the eight codes and an error). */
void fz_check_result(const json_t *r, const char *what);
/* A JSON string of the bytes, or NULL when they are not UTF-8 (a client's
 * string always is: it came through a JSON parser). */
json_t *fz_string(const uint8_t *p, size_t n);
/* Call tool with {key: <the bytes as a string>} and check its result; does
 * nothing when the bytes are not UTF-8. */
void fz_tool_on_text(cc_tool_fn tool, const char *name, const char *key, const uint8_t *p, size_t n);

#endif
