#include "supervisor/conn.h"

#include "supervisor/mcp/logging.h"
#include "supervisor/server.h"

void cc_conn_init(struct cc_conn *c, struct cc_server *srv, const struct cc_conn_ops *ops) {
    c->ops = ops;
    c->srv = srv;
    c->serial = ++srv->next_conn_serial;
    c->refs = 1;
    c->closed = false;
    c->initialized = false;
    c->protocol_version[0] = '\0';
    c->log_level = 3;
    c->forwarded = false;
    c->log_subscribed = false;
}

void cc_conn_send(struct cc_conn *c, const char *msg, size_t len) {
    if (!c->closed) c->ops->send(c, msg, len);
}

void cc_conn_ref(struct cc_conn *c) { c->refs++; }

void cc_conn_unref(struct cc_conn *c) {
    if (--c->refs == 0) c->ops->release(c);
}

void cc_conn_close(struct cc_conn *c) {
    if (c->closed) return;
    c->closed = true;
    if (c->log_subscribed) cc_mcp_log_unsubscribe(c);
    cc_server_drop_conn(c->srv, c);
    cc_conn_unref(c);
}
