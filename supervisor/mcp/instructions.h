/* The `instructions` text initialize (and server/discover) sends (TOOLS.md
 * 0.1), built from the tools this process registered: a headline tool that
 * CODECALC_TOOLS left out is not named, so a model that follows the text
 * never calls a tool the server then answers "Unknown tool". */
#ifndef CC_MCP_INSTRUCTIONS_H
#define CC_MCP_INSTRUCTIONS_H

#include "supervisor/mcp/registry.h"

/* The text for the registry's tools. Caller frees. */
char *cc_mcp_instructions(const struct cc_registry *reg);

#endif
