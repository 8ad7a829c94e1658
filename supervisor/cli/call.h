/* One tool call inside this process, without a transport: what `codecalc
 * call` prints, and what doctor --deep uses to exercise the workers. */
#ifndef CC_CLI_CALL_H
#define CC_CLI_CALL_H

#include <jansson.h>

#include "supervisor/server.h"

/* Run tool with args (borrowed) on srv and wait for its answer. Returns the
 * JSON-RPC response message (new reference), or NULL when none came. */
json_t *cc_cli_call(struct cc_server *srv, const char *tool, json_t *args);

/* The structuredContent of a response (borrowed from msg), unwrapping an
 * array tool's {"result": [...]}; NULL when the call failed at the
 * protocol level. */
json_t *cc_cli_result(json_t *msg);

#endif
