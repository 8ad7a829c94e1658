/* The run store: durable records of background runs (TOOLS.md section 5).
 *
 * A narrow interface in front of two backends, chosen by
 * cc_run_store_open() (state/shared.h): the embedded sqlite file of one
 * server (run_store_sqlite.c), or PostgreSQL shared by several servers
 * (run_store_pg.c). Tools and the run supervisor only use the functions
 * below.
 *
 * sqlite: the record holds lifecycle facts only; spec and result are files
 * in the run directory. PostgreSQL (shared): the runs are also a queue. A
 * submission is enqueued with its spec; servers claim queued runs under a
 * lease that the run's shepherd renews; the shepherd stores the result
 * (envelope and output files up to CC_RUN_FILE_CAP) in the database, so any
 * server can answer for any run. The queue operations (cc_run_store_shared()
 * true) exist only there.
 *
 * Ownership: cc_run_store_open_* returns a store the caller closes;
 * list functions return a malloc'd array the caller frees with free().
 */
#ifndef CC_STATE_RUN_STORE_H
#define CC_STATE_RUN_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Stored lifecycle. What a caller is told is derived from it (supervisor/runs/runs.c):
 * DONE reads as "finished" until first collected, then "cleaned". */
enum cc_run_state {
    CC_RUN_RUNNING = 0,   /* shepherd started (or starting); work not observed done */
    CC_RUN_CANCELLING,    /* a cancel was delivered to the shepherd */
    CC_RUN_DONE,          /* result.json ingested */
    CC_RUN_CANCELLED,     /* result.json ingested, the run was killed on request */
    CC_RUN_LOST,          /* shepherd vanished without a result (reason says how) */
    CC_RUN_QUEUED,        /* shared store only: waiting for a server to claim it */
};

/* A run is executed at most this many times: a lost lease re-queues it
 * once, a second loss makes it LOST. */
#define CC_RUN_MAX_ATTEMPTS 2
/* Each stored output file (stdout, stderr) is cut at this many bytes. */
#define CC_RUN_FILE_CAP (1u << 20)

#define CC_RUN_ID_LEN 32

struct cc_run_rec {
    char id[CC_RUN_ID_LEN + 1];  /* 32 lowercase hex */
    char provider_id[32];
    enum cc_run_state state;
    double started_at;           /* Unix epoch seconds */
    double deadline;             /* started_at + timeout */
    double finished_at;          /* 0 while active */
    pid_t pid;                   /* shepherd pid, 0 while unknown */
    uint64_t pid_start;          /* /proc/<pid>/stat starttime (clock ticks since boot) */
    bool collected;              /* the first terminal run_inspect happened */
    bool expired;                /* retention removed the run directory */
    char reason[512];            /* why LOST, or "" */
    /* Shared store only (sqlite: 1, "", false). */
    int attempt;                 /* 1, or 2 after one loss */
    char owner[64];              /* server id holding the claim, "" when queued */
    bool cancel_requested;
    double claimed_at;           /* when the current attempt was claimed (0 while queued) */
    bool shared;                 /* read from the shared store */
};

/* A claimed run: its record and spec (malloc'd JSON text, freed by caller). */
struct cc_run_claim {
    struct cc_run_rec rec;
    char *spec;
};

/* One server of the cluster as the shared store sees it. */
struct cc_run_server {
    char id[64];
    char url[256];
    double heartbeat_age_s;      /* seconds since its last heartbeat */
    int capacity;
    int64_t claimed;             /* active runs it holds */
};

/* Cluster-wide counts. */
struct cc_run_cluster {
    int64_t queued, active, done, lost, requeued;
    struct cc_run_server *servers;   /* malloc'd, n_servers long */
    size_t n_servers;
};

/* Not yet terminal (a queued run counts: it will run). */
static inline bool cc_run_active(enum cc_run_state s) {
    return s == CC_RUN_RUNNING || s == CC_RUN_CANCELLING || s == CC_RUN_QUEUED;
}

struct cc_run_store;

