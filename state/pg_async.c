/* Non-blocking PostgreSQL statements (see pg_async.h). */
#include "state/pg_async.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 16

enum phase { IDLE, CONNECTING, SENDING, FLUSHING, READING };

struct cc_pg_async {
    char *url;
    PGconn *c;
    enum phase phase;
    PostgresPollingStatusType poll;  /* what the last PQconnectPoll asked for */
    char *sql;
    int n;
    char *vals[MAX_PARAMS];
    PGresult *res;
    bool stmt_failed;
    char err[512];
};

static void no_notice(void *arg, const char *message) { (void)arg, (void)message; }

/* libpq's messages span lines; keep ours on one. */
static void set_error(struct cc_pg_async *a, const char *what, const char *detail) {
    snprintf(a->err, sizeof a->err, "%s%s%s", what, detail && *detail ? ": " : "", detail ? detail : "");
    for (char *p = a->err; *p; p++)
        if (*p == '\n' || *p == '\t') *p = ' ';
    size_t n = strlen(a->err);
    while (n && a->err[n - 1] == ' ') a->err[--n] = '\0';
}

static void clear_statement(struct cc_pg_async *a) {
    free(a->sql);
    a->sql = NULL;
    for (int i = 0; i < a->n; i++) free(a->vals[i]);
    a->n = 0;
    if (a->res) PQclear(a->res);
    a->res = NULL;
    a->stmt_failed = false;
    a->phase = IDLE;
}

static void drop_connection(struct cc_pg_async *a) {
    if (a->c) PQfinish(a->c);
    a->c = NULL;
}

struct cc_pg_async *cc_pg_async_new(const char *url) {
    struct cc_pg_async *a = calloc(1, sizeof *a);
    if (a && !(a->url = strdup(url))) {
        free(a);
        return NULL;
    }
    return a;
}

void cc_pg_async_free(struct cc_pg_async *a) {
    if (!a) return;
    clear_statement(a);
    drop_connection(a);
    free(a->url);
    free(a);
}

bool cc_pg_async_busy(const struct cc_pg_async *a) { return a->phase != IDLE; }
const char *cc_pg_async_error(const struct cc_pg_async *a) { return a->err; }

void cc_pg_async_abort(struct cc_pg_async *a, const char *why) {
    set_error(a, why, NULL);
    clear_statement(a);
    drop_connection(a);
}

int cc_pg_async_send(struct cc_pg_async *a, const char *sql, int n, const char *const *vals) {
    if (a->phase != IDLE || n < 0 || n > MAX_PARAMS) return -1;
    if (!(a->sql = strdup(sql))) return -1;
    for (int i = 0; i < n; i++) {
        a->vals[i] = vals[i] ? strdup(vals[i]) : NULL;
        a->n = i + 1;
        if (vals[i] && !a->vals[i]) {
            clear_statement(a);
            return -1;
        }
    }
    a->phase = a->c && PQstatus(a->c) == CONNECTION_OK ? SENDING : CONNECTING;
    if (a->phase == CONNECTING) {
        drop_connection(a);
    }
    return 0;
}

static enum cc_pg_async_step fail(struct cc_pg_async *a, const char *what, bool broken) {
    set_error(a, what, a->c ? PQerrorMessage(a->c) : "out of memory");
    clear_statement(a);
    if (broken) drop_connection(a);
    return CC_PGA_FAILED;
}

static enum cc_pg_async_step wait_for(struct cc_pg_async *a, bool write, int *fd, bool *want_write) {
    *fd = PQsocket(a->c);
    *want_write = write;
    return *fd < 0 ? fail(a, "the database connection has no socket", true) : CC_PGA_WAIT;
}

/* The connection sequence, one readiness at a time (libpq: act as if
 * PQconnectPoll had first asked for writing). */
static enum cc_pg_async_step connect_step(struct cc_pg_async *a, int *fd, bool *want_write) {
    if (!a->c) {
        char options[64];
        snprintf(options, sizeof options, "-c statement_timeout=%d", CC_PG_ASYNC_STATEMENT_MS);
        /* The URL is expanded last, so what it says wins. */
        const char *const keys[] = {"options", "application_name", "dbname", NULL};
        const char *const vals[] = {options, "codecalc", a->url, NULL};
        a->c = PQconnectStartParams(keys, vals, 1);
        if (!a->c || PQstatus(a->c) == CONNECTION_BAD) return fail(a, "cannot connect to the state database", true);
        PQsetNoticeProcessor(a->c, no_notice, NULL);
        a->poll = PGRES_POLLING_WRITING;
        return wait_for(a, true, fd, want_write);
    }
    a->poll = PQconnectPoll(a->c);
    if (a->poll == PGRES_POLLING_FAILED) return fail(a, "cannot connect to the state database", true);
    if (a->poll != PGRES_POLLING_OK) return wait_for(a, a->poll == PGRES_POLLING_WRITING, fd, want_write);
    if (PQsetnonblocking(a->c, 1) != 0) return fail(a, "cannot use the database connection", true);
    a->phase = SENDING;
    return CC_PGA_WAIT; /* the caller's loop in cc_pg_async_step continues */
}

/* Read what arrived; the statement is complete when libpq hands out the
 * NULL result after its own. */
static enum cc_pg_async_step read_step(struct cc_pg_async *a, int *fd, bool *want_write, PGresult **res) {
    if (!PQconsumeInput(a->c)) return fail(a, "the database connection broke", true);
    while (!PQisBusy(a->c)) {
        PGresult *r = PQgetResult(a->c);
        if (!r) {
            if (a->stmt_failed || !a->res) {
                if (!a->stmt_failed) set_error(a, "the statement returned nothing", NULL);
                clear_statement(a);
                return CC_PGA_FAILED;
            }
            *res = a->res;
            a->res = NULL;
            clear_statement(a);
            return CC_PGA_DONE;
        }
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
            if (a->res) PQclear(a->res);
            a->res = r;
        } else {
            set_error(a, "the statement failed", PQresultErrorMessage(r));
            a->stmt_failed = true;
            PQclear(r);
        }
    }
    return wait_for(a, false, fd, want_write);
}

enum cc_pg_async_step cc_pg_async_step(struct cc_pg_async *a, int *fd, bool *want_write, PGresult **res) {
    *res = NULL;
    for (;;) {
        switch (a->phase) {
        case IDLE:
            set_error(a, "no statement under way", NULL);
            return CC_PGA_FAILED;
        case CONNECTING: {
            enum cc_pg_async_step s = connect_step(a, fd, want_write);
            if (s != CC_PGA_WAIT || a->phase == CONNECTING) return s;
            break;
        }
        case SENDING:
            if (!PQsendQueryParams(a->c, a->sql, a->n, NULL, (const char *const *)a->vals, NULL, NULL, 0))
                return fail(a, "cannot send the statement", PQstatus(a->c) != CONNECTION_OK);
            a->phase = FLUSHING;
            break;
        case FLUSHING: {
            int f = PQflush(a->c);
            if (f < 0) return fail(a, "cannot send the statement", true);
            if (f > 0) return wait_for(a, true, fd, want_write);
            a->phase = READING;
            break;
        }
        case READING:
            return read_step(a, fd, want_write, res);
        }
    }
}
