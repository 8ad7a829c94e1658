/* sqlite3 opening and per-store migrations (see db.h). */
#include "state/db.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cc_db {
    sqlite3 *h;
};

/* How long a writer waits for another connection's transaction. Runs and
 * sessions use separate connections on one file, so short waits happen. */
#define DB_BUSY_MS 5000

sqlite3 *cc_db_sqlite(struct cc_db *db) { return db->h; }

int cc_db_exec(struct cc_db *db, const char *sql, char *err, size_t errcap) {
    char *msg = NULL;
    if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) == SQLITE_OK) return 0;
    snprintf(err, errcap, "%s", msg ? msg : sqlite3_errmsg(db->h));
    sqlite3_free(msg);
    return -1;
}

/* Pre-create the file 0600 so sqlite never makes it world-readable. */
static int create_private(const char *path, char *err, size_t errcap) {
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errcap, "cannot open the state database %s: %s", path, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}

int cc_db_open(const char *path, struct cc_db **out, char *err, size_t errcap) {
    *out = NULL;
    if (create_private(path, err, errcap) < 0) return -1;
    struct cc_db *db = calloc(1, sizeof *db);
    if (!db) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    int rc = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                               SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errcap, "cannot open the state database %s: %s", path,
                 db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
        cc_db_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db->h, DB_BUSY_MS);
    /* WAL + synchronous=NORMAL: a killed process never loses a committed
     * transaction (the WAL is in the page cache), and commits cost no fsync. */
    if (cc_db_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                       "PRAGMA foreign_keys=ON;", err, errcap) < 0 ||
        cc_db_exec(db, "CREATE TABLE IF NOT EXISTS cc_migrations("
                       "store TEXT NOT NULL, version INTEGER NOT NULL, applied_at REAL NOT NULL,"
                       "PRIMARY KEY(store, version))", err, errcap) < 0) {
        cc_db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

int cc_db_open_store(const char *path, const char *store, const struct cc_migration *steps, size_t n,
                     struct cc_db **out, char *err, size_t errcap) {
    if (cc_db_open(path, out, err, errcap) < 0) return -1;
    if (cc_db_migrate(*out, store, steps, n, err, errcap) < 0) {
        cc_db_close(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

void cc_db_close(struct cc_db *db) {
    if (!db) return;
    sqlite3_close(db->h);
    free(db);
}

int cc_db_version(struct cc_db *db, const char *store) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->h, "SELECT COALESCE(MAX(version),0) FROM cc_migrations WHERE store=?",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, store, -1, SQLITE_STATIC);
    int v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static int record_step(struct cc_db *db, const char *store, int version) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->h, "INSERT INTO cc_migrations VALUES(?, ?, (julianday('now') - 2440587.5) * 86400.0)",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, store, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, version);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

/* One step inside BEGIN IMMEDIATE so two processes never apply it twice. */
static int apply_step(struct cc_db *db, const char *store, const struct cc_migration *m,
                      char *err, size_t errcap) {
    if (cc_db_exec(db, "BEGIN IMMEDIATE", err, errcap) < 0) return -1;
    int have = cc_db_version(db, store);
    if (have >= m->version) return cc_db_exec(db, "COMMIT", err, errcap);
    if (cc_db_exec(db, m->sql, err, errcap) < 0 || record_step(db, store, m->version) < 0) {
        if (!*err) snprintf(err, errcap, "%s", sqlite3_errmsg(db->h));
        char ignore[8];
        cc_db_exec(db, "ROLLBACK", ignore, sizeof ignore);
        return -1;
    }
    return cc_db_exec(db, "COMMIT", err, errcap);
}

int cc_db_migrate(struct cc_db *db, const char *store, const struct cc_migration *steps,
                  size_t n, char *err, size_t errcap) {
    if (errcap) err[0] = '\0';
    int have = cc_db_version(db, store);
    if (have < 0) {
        snprintf(err, errcap, "cannot read the schema version of %s: %s", store, sqlite3_errmsg(db->h));
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (steps[i].version <= have) continue;
        if (apply_step(db, store, &steps[i], err, errcap) < 0) {
            char why[512];
            snprintf(why, sizeof why, "%s", err);
            snprintf(err, errcap, "migration %s v%d failed: %s", store, steps[i].version, why);
            return -1;
        }
    }
    return 0;
}

int cc_db_check(struct cc_db *db, char *err, size_t errcap) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->h, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, errcap, "%s", sqlite3_errmsg(db->h));
        return -1;
    }
    int rc = -1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        if (t && strcmp(t, "ok") == 0) rc = 0;
        else snprintf(err, errcap, "integrity check failed: %s", t ? t : "(null)");
    } else {
        snprintf(err, errcap, "%s", sqlite3_errmsg(db->h));
    }
    sqlite3_finalize(st);
    return rc;
}

void cc_db_text(char *dst, size_t cap, sqlite3_stmt *st, int col) {
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

int cc_db_collect(sqlite3_stmt *st, size_t elem_size, void (*read_row)(sqlite3_stmt *st, void *rec),
                  void **out, size_t *n) {
    char *v = NULL;
    size_t count = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            cap = cap ? cap * 2 : 16;
            char *p = realloc(v, cap * elem_size);
            if (!p) break;
            v = p;
        }
        read_row(st, v + count++ * elem_size);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        free(v);
        v = NULL;
        count = 0;
    }
    *out = v;
    *n = count;
    return rc == SQLITE_DONE ? 0 : -1;
}
