/* MCP log subscribers (supervisor/mcp/logging.c). */
#include <stdlib.h>

#include "supervisor/conn.h"
#include "supervisor/mcp/logging.h"
#include "supervisor/server.h"
#include "tests/unit/check.h"

static int sent;
static void count_send(struct cc_conn *c, const char *msg, size_t len) {
    (void)c, (void)msg, (void)len;
    sent++;
}
static void keep(struct cc_conn *c) { (void)c; }
static const struct cc_conn_ops ops = {count_send, keep};
static struct cc_server srv; /* no bindir: no standing sandbox record */

/* Regression: an HTTP POST's connection is closed by its own
 * logging/setLevel answer, and was added to the subscribers afterwards: it
 * outlived its exchange (the next server-wide record read and called
 * through freed memory), and 64 of them filled the table, so a stdio
 * client subscribing later heard no server-wide record. */
static void regression_closed_conn_is_not_subscribed(void) {
    struct cc_conn *gone[70];
    for (int i = 0; i < 70; i++) {
        gone[i] = calloc(1, sizeof *gone[i]);
        if (!gone[i]) return;
        cc_conn_init(gone[i], &srv, &ops);
        gone[i]->log_subscribed = true;
        gone[i]->closed = true; /* as cc_conn_close left it */
        cc_mcp_log_subscribe(gone[i]);
    }
    struct cc_conn live;
    cc_conn_init(&live, &srv, &ops);
    live.log_subscribed = true;
    live.log_level = CC_MCP_DEBUG;
    cc_mcp_log_subscribe(&live);
    sent = 0;
    json_t *data = json_pack("{s:s}", "message", "a worker was replaced");
    cc_mcp_log_all(CC_MCP_WARNING, "codecalc.test", data);
    json_decref(data);
    CHECK(sent == 1);
    cc_mcp_log_unsubscribe(&live);
    for (int i = 0; i < 70; i++) free(gone[i]);
}

int main(void) {
    RUN(regression_closed_conn_is_not_subscribed);
    return check_summary("sup_logging");
}