struct cc_run_store_ops {
    int (*put)(struct cc_run_store *s, const struct cc_run_rec *r);
    int (*get)(struct cc_run_store *s, const char *id, struct cc_run_rec *out);
    int (*del)(struct cc_run_store *s, const char *id);
    int (*list_active)(struct cc_run_store *s, struct cc_run_rec **out, size_t *n);
    int (*count_active)(struct cc_run_store *s, int64_t *n);
    int (*list_expired)(struct cc_run_store *s, double finished_before, size_t limit,
                        struct cc_run_rec **out, size_t *n);
    int (*check)(struct cc_run_store *s, char *err, size_t errcap);
    void (*close)(struct cc_run_store *s);
    /* The shared queue: NULL in the sqlite backend. */
    int (*enqueue)(struct cc_run_store *s, const struct cc_run_rec *r, const char *spec);
    int (*claim)(struct cc_run_store *s, const char *owner, int max, double lease_s,
                 struct cc_run_claim **out, size_t *n);
    int (*count_owned)(struct cc_run_store *s, const char *owner, int64_t *n);
    int (*release)(struct cc_run_store *s, const char *id, int attempt);
    int (*renew)(struct cc_run_store *s, const char *id, int attempt, double lease_s, const char *partial,
                 bool *cancel);
    int (*finish)(struct cc_run_store *s, const char *id, int attempt, enum cc_run_state st,
                  const char *result, const char *out, size_t out_len, const char *err, size_t err_len);
    int (*lose)(struct cc_run_store *s, const char *id, int attempt, const char *why);
    int (*result)(struct cc_run_store *s, const char *id, char **json);
    int (*partial)(struct cc_run_store *s, const char *id, char **json);
    int (*cancel)(struct cc_run_store *s, const char *id, struct cc_run_rec *out);
    int (*cluster)(struct cc_run_store *s, struct cc_run_cluster *out);
    int (*count_queued)(struct cc_run_store *s, int64_t *n);
    int (*server_age)(struct cc_run_store *s, const char *id, double *age_s);
    int (*listen)(struct cc_run_store *s, const char *channel);
    int (*notify_fd)(struct cc_run_store *s);
    int (*notifications)(struct cc_run_store *s, void (*fn)(void *ud, const char *channel, const char *payload),
                         void *ud);
};

struct cc_run_store {
    const struct cc_run_store_ops *ops;
};

/* The configured backend: PostgreSQL when CODECALC_DATABASE_URL is set,
 * else sqlite on the database file at db_path. NULL with err filled. */
struct cc_run_store *cc_run_store_open(const char *db_path, char *err, size_t errcap);
/* sqlite backend on the database file at db_path. NULL with err filled. */
struct cc_run_store *cc_run_store_open_sqlite(const char *db_path, char *err, size_t errcap);
/* PostgreSQL backend at url (migrations applied). NULL with err filled. */
struct cc_run_store *cc_run_store_open_pg(const char *url, char *err, size_t errcap);

/* Insert or replace the whole record. 0 or -1. The shared backend only
 * updates what a server observes locally (pid, pid_start, collected,
 * expired): lifecycle changes there go through the queue verbs, so a stale
 * copy can never undo another server's or a shepherd's write. */
int cc_run_store_put(struct cc_run_store *s, const struct cc_run_rec *r);
/* 1 found (out filled), 0 unknown id, -1 error. */
int cc_run_store_get(struct cc_run_store *s, const char *id, struct cc_run_rec *out);
/* Remove a record (a submission rolled back before it was answered). */
int cc_run_store_delete(struct cc_run_store *s, const char *id);
/* Every RUNNING/CANCELLING record, oldest first. 0 or -1. */
int cc_run_store_list_active(struct cc_run_store *s, struct cc_run_rec **out, size_t *n);
int cc_run_store_count_active(struct cc_run_store *s, int64_t *n);
/* Up to limit terminal, not yet expired records finished before the time. */
int cc_run_store_list_expired(struct cc_run_store *s, double finished_before, size_t limit,
                              struct cc_run_rec **out, size_t *n);
/* Storage integrity: 0 sound, -1 with err filled. */
int cc_run_store_check(struct cc_run_store *s, char *err, size_t errcap);
void cc_run_store_close(struct cc_run_store *s);

