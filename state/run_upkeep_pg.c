/* The server's non-blocking upkeep of the shared run store (see
 * run_upkeep.h), and the readers of the cluster facts' rows that the
 * synchronous store shares (run_sql_pg.h). */
#include "state/run_upkeep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/pg.h"
#include "state/pg_async.h"
#include "state/run_sql_pg.h"

enum step { HEARTBEAT, REAP, SERVERS, COUNTS, END };

struct cc_run_upkeep {
    struct cc_pg_async *conn;
    enum step step;               /* END: no round under way */
    bool counts;
    char id[64], url[256], capacity[16];
    struct cc_run_upkeep_round round;
};

void cc_run_pg_read_counts(const PGresult *res, struct cc_run_cluster *out) {
    out->queued = cc_pg_int(res, 0, 0);
    out->active = cc_pg_int(res, 0, 1);
    out->done = cc_pg_int(res, 0, 2);
    out->lost = cc_pg_int(res, 0, 3);
    out->requeued = cc_pg_int(res, 0, 4);
}

static void read_server(const PGresult *res, int i, void *rec) {
    struct cc_run_server *v = rec;
    cc_pg_text(v->id, sizeof v->id, res, i, 0);
    cc_pg_text(v->url, sizeof v->url, res, i, 1);
    v->heartbeat_age_s = cc_pg_double(res, i, 2);
    v->capacity = (int)cc_pg_int(res, i, 3);
    v->claimed = cc_pg_int(res, i, 4);
}

int cc_run_pg_read_servers(const PGresult *res, struct cc_run_cluster *out) {
    int rows = PQntuples(res);
    out->servers = rows > 0 ? calloc((size_t)rows, sizeof *out->servers) : NULL;
    out->n_servers = 0;
    if (rows > 0 && !out->servers) return -1;
    for (int i = 0; i < rows; i++) read_server(res, i, &out->servers[i]);
    out->n_servers = (size_t)rows;
    return 0;
}

struct cc_run_upkeep *cc_run_upkeep_new(const char *url) {
    struct cc_run_upkeep *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    u->step = END;
    if (!(u->conn = cc_pg_async_new(url))) {
        free(u);
        return NULL;
    }
    return u;
}

static void discard_round(struct cc_run_upkeep *u) {
    free(u->round.cluster.servers);
    memset(&u->round, 0, sizeof u->round);
}

void cc_run_upkeep_free(struct cc_run_upkeep *u) {
    if (!u) return;
    discard_round(u);
    cc_pg_async_free(u->conn);
    free(u);
}

bool cc_run_upkeep_busy(const struct cc_run_upkeep *u) { return u->step != END; }

/* Send the statement of the current step (skipping counts unless asked). */
static int send_step(struct cc_run_upkeep *u) {
    char max[8];
    snprintf(max, sizeof max, "%d", CC_RUN_MAX_ATTEMPTS);
    const char *hb[] = {u->id, u->url, u->capacity}, *reap[] = {max};
    if (u->step == COUNTS && !u->counts) u->step = END;
    switch (u->step) {
    case HEARTBEAT: return cc_pg_async_send(u->conn, CC_RUN_PG_HEARTBEAT, 3, hb);
    case REAP: return cc_pg_async_send(u->conn, CC_RUN_PG_REAP, 1, reap);
    case SERVERS: return cc_pg_async_send(u->conn, CC_RUN_PG_CLUSTER_SERVERS, 0, NULL);
    case COUNTS: return cc_pg_async_send(u->conn, CC_RUN_PG_CLUSTER_COUNTS, 0, NULL);
    case END: break;
    }
    return 0;
}

int cc_run_upkeep_begin(struct cc_run_upkeep *u, const char *id, const char *url, int capacity, bool counts) {
    if (u->step != END) return -1;
    discard_round(u);
    snprintf(u->id, sizeof u->id, "%s", id);
    snprintf(u->url, sizeof u->url, "%s", url);
    snprintf(u->capacity, sizeof u->capacity, "%d", capacity);
    u->counts = counts;
    u->step = HEARTBEAT;
    if (send_step(u) < 0) {
        u->step = END;
        return -1;
    }
    return 0;
}

static void take(struct cc_run_upkeep *u, PGresult *res) {
    struct cc_run_upkeep_round *r = &u->round;
    switch (u->step) {
    case HEARTBEAT: r->heartbeat_ok = true; break;
    case REAP:
        for (int i = 0; i < PQntuples(res); i++)
            if (cc_pg_int(res, i, 0) == CC_RUN_QUEUED) r->requeued++;
        break;
    case SERVERS: r->have_servers = cc_run_pg_read_servers(res, &r->cluster) == 0; break;
    case COUNTS:
        cc_run_pg_read_counts(res, &r->cluster);
        r->have_counts = true;
        break;
    case END: break;
    }
    PQclear(res);
}

static void hand_over(struct cc_run_upkeep *u, struct cc_run_upkeep_round *out) {
    *out = u->round;
    memset(&u->round, 0, sizeof u->round); /* the servers array is out's now */
    u->step = END;
}

int cc_run_upkeep_step(struct cc_run_upkeep *u, int *fd, bool *want_write, struct cc_run_upkeep_round *out) {
    while (u->step != END) {
        PGresult *res;
        enum cc_pg_async_step s = cc_pg_async_step(u->conn, fd, want_write, &res);
        if (s == CC_PGA_WAIT) return 0;
        if (s == CC_PGA_FAILED) {
            snprintf(u->round.error, sizeof u->round.error, "%s", cc_pg_async_error(u->conn));
            break;
        }
        take(u, res);
        u->step++;
        if (send_step(u) < 0) {
            snprintf(u->round.error, sizeof u->round.error, "cannot send the next statement");
            break;
        }
    }
    hand_over(u, out);
    return 1;
}

void cc_run_upkeep_abort(struct cc_run_upkeep *u, const char *why, struct cc_run_upkeep_round *out) {
    cc_pg_async_abort(u->conn, why);
    snprintf(u->round.error, sizeof u->round.error, "%s", why);
    hand_over(u, out);
}
