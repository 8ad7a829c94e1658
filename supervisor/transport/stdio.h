/* MCP over stdio: newline-delimited JSON-RPC on stdin/stdout. stdout carries
 * nothing but protocol messages; logs go to stderr. */
#ifndef CC_STDIO_TRANSPORT_H
#define CC_STDIO_TRANSPORT_H

#include "supervisor/server.h"

/* Serve until stdin closes and every call in flight has been answered.
 * Returns the process exit status. */
int cc_stdio_serve(struct cc_server *srv);

#endif
