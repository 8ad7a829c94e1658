/* The shepherd's half of a run claimed from the shared queue
 * (supervisor/cluster/runs_queue.c, docs/cluster.md): the shepherd, not
 * the supervisor, holds the run's lease, because it is what outlives a
 * supervisor crash. While the program runs it renews the lease and watches
 * for a cancel (LISTEN cc_run_cancel, with the renewal's answer as the
 * polling fallback); at the end it stores the result in the database.
 *
 * Present only when the run directory holds a lease file and
 * CODECALC_DATABASE_URL is set; otherwise every function is a no-op on
 * NULL. */
#ifndef CC_SHEPHERD_LEASE_H
#define CC_SHEPHERD_LEASE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct cc_lease;

/* NULL when the run is not from the shared queue (or the database cannot
 * be reached: the supervisor then ingests result.json itself). */
struct cc_lease *cc_lease_open(int dirfd);
/* Called every tick while the program runs: renews when due, reads
 * notifications. true = stop the program (cancel requested, or the lease
 * is no longer this attempt's). */
bool cc_lease_tick(struct cc_lease *l);
/* The run's output so far (a partial.json document of len bytes): stored
 * with a later renewal, at most every two seconds, so that any server's
 * run_inspect shows it. Only the latest offer is kept. */
void cc_lease_offer_partial(struct cc_lease *l, const char *doc, size_t len);
/* Did the run stop because the lease was lost (not a cancel)? */
bool cc_lease_lost(const struct cc_lease *l);
/* Store {cancelled, result} with its output files; retried for up to the
 * lease time while the database is unreachable. */
void cc_lease_finish(struct cc_lease *l, bool cancelled, json_t *result);
void cc_lease_close(struct cc_lease *l);

#endif
