/* libpq connection, migrations and statement helpers (see pg.h). */
#include "state/pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LISTEN 4
#define CONNECT_TIMEOUT_S "5"

struct cc_pg {
    PGconn *c;
    char *url;
    char listen[MAX_LISTEN][64];
    int n_listen;
    char last_err[512];
};

PGconn *cc_pg_conn(struct cc_pg *pg) { return pg->c; }
const char *cc_pg_error(struct cc_pg *pg) { return pg->last_err; }

static void no_notice(void *arg, const char *message) { (void)arg, (void)message; }

static int connect_now(struct cc_pg *pg) {
    if (pg->c) PQfinish(pg->c);
    /* The server's statements run on its event loop: an unreachable
     * database must fail in seconds, not after TCP's minutes. A
     * connect_timeout in the URL (expanded after ours) wins. */
    const char *const keys[] = {"connect_timeout", "dbname", NULL};
    const char *const vals[] = {CONNECT_TIMEOUT_S, pg->url, NULL};
    pg->c = PQconnectdbParams(keys, vals, 1);
    if (PQstatus(pg->c) != CONNECTION_OK) {
        snprintf(pg->last_err, sizeof pg->last_err, "%s", PQerrorMessage(pg->c));
        return -1;
    }
    PQsetNoticeProcessor(pg->c, no_notice, NULL);
    for (int i = 0; i < pg->n_listen; i++) {
        char sql[96];
        snprintf(sql, sizeof sql, "LISTEN %s", pg->listen[i]);
        PGresult *r = PQexec(pg->c, sql);
        PQclear(r);
    }
    return 0;
}

