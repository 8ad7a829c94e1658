/* Observing background runs: a finished shepherd leaves result.json, a dead
 * one without it makes the run LOST (never silently dropped, never reported
 * as finished); finished runs expire after the retention TTL. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "protocol/proc_stat.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/log.h"
#include "supervisor/runs/runs.h"

double cc_runs_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void save(struct cc_runs *rs, const struct cc_run_rec *rec) {
    if (cc_run_store_put(rs->store, rec) < 0)
        cc_log(CC_LOG_ERROR, "run %s: cannot record its state in the run store", rec->id);
}

/* Record the outcome in result.json. false when there is none (yet). A
 * result that exists but cannot be parsed is a LOST run with that reason. */
static bool ingest(struct cc_runs *rs, struct cc_run_rec *rec) {
    if (!cc_runs_result_exists(rs, rec->id)) return false;
    json_t *doc = cc_runs_read_result(rs, rec->id);
    if (!doc) {
        rec->state = CC_RUN_LOST;
        snprintf(rec->reason, sizeof rec->reason, "the run's result file is unreadable (%s)",
                 strerror(errno));
    } else {
        bool cancelled = json_is_true(json_object_get(doc, "cancelled"));
        rec->state = cancelled ? CC_RUN_CANCELLED : CC_RUN_DONE;
        json_decref(doc);
    }
    rec->finished_at = cc_runs_now();
    save(rs, rec);
    return true;
}

/* Learn the shepherd's identity from its pid file when the record lacks it
 * (the server died between starting it and recording it). */
static void adopt_pidfile(struct cc_runs *rs, struct cc_run_rec *rec) {
    pid_t pid;
    uint64_t start;
    if (cc_runs_read_pidfile(rs, rec->id, &pid, &start) < 0) return;
    if (rec->pid == 0 || (rec->pid == pid && rec->pid_start == 0)) {
        rec->pid = pid;
        rec->pid_start = start;
        save(rs, rec);
    }
}

static void mark_lost(struct cc_runs *rs, struct cc_run_rec *rec) {
    rec->state = CC_RUN_LOST;
    rec->finished_at = cc_runs_now();
    if (rec->pid)
        snprintf(rec->reason, sizeof rec->reason,
                 "the run's shepherd (pid %ld) ended without writing a result: it was killed or "
                 "crashed, so the run's outcome is unknown", (long)rec->pid);
    else
        snprintf(rec->reason, sizeof rec->reason,
                 "the run's shepherd never started (the server stopped before launching it)");
    cc_log(CC_LOG_WARNING, "run %s lost: %s", rec->id, rec->reason);
    save(rs, rec);
}

void cc_runs_observe(struct cc_runs *rs, struct cc_run_rec *rec, bool thorough) {
    if (!cc_run_active(rec->state)) return;
    if (rec->shared) {
        cc_cluster_observe(rs, rec);
        return;
    }
    if (!thorough) {
        ingest(rs, rec);
        return;
    }
    if (rec->pid == 0 || rec->pid_start == 0) adopt_pidfile(rs, rec);
    /* Liveness first: the shepherd writes its result before exiting, so a
     * dead shepherd's result is already on disk if it will ever be. */
    if (rec->pid && cc_proc_alive(rec->pid, rec->pid_start)) return;
    if (ingest(rs, rec)) return;
    if (rec->pid == 0 && cc_runs_now() - rec->started_at < CC_RUNS_START_GRACE_S) return;
    mark_lost(rs, rec);
}

void cc_runs_sweep_active(struct cc_runs *rs, bool thorough) {
    struct cc_run_rec *v;
    size_t n;
    if (cc_run_store_list_active(rs->store, &v, &n) < 0) {
        cc_log(CC_LOG_ERROR, "cannot list active runs from the run store");
        return;
    }
    for (size_t i = 0; i < n; i++) cc_runs_observe(rs, &v[i], thorough);
    free(v);
}

static void expire(struct cc_runs *rs, struct cc_run_rec *rec) {
    if (cc_runs_remove_dir(rs, rec->id) < 0) {
        cc_log(CC_LOG_WARNING, "run %s: cannot remove its directory: %s", rec->id, strerror(errno));
        return; /* retried at the next sweep; the result stays readable */
    }
    rec->expired = true;
    save(rs, rec);
}

void cc_runs_expire_if_due(struct cc_runs *rs, struct cc_run_rec *rec) {
    if (!cc_run_active(rec->state) && !rec->expired && rec->finished_at > 0 &&
        rec->finished_at < cc_runs_now() - rs->ttl_s)
        expire(rs, rec);
}

void cc_runs_sweep_expired(struct cc_runs *rs, size_t limit) {
    struct cc_run_rec *v;
    size_t n;
    if (cc_run_store_list_expired(rs->store, cc_runs_now() - rs->ttl_s, limit, &v, &n) < 0) return;
    for (size_t i = 0; i < n; i++) expire(rs, &v[i]);
    free(v);
}

/* Once a second: finish what completed, notice vanished shepherds, and now
 * and then remove expired runs (in small batches: the loop stays responsive). */
static void on_timer(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_runs *rs = arg;
    /* Ready before it is needed; without it shepherds start directly. */
    if (rs->launcher_fd < 0 && cc_runs_now() >= rs->launcher_retry_at) (void)cc_runs_launcher_start(rs);
    int64_t active = 0;
    if (cc_run_store_count_active(rs->store, &active) == 0 && active > 0)
        cc_runs_sweep_active(rs, true);
    if (rs->cluster) cc_cluster_tick(rs);
    double now = cc_runs_now();
    if (now >= rs->next_ttl_sweep) {
        cc_runs_sweep_expired(rs, 100);
        double every = rs->ttl_s < 60 ? rs->ttl_s : 60;
        rs->next_ttl_sweep = now + (every < 1 ? 1 : every);
    }
}

int cc_runs_timer_start(struct cc_runs *rs, struct event_base *base) {
    rs->timer = event_new(base, -1, EV_PERSIST, on_timer, rs);
    struct timeval one = {1, 0};
    return rs->timer && event_add(rs->timer, &one) == 0 ? 0 : -1;
}
