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

#endif
