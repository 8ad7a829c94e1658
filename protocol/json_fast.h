/* The fast path of cc_json_parse (protocol/json_convert.h): a tree for
 * plainly well-formed JSON text, identical to the one jansson would build,
 * or NULL when the text holds anything it leaves to jansson (errors, \u
 * escapes, integers of 19+ digits, nesting deeper than 32). */
#ifndef CC_JSON_FAST_H
#define CC_JSON_FAST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

json_t *cc_json_parse_fast(const char *text, size_t len);

/* A JSON-RPC message in its usual form, read without building the
 * envelope's tree: one object whose members are "method" (a string) and
 * any of "jsonrpc" (a string), "id" (an integer of at most 18 digits or a
 * string) and "params" (an object), each at most once, in any order, every
 * string of the envelope without escapes or non-ASCII bytes. */
struct cc_rpc_fast {
    json_t *id;        /* new, or NULL when absent */
    char method[64];   /* a longer method is left to the whole parse */
    json_t *params;    /* new, or NULL when absent */
};
/* true: *out holds values equal to those cc_json_parse's tree would hold
 * (the caller owns id and params). false, with nothing allocated, for any
 * other text: the caller parses it whole. */
bool cc_json_rpc_fast(const char *text, size_t len, struct cc_rpc_fast *out);

#endif
