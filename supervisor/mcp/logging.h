/* MCP logging (notifications/message). A client that sent logging/setLevel
 * receives the server's log records at or above its level: worker
 * replacements, deadline kills, missing sandbox features. A record about a
 * call goes only to the client that made the call; a record about the
 * server goes to every subscribed client. Records never carry a call's
 * arguments or output.
 *
 * Subscribers are connections (stdio) and sinks (a transport that fans out
 * by itself, like the HTTP GET streams of 2025-era sessions). Both must be
 * removed before they are freed. */
#ifndef CC_MCP_LOGGING_H
#define CC_MCP_LOGGING_H

#include <jansson.h>
#include <stddef.h>

struct cc_conn;

/* MCP's syslog levels, in order (the index is the level). */
enum cc_mcp_level {
    CC_MCP_DEBUG, CC_MCP_INFO, CC_MCP_NOTICE, CC_MCP_WARNING,
    CC_MCP_ERROR, CC_MCP_CRITICAL, CC_MCP_ALERT, CC_MCP_EMERGENCY,
};
/* The level named name, or -1. */
int cc_mcp_level_parse(const char *name);

/* logging/setLevel on c (c->log_level already set): subscribe c and send it
 * the standing conditions at or above its level. */
void cc_mcp_log_subscribe(struct cc_conn *c);
/* Forget c (it is closing). Safe when c never subscribed. */
void cc_mcp_log_unsubscribe(struct cc_conn *c);

struct cc_log_sink {
    /* Deliver one notifications/message text; the sink filters by level. */
    void (*deliver)(struct cc_log_sink *s, int level, const char *msg, size_t len);
    struct cc_log_sink *next;
};
void cc_mcp_log_add_sink(struct cc_log_sink *s);
void cc_mcp_log_remove_sink(struct cc_log_sink *s);

/* One record to one client (when it subscribed at or below level). data is
 * borrowed: an object whose "message" member says what happened. */
void cc_mcp_log_to(struct cc_conn *c, int level, const char *logger, const json_t *data);
/* One record to every subscriber. */
void cc_mcp_log_all(int level, const char *logger, const json_t *data);

#endif
