/* MCP methods: lifecycle, tools/list, tools/call, logging, cancellation. */
#ifndef CC_MCP_H
#define CC_MCP_H

#include <jansson.h>

#include "protocol/strbuf.h"

#include "supervisor/server.h"

#define CC_SERVER_NAME "codecalc"
#ifndef CC_VERSION
#define CC_VERSION "0.1.0"
#endif

/* id is NULL for a notification. params may be NULL. */
void cc_mcp_dispatch(struct cc_server *srv, struct cc_conn *c, json_t *id, const char *method,
                     json_t *params);
/* The refusal of a request whose id is that of a call still in flight on
 * the same connection (stdio) or MCP session (HTTP): JSON-RPC -32600. */
#define CC_RPC_ID_IN_USE                                                                         \
    "Invalid Request: this id is already used by a call in flight; ids must be unique among "   \
    "the requests in flight"

/* Start a tools/call (also used by `codecalc call`). */
void cc_mcp_tools_call(struct cc_server *srv, struct cc_conn *c, json_t *id, json_t *params);

/* A JSON-RPC error message as text (id NULL = null; data may be NULL). */
void cc_rpc_error_text(struct cc_strbuf *sb, const json_t *id, int code, const char *msg,
                       const json_t *data);
void cc_rpc_send_error(struct cc_conn *c, const json_t *id, int code, const char *msg);
/* Why a message did not parse (issue 11 item 6): fills code (-32700 for
 * bytes that are not JSON or not UTF-8, -32600 for JSON nested past the
 * parser's depth) and msg, and returns the request's id when it can be read
 * from the raw text (new reference), else NULL. */
json_t *cc_rpc_parse_failure(const char *text, size_t len, const json_error_t *je, int *code,
                             char *msg, size_t cap);
void cc_rpc_send_result(struct cc_conn *c, const json_t *id, const json_t *result);

/* The protocol revision answered for a requested one (TOOLS.md 0.1). */
const char *cc_mcp_negotiate(const char *requested);

#endif
