/* The run store: durable records of background runs (TOOLS.md section 5).
 *
 * A narrow interface in front of a backend. Tools and the run supervisor
 * only use the functions below; the sqlite backend (run_store_sqlite.c) is
 * the one that exists today. A second backend (a database server shared by
 * several machines) implements struct cc_run_store_ops and a constructor,
 * nothing else changes.
 *
 * The record holds lifecycle facts only: never code, stdin or output (those
 * are bytes in the run directory, written by the shepherd).
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
};

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
};

static inline bool cc_run_active(enum cc_run_state s) {
    return s == CC_RUN_RUNNING || s == CC_RUN_CANCELLING;
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
};

struct cc_run_store {
    const struct cc_run_store_ops *ops;
};

/* sqlite backend on the database file at db_path. NULL with err filled. */
struct cc_run_store *cc_run_store_open_sqlite(const char *db_path, char *err, size_t errcap);

/* Insert or replace the whole record. 0 or -1. */
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

/* true for exactly 32 lowercase hex characters. */
bool cc_run_id_valid(const char *id);

#endif
