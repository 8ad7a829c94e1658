/* Several codecalc servers sharing one PostgreSQL database
 * (CODECALC_DATABASE_URL; docs/cluster.md). Only active when the stores are
 * shared: with the embedded sqlite database nothing here runs.
 *
 *   identity.c    this server's id (persistent in CODECALC_HOME) and its
 *                 internal URL (serve-http host:port, CODECALC_ADVERTISE_URL)
 *   runs_queue.c  runs as a shared queue: enqueue, claim under a lease,
 *                 observe own shepherds, cancel anywhere
 *   upkeep.c      what no call waits for, never blocking the loop (libpq's
 *                 asynchronous API): heartbeat, reaping expired leases, and
 *                 the cached cluster facts
 *   forward.c     a call for a session owned by another server is forwarded
 *                 to it over HTTP (CODECALC_CLUSTER_TOKEN), progress relayed
 *   facts.c       what `status` and `/metrics` show about the cluster
 */
#ifndef CC_CLUSTER_H
#define CC_CLUSTER_H

#include <jansson.h>
#include <stdbool.h>

#include "state/run_store.h"
#include "supervisor/request.h"
#include "supervisor/server.h"

struct cc_runs;
struct cc_cluster_runs;

/* The header a forwarded call carries the shared secret in. */
#define CC_CLUSTER_TOKEN_HEADER "X-Codecalc-Cluster-Token"
/* The lease file a claimed run's directory holds for its shepherd:
 * "<run_id> <attempt> <lease seconds>\n". */
#define CC_CLUSTER_LEASE_FILE "lease"

/* ---- identity.c ---- */
/* Load or create this server's id (CODECALC_HOME/server-id) and publish it
 * (state/shared.h). 0 or -1 with a message on stderr. */
int cc_cluster_identity_init(const char *home);
/* serve-http bound host:port: sets the internal URL unless
 * CODECALC_ADVERTISE_URL names one. */
void cc_cluster_advertise(struct cc_server *srv, const char *host, int port);
/* The lease in seconds (CODECALC_RUN_LEASE_SECONDS, default 15). */
double cc_cluster_lease_s(void);

/* ---- runs_queue.c (struct cc_runs of supervisor/runs/runs.h) ---- */
int cc_cluster_runs_start(struct cc_server *srv, struct cc_runs *rs, const char *home);
void cc_cluster_runs_stop(struct cc_runs *rs);
/* run_submit on the shared store: enqueue, then claim what fits here. NULL
 * when queued (rec updated to what the store holds now), else the
 * rejection. */
json_t *cc_cluster_submit(struct cc_runs *rs, json_t *args, struct cc_run_rec *rec);
/* Bring a run this server owns up to date (local shepherd and files). */
void cc_cluster_observe(struct cc_runs *rs, struct cc_run_rec *rec);
/* Once a second: the upkeep round (heartbeat, reaping), then claim. */
void cc_cluster_tick(struct cc_runs *rs);
/* run_cancel on the shared store: the answer object. */
json_t *cc_cluster_cancel(struct cc_runs *rs, struct cc_run_rec *rec);
/* The result document {cancelled, result} of a terminal run (a run that
 * never ran gets one saying so). NULL with errno when unreadable. */
json_t *cc_cluster_read_result(struct cc_runs *rs, const struct cc_run_rec *rec);
/* The output so far of an active run ({phase, stdout, stderr, *_bytes}, as
 * the shepherd's partial.json): read locally when the run executes here,
 * else as its shepherd last stored it (at most two seconds old). NULL when
 * there is none yet. New reference. */
json_t *cc_cluster_read_partial(struct cc_runs *rs, const struct cc_run_rec *rec);
/* attempt, reason, server onto a run_* answer. */
void cc_cluster_run_fields(json_t *o, const struct cc_run_rec *rec);

/* ---- forward.c ---- */
/* A tools/call naming a session_id owned by another live server: forward
 * it there (takes over r, returns true). false: serve it here. */
bool cc_cluster_forward(struct cc_server *srv, struct cc_req *r, json_t *params, json_t *args);
/* Is server id's heartbeat within the lease? The upkeep's cache answers
 * when it is fresh, else the shared run store. 1 yes, 0 no (*age_s says
 * how old it is), -1 unknown. */
int cc_cluster_server_alive(struct cc_server *srv, const char *id, double *age_s);
/* Is this request's token the cluster's? (a forwarded call: never forwarded
 * again). */
bool cc_cluster_token_ok(const char *presented);

/* ---- upkeep.c ---- */
struct cc_cluster_upkeep;
struct event_base;
struct cc_cluster_upkeep *cc_cluster_upkeep_new(struct event_base *base, const char *url);
void cc_cluster_upkeep_free(struct cc_cluster_upkeep *k);
/* Start a round (heartbeat with this capacity, reap, servers; the run
 * counts too while the figures are watched) unless one is under way. */
void cc_cluster_upkeep_tick(struct cc_cluster_upkeep *k, int capacity);
/* The cached figures, as of the last rounds that read them; reading marks
 * them watched (the run counts are refreshed for a minute after). The
 * pointers stay valid until the next round ends. */
struct cc_cluster_view {
    bool have_servers, have_counts;
    const struct cc_run_server *servers;
    size_t n_servers;
    struct cc_run_cluster counts;   /* its servers unused */
    double servers_age_s, counts_age_s;
    const char *error;              /* the last round's failure, "" when none */
};
void cc_cluster_upkeep_view(struct cc_cluster_upkeep *k, struct cc_cluster_view *v);
/* Seconds since server id's heartbeat, from the cache when it is fresh: 1,
 * or -1 when the cache cannot say (ask the store). */
int cc_cluster_upkeep_server_age(struct cc_cluster_upkeep *k, const char *id, double *age_s);
/* This server's upkeep (NULL on sqlite). */
struct cc_cluster_upkeep *cc_cluster_upkeep_of(struct cc_runs *rs);

/* ---- facts.c ---- */
/* {"enabled", "server_id", "url", "lease_seconds", "servers": [{id, url,
 * alive, heartbeat_age_seconds, capacity, claimed}], "runs": {queued,
 * active, finished, lost, requeued} or null before the first read,
 * "age_seconds" (of the older part; null before the first read), "error"
 * when the last refresh failed}; {"enabled": false} on sqlite. Served from
 * the upkeep's cache: never waits for the database. New reference; NULL
 * only when out of memory. */
json_t *cc_cluster_facts(struct cc_server *srv);
/* Active runs this server holds, from the cache: 0, or -1 when not known
 * yet (or not a cluster). */
int cc_cluster_claimed_here(struct cc_server *srv, int64_t *n);
/* The same for a CLI without a running server (`codecalc status`): opens
 * the shared store named by CODECALC_DATABASE_URL for the one query. */
json_t *cc_cluster_facts_offline(void);
/* Prometheus lines for /metrics: codecalc_cluster_runs{state},
 * codecalc_cluster_server_alive{server}, codecalc_cluster_server_claimed{server}.
 * Nothing when the cluster is off. */
struct cc_strbuf;
void cc_cluster_metrics(struct cc_strbuf *sb, const json_t *facts);

#endif
