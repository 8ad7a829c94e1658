/* Pre-forked worker pools (DESIGN.md "Shape"). Each worker serves one
 * request at a time; a pool grows on demand up to max and shrinks back to
 * min when workers sit idle. A worker that dies, overruns a deadline or
 * answers the wrong id is killed, its request answered with an error, and a
 * fresh worker takes its place. Each pool's binary, size and way of
 * cancelling a call come from its definition (protocol/tools/pools.json).
 * The first hello of a pool must announce every op the tool table routes to
 * it, or the server stops (a build whose worker lacks a handler). */
#ifndef CC_POOL_H
#define CC_POOL_H

#include <stdbool.h>
#include <sys/types.h>

#include "supervisor/request.h"
#include "supervisor/server.h"

/* The pool of cc_pool_defs[id] (a worker pool), with min workers started
 * by cc_pool_prefork and at most max. */
struct cc_pool *cc_pool_new(struct cc_server *srv, enum cc_pool_id id, int min, int max);
void cc_pool_free(struct cc_pool *p);
/* Start workers up to min (non-blocking: the hello arrives later). */
void cc_pool_prefork(struct cc_pool *p);
/* Queue r (its frame must be built) and dispatch when a worker is free. */
void cc_pool_submit(struct cc_pool *p, struct cc_req *r);
/* r's deadline passed or it was cancelled: take it out of the queue or kill
 * the worker serving it. r is not answered or freed here. */
void cc_pool_abandon(struct cc_pool *p, struct cc_req *r, bool kill_worker);
/* r was cancelled (notifications/cancelled, client gone): stop its work the
 * way the pool's definition says (cancel frame, or replace the worker) and
 * take it out of the pool. r is not answered or freed here. */
void cc_pool_cancel(struct cc_pool *p, struct cc_req *r);
/* Reap exited children (SIGCHLD). */
void cc_pool_reap(struct cc_server *srv);
/* Stop idle workers beyond min that have idled longer than idle_ms. */
void cc_pool_shrink(struct cc_pool *p, int64_t idle_ms);
/* The most workers p may run (its cap). */
int cc_pool_max(const struct cc_pool *p);
/* What a pool holds now (metrics, status page). */
struct cc_pool_stats {
    int min, max;
    int workers, starting, idle, busy;
    int queued;
};
void cc_pool_stats(const struct cc_pool *p, struct cc_pool_stats *out);
/* pids of live workers (tests and diagnostics); returns count. */
int cc_pool_pids(const struct cc_pool *p, pid_t *out, int cap);

#endif
