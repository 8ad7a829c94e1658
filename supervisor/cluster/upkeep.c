/* The server's periodic work on the shared store that no call waits for:
 * its heartbeat, reaping expired leases, and the cluster facts that
 * `/metrics` and `/status` show (see cluster.h). It runs on a connection
 * of its own through libpq's asynchronous API (state/run_upkeep.h), so a
 * slow or locked database delays these rounds, never the event loop: the
 * figures are then served from the last round that completed, with their
 * age, and the page says what failed. */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "protocol/monotonic.h"
#include "state/run_upkeep.h"
#include "state/shared.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/log.h"

/* A round that has not ended after this long is given up (a database that
 * stopped answering without closing the connection); the server itself
 * cuts each statement off after CC_PG_ASYNC_STATEMENT_MS. */
#define ROUND_LIMIT_MS 20000
/* The run counts read every run: refreshed only while someone looked at
 * the figures this recently. */
#define WATCHED_MS 60000
/* Cached heartbeat ages are trusted for forwarding decisions while this
 * fresh. */
#define SERVERS_FRESH_MS 5000

struct cc_cluster_upkeep {
    struct event_base *base;
    struct cc_run_upkeep *u;
    struct event *ev;             /* the round's socket readiness, with its time limit */
    int64_t round_started_ms;
    int64_t watched_ms;           /* when the figures were last read (0 never) */
    int64_t servers_ms, counts_ms;/* when the cached parts were read (0 never) */
    struct cc_run_server *servers;
    size_t n_servers;
    struct cc_run_cluster counts; /* servers unused */
    char error[512];              /* the last round's failure, "" after a clean one */
    int64_t requeued;             /* by this server's reaper, for the log */
};

struct cc_cluster_upkeep *cc_cluster_upkeep_new(struct event_base *base, const char *url) {
    struct cc_cluster_upkeep *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->base = base;
    if (!(k->u = cc_run_upkeep_new(url))) {
        free(k);
        return NULL;
    }
    return k;
}

void cc_cluster_upkeep_free(struct cc_cluster_upkeep *k) {
    if (!k) return;
    if (k->ev) event_free(k->ev);
    cc_run_upkeep_free(k->u);
    free(k->servers);
    free(k);
}

static void round_ended(struct cc_cluster_upkeep *k, struct cc_run_upkeep_round *r) {
    int64_t now = cc_now_ms();
    if (r->have_servers) {
        free(k->servers);
        k->servers = r->cluster.servers;
        k->n_servers = r->cluster.n_servers;
        k->servers_ms = now;
    } else {
        free(r->cluster.servers);
    }
    if (r->have_counts) {
        k->counts = r->cluster;
        k->counts.servers = NULL;
        k->counts.n_servers = 0;
        k->counts_ms = now;
    }
    if (r->requeued > 0) {
        k->requeued += r->requeued;
        cc_log(CC_LOG_WARNING, "re-queued %lld run(s) whose lease expired", (long long)r->requeued);
    }
    /* One line per change of state, not one per second. */
    if (strcmp(r->error, k->error) != 0) {
        if (r->error[0]) cc_log(CC_LOG_WARNING, "cluster upkeep (heartbeat, leases, figures): %s", r->error);
        else cc_log(CC_LOG_INFO, "cluster upkeep works again");
        snprintf(k->error, sizeof k->error, "%s", r->error);
    }
}

static void on_ready(evutil_socket_t fd, short what, void *arg);

/* Step the round; wait for its socket again while it goes on. */
static void advance(struct cc_cluster_upkeep *k) {
    if (k->ev) event_free(k->ev);
    k->ev = NULL;
    struct cc_run_upkeep_round r;
    int fd;
    bool want_write;
    if (cc_run_upkeep_step(k->u, &fd, &want_write, &r) == 1) {
        round_ended(k, &r);
        return;
    }
    int64_t left = k->round_started_ms + ROUND_LIMIT_MS - cc_now_ms();
    struct timeval tv = {left > 0 ? left / 1000 : 0, left > 0 ? (left % 1000) * 1000 : 0};
    k->ev = event_new(k->base, fd, want_write ? EV_WRITE : EV_READ, on_ready, k);
    if (!k->ev || event_add(k->ev, &tv) < 0) {
        cc_run_upkeep_abort(k->u, "cannot watch the database connection", &r);
        round_ended(k, &r);
    }
}

static void on_ready(evutil_socket_t fd, short what, void *arg) {
    (void)fd;
    struct cc_cluster_upkeep *k = arg;
    if (what & EV_TIMEOUT) {
        event_free(k->ev);
        k->ev = NULL;
        struct cc_run_upkeep_round r;
        cc_run_upkeep_abort(k->u, "the database did not answer within 20 s", &r);
        round_ended(k, &r);
        return;
    }
    advance(k);
}

void cc_cluster_upkeep_tick(struct cc_cluster_upkeep *k, int capacity) {
    if (!k || cc_run_upkeep_busy(k->u)) return;
    int64_t now = cc_now_ms();
    bool counts = k->counts_ms == 0 || (k->watched_ms && now - k->watched_ms < WATCHED_MS);
    if (cc_run_upkeep_begin(k->u, cc_state_server_id(), cc_state_server_url(), capacity, counts) < 0) return;
    k->round_started_ms = now;
    advance(k);
}

void cc_cluster_upkeep_view(struct cc_cluster_upkeep *k, struct cc_cluster_view *v) {
    memset(v, 0, sizeof *v);
    if (!k) return;
    int64_t now = cc_now_ms();
    k->watched_ms = now;
    v->have_servers = k->servers_ms > 0;
    v->servers = k->servers;
    v->n_servers = k->n_servers;
    v->servers_age_s = v->have_servers ? (double)(now - k->servers_ms) / 1000.0 : 0;
    v->have_counts = k->counts_ms > 0;
    v->counts = k->counts;
    v->counts_age_s = v->have_counts ? (double)(now - k->counts_ms) / 1000.0 : 0;
    v->error = k->error;
}

int cc_cluster_upkeep_server_age(struct cc_cluster_upkeep *k, const char *id, double *age_s) {
    int64_t now = cc_now_ms();
    if (!k || !k->servers_ms || now - k->servers_ms > SERVERS_FRESH_MS) return -1;
    for (size_t i = 0; i < k->n_servers; i++)
        if (strcmp(k->servers[i].id, id) == 0) {
            *age_s = k->servers[i].heartbeat_age_s + (double)(now - k->servers_ms) / 1000.0;
            return 1;
        }
    return -1;
}
