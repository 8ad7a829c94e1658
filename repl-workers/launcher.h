/* codecalc-repl: the detached launcher of one session's REPL host.
 *
 *   supervisor ══unix socket══▶ launcher ══socketpair══▶ host (sandboxed)
 *   ($CODECALC_HOME/repl/<id>.sock)         (fd 0 of python_host.py /
 *                                            node_host.js, moved away at start)
 *
 * The launcher is not a child of the supervisor: it sits in its own session,
 * owns the listening socket the supervisor created for it, and survives a
 * server restart, so a new supervisor re-attaches by connecting again. It
 * relays request frames to the host, enforces each call's deadline, checks
 * that every answer carries the outstanding id, turns the host's answer into
 * the session-worker result (TOOLS.md 1.11), and replaces a host that died,
 * timed out or desynchronised (the next answer says state was lost).
 *
 * Ownership: one struct launcher per process, static in launcher.c; the
 * relay and host modules borrow it. */
#ifndef CC_REPL_LAUNCHER_H
#define CC_REPL_LAUNCHER_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "protocol/frame.h"
#include "protocol/host_floor.h"
#include "protocol/strbuf.h"
#include "workers/sandbox/sandbox.h"

struct rl_peer {
    int fd;                       /* -1 when closed */
    struct cc_frame_reader rd;
    struct cc_strbuf out;         /* bytes queued for the nonblocking peer */
};

/* diskwatch.c: the workspace's filesystem, looked at while a host lives. */
struct rl_diskwatch {
    bool armed;                   /* start was measured */
    struct cc_disk_free start;    /* free bytes/inodes when the host or call started */
    uint64_t last_b;              /* free bytes at the last look */
    bool falling;                 /* ... and more than 1 MiB less than the one before */
    int64_t fast_until_ms;        /* looks stay 50 ms apart until then */
    int64_t next_ms;              /* monotonic time of the next look */
};

struct launcher {
    const char *sockdir, *id, *lang, *workdir, *script;
    char sock_path[PATH_MAX];
    char pid_path[PATH_MAX];
    dev_t sock_dev;
    ino_t sock_ino;
    int listen_fd;
    int log_fd;                   /* host stderr and our diagnostics */
    struct rl_peer client;        /* the supervisor, newest connection wins */
    struct rl_peer host;          /* the host's protocol socket */
    struct sbx_proc proc;
    bool host_up;                 /* proc is a live (or unreaped) host */
    bool host_ready;              /* its hello arrived */
    struct sbx_result setup;      /* what the host's sandbox did not apply */
    unsigned gen;                 /* hosts started so far */
    /* the call in progress (one at a time; the supervisor serialises) */
    bool busy;
    bool orphan;                  /* its client went away: drop the answer */
    uint64_t req_id;
    int64_t deadline_ms;          /* monotonic */
    json_t *req_args;             /* owned */
    /* a call that arrived while an orphaned one still ran (a supervisor
     * restarted mid-call): it starts when that one ends, or is answered
     * unrun when its own budget is spent waiting */
    struct {
        bool set;
        uint64_t id;
        char *body;               /* the frame as received, owned */
        size_t n;
        json_t *args;             /* owned */
        int64_t until_ms;         /* monotonic: arrival + its budget */
    } queued;
    char *notice;                 /* why state was lost; told once, owned */
    struct rl_diskwatch disk;
    bool stop;
};

/* ---- host.c: the sandboxed interpreter ---- */
/* Start a fresh host; 0, or -1 with *why (malloc'd) set. */
int rl_host_start(struct launcher *L, char **why);
/* Kill and reap the host; *how (malloc'd, may be NULL) describes its end,
 * *oom is true when it died at its memory ceiling. */
void rl_host_stop(struct launcher *L, char **how, bool *oom);
/* true when the host's sandbox confines the filesystem (4.3). */
bool rl_host_confined(const struct launcher *L);
/* The host's memory ceiling in MiB (CODECALC_REPL_MEMORY_MB, default 2048). */
uint64_t rl_host_memory_mb(void);

/* ---- shape.c: results the supervisor receives (TOOLS.md 1.11, 4.4) ---- */
/* Structural unenforced entries of this host (new array). */
json_t *rl_structural_unenforced(const struct launcher *L);
/* Session result from the host's own answer (borrowed). New reference. */
json_t *rl_shape_answer(const struct launcher *L, json_t *args, json_t *host_result);
/* Session result for a call the host did not answer. New reference. */
json_t *rl_shape_failure(const struct launcher *L, json_t *args, const char *code, const char *verdict,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- diskwatch.c: the host disk under the workspace ---- */
/* Measure the free space a fall is counted from (host start, call start). */
void rl_disk_arm(struct launcher *L);
/* A call has ended: a child it left behind may write on; look closely. */
void rl_disk_call_ended(struct launcher *L);
/* When the next look is due (monotonic ms); INT64_MAX when none. */
int64_t rl_disk_next_ms(const struct launcher *L);
/* Look if due: true once the disk fell below the floor (and below the
 * armed level), i.e. the host must be killed. */
bool rl_disk_fell(struct launcher *L);

/* ---- relay.c: the poll loop ---- */
int rl_relay_run(struct launcher *L);
/* Queue one frame {id, ok: true, result} for the supervisor. */
void rl_send_result(struct launcher *L, uint64_t id, json_t *result);
/* Drop a queued call unanswered (its client is gone, or we are exiting). */
void rl_queued_drop(struct launcher *L);

#endif
