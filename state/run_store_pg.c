/* PostgreSQL backend of the run store (see run_store.h): the runs of every
 * server in one table that is also the queue. Times that decide leases are
 * the database's clock (clock_timestamp()), so servers whose clocks differ
 * still agree on when a lease expired. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/pg.h"
#include "state/run_sql_pg.h"
#include "state/run_store.h"
#include "state/shared.h"

static const struct cc_migration run_steps[] = {
    {1, "CREATE TABLE cc_runs("
        " id text PRIMARY KEY, provider_id text NOT NULL, state integer NOT NULL,"
        " started_at double precision NOT NULL, deadline double precision NOT NULL,"
        " timeout_s double precision NOT NULL, finished_at double precision NOT NULL DEFAULT 0,"
        " pid integer NOT NULL DEFAULT 0, pid_start bigint NOT NULL DEFAULT 0,"
        " collected boolean NOT NULL DEFAULT false, expired boolean NOT NULL DEFAULT false,"
        " reason text NOT NULL DEFAULT '', attempt integer NOT NULL DEFAULT 1,"
        " owner text NOT NULL DEFAULT '', lease_until timestamptz,"
        " cancel_requested boolean NOT NULL DEFAULT false, claimed_at double precision NOT NULL DEFAULT 0,"
        " submitted_at timestamptz NOT NULL DEFAULT clock_timestamp(),"
        " spec text NOT NULL, result text);"
        "CREATE INDEX cc_runs_queued ON cc_runs(submitted_at) WHERE state = 5;"
        "CREATE INDEX cc_runs_active ON cc_runs(owner) WHERE state < 2;"
        "CREATE INDEX cc_runs_finished ON cc_runs(finished_at) WHERE state BETWEEN 2 AND 4 AND NOT expired;"
        "CREATE TABLE cc_run_files(run_id text NOT NULL REFERENCES cc_runs(id) ON DELETE CASCADE,"
        " name text NOT NULL, content bytea NOT NULL, PRIMARY KEY(run_id, name));"
        "CREATE TABLE cc_servers(id text PRIMARY KEY, url text NOT NULL DEFAULT '',"
        " capacity integer NOT NULL DEFAULT 0, started_at timestamptz NOT NULL DEFAULT clock_timestamp(),"
        " heartbeat timestamptz NOT NULL DEFAULT clock_timestamp())"},
    /* The output so far of a running run, stored by its shepherd (bounded
     * in size and rate: shepherd_lease.c) so every server can show it. */
    {2, "ALTER TABLE cc_runs ADD COLUMN partial text"},
};

#define COLS "id, provider_id, state, started_at, deadline, finished_at, pid, pid_start, collected," \
             " expired, reason, attempt, owner, cancel_requested, claimed_at"
#define NOW_EPOCH CC_RUN_PG_NOW_EPOCH

struct pg_store {
    struct cc_run_store base;  /* first: the public handle */
    struct cc_pg *pg;
};

static struct cc_pg *pg_of(struct cc_run_store *s) { return ((struct pg_store *)s)->pg; }

static void read_row(const PGresult *res, int i, void *rec) {
    struct cc_run_rec *r = rec;
    memset(r, 0, sizeof *r);
    cc_pg_text(r->id, sizeof r->id, res, i, 0);
    cc_pg_text(r->provider_id, sizeof r->provider_id, res, i, 1);
    r->state = (enum cc_run_state)cc_pg_int(res, i, 2);
    r->started_at = cc_pg_double(res, i, 3);
    r->deadline = cc_pg_double(res, i, 4);
    r->finished_at = cc_pg_double(res, i, 5);
    r->pid = (pid_t)cc_pg_int(res, i, 6);
    r->pid_start = (uint64_t)cc_pg_int(res, i, 7);
    r->collected = cc_pg_bool(res, i, 8);
    r->expired = cc_pg_bool(res, i, 9);
    cc_pg_text(r->reason, sizeof r->reason, res, i, 10);
    r->attempt = (int)cc_pg_int(res, i, 11);
    cc_pg_text(r->owner, sizeof r->owner, res, i, 12);
    r->cancel_requested = cc_pg_bool(res, i, 13);
    r->claimed_at = cc_pg_double(res, i, 14);
    r->shared = true;
}

