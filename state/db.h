/* The embedded state database (sqlite3 in WAL mode): opening it the same way
 * everywhere, and per-store schema migrations.
 *
 * Each store (runs, sessions, ...) owns its own connection and its own
 * migration list; the shared table `cc_migrations(store, version, applied_at)`
 * records which steps each store has applied, so stores evolve independently.
 *
 * Ownership: cc_db_open() returns a handle the caller closes with
 * cc_db_close(). Error texts are written into caller-supplied buffers.
 */
#ifndef CC_STATE_DB_H
#define CC_STATE_DB_H

#include <sqlite3.h>
#include <stddef.h>

#include "state/migration.h"

struct cc_db;


/* Open (creating if needed) the database at path with WAL journaling, a
 * busy timeout and foreign keys on. The file is created mode 0600.
 * Returns 0, or -1 with err filled. */
int cc_db_open(const char *path, struct cc_db **out, char *err, size_t errcap);
void cc_db_close(struct cc_db *db);
/* cc_db_open, then cc_db_migrate for store. 0, or -1 with err filled (and
 * nothing left open). */
int cc_db_open_store(const char *path, const char *store, const struct cc_migration *steps, size_t n,
                     struct cc_db **out, char *err, size_t errcap);
sqlite3 *cc_db_sqlite(struct cc_db *db);

/* Apply the steps of `store` newer than what the database records.
 * Returns 0, or -1 with err filled (nothing of the failing step stays). */
int cc_db_migrate(struct cc_db *db, const char *store, const struct cc_migration *steps,
                  size_t n, char *err, size_t errcap);
/* Highest applied version of store (0 when none), -1 on error. */
int cc_db_version(struct cc_db *db, const char *store);

/* PRAGMA quick_check: 0 when the file is sound, else -1 with err filled. */
int cc_db_check(struct cc_db *db, char *err, size_t errcap);

/* Run a statement without results. 0 or -1 (err filled). */
int cc_db_exec(struct cc_db *db, const char *sql, char *err, size_t errcap);

/* Column col of the current row as text into dst (cap bytes, truncated,
 * "" for NULL). */
void cc_db_text(char *dst, size_t cap, sqlite3_stmt *st, int col);

/* Step a prepared, bound statement to its end, reading each row with
 * read_row into a growing array of records of elem_size bytes. 0 with *out
 * (malloc'd, the caller frees; NULL when there is no row) and *n, or -1
 * (nothing allocated) on a step error or out of memory. st is reset, not
 * finalized. */
int cc_db_collect(sqlite3_stmt *st, size_t elem_size, void (*read_row)(sqlite3_stmt *st, void *rec),
                  void **out, size_t *n);

#endif
