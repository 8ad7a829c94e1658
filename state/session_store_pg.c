/* PostgreSQL backend of the session store: the cluster's session registry
 * (see session_store.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/pg.h"
#include "state/session_store.h"
#include "state/shared.h"

static const struct cc_migration session_steps[] = {
    {1, "CREATE TABLE cc_sessions("
        " id text PRIMARY KEY, language text NOT NULL, stateful boolean NOT NULL,"
        " workdir text NOT NULL, created_at double precision NOT NULL,"
        " last_activity double precision NOT NULL, host_pid integer NOT NULL DEFAULT 0,"
        " host_start bigint NOT NULL DEFAULT 0, socket_path text NOT NULL DEFAULT '',"
        " alive boolean NOT NULL DEFAULT true, owner text NOT NULL DEFAULT '',"
        " owner_url text NOT NULL DEFAULT '', lost text NOT NULL DEFAULT '');"
        "CREATE INDEX cc_sessions_owner ON cc_sessions(owner)"},
};

#define COLS "id, language, stateful, workdir, created_at, last_activity, host_pid, host_start," \
             " socket_path, alive, owner, owner_url, lost"

struct pg_store {
    struct cc_session_store base; /* first: the public handle */
    struct cc_pg *pg;
};

static struct cc_pg *pg_of(struct cc_session_store *s) { return ((struct pg_store *)s)->pg; }

static void read_row(const PGresult *res, int i, void *rec) {
    struct cc_session_rec *r = rec;
    memset(r, 0, sizeof *r);
    cc_pg_text(r->id, sizeof r->id, res, i, 0);
    cc_pg_text(r->language, sizeof r->language, res, i, 1);
    r->stateful = cc_pg_bool(res, i, 2);
    cc_pg_text(r->workdir, sizeof r->workdir, res, i, 3);
    r->created_at = cc_pg_double(res, i, 4);
    r->last_activity = cc_pg_double(res, i, 5);
    r->host_pid = (pid_t)cc_pg_int(res, i, 6);
    r->host_start = (uint64_t)cc_pg_int(res, i, 7);
    cc_pg_text(r->socket_path, sizeof r->socket_path, res, i, 8);
    r->alive = cc_pg_bool(res, i, 9);
    cc_pg_text(r->owner, sizeof r->owner, res, i, 10);
    cc_pg_text(r->owner_url, sizeof r->owner_url, res, i, 11);
    cc_pg_text(r->lost, sizeof r->lost, res, i, 12);
}

/* The record is this server's from now on: owner and URL are ours, and
 * whatever loss was recorded before is history. */
static int pg_put(struct cc_session_store *s, const struct cc_session_rec *r) {
    char created[40], last[40], pid[24], start[24];
    snprintf(created, sizeof created, "%.6f", r->created_at);
    snprintf(last, sizeof last, "%.6f", r->last_activity);
    snprintf(pid, sizeof pid, "%ld", (long)r->host_pid);
    snprintf(start, sizeof start, "%llu", (unsigned long long)r->host_start);
    const char *p[] = {r->id, r->language, r->stateful ? "t" : "f", r->workdir, created, last, pid, start,
                       r->socket_path, r->alive ? "t" : "f", cc_state_server_id(), cc_state_server_url()};
    long n = cc_pg_exec(pg_of(s),
                        "INSERT INTO cc_sessions(" COLS ") VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,'')"
                        " ON CONFLICT (id) DO UPDATE SET language = excluded.language,"
                        " stateful = excluded.stateful, workdir = excluded.workdir,"
                        " created_at = excluded.created_at, last_activity = excluded.last_activity,"
                        " host_pid = excluded.host_pid, host_start = excluded.host_start,"
                        " socket_path = excluded.socket_path, alive = excluded.alive,"
                        " owner_url = CASE WHEN excluded.owner_url = '' AND cc_sessions.owner = excluded.owner"
                        "   THEN cc_sessions.owner_url ELSE excluded.owner_url END,"
                        " owner = excluded.owner, lost = ''",
                        12, p);
    return n < 0 ? (errno = EIO, -1) : 0;
}

static int pg_get(struct cc_session_store *s, const char *id, struct cc_session_rec *out) {
    const char *p[] = {id};
    PGresult *res = cc_pg_query(pg_of(s), "SELECT " COLS " FROM cc_sessions WHERE id = $1", 1, p, NULL);
    if (!res) return -1;
    int found = PQntuples(res) == 1;
    if (found) read_row(res, 0, out);
    PQclear(res);
    return found;
}

static int collect(struct cc_session_store *s, const char *sql, int n, const char *const *vals,
                   struct cc_session_rec **out, size_t *count) {
    void *v;
    int rc = cc_pg_collect(cc_pg_query(pg_of(s), sql, n, vals, NULL), sizeof **out, read_row, &v, count);
    *out = v;
    return rc;
}

static int pg_list(struct cc_session_store *s, bool alive_only, struct cc_session_rec **out, size_t *n) {
    const char *p[] = {cc_state_server_id()};
    return collect(s, alive_only ? "SELECT " COLS " FROM cc_sessions WHERE owner = $1 AND alive ORDER BY created_at"
                                 : "SELECT " COLS " FROM cc_sessions WHERE owner = $1 ORDER BY created_at",
                   1, p, out, n);
}

static int pg_list_all(struct cc_session_store *s, bool alive_only, struct cc_session_rec **out, size_t *n) {
    return collect(s, alive_only ? "SELECT " COLS " FROM cc_sessions WHERE alive ORDER BY created_at"
                                 : "SELECT " COLS " FROM cc_sessions ORDER BY created_at",
                   0, NULL, out, n);
}

static int changed(long n) { return n < 0 ? -1 : n > 0; }

static int pg_delete(struct cc_session_store *s, const char *id) {
    const char *p[] = {id};
    return changed(cc_pg_exec(pg_of(s), "DELETE FROM cc_sessions WHERE id = $1", 1, p));
}

static int pg_touch(struct cc_session_store *s, const char *id, double now) {
    char t[40];
    snprintf(t, sizeof t, "%.6f", now);
    const char *p[] = {id, t};
    return changed(cc_pg_exec(pg_of(s), "UPDATE cc_sessions SET last_activity = $2 WHERE id = $1", 2, p));
}

static int pg_mark_lost(struct cc_session_store *s, const char *id, const char *why) {
    const char *p[] = {id, why};
    return changed(cc_pg_exec(pg_of(s), "UPDATE cc_sessions SET alive = false, lost = $2 WHERE id = $1", 2, p));
}

static void pg_close(struct cc_session_store *s) {
    cc_pg_close(pg_of(s));
    free(s);
}

static const struct cc_session_store_ops pg_ops = {
    .put = pg_put, .get = pg_get, .list = pg_list, .del = pg_delete, .touch = pg_touch,
    .close = pg_close, .mark_lost = pg_mark_lost, .list_all = pg_list_all,
};

struct cc_session_store *cc_session_store_open_pg(const char *url, char *err, size_t errcap) {
    struct pg_store *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    q->base.ops = &pg_ops;
    if (!(q->pg = cc_pg_open_store(url, "sessions", session_steps, sizeof session_steps / sizeof *session_steps,
                                   err, errcap))) {
        free(q);
        return NULL;
    }
    return &q->base;
}