/* ---- the shared queue (cc_run_store_shared(s) only) ---- */
bool cc_run_store_shared(const struct cc_run_store *s);
/* Insert r (state QUEUED, attempt 1) with its spec; NOTIFY cc_run_queued. */
int cc_run_store_enqueue(struct cc_run_store *s, const struct cc_run_rec *r, const char *spec);
/* Claim up to max queued runs, oldest first, for owner under a lease of
 * lease_s seconds (FOR UPDATE SKIP LOCKED: two servers never claim one
 * run). *out is malloc'd (free each spec, then the array). 0 or -1. */
int cc_run_store_claim(struct cc_run_store *s, const char *owner, int max, double lease_s,
                       struct cc_run_claim **out, size_t *n);
/* Runs owner holds (RUNNING/CANCELLING). */
int cc_run_store_count_owned(struct cc_run_store *s, const char *owner, int64_t *n);
/* Give a claimed run back to the queue (its shepherd could not start). */
int cc_run_store_release(struct cc_run_store *s, const char *id, int attempt);
/* Extend the lease of (id, attempt), and when partial is not NULL store it
 * as the run's output so far (the shepherd's partial.json document; its
 * caller bounds size and rate). 1 still held (*cancel: a cancel was
 * requested), 0 no longer ours (re-queued, finished, lost), -1 error. */
int cc_run_store_renew(struct cc_run_store *s, const char *id, int attempt, double lease_s, const char *partial,
                       bool *cancel);
/* Store the outcome of (id, attempt): state DONE or CANCELLED, the result
 * document {"cancelled", "result"} and the output files (each cut at
 * CC_RUN_FILE_CAP). Fenced: 1 stored, 0 the attempt no longer holds the run
 * (nothing written), -1 error. */
int cc_run_store_finish(struct cc_run_store *s, const char *id, int attempt, enum cc_run_state st,
                        const char *result, const char *out, size_t out_len, const char *err,
                        size_t err_len);
/* The attempt was lost (why): re-queued as the next attempt, or LOST after
 * CC_RUN_MAX_ATTEMPTS. 1 changed, 0 not held by that attempt, -1 error. */
int cc_run_store_lose(struct cc_run_store *s, const char *id, int attempt, const char *why);
/* The stored result document of a terminal run (malloc'd). 1, 0 none, -1. */
int cc_run_store_result(struct cc_run_store *s, const char *id, char **json);
/* The output so far of an active run as its shepherd last stored it
 * (malloc'd partial.json document). 1, 0 none yet, -1. */
int cc_run_store_partial(struct cc_run_store *s, const char *id, char **json);
/* Request a cancel: a queued run becomes CANCELLED at once (no result:
 * it never ran); an active one CANCELLING with the flag set and NOTIFY
 * cc_run_cancel <id>. out receives the record afterwards. 1 changed, 0 not
 * active (out filled when known), -1 error. */
int cc_run_store_cancel(struct cc_run_store *s, const char *id, struct cc_run_rec *out);
/* Runs waiting in the queue (cheap: the queue's own index). 0 or -1. */
int cc_run_store_count_queued(struct cc_run_store *s, int64_t *n);
/* Seconds since server id's last heartbeat: 1, 0 unknown server, -1. */
int cc_run_store_server_age(struct cc_run_store *s, const char *id, double *age_s);
/* Cluster-wide facts (counts every run: for `codecalc status`, not per
 * call; a server reads them without blocking, state/run_upkeep.h, where
 * its heartbeat and the reaping of expired leases also happen);
 * out->servers is malloc'd. 0 or -1. */
int cc_run_store_cluster(struct cc_run_store *s, struct cc_run_cluster *out);
/* Notifications (cc_run_queued, cc_run_cancel): subscribe to a channel
 * (kept across reconnects), the socket to watch, and
 * the ones received so far passed to fn. -1 when none / broken. */
int cc_run_store_listen(struct cc_run_store *s, const char *channel);
int cc_run_store_notify_fd(struct cc_run_store *s);
int cc_run_store_notifications(struct cc_run_store *s,
                               void (*fn)(void *ud, const char *channel, const char *payload), void *ud);

/* true for exactly 32 lowercase hex characters. */
bool cc_run_id_valid(const char *id);

#endif