struct cc_pg *cc_pg_open(const char *url, char *err, size_t errcap) {
    struct cc_pg *pg = calloc(1, sizeof *pg);
    if (!pg || !(pg->url = strdup(url))) {
        free(pg);
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    if (connect_now(pg) < 0) {
        /* libpq's text spans lines; keep the message on one. */
        for (char *p = pg->last_err; *p; p++)
            if (*p == '\n' || *p == '\t') *p = ' ';
        size_t n = strlen(pg->last_err);
        while (n && pg->last_err[n - 1] == ' ') pg->last_err[--n] = '\0';
        snprintf(err, errcap, "cannot connect to the state database (CODECALC_DATABASE_URL): %s", pg->last_err);
        cc_pg_close(pg);
        return NULL;
    }
    return pg;
}

struct cc_pg *cc_pg_open_store(const char *url, const char *store, const struct cc_migration *steps, size_t n,
                               char *err, size_t errcap) {
    struct cc_pg *pg = cc_pg_open(url, err, errcap);
    if (pg && cc_pg_migrate(pg, store, steps, n, err, errcap) < 0) {
        cc_pg_close(pg);
        return NULL;
    }
    return pg;
}

int cc_pg_collect(PGresult *res, size_t elem_size, void (*read_row)(const PGresult *res, int row, void *rec),
                  void **out, size_t *n) {
    *out = NULL;
    *n = 0;
    if (!res) return -1;
    int rows = PQntuples(res);
    char *v = rows > 0 ? calloc((size_t)rows, elem_size) : NULL;
    if (rows > 0 && !v) {
        PQclear(res);
        return -1;
    }
    for (int i = 0; i < rows; i++) read_row(res, i, v + (size_t)i * elem_size);
    PQclear(res);
    *out = v;
    *n = (size_t)rows;
    return 0;
}

void cc_pg_close(struct cc_pg *pg) {
    if (!pg) return;
    if (pg->c) PQfinish(pg->c);
    free(pg->url);
    free(pg);
}

static PGresult *run_once(struct cc_pg *pg, const char *sql, int n, const char *const *vals, const int *lens) {
    int fmts[16];
    if (n > 16) return NULL;
    for (int i = 0; i < n; i++) fmts[i] = lens && lens[i] >= 0 ? 1 : 0;
    PGresult *r = PQexecParams(pg->c, sql, n, NULL, vals, lens, lens ? fmts : NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return r;
    snprintf(pg->last_err, sizeof pg->last_err, "%s", PQresultErrorMessage(r));
    PQclear(r);
    return NULL;
}

PGresult *cc_pg_query(struct cc_pg *pg, const char *sql, int n, const char *const *vals, const int *lens) {
    if (!pg->c || PQstatus(pg->c) != CONNECTION_OK) {
        if (connect_now(pg) < 0) return NULL;
    }
    PGresult *r = run_once(pg, sql, n, vals, lens);
    if (r || PQstatus(pg->c) == CONNECTION_OK) return r;
    /* The connection broke (database restarted): once more on a new one. */
    if (connect_now(pg) < 0) return NULL;
    return run_once(pg, sql, n, vals, lens);
}

long cc_pg_exec(struct cc_pg *pg, const char *sql, int n, const char *const *vals) {
    PGresult *r = cc_pg_query(pg, sql, n, vals, NULL);
    if (!r) return -1;
    const char *t = PQcmdTuples(r);
    long rows = t && *t ? strtol(t, NULL, 10) : 0;
    PQclear(r);
    return rows;
}

/* One step inside a transaction holding the migration lock, so servers
 * starting together apply it once. */
static int apply_step(struct cc_pg *pg, const char *store, const struct cc_migration *m) {
    char ver[16];
    snprintf(ver, sizeof ver, "%d", m->version);
    const char *p[] = {store, ver};
    PGresult *r = cc_pg_query(pg, "SELECT 1 FROM cc_migrations WHERE store = $1 AND version = $2", 2, p, NULL);
    if (!r) return -1;
    int have = PQntuples(r) > 0;
    PQclear(r);
    if (have) return 0;
    /* Several statements: the simple protocol (no parameters). */
    r = PQexec(pg->c, m->sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok) snprintf(pg->last_err, sizeof pg->last_err, "%s", PQresultErrorMessage(r));
    PQclear(r);
    if (!ok) return -1;
    return cc_pg_exec(pg, "INSERT INTO cc_migrations VALUES($1, $2, extract(epoch from now()))", 2, p) == 1 ? 0 : -1;
}

int cc_pg_migrate(struct cc_pg *pg, const char *store, const struct cc_migration *steps, size_t n,
                  char *err, size_t errcap) {
    static const char lock_sql[] =
        "BEGIN; SELECT pg_advisory_xact_lock(4242001);"
        "CREATE TABLE IF NOT EXISTS cc_migrations(store text NOT NULL, version integer NOT NULL,"
        " applied_at double precision NOT NULL, PRIMARY KEY(store, version))";
    for (size_t i = 0; i < n; i++) {
        PGresult *r = PQexec(pg->c, lock_sql);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok) snprintf(pg->last_err, sizeof pg->last_err, "%s", PQresultErrorMessage(r));
        PQclear(r);
        if (ok) ok = apply_step(pg, store, &steps[i]) == 0;
        r = PQexec(pg->c, ok ? "COMMIT" : "ROLLBACK");
        if (PQresultStatus(r) != PGRES_COMMAND_OK) ok = 0;
        PQclear(r);
        if (!ok) {
            snprintf(err, errcap, "migration %s v%d failed: %s", store, steps[i].version, pg->last_err);
            return -1;
        }
    }
    return 0;
}

int cc_pg_socket(struct cc_pg *pg) { return pg->c ? PQsocket(pg->c) : -1; }

int cc_pg_drain_notifies(struct cc_pg *pg, void (*fn)(void *ud, const char *channel, const char *payload),
                         void *ud) {
    if (!pg->c || !PQconsumeInput(pg->c)) return -1;
    PGnotify *n;
    while ((n = PQnotifies(pg->c))) {
        fn(ud, n->relname, n->extra ? n->extra : "");
        PQfreemem(n);
    }
    return 0;
}

int cc_pg_listen(struct cc_pg *pg, const char *channel) {
    if (pg->n_listen >= MAX_LISTEN || strlen(channel) >= sizeof pg->listen[0]) return -1;
    snprintf(pg->listen[pg->n_listen++], sizeof pg->listen[0], "%s", channel);
    char sql[96];
    snprintf(sql, sizeof sql, "LISTEN %s", channel);
    PGresult *r = cc_pg_query(pg, sql, 0, NULL, NULL);
    if (!r) return -1;
    PQclear(r);
    return 0;
}

void cc_pg_text(char *dst, size_t cap, const PGresult *res, int row, int col) {
    const char *t = PQgetisnull(res, row, col) ? "" : PQgetvalue(res, row, col);
    snprintf(dst, cap, "%s", t);
}

double cc_pg_double(const PGresult *res, int row, int col) {
    return PQgetisnull(res, row, col) ? 0 : strtod(PQgetvalue(res, row, col), NULL);
}

long long cc_pg_int(const PGresult *res, int row, int col) {
    return PQgetisnull(res, row, col) ? 0 : strtoll(PQgetvalue(res, row, col), NULL, 10);
}

int cc_pg_bool(const PGresult *res, int row, int col) {
    return !PQgetisnull(res, row, col) && PQgetvalue(res, row, col)[0] == 't';
}