/* Every row of a query as records (malloc'd array). 0 or -1. */
static int collect(struct cc_run_store *s, const char *sql, int n, const char *const *vals,
                   struct cc_run_rec **out, size_t *count) {
    void *v;
    int rc = cc_pg_collect(cc_pg_query(pg_of(s), sql, n, vals, NULL), sizeof **out, read_row, &v, count);
    *out = v;
    return rc;
}

/* One record by a query that returns at most one row: 1, 0, -1. */
static int one(struct cc_run_store *s, const char *sql, int n, const char *const *vals, struct cc_run_rec *out) {
    struct cc_run_rec *v;
    size_t count;
    if (collect(s, sql, n, vals, &v, &count) < 0) return -1;
    if (count && out) *out = v[0];
    free(v);
    return count ? 1 : 0;
}

static int pg_put(struct cc_run_store *s, const struct cc_run_rec *r) {
    char pid[24], start[24];
    snprintf(pid, sizeof pid, "%ld", (long)r->pid);
    snprintf(start, sizeof start, "%llu", (unsigned long long)r->pid_start);
    const char *p[] = {r->id, pid, start, r->collected ? "t" : "f", r->expired ? "t" : "f"};
    /* Retention removes the stored result with the record's expiry. */
    long n = cc_pg_exec(pg_of(s),
                        "UPDATE cc_runs SET pid = $2, pid_start = $3, collected = $4, expired = $5,"
                        " result = CASE WHEN $5 THEN NULL ELSE result END WHERE id = $1", 5, p);
    if (n >= 0 && r->expired) cc_pg_exec(pg_of(s), "DELETE FROM cc_run_files WHERE run_id = $1", 1, p);
    return n < 0 ? -1 : 0;
}

static int pg_get(struct cc_run_store *s, const char *id, struct cc_run_rec *out) {
    const char *p[] = {id};
    return one(s, "SELECT " COLS " FROM cc_runs WHERE id = $1", 1, p, out);
}

static int pg_del(struct cc_run_store *s, const char *id) {
    const char *p[] = {id};
    return cc_pg_exec(pg_of(s), "DELETE FROM cc_runs WHERE id = $1", 1, p) < 0 ? -1 : 0;
}

/* This server's own active runs: the ones whose shepherds it can see. */
static int pg_list_active(struct cc_run_store *s, struct cc_run_rec **out, size_t *n) {
    const char *p[] = {cc_state_server_id()};
    return collect(s, "SELECT " COLS " FROM cc_runs WHERE state < 2 AND owner = $1 ORDER BY started_at", 1, p, out, n);
}

static int pg_count_owned(struct cc_run_store *s, const char *owner, int64_t *n) {
    const char *p[] = {owner};
    PGresult *res = cc_pg_query(pg_of(s), "SELECT count(*) FROM cc_runs WHERE state < 2 AND owner = $1", 1, p, NULL);
    if (!res) return -1;
    *n = cc_pg_int(res, 0, 0);
    PQclear(res);
    return 0;
}

static int pg_count_active(struct cc_run_store *s, int64_t *n) {
    return pg_count_owned(s, cc_state_server_id(), n);
}

static int pg_list_expired(struct cc_run_store *s, double before, size_t limit, struct cc_run_rec **out, size_t *n) {
    char b[40], l[24];
    snprintf(b, sizeof b, "%.6f", before);
    snprintf(l, sizeof l, "%zu", limit);
    const char *p[] = {b, l};
    return collect(s, "SELECT " COLS " FROM cc_runs WHERE state BETWEEN 2 AND 4 AND NOT expired"
                      " AND finished_at < $1 ORDER BY finished_at LIMIT $2", 2, p, out, n);
}

