/* The stateless MCP revision 2026-07-28: which revisions this server speaks,
 * the server/discover result, and the cache hints of TOOLS.md 0.1. */
#ifndef CC_MCP_DISCOVER_H
#define CC_MCP_DISCOVER_H

#include <jansson.h>
#include <stdbool.h>

#include "supervisor/server.h"

#define CC_MCP_STATELESS_VERSION "2026-07-28"

/* Is v a revision this server speaks (stateless or legacy)? */
bool cc_mcp_version_supported(const char *v);
/* New array of every supported revision, newest first. */
json_t *cc_mcp_supported_versions(void);
/* New server/discover result: identity, capabilities, supported versions
 * and instructions (the same text initialize sends). The transport adds
 * resultType and the cache hints, as it does for every stateless result.
 * NULL only when out of memory. */
json_t *cc_mcp_discover_result(struct cc_server *srv);
/* Cache hints for a method's result (TOOLS.md 0.1). Returns false when the
 * method has none; otherwise sets *ttl_ms and *scope ("public"/"private"). */
bool cc_mcp_cache_hint(const char *method, long *ttl_ms, const char **scope);

#endif
