/* Several codecalc servers sharing one PostgreSQL database
 * (CODECALC_DATABASE_URL; docs/cluster.md). Only active when the stores are
 * shared: with the embedded sqlite database nothing here runs.
 *
 *   identity.c    this server's id (persistent in CODECALC_HOME) and its
 *                 internal URL (serve-http host:port, CODECALC_ADVERTISE_URL)
 *   runs_queue.c  runs as a shared queue: enqueue, claim under a lease,
 *                 observe own shepherds, reap expired leases, cancel anywhere
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

/* Default lease of a claimed run (CODECALC_RUN_LEASE_SECONDS). */
#define CC_CLUSTER_LEASE_DEFAULT_S 15.0
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
/* Once a second: heartbeat, reap expired leases, claim. */
void cc_cluster_tick(struct cc_runs *rs);
/* run_cancel on the shared store: the answer object. */
json_t *cc_cluster_cancel(struct cc_runs *rs, struct cc_run_rec *rec);
/* The result document {cancelled, result} of a terminal run (a run that
 * never ran gets one saying so). NULL with errno when unreadable. */
json_t *cc_cluster_read_result(struct cc_runs *rs, const struct cc_run_rec *rec);
/* attempt, reason, server onto a run_* answer. */
void cc_cluster_run_fields(json_t *o, const struct cc_run_rec *rec);

/* ---- forward.c ---- */
/* A tools/call naming a session_id owned by another live server: forward
 * it there (takes over r, returns true). false: serve it here. */
bool cc_cluster_forward(struct cc_server *srv, struct cc_req *r, json_t *params, json_t *args);
/* Is this request's token the cluster's? (a forwarded call: never forwarded
 * again). */
bool cc_cluster_token_ok(const char *presented);

/* ---- facts.c ---- */
/* {"enabled", "server_id", "url", "lease_seconds", "servers": [{id, url,
 * alive, heartbeat_age_seconds, capacity, claimed}], "runs": {queued,
 * active, finished, lost, requeued}}; {"enabled": false} on sqlite. New
 * reference; NULL only when out of memory. */
json_t *cc_cluster_facts(struct cc_server *srv);
/* The same for a CLI without a running server (`codecalc status`): opens
 * the shared store named by CODECALC_DATABASE_URL for the one query. */
json_t *cc_cluster_facts_offline(void);
/* Prometheus lines for /metrics: codecalc_cluster_runs{state},
 * codecalc_cluster_server_alive{server}, codecalc_cluster_server_claimed{server}.
 * Nothing when the cluster is off. */
struct cc_strbuf;
void cc_cluster_metrics(struct cc_strbuf *sb, const json_t *facts);

#endif