static int pg_check(struct cc_run_store *s, char *err, size_t errcap) {
    PGresult *res = cc_pg_query(pg_of(s), "SELECT 1 FROM cc_runs LIMIT 1", 0, NULL, NULL);
    if (!res) {
        snprintf(err, errcap, "%s", cc_pg_error(pg_of(s)));
        return -1;
    }
    PQclear(res);
    return 0;
}

static void pg_close(struct cc_run_store *s) {
    cc_pg_close(pg_of(s));
    free(s);
}

/* ---- the queue ----------------------------------------------------------------- */

static int pg_enqueue(struct cc_run_store *s, const struct cc_run_rec *r, const char *spec) {
    char started[40], deadline[40];
    snprintf(started, sizeof started, "%.6f", r->started_at);
    snprintf(deadline, sizeof deadline, "%.6f", r->deadline - r->started_at);
    const char *p[] = {r->id, r->provider_id, started, deadline, spec};
    long n = cc_pg_exec(pg_of(s),
                        "WITH i AS (INSERT INTO cc_runs(id, provider_id, state, started_at, deadline, timeout_s, spec)"
                        " VALUES($1, $2, 5, $3, $3::float8 + $4::float8, $4, $5) RETURNING id)"
                        " SELECT pg_notify('cc_run_queued', id) FROM i", 5, p);
    return n == 1 ? 0 : -1;
}

static void read_claim(const PGresult *res, int i, void *rec) {
    struct cc_run_claim *c = rec;
    read_row(res, i, &c->rec);
    c->spec = strdup(PQgetvalue(res, i, 15));
}

static int pg_claim(struct cc_run_store *s, const char *owner, int max, double lease_s,
                    struct cc_run_claim **out, size_t *n) {
    char m[16], l[32];
    snprintf(m, sizeof m, "%d", max);
    snprintf(l, sizeof l, "%.3f", lease_s);
    const char *p[] = {owner, m, l};
    PGresult *res = cc_pg_query(
        pg_of(s),
        "UPDATE cc_runs r SET state = 0, owner = $1, pid = 0, pid_start = 0, partial = NULL,"
        " lease_until = clock_timestamp() + make_interval(secs => $3::float8),"
        " deadline = " NOW_EPOCH " + r.timeout_s, claimed_at = " NOW_EPOCH
        " FROM (SELECT id FROM cc_runs WHERE state = 5 ORDER BY submitted_at LIMIT $2"
        "       FOR UPDATE SKIP LOCKED) q"
        " WHERE r.id = q.id RETURNING r.id, r.provider_id, r.state, r.started_at, r.deadline,"
        " r.finished_at, r.pid, r.pid_start, r.collected, r.expired, r.reason, r.attempt, r.owner,"
        " r.cancel_requested, r.claimed_at, r.spec", 3, p, NULL);
    void *v;
    int rc = cc_pg_collect(res, sizeof **out, read_claim, &v, n);
    *out = v;
    return rc;
}

static int pg_release(struct cc_run_store *s, const char *id, int attempt) {
    char a[16];
    snprintf(a, sizeof a, "%d", attempt);
    const char *p[] = {id, a};
    long n = cc_pg_exec(pg_of(s),
                        "WITH u AS (UPDATE cc_runs SET state = 5, owner = '', lease_until = NULL"
                        " WHERE id = $1 AND attempt = $2 AND state = 0 RETURNING id)"
                        " SELECT pg_notify('cc_run_queued', id) FROM u", 2, p);
    return n < 0 ? -1 : 0;
}

