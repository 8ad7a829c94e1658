/* Runs as a shared queue (see cluster.h and docs/cluster.md).
 *
 * run_submit on any server enqueues; every server claims queued runs up to
 * its own capacity (CODECALC_MAX_ACTIVE_RUNS) when it is told (NOTIFY
 * cc_run_queued), at submission, and once a second. A claimed run gets a
 * run directory here and a shepherd, which holds the run's lease from then
 * on (workers/exec/shepherd_lease.c): a supervisor restart alone re-runs
 * nothing. A lease nobody renews is reaped by whichever server's upkeep
 * (upkeep.c) sees it first: re-queued once, LOST after the second loss. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/json_convert.h"
#include "protocol/knob.h"
#include "protocol/proc_stat.h"
#include "state/shared.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/log.h"
#include "supervisor/runs/runs.h"
#include "workers/common/tool_api.h"


/* Local run directories are kept while their run is ours and active; the
 * result lives in the database. Swept this often, this many at a time. */
#define DIR_SWEEP_EVERY_S 10.0
#define DIR_SWEEP_BATCH 200

struct cc_cluster_runs {
    double next_dir_sweep;
    struct event *notify_ev;
    int notify_fd;
    double lease_s;
    int64_t max_queued;
    struct cc_cluster_upkeep *upkeep;
    bool claim_wanted;         /* a notification arrived: claim at the next chance */
};

static void watch_notifications(struct cc_runs *rs);

/* ---- claiming ------------------------------------------------------------------ */

static int write_lease(struct cc_runs *rs, const struct cc_run_rec *rec) {
    char path[4500], line[128];
    if (cc_runs_path(rs, rec->id, CC_CLUSTER_LEASE_FILE, path, sizeof path) < 0) return -1;
    int n = snprintf(line, sizeof line, "%s %d %.3f\n", rec->id, rec->attempt, rs->cluster->lease_s);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return -1;
    int rc = cc_write_all(fd, line, (size_t)n);
    if (close(fd) < 0) rc = -1;
    return rc;
}

/* Start the shepherd of one claimed run; give it back to the queue when
 * that is impossible here. */
static void start_claimed(struct cc_runs *rs, struct cc_run_claim *c) {
    char why[1024], dir[4400];
    /* An earlier attempt may have run here: its directory is history. */
    cc_runs_remove_dir(rs, c->rec.id);
    if (cc_runs_write_spec(rs, c->rec.id, c->spec, strlen(c->spec), why, sizeof why) == 0 &&
        write_lease(rs, &c->rec) == 0 && cc_runs_path(rs, c->rec.id, NULL, dir, sizeof dir) == 0 &&
        cc_runs_launch(rs, dir, why, sizeof why) == 0)
        return;
    cc_log(CC_LOG_WARNING, "run %s: cannot start it on this server (%s); giving it back to the queue",
           c->rec.id, why);
    cc_runs_remove_dir(rs, c->rec.id);
    cc_run_store_release(rs->store, c->rec.id, c->rec.attempt);
}

static void claim(struct cc_runs *rs) {
    rs->cluster->claim_wanted = false;
    int64_t held = 0;
    if (cc_run_store_count_owned(rs->store, cc_state_server_id(), &held) < 0) return;
    int64_t room = rs->max_active - held;
    if (room <= 0) return;
    struct cc_run_claim *v;
    size_t n;
    if (cc_run_store_claim(rs->store, cc_state_server_id(), (int)room, rs->cluster->lease_s, &v, &n) < 0) {
        cc_log(CC_LOG_ERROR, "cannot claim queued runs from the shared store");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        start_claimed(rs, &v[i]);
        free(v[i].spec);
    }
    free(v);
}

/* ---- notifications ------------------------------------------------------------- */

static void on_notification(void *ud, const char *channel, const char *payload) {
    (void)payload;
    struct cc_runs *rs = ud;
    if (strcmp(channel, "cc_run_queued") == 0) rs->cluster->claim_wanted = true;
}

static void on_notify_readable(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_runs *rs = arg;
    if (cc_run_store_notifications(rs->store, on_notification, rs) < 0) {
        /* Broken connection: the 1 s tick reconnects and re-watches. */
        event_free(rs->cluster->notify_ev);
        rs->cluster->notify_ev = NULL;
        return;
    }
    if (rs->cluster->claim_wanted) claim(rs);
}

static void watch_notifications(struct cc_runs *rs) {
    struct cc_cluster_runs *c = rs->cluster;
    int fd = cc_run_store_notify_fd(rs->store);
    if (c->notify_ev && fd == c->notify_fd) return;
    if (c->notify_ev) event_free(c->notify_ev);
    c->notify_ev = NULL;
    if (fd < 0) return;
    c->notify_fd = fd;
    c->notify_ev = event_new(event_get_base(rs->timer), fd, EV_READ | EV_PERSIST, on_notify_readable, rs);
    if (c->notify_ev) event_add(c->notify_ev, NULL);
}

/* ---- the server's side of a run -------------------------------------------------- */

