/* The fast path of cc_json_parse (protocol/json_convert.h): a tree for
 * plainly well-formed JSON text, identical to the one jansson would build,
 * or NULL when the text holds anything it leaves to jansson (errors, \u
 * escapes, integers of 19+ digits, nesting deeper than 32). */
#ifndef CC_JSON_FAST_H
#define CC_JSON_FAST_H

#include <jansson.h>
#include <stddef.h>

json_t *cc_json_parse_fast(const char *text, size_t len);

#endif
