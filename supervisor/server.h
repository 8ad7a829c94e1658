/* The supervisor's shared state: one libevent loop, the tool registry, the
 * worker pools and the table of requests in flight. */
#ifndef CC_SERVER_H
#define CC_SERVER_H

#include <event2/event.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "protocol/monotonic.h"
#include "supervisor/conn.h"
#include "supervisor/mcp/registry.h"

struct cc_pool;
struct cc_req;

struct cc_server {
    struct event_base *base;
    struct cc_registry reg;
    char *instructions;          /* owned: initialize's text for reg (mcp/instructions.h) */
    struct cc_pool *pools[CC_POOL_COUNT]; /* by enum cc_pool_id; NULL for local */
    char bindir[4096];           /* where the worker binaries live */
    struct cc_req *inflight;     /* every request not yet answered */
    int n_inflight;              /* length of that list */
    uint64_t next_wid;           /* worker-protocol request ids */
    uint64_t next_conn_serial;
    int64_t test_deadline_ms;    /* CODECALC_TEST_DEADLINE_MS (tests only) */
    bool prefork;                /* start pools at their minimum */
    bool stateful;               /* sessions and runs are served (state dir locked) */
    bool fatal;                  /* cc_server_fatal was called: the loop stops */
    void *sessions;              /* owned by supervisor/sessions*.c */
    void *runs;                  /* owned by supervisor/runs*.c */
    struct event *sigchld_ev, *shrink_ev;
};

/* prefork: start pools at their minimum. stateful: open the state directory
 * (sessions, runs); a one-shot `codecalc call` of a stateless tool skips it
 * so it works beside a running server. */
int cc_server_init(struct cc_server *srv, bool prefork, bool stateful);
void cc_server_free(struct cc_server *srv);
/* Handle one JSON-RPC message (a line of text) from connection c. */
void cc_server_handle(struct cc_server *srv, struct cc_conn *c, const char *text, size_t len);
/* Cancel every in-flight request of c without answering (peer is gone). */
void cc_server_drop_conn(struct cc_server *srv, struct cc_conn *c);
/* Stop the server: print the reason on stderr, break the event loop and
 * mark srv->fatal so the transport's caller exits non-zero. For errors
 * that make serving wrong, such as a worker that lacks a tool's handler. */
void cc_server_fatal(struct cc_server *srv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Number of requests in flight (for graceful drain). */
int cc_server_inflight(const struct cc_server *srv);

/* The directory of this executable, where the worker binaries live. */
int cc_server_bindir(char *out, size_t cap);

#endif