int cc_cluster_runs_start(struct cc_server *srv, struct cc_runs *rs, const char *home) {
    if (cc_cluster_identity_init(home) < 0) return -1;
    rs->cluster = calloc(1, sizeof *rs->cluster);
    if (!rs->cluster || !(rs->cluster->upkeep = cc_cluster_upkeep_new(srv->base, cc_state_database_url()))) return -1;
    rs->cluster->lease_s = cc_cluster_lease_s();
    rs->cluster->max_queued = cc_knob(CC_KNOB_MAX_QUEUED_RUNS);
    rs->cluster->notify_fd = -1;
    /* LISTEN on the run store's connection; the timer is armed later by
     * cc_runs_init, so the event is added at the first tick. */
    if (cc_run_store_listen(rs->store, "cc_run_queued") < 0)
        cc_log(CC_LOG_WARNING, "cannot LISTEN for queued runs; claiming once a second instead");
    return 0;
}

void cc_cluster_runs_stop(struct cc_runs *rs) {
    if (!rs->cluster) return;
    if (rs->cluster->notify_ev) event_free(rs->cluster->notify_ev);
    cc_cluster_upkeep_free(rs->cluster->upkeep);
    free(rs->cluster);
    rs->cluster = NULL;
}

json_t *cc_cluster_submit(struct cc_runs *rs, json_t *args, struct cc_run_rec *rec) {
    int64_t queued = 0;
    if (cc_run_store_count_queued(rs->store, &queued) < 0) return cc_err("internal", "the shared run store cannot be read");
    if (queued >= rs->cluster->max_queued) {
        json_t *e = cc_err("resource_exhausted",
                           "%lld runs are already queued in the cluster against a limit of %lld "
                           "(CODECALC_MAX_QUEUED_RUNS); wait for some to start, then retry",
                           (long long)queued, (long long)rs->cluster->max_queued);
        json_object_set_new(e, "queued_runs", json_integer(queued));
        json_object_set_new(e, "limit", json_integer(rs->cluster->max_queued));
        return e;
    }
    char *spec = json_dumps(args, JSON_COMPACT);
    if (!spec) return cc_err("validation", "the run's arguments cannot be encoded");
    int rc = cc_run_store_enqueue(rs->store, rec, spec);
    free(spec);
    if (rc < 0) {
        json_t *e = cc_err("internal", "cannot create the run: the shared run store refused it");
        json_object_set_new(e, "provider_error", json_string("run_state_unwritable"));
        return e;
    }
    claim(rs);
    if (cc_run_store_get(rs->store, rec->id, rec) != 1) rec->state = CC_RUN_QUEUED;
    return NULL;
}

/* A run of ours whose shepherd is gone: its result file, when it wrote one
 * the database did not get, else the attempt is lost. */
static void ingest_or_lose(struct cc_runs *rs, struct cc_run_rec *rec) {
    json_t *doc = cc_runs_read_result(rs, rec->id);
    if (doc) {
        bool cancelled = json_is_true(json_object_get(doc, "cancelled"));
        json_t *res = json_object_get(doc, "result");
        char *text = json_dumps(doc, JSON_COMPACT);
        const char *out = json_string_value(json_object_get(res, "stdout"));
        const char *err = json_string_value(json_object_get(res, "stderr"));
        if (text)
            cc_run_store_finish(rs->store, rec->id, rec->attempt, cancelled ? CC_RUN_CANCELLED : CC_RUN_DONE, text,
                                out, out ? strlen(out) : 0, err, err ? strlen(err) : 0);
        free(text);
        json_decref(doc);
    } else {
        char why[256];
        snprintf(why, sizeof why, "its shepherd (pid %ld) on server %s ended without a result", (long)rec->pid,
                 cc_state_server_id());
        cc_run_store_lose(rs->store, rec->id, rec->attempt, why);
    }
    cc_run_store_get(rs->store, rec->id, rec);
}

void cc_cluster_observe(struct cc_runs *rs, struct cc_run_rec *rec) {
    if (rec->state == CC_RUN_QUEUED || strcmp(rec->owner, cc_state_server_id()) != 0) return;
    pid_t pid;
    uint64_t start;
    if ((rec->pid == 0 || rec->pid_start == 0) && cc_runs_read_pidfile(rs, rec->id, &pid, &start) == 0) {
        rec->pid = pid;
        rec->pid_start = start;
        cc_run_store_put(rs->store, rec);
    }
    if (rec->pid && cc_proc_alive(rec->pid, rec->pid_start)) return;
    /* No shepherd yet: the launcher may still be starting it. */
    if (rec->pid == 0 && !cc_runs_result_exists(rs, rec->id) &&
        cc_runs_now() - rec->claimed_at < CC_RUNS_START_GRACE_S)
        return;
    /* The shepherd normally stored its result itself; re-read before judging. */
    struct cc_run_rec now;
    if (cc_run_store_get(rs->store, rec->id, &now) == 1) *rec = now;
    if (!cc_run_active(rec->state) || rec->state == CC_RUN_QUEUED) return;
    ingest_or_lose(rs, rec);
}

/* Remove run directories of runs that are no longer ours and active (the
 * database holds their result; a directory of an unknown run is debris). */