static int pg_renew(struct cc_run_store *s, const char *id, int attempt, double lease_s, const char *partial,
                    bool *cancel) {
    char a[16], l[32];
    snprintf(a, sizeof a, "%d", attempt);
    snprintf(l, sizeof l, "%.3f", lease_s);
    const char *p[] = {id, a, l, partial};
    PGresult *res = cc_pg_query(pg_of(s),
                                "UPDATE cc_runs SET lease_until = clock_timestamp() + make_interval(secs => $3::float8),"
                                " partial = coalesce($4, partial)"
                                " WHERE id = $1 AND attempt = $2 AND state < 2 RETURNING cancel_requested",
                                4, p, NULL);
    if (!res) return -1;
    int held = PQntuples(res) == 1;
    if (held) *cancel = cc_pg_bool(res, 0, 0);
    PQclear(res);
    return held;
}

static int pg_finish(struct cc_run_store *s, const char *id, int attempt, enum cc_run_state st,
                     const char *result, const char *out, size_t out_len, const char *err, size_t err_len) {
    char a[16], stt[8];
    snprintf(a, sizeof a, "%d", attempt);
    snprintf(stt, sizeof stt, "%d", (int)st);
    if (out_len > CC_RUN_FILE_CAP) out_len = CC_RUN_FILE_CAP;
    if (err_len > CC_RUN_FILE_CAP) err_len = CC_RUN_FILE_CAP;
    const char *p[] = {id, a, stt, result, out ? out : "", err ? err : ""};
    const int lens[] = {-1, -1, -1, -1, out ? (int)out_len : 0, err ? (int)err_len : 0};
    PGresult *res = cc_pg_query(
        pg_of(s),
        "WITH u AS (UPDATE cc_runs SET state = $3, result = $4, finished_at = " NOW_EPOCH ","
        " lease_until = NULL, partial = NULL WHERE id = $1 AND attempt = $2 AND state < 2 RETURNING id)"
        " INSERT INTO cc_run_files SELECT id, 'stdout', $5::bytea FROM u"
        " UNION ALL SELECT id, 'stderr', $6::bytea FROM u"
        " ON CONFLICT (run_id, name) DO UPDATE SET content = excluded.content",
        6, p, lens);
    if (!res) return -1;
    const char *t = PQcmdTuples(res);
    int stored = t && atoi(t) > 0;
    PQclear(res);
    return stored;
}

static int pg_lose(struct cc_run_store *s, const char *id, int attempt, const char *why) {
    char a[16], m[8];
    snprintf(a, sizeof a, "%d", attempt);
    snprintf(m, sizeof m, "%d", CC_RUN_MAX_ATTEMPTS);
    const char *p[] = {m, id, a, why};
    long n = cc_pg_exec(pg_of(s),
                        "WITH w AS (SELECT $4::text AS why),"
                        " u AS (UPDATE cc_runs r SET" CC_RUN_PG_LOSE_SET " FROM w"
                        "  WHERE r.id = $2 AND r.attempt = $3 AND r.state < 2 RETURNING r.id, r.state)"
                        " SELECT CASE WHEN state = 5 THEN pg_notify('cc_run_queued', id) END FROM u", 4, p);
    return n < 0 ? -1 : n > 0;
}

/* One text column of a run by a query of $1 = id: 1 (malloc'd copy), 0 none, -1. */
static int pg_text_column(struct cc_run_store *s, const char *sql, const char *id, char **text) {
    const char *p[] = {id};
    PGresult *res = cc_pg_query(pg_of(s), sql, 1, p, NULL);
    if (!res) return -1;
    int found = PQntuples(res) == 1;
    if (found && !(*text = strdup(PQgetvalue(res, 0, 0)))) found = -1;
    PQclear(res);
    return found;
}

static int pg_result(struct cc_run_store *s, const char *id, char **json) {
    return pg_text_column(s, "SELECT result FROM cc_runs WHERE id = $1 AND result IS NOT NULL", id, json);
}

static int pg_partial(struct cc_run_store *s, const char *id, char **json) {
    return pg_text_column(s, "SELECT partial FROM cc_runs WHERE id = $1 AND state < 2 AND partial IS NOT NULL", id,
                          json);
}

