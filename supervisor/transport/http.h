/* MCP over Streamable HTTP (`codecalc serve-http`), one endpoint /mcp on
 * libevent's evhttp, serving both protocol eras on the same port:
 *  - 2025-03-26 … 2025-11-25: initialize issues an Mcp-Session-Id; POST
 *    answers with application/json or an SSE stream; GET opens the session's
 *    server-message stream; DELETE ends the session.
 *  - 2026-07-28 (stateless): every POST is self-contained (MCP-Protocol-Version,
 *    Mcp-Method and Mcp-Name headers, no session); server/discover; cache
 *    hints on list results.
 * The era is chosen per request from what the client sends. */
#ifndef CC_HTTP_TRANSPORT_H
#define CC_HTTP_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>

/* Entry point of `codecalc serve-http [--host H] [--port P]`; argv[0] is the
 * first argument after "serve-http". Returns the process exit status: 2 when
 * the arguments are bad or a non-loopback bind lacks CODECALC_HTTP_TOKEN. */
int cc_http_main(int argc, char **argv);

/* Is host a loopback name or address (127.0.0.0/8, ::1, localhost,
 * ip6-localhost)? Brackets around an IPv6 literal are accepted. */
bool cc_http_host_is_loopback(const char *host, size_t len);

/* Does the Accept header value admit the media type ("application/json",
 * "text/event-stream")? A missing header admits nothing. */
bool cc_http_accepts(const char *accept, const char *type);

/* The transport's request handling without its socket: what serve-http runs
 * around a listener, and what tests/fuzz/fuzz_http.c drives with requests it
 * builds itself. token may be NULL (no bearer check); loopback says the
 * listener is bound to a loopback address (Host must then be loopback too).
 * The server must outlive the transport. */
struct cc_server;
struct evhttp_request;
struct cc_http_transport;
struct cc_http_transport *cc_http_transport_new(struct cc_server *srv, const char *token, bool loopback);
/* evhttp's request callback; arg is the transport. */
void cc_http_transport_handle(struct evhttp_request *req, void *arg);
/* Abort what is in flight, forget every session, free. */
void cc_http_transport_free(struct cc_http_transport *t);

#endif