static void sweep_local_dirs(struct cc_runs *rs) {
    DIR *d = opendir(rs->dir);
    if (!d) return;
    struct dirent *e;
    int seen = 0;
    while ((e = readdir(d)) && seen < DIR_SWEEP_BATCH) {
        if (!cc_run_id_valid(e->d_name)) continue;
        seen++;
        struct cc_run_rec rec;
        int got = cc_run_store_get(rs->store, e->d_name, &rec);
        if (got < 0) break;
        if (got == 1 && cc_run_active(rec.state) && strcmp(rec.owner, cc_state_server_id()) == 0) continue;
        if (cc_runs_remove_dir(rs, e->d_name) < 0)
            cc_log(CC_LOG_WARNING, "run %s: cannot remove its local directory: %s", e->d_name, strerror(errno));
    }
    closedir(d);
}

void cc_cluster_tick(struct cc_runs *rs) {
    struct cc_cluster_runs *c = rs->cluster;
    cc_cluster_upkeep_tick(c->upkeep, (int)rs->max_active);
    watch_notifications(rs);
    /* Drain what arrived meanwhile (polling fallback of NOTIFY), then claim. */
    cc_run_store_notifications(rs->store, on_notification, rs);
    claim(rs);
    double now = cc_runs_now();
    if (now >= c->next_dir_sweep) {
        c->next_dir_sweep = now + DIR_SWEEP_EVERY_S;
        sweep_local_dirs(rs);
    }
}

struct cc_cluster_upkeep *cc_cluster_upkeep_of(struct cc_runs *rs) {
    return rs && rs->cluster ? rs->cluster->upkeep : NULL;
}

/* ---- answers ---------------------------------------------------------------------- */

json_t *cc_cluster_cancel(struct cc_runs *rs, struct cc_run_rec *rec) {
    bool was_active = cc_run_active(rec->state);
    int rc = cc_run_store_cancel(rs->store, rec->id, rec);
    if (rc < 0) {
        json_t *o = cc_err("internal", "could not record the cancel in the shared run store");
        json_object_set_new(o, "provider_error", json_string("provider_cancel_failed"));
        json_object_set_new(o, "run_id", json_string(rec->id));
        return o;
    }
    /* Ours: signal the shepherd now too (the notification also reaches it). */
    if (rc == 1 && rec->state == CC_RUN_CANCELLING && strcmp(rec->owner, cc_state_server_id()) == 0)
        (void)cc_runs_deliver_cancel(rs, rec);
    const char *state = rec->state == CC_RUN_CANCELLING ? "cancelling"
                        : rec->state == CC_RUN_CANCELLED ? "cancelled"
                        : rec->state == CC_RUN_LOST      ? "lost"
                        : rec->state == CC_RUN_DONE      ? (rec->collected ? "cleaned" : "finished")
                                                         : "running";
    json_t *o = json_pack("{s:b,s:s,s:b,s:s}", "ok", 1, "run_id", rec->id, "cancelled",
                          rc == 1 && was_active, "state", state);
    cc_cluster_run_fields(o, rec);
    return o;
}

json_t *cc_cluster_read_result(struct cc_runs *rs, const struct cc_run_rec *rec) {
    char *text = NULL;
    int got = cc_run_store_result(rs->store, rec->id, &text);
    if (got == 1) {
        json_error_t je;
        json_t *doc = cc_json_parse(text, strlen(text), &je);
        free(text);
        if (json_is_object(doc) && json_is_object(json_object_get(doc, "result"))) return doc;
        json_decref(doc);
        return errno = EINVAL, NULL;
    }
    if (got < 0) return errno = EIO, NULL;
    if (rec->state != CC_RUN_CANCELLED) return errno = ENOENT, NULL;
    /* Cancelled before it ran, or its server was lost after the cancel. */
    json_t *res = cc_err("internal", "background run cancelled before it produced a result: %s",
                         rec->reason[0] ? rec->reason : "it never ran");
    json_object_set_new(res, "provider_error", json_string("cancelled_without_result"));
    return json_pack("{s:b,s:o}", "cancelled", 1, "result", res);
}

json_t *cc_cluster_read_partial(struct cc_runs *rs, const struct cc_run_rec *rec) {
    if (strcmp(rec->owner, cc_state_server_id()) == 0) return cc_runs_read_partial(rs, rec->id);
    char *text = NULL;
    if (cc_run_store_partial(rs->store, rec->id, &text) != 1) return NULL;
    json_error_t je;
    json_t *doc = cc_json_parse(text, strlen(text), &je);
    free(text);
    if (json_is_object(doc)) return doc;
    json_decref(doc);
    return NULL;
}

void cc_cluster_run_fields(json_t *o, const struct cc_run_rec *rec) {
    json_object_set_new(o, "attempt", json_integer(rec->attempt));
    if (rec->reason[0]) json_object_set_new(o, "reason", json_string(rec->reason));
    if (rec->owner[0]) json_object_set_new(o, "server", json_string(rec->owner));
    if (rec->state == CC_RUN_QUEUED) json_object_set_new(o, "queued", json_true());
}
