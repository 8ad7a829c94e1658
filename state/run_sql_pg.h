/* Statements of the shared run store that two files run: the store's
 * synchronous verbs (run_store_pg.c) and the server's non-blocking upkeep
 * (run_upkeep_pg.c). Private to state/. */
#ifndef CC_STATE_RUN_SQL_PG_H
#define CC_STATE_RUN_SQL_PG_H

#include <libpq-fe.h>

#include "state/run_store.h"

#define CC_RUN_PG_NOW_EPOCH "extract(epoch from clock_timestamp())"

/* How a lost attempt is recorded, shared by lose and reap: cancelled when
 * a cancel was asked for, LOST after the last attempt, else queued again as
 * the next attempt (reason keeps every loss). Uses $1 = max attempts. */
#define CC_RUN_PG_LOSE_SET                                                                         \
    " state = CASE WHEN r.cancel_requested THEN 3 WHEN r.attempt >= $1 THEN 4 ELSE 5 END,"         \
    " reason = ltrim(r.reason || '; ' || format('attempt %s lost: %s', r.attempt, w.why)"            \
    "          || CASE WHEN r.cancel_requested THEN ' (a cancel had been requested: not re-run)'"    \
    "                  WHEN r.attempt >= $1 THEN ' (no attempts left)'"                              \
    "                  ELSE format('; re-queued as attempt %s (the program runs again)', r.attempt + 1) END, '; '),"\
    " attempt = CASE WHEN r.cancel_requested OR r.attempt >= $1 THEN r.attempt ELSE r.attempt + 1 END," \
    " owner = CASE WHEN r.cancel_requested OR r.attempt >= $1 THEN r.owner ELSE '' END,"           \
    " finished_at = CASE WHEN r.cancel_requested OR r.attempt >= $1 THEN " CC_RUN_PG_NOW_EPOCH " ELSE 0 END,"\
    " lease_until = NULL, pid = 0, pid_start = 0, result = NULL, partial = NULL"

/* $1 id, $2 url, $3 capacity. */
#define CC_RUN_PG_HEARTBEAT                                                                        \
    "INSERT INTO cc_servers(id, url, capacity) VALUES($1, $2, $3) ON CONFLICT (id) DO UPDATE"     \
    " SET url = excluded.url, capacity = excluded.capacity, heartbeat = clock_timestamp()"

/* Every active run whose lease expired, lost as above. $1 = max attempts.
 * Rows: (new state, notify). */
#define CC_RUN_PG_REAP                                                                             \
    "WITH w AS (SELECT id, format('the lease of server %s expired (the server or the run''s shepherd" \
    " died without reporting)', owner) AS why FROM cc_runs"                                          \
    "  WHERE state < 2 AND lease_until < clock_timestamp() FOR UPDATE SKIP LOCKED),"                 \
    " u AS (UPDATE cc_runs r SET" CC_RUN_PG_LOSE_SET " FROM w WHERE r.id = w.id RETURNING r.id, r.state)" \
    " SELECT state, CASE WHEN state = 5 THEN pg_notify('cc_run_queued', id) END FROM u"

/* Cluster-wide run counts: one row (queued, active, done, lost, requeued).
 * Reads every run: for watching, not for every call. */
#define CC_RUN_PG_CLUSTER_COUNTS                                                                   \
    "SELECT count(*) FILTER (WHERE state = 5), count(*) FILTER (WHERE state < 2),"                 \
    " count(*) FILTER (WHERE state IN (2, 3)), count(*) FILTER (WHERE state = 4),"                 \
    " count(*) FILTER (WHERE attempt > 1) FROM cc_runs"

/* The servers (id, url, heartbeat age, capacity, runs claimed): cheap, the
 * claims are counted on the index of active runs. */
#define CC_RUN_PG_CLUSTER_SERVERS                                                                  \
    "SELECT s.id, s.url, extract(epoch from clock_timestamp() - s.heartbeat), s.capacity,"         \
    " (SELECT count(*) FROM cc_runs r WHERE r.state < 2 AND r.owner = s.id)"                       \
    " FROM cc_servers s ORDER BY s.id"

/* Rows of the two statements above into out (run_upkeep_pg.c). The
 * servers array is malloc'd; res is not cleared. 0 or -1. */
void cc_run_pg_read_counts(const PGresult *res, struct cc_run_cluster *out);
int cc_run_pg_read_servers(const PGresult *res, struct cc_run_cluster *out);

#endif
