/* sqlite backend of the session store (see session_store.h). */
#include "state/session_store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/db.h"

static const struct cc_migration session_steps[] = {
    {1, "CREATE TABLE sessions("
        " id TEXT PRIMARY KEY, language TEXT NOT NULL, stateful INTEGER NOT NULL,"
        " workdir TEXT NOT NULL, created_at REAL NOT NULL, last_activity REAL NOT NULL,"
        " host_pid INTEGER NOT NULL DEFAULT 0, host_start INTEGER NOT NULL DEFAULT 0,"
        " socket_path TEXT NOT NULL DEFAULT '', alive INTEGER NOT NULL DEFAULT 1)"},
};

struct sql_store {
    struct cc_session_store base;  /* first: the public handle */
    struct cc_db *db;
};

static struct cc_db *db_of(struct cc_session_store *s) { return ((struct sql_store *)s)->db; }

static void sql_close(struct cc_session_store *s) {
    cc_db_close(db_of(s));
    free(s);
}

static sqlite3_stmt *prepare(struct cc_session_store *s, const char *sql) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(cc_db_sqlite(db_of(s)), sql, -1, &st, NULL) != SQLITE_OK) return NULL;
    return st;
}

static int sql_put(struct cc_session_store *s, const struct cc_session_rec *r) {
    sqlite3_stmt *st = prepare(s, "INSERT OR REPLACE INTO sessions VALUES(?,?,?,?,?,?,?,?,?,?)");
    if (!st) return errno = EIO, -1;
    sqlite3_bind_text(st, 1, r->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, r->language, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, r->stateful);
    sqlite3_bind_text(st, 4, r->workdir, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 5, r->created_at);
    sqlite3_bind_double(st, 6, r->last_activity);
    sqlite3_bind_int64(st, 7, r->host_pid);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)r->host_start);
    sqlite3_bind_text(st, 9, r->socket_path, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 10, r->alive);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    if (rc < 0) errno = EIO;
    return rc;
}

static void read_row(sqlite3_stmt *st, void *rec) {
    struct cc_session_rec *r = rec;
    memset(r, 0, sizeof *r);
    cc_db_text(r->id, sizeof r->id, st, 0);
    cc_db_text(r->language, sizeof r->language, st, 1);
    r->stateful = sqlite3_column_int(st, 2) != 0;
    cc_db_text(r->workdir, sizeof r->workdir, st, 3);
    r->created_at = sqlite3_column_double(st, 4);
    r->last_activity = sqlite3_column_double(st, 5);
    r->host_pid = (pid_t)sqlite3_column_int64(st, 6);
    r->host_start = (uint64_t)sqlite3_column_int64(st, 7);
    cc_db_text(r->socket_path, sizeof r->socket_path, st, 8);
    r->alive = sqlite3_column_int(st, 9) != 0;
}

static int sql_get(struct cc_session_store *s, const char *id, struct cc_session_rec *out) {
    sqlite3_stmt *st = prepare(s, "SELECT * FROM sessions WHERE id = ?");
    if (!st) return -1;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    int ret = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
    if (ret == 1) read_row(st, out);
    sqlite3_finalize(st);
    return ret;
}

static int sql_list(struct cc_session_store *s, bool alive_only, struct cc_session_rec **out, size_t *n) {
    sqlite3_stmt *st = prepare(s, alive_only ? "SELECT * FROM sessions WHERE alive ORDER BY created_at"
                                             : "SELECT * FROM sessions ORDER BY created_at");
    if (!st) return -1;
    void *v;
    int rc = cc_db_collect(st, sizeof **out, read_row, &v, n);
    sqlite3_finalize(st);
    *out = v;
    return rc;
}

/* Run a one-parameter write; 1 when a row changed, 0 when none, -1 error. */
static int write_one(struct cc_session_store *s, const char *sql, const char *id, const double *now) {
    sqlite3_stmt *st = prepare(s, sql);
    if (!st) return -1;
    int i = 1;
    if (now) sqlite3_bind_double(st, i++, *now);
    sqlite3_bind_text(st, i, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    if (rc < 0) return -1;
    return sqlite3_changes(cc_db_sqlite(db_of(s))) > 0 ? 1 : 0;
}

static int sql_delete(struct cc_session_store *s, const char *id) {
    return write_one(s, "DELETE FROM sessions WHERE id = ?", id, NULL);
}

static int sql_touch(struct cc_session_store *s, const char *id, double now) {
    return write_one(s, "UPDATE sessions SET last_activity = ? WHERE id = ?", id, &now);
}

static const struct cc_session_store_ops sql_ops = {
    .put = sql_put, .get = sql_get, .list = sql_list, .del = sql_delete, .touch = sql_touch,
    .close = sql_close,
};

struct cc_session_store *cc_session_store_open_sqlite(const char *db_path, char *err, size_t errcap) {
    struct sql_store *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    q->base.ops = &sql_ops;
    if (cc_db_open_store(db_path, "sessions", session_steps, sizeof session_steps / sizeof *session_steps, &q->db,
                         err, errcap) < 0) {
        free(q);
        return NULL;
    }
    return &q->base;
}
