/* The shared state database (PostgreSQL through libpq): one connection per
 * store, parameterised statements only, per-store migrations serialised by
 * an advisory lock (several servers start at once), and one reconnect when
 * the connection was lost (a restarted database server).
 *
 * Ownership: cc_pg_open() returns a handle the caller closes with
 * cc_pg_close(); cc_pg_query() returns a PGresult the caller PQclear()s.
 */
#ifndef CC_STATE_PG_H
#define CC_STATE_PG_H

#include <libpq-fe.h>
#include <stddef.h>

#include "state/migration.h"

struct cc_pg;

/* Connect to url (a libpq connection string or postgresql:// URI). NULL
 * with err filled. */
struct cc_pg *cc_pg_open(const char *url, char *err, size_t errcap);
void cc_pg_close(struct cc_pg *pg);
/* cc_pg_open, then cc_pg_migrate for store. NULL with err filled. */
struct cc_pg *cc_pg_open_store(const char *url, const char *store, const struct cc_migration *steps, size_t n,
                               char *err, size_t errcap);
PGconn *cc_pg_conn(struct cc_pg *pg);

/* Apply the steps of store newer than what cc_migrations records. 0, or -1
 * with err filled (nothing of the failing step stays). */
int cc_pg_migrate(struct cc_pg *pg, const char *store, const struct cc_migration *steps, size_t n,
                  char *err, size_t errcap);

/* Run sql with n (at most 16) parameters (NULL = SQL NULL). lens may be
 * NULL (every value NUL-terminated text); else lens[i] >= 0 sends value i
 * as that many raw bytes (bytea, text of known length) and -1 as text. The result on success (PGRES_COMMAND_OK or PGRES_TUPLES_OK), else
 * NULL (the error is logged to stderr once per distinct failure). A lost
 * connection is re-established once and the statement retried. */
PGresult *cc_pg_query(struct cc_pg *pg, const char *sql, int n, const char *const *vals, const int *lens);
/* As cc_pg_query for statements without rows: rows affected, or -1. */
long cc_pg_exec(struct cc_pg *pg, const char *sql, int n, const char *const *vals);

/* The socket to watch for notifications (-1 when disconnected), and the
 * channel payloads received so far: calls fn(ud, channel, payload) for
 * each. 0, or -1 when the connection broke. */
int cc_pg_socket(struct cc_pg *pg);
int cc_pg_drain_notifies(struct cc_pg *pg, void (*fn)(void *ud, const char *channel, const char *payload),
                         void *ud);
/* LISTEN on channel (re-issued after every reconnect). 0 or -1. */
int cc_pg_listen(struct cc_pg *pg, const char *channel);
/* The last error text (for messages). */
const char *cc_pg_error(struct cc_pg *pg);

/* Every row of res read with read_row(res, row, rec) into a malloc'd array
 * of records of elem_size bytes (*out NULL when there is none); res is
 * cleared. 0, or -1 (res NULL: the query failed; or out of memory). */
int cc_pg_collect(PGresult *res, size_t elem_size, void (*read_row)(const PGresult *res, int row, void *rec),
                  void **out, size_t *n);

/* Text of column col of row i ("" for NULL) copied into dst (cap bytes). */
void cc_pg_text(char *dst, size_t cap, const PGresult *res, int row, int col);
double cc_pg_double(const PGresult *res, int row, int col);
long long cc_pg_int(const PGresult *res, int row, int col);
int cc_pg_bool(const PGresult *res, int row, int col);

#endif
