/* The stateless MCP revision 2026-07-28 on any transport: what its results
 * carry (resultType and the cache hints of TOOLS.md 0.1), and how a stream
 * transport (stdio) serves its requests beside 2025-era ones: each
 * stateless request runs on its own short-lived connection whose final
 * answer is spliced and handed to the stream. */
#ifndef CC_MCP_STATELESS_H
#define CC_MCP_STATELESS_H

#include <stdbool.h>
#include <stddef.h>

struct cc_conn;
struct cc_server;

/* Is msg a JSON-RPC response (as the core writes them)? */
bool cc_rpc_is_response(const char *msg, size_t len);

/* A stateless result carries resultType and, for the list methods, the
 * cache hints. The core writes a response as
 * {"jsonrpc":"2.0","id":<id>,"result":{...}} with the result last, so the
 * members are spliced in before the closing "}}" instead of re-parsing.
 * Returns the length of msg to keep; suffix (NUL-terminated) is what to
 * append. Returns len with an empty suffix when msg is not a result.
 * *status becomes 404 for an unknown method (HTTP uses it). */
size_t cc_stateless_splice(const char *method, const char *msg, size_t len, char suffix[static 160], int *status);

/* stdio: handle text when it belongs to the stateless revision (its _meta
 * names a protocol version, or it is server/discover) or cancels such a
 * request. Returns false when the caller should handle it as usual. */
bool cc_stateless_stream_handle(struct cc_server *srv, struct cc_conn *parent, const char *text, size_t len);
/* The stream closed: cancel what its stateless requests still run. */
void cc_stateless_stream_close(struct cc_conn *parent);

#endif
