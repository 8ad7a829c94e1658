/* The periodic upkeep a server does on the shared run store, run without
 * blocking its event loop (state/pg_async.h) on a connection of its own:
 *
 *   heartbeat  this server is alive (cc_servers)
 *   reap       runs whose lease expired are re-queued or lost
 *   servers    every server: heartbeat age, capacity, runs claimed (cheap)
 *   counts     the cluster's runs by state (reads every run: only asked for
 *              while someone watches /metrics or /status)
 *
 * One round runs these in order, one statement at a time. The caller starts
 * a round, watches the descriptor it is given and steps until the round
 * ends; then it reads what the round learnt. A failing statement ends the
 * round with error set (what came before it is kept).
 *
 * Ownership: the handle is the caller's; a round's servers array is the
 * caller's to free(). */
#ifndef CC_STATE_RUN_UPKEEP_H
#define CC_STATE_RUN_UPKEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "state/run_store.h"

struct cc_run_upkeep;

struct cc_run_upkeep_round {
    bool heartbeat_ok;
    int64_t requeued;             /* runs the reaper re-queued */
    bool have_servers;            /* cluster.servers / n_servers filled */
    bool have_counts;             /* cluster's counts filled */
    struct cc_run_cluster cluster;
    char error[512];              /* "" when every statement succeeded */
};

struct cc_run_upkeep *cc_run_upkeep_new(const char *url);
void cc_run_upkeep_free(struct cc_run_upkeep *u);

/* Start a round for this server (id, internal url, capacity); counts: also
 * read the cluster's run counts. 0, or -1 when a round is under way. */
int cc_run_upkeep_begin(struct cc_run_upkeep *u, const char *id, const char *url, int capacity, bool counts);
bool cc_run_upkeep_busy(const struct cc_run_upkeep *u);
/* Advance the round: 0 = watch *fd (for writing when *want_write) and step
 * again; 1 = the round ended, *out filled. */
int cc_run_upkeep_step(struct cc_run_upkeep *u, int *fd, bool *want_write, struct cc_run_upkeep_round *out);
/* Give the round up (the database did not answer in time): it ends with
 * why as its error. *out filled as by a step returning 1. */
void cc_run_upkeep_abort(struct cc_run_upkeep *u, const char *why, struct cc_run_upkeep_round *out);

#endif
