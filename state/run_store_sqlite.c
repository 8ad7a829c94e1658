/* sqlite backend of the run store (see run_store.h). One connection, its
 * statements prepared once; every write is its own (autocommit) transaction,
 * so a kill at any point leaves either the old or the new record. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/db.h"
#include "state/run_store.h"

static const struct cc_migration run_steps[] = {
    {1, "CREATE TABLE runs("
        " id TEXT PRIMARY KEY, provider_id TEXT NOT NULL, state INTEGER NOT NULL,"
        " started_at REAL NOT NULL, deadline REAL NOT NULL, finished_at REAL NOT NULL DEFAULT 0,"
        " pid INTEGER NOT NULL DEFAULT 0, pid_start INTEGER NOT NULL DEFAULT 0,"
        " collected INTEGER NOT NULL DEFAULT 0, expired INTEGER NOT NULL DEFAULT 0,"
        " reason TEXT NOT NULL DEFAULT '');"
        "CREATE INDEX runs_active ON runs(state) WHERE state < 2;"
        "CREATE INDEX runs_finished ON runs(finished_at) WHERE state >= 2 AND expired = 0;"},
};

enum { ST_PUT, ST_GET, ST_DEL, ST_ACTIVE, ST_COUNT, ST_EXPIRED, ST_N };

static const char *const sql_text[ST_N] = {
    [ST_PUT] = "INSERT OR REPLACE INTO runs(id, provider_id, state, started_at, deadline,"
               " finished_at, pid, pid_start, collected, expired, reason)"
               " VALUES(?,?,?,?,?,?,?,?,?,?,?)",
    [ST_GET] = "SELECT * FROM runs WHERE id = ?",
    [ST_DEL] = "DELETE FROM runs WHERE id = ?",
    [ST_ACTIVE] = "SELECT * FROM runs WHERE state < 2 ORDER BY started_at",
    [ST_COUNT] = "SELECT COUNT(*) FROM runs WHERE state < 2",
    [ST_EXPIRED] = "SELECT * FROM runs WHERE state >= 2 AND expired = 0 AND finished_at < ?"
                   " ORDER BY finished_at LIMIT ?",
};

struct sql_store {
    struct cc_run_store base;   /* first: the public handle */
    struct cc_db *db;
    sqlite3_stmt *st[ST_N];
};

static sqlite3_stmt *stmt(struct cc_run_store *s, int which) {
    sqlite3_stmt *st = ((struct sql_store *)s)->st[which];
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return st;
}

/* Column order of SELECT *: the CREATE TABLE order above. */
static void read_row(sqlite3_stmt *st, void *rec) {
    struct cc_run_rec *r = rec;
    memset(r, 0, sizeof *r);
    cc_db_text(r->id, sizeof r->id, st, 0);
    cc_db_text(r->provider_id, sizeof r->provider_id, st, 1);
    r->state = (enum cc_run_state)sqlite3_column_int(st, 2);
    r->started_at = sqlite3_column_double(st, 3);
    r->deadline = sqlite3_column_double(st, 4);
    r->finished_at = sqlite3_column_double(st, 5);
    r->pid = (pid_t)sqlite3_column_int64(st, 6);
    r->pid_start = (uint64_t)sqlite3_column_int64(st, 7);
    r->collected = sqlite3_column_int(st, 8) != 0;
    r->expired = sqlite3_column_int(st, 9) != 0;
    cc_db_text(r->reason, sizeof r->reason, st, 10);
    r->attempt = 1;
}

static int sql_put(struct cc_run_store *s, const struct cc_run_rec *r) {
    sqlite3_stmt *st = stmt(s, ST_PUT);
    sqlite3_bind_text(st, 1, r->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, r->provider_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, (int)r->state);
    sqlite3_bind_double(st, 4, r->started_at);
    sqlite3_bind_double(st, 5, r->deadline);
    sqlite3_bind_double(st, 6, r->finished_at);
    sqlite3_bind_int64(st, 7, r->pid);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)r->pid_start);
    sqlite3_bind_int(st, 9, r->collected);
    sqlite3_bind_int(st, 10, r->expired);
    sqlite3_bind_text(st, 11, r->reason, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_reset(st);
    return rc;
}

static int sql_get(struct cc_run_store *s, const char *id, struct cc_run_rec *out) {
    sqlite3_stmt *st = stmt(s, ST_GET);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    int ret = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
    if (ret == 1) read_row(st, out);
    sqlite3_reset(st);
    return ret;
}

static int sql_del(struct cc_run_store *s, const char *id) {
    sqlite3_stmt *st = stmt(s, ST_DEL);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_reset(st);
    return rc;
}

/* Collect every row of a prepared, bound statement. */
static int collect(sqlite3_stmt *st, struct cc_run_rec **out, size_t *n) {
    void *v;
    int rc = cc_db_collect(st, sizeof **out, read_row, &v, n);
    *out = v;
    return rc;
}

static int sql_list_active(struct cc_run_store *s, struct cc_run_rec **out, size_t *n) {
    return collect(stmt(s, ST_ACTIVE), out, n);
}

static int sql_count_active(struct cc_run_store *s, int64_t *n) {
    sqlite3_stmt *st = stmt(s, ST_COUNT);
    int rc = sqlite3_step(st) == SQLITE_ROW ? 0 : -1;
    if (rc == 0) *n = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return rc;
}

static int sql_list_expired(struct cc_run_store *s, double before, size_t limit,
                            struct cc_run_rec **out, size_t *n) {
    sqlite3_stmt *st = stmt(s, ST_EXPIRED);
    sqlite3_bind_double(st, 1, before);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)limit);
    return collect(st, out, n);
}

static int sql_check(struct cc_run_store *s, char *err, size_t errcap) {
    return cc_db_check(((struct sql_store *)s)->db, err, errcap);
}

static void sql_close(struct cc_run_store *s) {
    struct sql_store *q = (struct sql_store *)s;
    for (int i = 0; i < ST_N; i++) sqlite3_finalize(q->st[i]);
    cc_db_close(q->db);
    free(q);
}

static const struct cc_run_store_ops sql_ops = {
    .put = sql_put, .get = sql_get, .del = sql_del, .list_active = sql_list_active,
    .count_active = sql_count_active, .list_expired = sql_list_expired,
    .check = sql_check, .close = sql_close,
};

struct cc_run_store *cc_run_store_open_sqlite(const char *db_path, char *err, size_t errcap) {
    struct sql_store *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    q->base.ops = &sql_ops;
    if (cc_db_open_store(db_path, "runs", run_steps, sizeof run_steps / sizeof *run_steps, &q->db, err, errcap) < 0) {
        free(q);
        return NULL;
    }
    for (int i = 0; i < ST_N; i++) {
        if (sqlite3_prepare_v3(cc_db_sqlite(q->db), sql_text[i], -1, SQLITE_PREPARE_PERSISTENT,
                               &q->st[i], NULL) != SQLITE_OK) {
            snprintf(err, errcap, "run store: %s", sqlite3_errmsg(cc_db_sqlite(q->db)));
            sql_close(&q->base);
            return NULL;
        }
    }
    return &q->base;
}
