/* Background runs inside the supervisor (TOOLS.md 3.2.9-3.2.11, section 5,
 * as amended by the runs issue): what the runs*.c files share.
 *
 * Lifecycle of a run:
 *   run_submit  -> runs/<id>/spec.json + a RUNNING record -> shepherd started
 *                  by a double fork (runs_spawn.c); the server never waits on it
 *   completion  -> the shepherd writes result.json; the server observes it
 *                  lazily (run_inspect, admission sweep, a 1 s timer, start-up)
 *                  and records DONE/CANCELLED, or LOST when the shepherd is
 *                  gone without a result (supervisor/runs/sweep.c)
 *   retention   -> CODECALC_RUN_TTL_HOURS (default 24) after it finished, the
 *                  run directory is removed and the record marked expired;
 *                  run_inspect then says so ("cleaned", expired: true)
 */
#ifndef CC_RUNS_H
#define CC_RUNS_H

#include <event2/event.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "state/run_store.h"

/* A shepherd that has not recorded its pid this long after submission never
 * started. */
#define CC_RUNS_START_GRACE_S 10.0

struct cc_runs {
    struct cc_run_store *store;
    char dir[4200];            /* $CODECALC_HOME/runs */
    char shepherd_bin[4200];   /* <bindir>/codecalc-exec */
    int64_t max_active;
    double ttl_s;
    struct event *timer;
    double next_ttl_sweep;
    int launcher_fd;           /* our end of the shepherd launcher, -1 when none */
    pid_t launcher_pid;
    double launcher_retry_at;  /* the timer does not retry a failed start before */
    struct cc_cluster_runs *cluster; /* shared store only (supervisor/cluster/) */
};

double cc_runs_now(void);

/* ---- processes (supervisor/runs/proc.c) ---- */
/* Start `bin --shepherd rundir` (stdin /dev/null, stdout/stderr appended to
 * rundir/shepherd.log, no inherited descriptors). *pid is the launcher
 * process, which exits at once after forking the real shepherd into its own
 * session; the shepherd's identity is learned from its pid file. 0, or -1
 * with err filled. Never waits. */
int cc_runs_spawn(const char *bin, const char *rundir, pid_t *pid, char *err, size_t errcap);

/* ---- the shepherd launcher (supervisor/runs/launcher.c) ---- */
/* Start the helper that starts shepherds (workers/exec/shepherd.h). 0 or -1
 * (then shepherds are started directly, as cc_runs_spawn does). */
int cc_runs_launcher_start(struct cc_runs *rs);
void cc_runs_launcher_stop(struct cc_runs *rs);
/* Have the shepherd for rundir started: handed to the launcher (no waiting),
 * or, without one, spawned here. 0, or -1 with err filled. */
int cc_runs_launch(struct cc_runs *rs, const char *rundir, char *err, size_t errcap);
/* The capability broker's decision (TOOLS.md 10.2) for a run on provider
 * local under a non-blank policy: NULL when admitted (*net_denied: the
 * policy denies network), else the rejection to return (caller owns it).
 * Asks the launcher and waits for its answer. */
json_t *cc_runs_broker_check(struct cc_runs *rs, bool no_net, const char *policy, bool *net_denied);

/* ---- run directory (supervisor/runs/files.c) ---- */
/* path of runs/<id>[/name] into out. -1 when it does not fit. */
int cc_runs_path(const struct cc_runs *rs, const char *id, const char *name, char *out, size_t cap);
/* Create runs/<id>/ and write spec.json (0600). On failure nothing is left
 * behind; returns -1 with errno set and err filled. */
int cc_runs_write_spec(const struct cc_runs *rs, const char *id, const char *json, size_t len,
                       char *err, size_t errcap);
/* Parse runs/<id>/result.json. NULL with errno (ENOENT: not there yet). The
 * caller owns the returned {cancelled, result} document. */
json_t *cc_runs_read_result(const struct cc_runs *rs, const char *id);
/* The output so far of a running run (CC_SHEPHERD_PARTIAL_FILE), or NULL
 * when it has written nothing yet. New reference. */
json_t *cc_runs_read_partial(const struct cc_runs *rs, const char *id);
bool cc_runs_result_exists(const struct cc_runs *rs, const char *id);
/* "<pid> <start>" from runs/<id>/shepherd.pid; 0 or -1. */
int cc_runs_read_pidfile(const struct cc_runs *rs, const char *id, pid_t *pid, uint64_t *start);
/* Remove runs/<id>/ and everything in it (not following symlinks). */
int cc_runs_remove_dir(const struct cc_runs *rs, const char *id);
/* Drop a cancel marker in the run directory. 0 or -1. */
int cc_runs_touch_cancel(const struct cc_runs *rs, const char *id);

/* Deliver a cancel to a shepherd of this server: the cancel marker file and
 * SIGTERM to the verified shepherd. 0 when either worked. */
int cc_runs_deliver_cancel(struct cc_runs *rs, const struct cc_run_rec *rec);

/* ---- observation (supervisor/runs/sweep.c) ---- */
/* Bring an active record up to date: ingest a result, or mark it LOST when
 * its shepherd is gone. thorough=false only looks for a result file (cheap
 * enough for every submission). Writes the record when it changed. */
void cc_runs_observe(struct cc_runs *rs, struct cc_run_rec *rec, bool thorough);
/* Observe every active run. */
void cc_runs_sweep_active(struct cc_runs *rs, bool thorough);
/* Expire up to limit runs finished longer than the TTL ago. */
void cc_runs_sweep_expired(struct cc_runs *rs, size_t limit);
/* Expire this terminal record now if its retention has passed. */
void cc_runs_expire_if_due(struct cc_runs *rs, struct cc_run_rec *rec);
/* Arm the periodic sweep on base. 0 or -1. */
int cc_runs_timer_start(struct cc_runs *rs, struct event_base *base);

#endif
