/* A PostgreSQL connection used without ever blocking the caller (libpq's
 * asynchronous API): for work a server does on its event loop whose answer
 * can wait, so that a slow or locked database delays that work and never
 * the loop (docs/cluster.md "What a slow database delays").
 *
 * One statement at a time. The caller starts it with cc_pg_async_send(),
 * then calls cc_pg_async_step() whenever the socket it was told to watch is
 * ready (and once at the start), until the step says done or failed. The
 * connection is made on the first send and again after a failure, also
 * without blocking (PQconnectStartParams; a host name in the URL is still
 * resolved synchronously: give the database by address to avoid that).
 * Statements are cut off by the server after CC_PG_ASYNC_STATEMENT_MS
 * (statement_timeout; an `options` in the URL wins).
 *
 * Ownership: the handle is the caller's (cc_pg_async_free); a result handed
 * out by step is the caller's to PQclear(). */
#ifndef CC_STATE_PG_ASYNC_H
#define CC_STATE_PG_ASYNC_H

#include <libpq-fe.h>
#include <stdbool.h>

#define CC_PG_ASYNC_STATEMENT_MS 10000

struct cc_pg_async;

enum cc_pg_async_step {
    CC_PGA_WAIT,    /* watch *fd (for writing when *want_write), then step again */
    CC_PGA_DONE,    /* *res holds the statement's result */
    CC_PGA_FAILED,  /* cc_pg_async_error() says why; the connection is dropped */
};

struct cc_pg_async *cc_pg_async_new(const char *url);
void cc_pg_async_free(struct cc_pg_async *a);

/* Start sql with n (at most 16) text parameters. 0, or -1 when a statement
 * is already under way. */
int cc_pg_async_send(struct cc_pg_async *a, const char *sql, int n, const char *const *vals);
/* Advance the statement under way. */
enum cc_pg_async_step cc_pg_async_step(struct cc_pg_async *a, int *fd, bool *want_write, PGresult **res);
/* Give up on the statement under way (the connection is dropped; the next
 * send connects again). */
void cc_pg_async_abort(struct cc_pg_async *a, const char *why);
bool cc_pg_async_busy(const struct cc_pg_async *a);
const char *cc_pg_async_error(const struct cc_pg_async *a);

#endif
