/* A client connection as the rest of the supervisor sees it: something that
 * can take one JSON-RPC message (a complete JSON text) and that remembers
 * the MCP lifecycle state negotiated on it. Transports (stdio, HTTP) create
 * connections; requests hold references so a connection that closes while
 * calls are in flight is freed only when the last one finishes. */
#ifndef CC_CONN_H
#define CC_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cc_server;
struct cc_conn;

struct cc_conn_ops {
    /* Deliver one message. Never called after the connection closed. */
    void (*send)(struct cc_conn *c, const char *msg, size_t len);
    /* Free transport state; called once when closed and unreferenced. */
    void (*release)(struct cc_conn *c);
};

struct cc_conn {
    const struct cc_conn_ops *ops;
    struct cc_server *srv;
    uint64_t serial;
    int refs;
    bool closed;
    bool initialized;
    char protocol_version[16];
    int log_level;       /* MCP level index (supervisor/mcp/logging.h) */
    bool log_subscribed; /* logging/setLevel was received */
    bool forwarded;      /* a call another cluster server forwarded here */
    void *transport;     /* transport-private state */
};

void cc_conn_init(struct cc_conn *c, struct cc_server *srv, const struct cc_conn_ops *ops);
void cc_conn_send(struct cc_conn *c, const char *msg, size_t len);
void cc_conn_ref(struct cc_conn *c);
void cc_conn_unref(struct cc_conn *c);
/* The transport saw the peer go away: cancel its requests, drop the owner's
 * reference. */
void cc_conn_close(struct cc_conn *c);

#endif