static int pg_cancel(struct cc_run_store *s, const char *id, struct cc_run_rec *out) {
    const char *p[] = {id};
    int rc = one(s,
                 "WITH u AS (UPDATE cc_runs SET cancel_requested = true,"
                 " state = CASE WHEN state = 5 THEN 3 ELSE 1 END,"
                 " finished_at = CASE WHEN state = 5 THEN " NOW_EPOCH " ELSE finished_at END,"
                 " reason = CASE WHEN state = 5 THEN 'cancelled while queued: it never ran' ELSE reason END"
                 " WHERE id = $1 AND state IN (0, 1, 5) RETURNING " COLS ")"
                 " SELECT " COLS ", CASE WHEN state = 1 THEN pg_notify('cc_run_cancel', id) END FROM u",
                 1, p, out);
    if (rc != 0) return rc;
    return pg_get(s, id, out) < 0 ? -1 : 0;
}

static int pg_count_queued(struct cc_run_store *s, int64_t *n) {
    PGresult *res = cc_pg_query(pg_of(s), "SELECT count(*) FROM cc_runs WHERE state = 5", 0, NULL, NULL);
    if (!res) return -1;
    *n = cc_pg_int(res, 0, 0);
    PQclear(res);
    return 0;
}

static int pg_server_age(struct cc_run_store *s, const char *id, double *age_s) {
    const char *p[] = {id};
    PGresult *res = cc_pg_query(pg_of(s), "SELECT extract(epoch from clock_timestamp() - heartbeat) FROM cc_servers"
                                          " WHERE id = $1", 1, p, NULL);
    if (!res) return -1;
    int found = PQntuples(res) == 1;
    if (found) *age_s = cc_pg_double(res, 0, 0);
    PQclear(res);
    return found;
}

static int pg_cluster(struct cc_run_store *s, struct cc_run_cluster *out) {
    PGresult *res = cc_pg_query(pg_of(s), CC_RUN_PG_CLUSTER_COUNTS, 0, NULL, NULL);
    if (!res) return -1;
    cc_run_pg_read_counts(res, out);
    PQclear(res);
    if (!(res = cc_pg_query(pg_of(s), CC_RUN_PG_CLUSTER_SERVERS, 0, NULL, NULL))) return -1;
    int rc = cc_run_pg_read_servers(res, out);
    PQclear(res);
    return rc;
}

static int pg_listen(struct cc_run_store *s, const char *channel) { return cc_pg_listen(pg_of(s), channel); }

static int pg_notify_fd(struct cc_run_store *s) { return cc_pg_socket(pg_of(s)); }

static int pg_notifications(struct cc_run_store *s, void (*fn)(void *, const char *, const char *), void *ud) {
    return cc_pg_drain_notifies(pg_of(s), fn, ud);
}

static const struct cc_run_store_ops pg_ops = {
    .put = pg_put, .get = pg_get, .del = pg_del, .list_active = pg_list_active,
    .count_active = pg_count_active, .list_expired = pg_list_expired, .check = pg_check,
    .close = pg_close, .enqueue = pg_enqueue, .claim = pg_claim, .count_owned = pg_count_owned,
    .release = pg_release, .renew = pg_renew, .finish = pg_finish, .lose = pg_lose,
    .result = pg_result, .cancel = pg_cancel,
    .cluster = pg_cluster, .count_queued = pg_count_queued, .server_age = pg_server_age, .partial = pg_partial,
    .listen = pg_listen, .notify_fd = pg_notify_fd, .notifications = pg_notifications,
};

struct cc_run_store *cc_run_store_open_pg(const char *url, char *err, size_t errcap) {
    struct pg_store *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    q->base.ops = &pg_ops;
    if (!(q->pg = cc_pg_open_store(url, "runs", run_steps, sizeof run_steps / sizeof *run_steps, err, errcap))) {
        free(q);
        return NULL;
    }
    return &q->base;
}
