/* The id of a JSON-RPC message too large to parse, from its ends only. */
#ifndef CC_ID_SNIFF_H
#define CC_ID_SNIFF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* head: the message's first bytes; tail: its last bytes (either may be
 * NULL). A new reference to an integer or string id, or NULL. */
json_t *cc_sniff_rpc_id(const char *head, size_t hn, const char *tail, size_t tn);

#endif
