/* Worker pools: spawn, dispatch, deadline kills, death, respawn, shrink. */
#include "supervisor/pool.h"

#include <errno.h>
#include <poll.h>
#include <event2/event.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/mp_raw.h"
#include "protocol/msg.h"
#include "protocol/progress.h"
#include "protocol/strbuf.h"
#include "supervisor/log.h"
#include "supervisor/metrics/hooks.h"

extern char **environ;

/* W_DYING: its socket hung up while it served a guarded call; the call is
 * answered once SIGCHLD's reap tells how it died (worker_lost). */
enum wstate { W_STARTING, W_READY, W_DYING };

/* How long a dying worker's exit status is awaited before the call is
 * answered without it (it closed its socket but has not exited: then it
 * is killed, and its death told apart no more). */
#define DEATH_WAIT_MS 2000

/* A request sent to a worker and not answered yet. The worker serves its
 * slots in order, so slot 0 is the one it is working on and the others
 * have not started. req NULL: abandoned (deadline, cancel, client gone);
 * the worker still answers it and the answer is dropped. */
struct slot {
    uint64_t wid;
    struct cc_req *req;
    bool doomed;              /* abandoned with "stop the work": kill the worker once it starts it */
};

struct cc_worker {
    struct cc_pool *pool;
    pid_t pid;
    int fd;                   /* our end of the socketpair, non-blocking */
    struct event *rd_ev;      /* persistent read */
    struct event *wr_ev;      /* armed only while the socket is full */
    struct event *flush_ev;   /* activated when frames are queued: one write per loop turn */
    struct cc_frame_reader rd;
    struct cc_strbuf out;     /* frames queued for the worker; out_off bytes already written */
    size_t out_off;
    enum wstate st;
    struct slot slot[CC_PIPELINE_MAX];
    int nslot;
    int64_t idle_since;       /* ms; when nslot last became 0 */
    int64_t progress_us;      /* last answer, or when an idle worker got work */
    const struct cc_progress *progress; /* what it last started (pipelining pools) */
    bool reaped;              /* SIGCHLD's reap took its exit status: never signal pid again */
    int exit_status;          /* waitpid's status, once reaped */
    const char *dying_why;    /* W_DYING: what worker_lost was told (a literal) */
    bool death_waited;        /* its exit status was awaited and did not come */
    struct event *death_ev;   /* W_DYING: the wait for its exit status gives up */
    struct cc_worker *next;
};

struct cc_pool {
    struct cc_server *srv;
    const struct cc_pool_def *def;
    enum cc_pool_id id;
    bool ops_checked;         /* the first hello matched the tool table */
    int min, max, n;
    struct cc_worker *workers;
    struct cc_req *qhead, *qtail;
    int nqueued;              /* length of the queue */
    int start_failures;       /* consecutive workers that died before hello */
    struct event *rescue_ev;  /* armed while requests wait behind another on a worker */
};

/* Every frame a worker sends is decoded into this zone, cleared per frame
 * (the supervisor is one thread, and nothing keeps a decoded frame). */
static msgpack_zone *frame_zone;

/* A worker whose oldest outstanding request has not been answered for
 * this long is working on something slow: no more requests are sent ahead
 * to it, so they wait in the pool's queue for whichever worker frees first;
 * and those already sent ahead to it are taken back (see rescue()). */
#define PIPELINE_STALL_US 1000
/* How often a pool holding requests sent ahead looks for stalled workers. */
#define RESCUE_INTERVAL_US 2000

static void on_rescue(evutil_socket_t fd, short what, void *arg);

/* The time of this turn of the event loop, in µs, for the stall checks of
 * sending ahead (progress_us): libevent's clock, read once per turn,
 * instead of a clock read per request and per answer (a vDSO call costs
 * tens of nanoseconds on a virtual machine, several times per call).
 * Differences only: it is the monotonic clock plus an offset libevent
 * resynchronises with the time of day every few seconds, which can at
 * worst cause or delay one rescue (a performance matter, not a result). */
static int64_t turn_us(const struct cc_pool *p) {
    struct timeval tv;
    if (event_base_gettimeofday_cached(p->srv->base, &tv) < 0) evutil_gettimeofday(&tv, NULL); /* same clock */
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

struct cc_pool *cc_pool_new(struct cc_server *srv, enum cc_pool_id id, int min, int max) {
    if (id >= CC_WORKER_POOLS) return NULL;
    if (!frame_zone && !(frame_zone = msgpack_zone_new(8192))) return NULL;
    struct cc_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->srv = srv;
    p->id = id;
    p->def = &cc_pool_defs[id];
    p->min = min;
    p->max = max < 1 ? 1 : max;
    if (p->def->pipeline > 1 && !(p->rescue_ev = evtimer_new(srv->base, on_rescue, p))) {
        free(p);
        return NULL;
    }
    return p;
}

static void worker_kill(struct cc_worker *w);

void cc_pool_free(struct cc_pool *p) {
    if (!p) return;
    while (p->workers) worker_kill(p->workers);
    if (p->rescue_ev) event_free(p->rescue_ev);
    free(p);
}

static void dispatch(struct cc_pool *p);
static void on_readable(evutil_socket_t fd, short what, void *arg);
static void on_writable(evutil_socket_t fd, short what, void *arg);
static void on_flush(evutil_socket_t fd, short what, void *arg);

/* environ plus CC_PROGRESS_ENV=3 (any inherited value replaced); the
 * strings are environ's. NULL on allocation failure. */
static char **env_with_progress(void) {
    static char var[] = CC_PROGRESS_ENV "=3";
    size_t n = 0;
    while (environ[n]) n++;
    char **env = malloc((n + 2) * sizeof *env);
    if (!env) return NULL;
    size_t k = 0, plen = strlen(CC_PROGRESS_ENV);
    for (size_t i = 0; i < n; i++)
        if (!(strncmp(environ[i], CC_PROGRESS_ENV, plen) == 0 && environ[i][plen] == '=')) env[k++] = environ[i];
    env[k++] = var;
    env[k] = NULL;
    return env;
}

/* progress_fd >= 0: passed as fd CC_PROGRESS_FD and named in the
 * environment. */
static pid_t start_process(struct cc_pool *p, int child_fd, int progress_fd) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", p->srv->bindir, p->def->binary);
    char **env = progress_fd >= 0 ? env_with_progress() : environ;
    if (!env) return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, child_fd, 0);
    posix_spawn_file_actions_adddup2(&fa, child_fd, 1);
    if (progress_fd >= 0) posix_spawn_file_actions_adddup2(&fa, progress_fd, CC_PROGRESS_FD);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&at, &none);
    sigset_t dfl;
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGPIPE);
    sigaddset(&dfl, SIGCHLD);
    posix_spawnattr_setsigdefault(&at, &dfl);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    char *argv[] = {path, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, path, &fa, &at, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (env != environ) free(env);
    if (rc != 0) {
        cc_log(CC_LOG_ERROR, "cannot start %s: %s", path, strerror(rc));
        return -1;
    }
    return pid;
}

static void worker_free(struct cc_worker *w) {
    cc_progress_unmap(w->progress);
    if (w->rd_ev) event_free(w->rd_ev);
    if (w->wr_ev) event_free(w->wr_ev);
    if (w->flush_ev) event_free(w->flush_ev);
    if (w->death_ev) event_free(w->death_ev);
    if (w->fd >= 0) close(w->fd);
    cc_frame_reader_free(&w->rd);
    cc_sb_free(&w->out);
    free(w);
}

static struct cc_worker *spawn(struct cc_pool *p) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        cc_log(CC_LOG_ERROR, "socketpair: %s", strerror(errno));
        return NULL;
    }
    /* Every worker shares its progress: when it dies, the page tells which
     * outstanding request it had started (that one fails) from those it
     * never started or had finished (served again elsewhere). Without the
     * page it still works, and the oldest outstanding request is the one
     * that fails. */
    int progress_fd = -1;
    const struct cc_progress *progress = NULL;
    if (cc_progress_create(&progress_fd, &progress) < 0)
        cc_log(CC_LOG_ERROR, "progress page: %s", strerror(errno));
    pid_t pid = start_process(p, sv[1], progress_fd);
    close(sv[1]);
    if (progress_fd >= 0) close(progress_fd);
    struct cc_worker *w = pid > 0 ? calloc(1, sizeof *w) : NULL;
    if (!w) {
        close(sv[0]);
        cc_progress_unmap(progress);
        if (pid > 0) kill(pid, SIGKILL);
        return NULL;
    }
    w->fd = sv[0];
    w->pid = pid;
    w->progress = progress;
    struct event_base *base = p->srv->base;
    w->rd_ev = event_new(base, w->fd, EV_READ | EV_PERSIST, on_readable, w);
    w->wr_ev = event_new(base, w->fd, EV_WRITE, on_writable, w);
    w->flush_ev = event_new(base, -1, 0, on_flush, w);
    if (!w->rd_ev || !w->wr_ev || !w->flush_ev || evutil_make_socket_nonblocking(w->fd) < 0 ||
        event_add(w->rd_ev, NULL) < 0) {
        worker_free(w);
        kill(pid, SIGKILL);
        return NULL;
    }
    w->pool = p;
    w->st = W_STARTING;
    cc_frame_reader_init(&w->rd);
    w->next = p->workers;
    p->workers = w;
    p->n++;
    cc_log(CC_LOG_DEBUG, "started %s worker pid %d", p->def->name, (int)pid);
    return w;
}

void cc_pool_prefork(struct cc_pool *p) {
    while (p->n < p->min)
        if (!spawn(p)) break;
}

static void unlink_worker(struct cc_worker *w) {
    struct cc_pool *p = w->pool;
    for (struct cc_worker **pp = &p->workers; *pp; pp = &(*pp)->next)
        if (*pp == w) {
            *pp = w->next;
            p->n--;
            break;
        }
}

/* Remove w from its pool, kill the process (reaped by SIGCHLD), free. The
 * requests in its slots are the caller's to requeue or answer. */
static void worker_kill(struct cc_worker *w) {
    unlink_worker(w);
    if (w->pid > 0 && !w->reaped) kill(w->pid, SIGKILL);
    for (int i = 0; i < w->nslot; i++)
        if (w->slot[i].req) w->slot[i].req->worker = NULL;
    worker_free(w);
}

/* ---- the queue of requests waiting for a worker (doubly linked, so a
 * request abandoned from its middle costs O(1)) ---- */

static void q_push(struct cc_pool *p, struct cc_req *r) {
    r->qnext = NULL;
    r->qprev = p->qtail;
    if (p->qtail) p->qtail->qnext = r;
    else p->qhead = r;
    p->qtail = r;
    p->nqueued++;
}

static void q_push_front(struct cc_pool *p, struct cc_req *r) {
    r->qprev = NULL;
    r->qnext = p->qhead;
    if (p->qhead) p->qhead->qprev = r;
    else p->qtail = r;
    p->qhead = r;
    p->nqueued++;
}

static void q_unlink(struct cc_pool *p, struct cc_req *r) {
    if (r->qprev) r->qprev->qnext = r->qnext;
    else p->qhead = r->qnext;
    if (r->qnext) r->qnext->qprev = r->qprev;
    else p->qtail = r->qprev;
    r->qnext = r->qprev = NULL;
    p->nqueued--;
}

static struct cc_req *q_pop(struct cc_pool *p) {
    struct cc_req *r = p->qhead;
    if (r) q_unlink(p, r);
    return r;
}

static void fail_queue(struct cc_pool *p, const char *why) {
    struct cc_req *r;
    while ((r = q_pop(p))) {
        r->pool = NULL;
        cc_req_answer_fail(r, "internal", "%s", why);
    }
}

/* The requests w holds behind its first one never started: back to the
 * front of the queue, in their order, before w goes away. */
static void requeue_followers(struct cc_worker *w) {
    for (int i = w->nslot - 1; i >= 1; i--) {
        struct cc_req *r = w->slot[i].req;
        if (!r) continue;
        r->worker = NULL;
        q_push_front(w->pool, r);
    }
    w->nslot = w->nslot ? 1 : 0;
}

/* Did a worker that vanished before its hello fail on its own (a start
 * failure worth counting) rather than get killed from outside? */
static bool failed_to_start(struct cc_worker *w) {
    if (w->st != W_STARTING) return false;
    if (!w->reaped) {
        int st;
        if (waitpid(w->pid, &st, WNOHANG) != w->pid) return false; /* still running: unknown */
        w->reaped = true; /* reaped here; worker_kill must not signal it */
        w->exit_status = st;
    }
    return !(WIFSIGNALED(w->exit_status) && WTERMSIG(w->exit_status) == SIGKILL);
}

/* Which slot w was serving when it died: the one its progress page names
 * (the earlier ones were finished, their answers held back and lost with
 * it; the later ones never started). -1 when the page names none of them:
 * w died before it started any (killed idle with calls on their way, or
 * written to after its death). Without a page the oldest; likewise when
 * the page names none and w may still be running (it broke the protocol:
 * it could start one after the page was read). */
static int serving_slot(const struct cc_worker *w, bool dead) {
    if (w->nslot == 0) return -1;
    if (!w->progress) return 0;
    uint64_t started = w->progress->started;
    for (int i = 0; i < w->nslot; i++)
        if (w->slot[i].wid == started) return i;
    return dead ? -1 : 0;
}

/* A request that was on a worker when it died without starting it goes
 * back to the queue; one that has already been on as many dead workers as
 * the pool can hold, plus one, fails instead: a frame that kills its worker
 * before the work starts would otherwise go round the pool forever, while a
 * kill of every worker at once (each death noticed only after the next call
 * was written to it) costs no call. */
static int max_requeues(const struct cc_pool *p) { return p->max + 1; }

/* w holds no request any more: those it had not started (or had finished,
 * their answers lost with it) go back to the front of the queue, in their
 * order, except `serving`, which the caller answers. Returns `serving`'s
 * request (NULL when none or abandoned). */
static struct cc_req *take_back(struct cc_worker *w, int serving, const char *why) {
    struct cc_req *served = serving >= 0 ? w->slot[serving].req : NULL;
    for (int i = w->nslot - 1; i >= 0; i--) {
        struct cc_req *r = w->slot[i].req;
        if (!r || i == serving) continue;
        r->worker = NULL;
        if (r->requeues++ < max_requeues(w->pool)) {
            q_push_front(w->pool, r);
            continue;
        }
        r->pool = NULL;
        cc_req_answer_fail(r, "internal", "the %s worker %s before serving this call, %d times; "
                           "the call was given up", w->pool->def->name, why, r->requeues);
    }
    w->nslot = 0;
    return served;
}

/* Was w killed by SIGKILL? Known once its exit status was reaped. */
static bool killed_by_sigkill(const struct cc_worker *w) {
    return w->reaped && WIFSIGNALED(w->exit_status) && WTERMSIG(w->exit_status) == SIGKILL;
}

static void worker_lost(struct cc_worker *w, const char *why, bool dead);

/* The dying worker's exit status did not come: answer without it. */
static void on_death_wait_over(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_worker *w = arg;
    event_free(w->death_ev);
    w->death_ev = NULL;
    w->st = W_READY; /* worker_lost answers now; unknown counts as not from outside */
    w->death_waited = true;
    worker_lost(w, w->dying_why, true);
}

/* A guarded call's answer depends on how its worker died (a kill from
 * outside is not the input's fault), which only the exit status tells.
 * The socket's hang-up usually comes before SIGCHLD: rather than wait for
 * the zombie here, with the loop stopped, w waits in W_DYING (taking no
 * call, reading and writing nothing) until cc_pool_reap hands it the
 * status. false when that cannot be arranged (answer at once). */
static bool await_death(struct cc_worker *w, const char *why) {
    if (w->reaped || w->pid <= 0) return false;
    w->death_ev = evtimer_new(w->pool->srv->base, on_death_wait_over, w);
    struct timeval tv = {DEATH_WAIT_MS / 1000, (DEATH_WAIT_MS % 1000) * 1000};
    if (!w->death_ev || evtimer_add(w->death_ev, &tv) < 0) {
        if (w->death_ev) event_free(w->death_ev);
        w->death_ev = NULL;
        return false;
    }
    event_del(w->rd_ev);
    event_del(w->wr_ev);
    event_del(w->flush_ev);
    w->st = W_DYING;
    w->dying_why = why;
    return true;
}

/* The worker died (dead: its socket hung up) or broke protocol while
 * (maybe) serving a request. */
static void worker_lost(struct cc_worker *w, const char *why, bool dead) {
    struct cc_pool *p = w->pool;
    if (w->st == W_DYING) return; /* its exit status is awaited (cc_pool_reap) */
    int serving = serving_slot(w, dead);
    struct cc_req *sr = serving >= 0 ? w->slot[serving].req : NULL;
    if (dead && sr && sr->guarded && !w->death_waited && await_death(w, why)) return;
    bool before_hello = failed_to_start(w);
    struct cc_req *r = take_back(w, serving, why);
    /* A worker's own limits end a guarded call with SIGXCPU (the CPU
     * budget is a soft limit) or failed allocations (RLIMIT_AS), never
     * SIGKILL, which comes from outside (a kill, the host's out-of-memory
     * killer): then the input was not too expensive, and saying so would
     * be a wrong claim about it. */
    bool from_outside = r && r->guarded && dead && killed_by_sigkill(w);
    worker_kill(w);
    cc_ops_worker_replaced(p->srv, p->id, why, r);
    if (r) {
        r->pool = NULL;
        if (from_outside)
            cc_req_answer_fail(r, "worker_failure", "the %s worker was killed from outside (SIGKILL: "
                               "another process or the host's out-of-memory killer) while evaluating "
                               "this call, not by its own limits; it was replaced: retry the call",
                               p->def->name);
        else if (r->guarded)
            cc_req_answer_fail(r, "resource_exhausted",
                               "expression was terminated by a resource limit (CPU 10s / memory "
                               "2048MB) before producing a result");
        else
            cc_req_answer_fail(r, "internal", "the %s worker %s while serving this call; it was replaced",
                               p->def->name, why);
    }
    if (before_hello && ++p->start_failures >= 3) {
        cc_log(CC_LOG_ERROR, "%s workers fail to start; answering queued calls with an error",
               p->def->name);
        fail_queue(p, "the worker for this tool fails to start on this host (see the server log)");
        return;
    }
    dispatch(p);
}

/* ---- writing to a worker: frames queued during one loop turn go out in
 * one write at its end ---- */

static void queue_frame(struct cc_worker *w, const char *data, size_t n) {
    cc_sb_put(&w->out, data, n);
    if (!event_pending(w->wr_ev, EV_WRITE, NULL)) event_active(w->flush_ev, EV_WRITE, 0);
}

/* Write what the socket takes. Returns -1 when w was lost (and freed). */
static int flush(struct cc_worker *w) {
    while (w->out_off < w->out.len) {
        ssize_t n = write(w->fd, w->out.data + w->out_off, w->out.len - w->out_off);
        if (n > 0) {
            w->out_off += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            event_add(w->wr_ev, NULL);
            return 0;
        }
        worker_lost(w, "died", true);
        return -1;
    }
    w->out_off = w->out.len = 0;
    if (w->out.cap > (1u << 20)) cc_sb_free(&w->out); /* a huge frame went by: give it back */
    return 0;
}

static void on_flush(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    flush(arg);
}

static void on_writable(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    flush(arg);
}

static void send_req(struct cc_worker *w, struct cc_req *r) {
    if (w->nslot == 0) w->progress_us = turn_us(w->pool);
    w->slot[w->nslot++] = (struct slot){.wid = r->wid, .req = r};
    r->worker = w;
    if (r->run_deadline_ms > 0) cc_req_rearm(r, r->run_deadline_ms);
    queue_frame(w, r->frame.data, r->frame.size);
    struct cc_pool *p = w->pool;
    if (w->nslot > 1 && p->rescue_ev && !evtimer_pending(p->rescue_ev, NULL)) {
        struct timeval tv = {0, RESCUE_INTERVAL_US};
        evtimer_add(p->rescue_ev, &tv);
    }
}

/* Requests sent ahead to a worker that has been stuck on one request for
 * longer than PIPELINE_STALL_US go back to the front of the queue, for
 * another worker: their slots stay as abandoned ones (the stuck worker
 * computes them later, and those answers are dropped; a pipelining pool's
 * requests are pure computations, so computing one twice is harmless).
 * Without this, one slow request would hold up every request sent ahead
 * behind it. */
static void on_rescue(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_pool *p = arg;
    int64_t now_us = turn_us(p);
    bool waiting = false, rescued = false;
    for (struct cc_worker *w = p->workers; w; w = w->next) {
        if (w->nslot < 2) continue;
        if (now_us - w->progress_us <= PIPELINE_STALL_US) {
            waiting = true;
            continue;
        }
        for (int i = w->nslot - 1; i >= 1; i--) {
            struct cc_req *r = w->slot[i].req;
            if (!r) continue;
            w->slot[i].req = NULL;
            r->worker = NULL;
            q_push_front(p, r);
            rescued = true;
        }
    }
    if (waiting) {
        struct timeval tv = {0, RESCUE_INTERVAL_US};
        evtimer_add(p->rescue_ev, &tv);
    }
    if (rescued) dispatch(p);
}

/* A worker that died while idle may not have been noticed yet (its EOF is
 * still queued in the loop). One poll() tells, so a call is never handed to
 * a corpse. */
static bool hung_up(const struct cc_worker *w) {
    struct pollfd pfd = {.fd = w->fd, .events = POLLRDHUP};
    return poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL));
}

/* The ready worker that may take one more request. A pipelining pool
 * fills the busiest worker that keeps answering before it wakes another:
 * each wake-up of a worker and of the supervisor reading its answers costs
 * more than serving a batch of calc requests, so the requests in flight go
 * to as few workers as their depth allows (the others stay asleep, ready
 * for when one stalls). A pool that takes one at a time picks an idle one. */
static struct cc_worker *pick(struct cc_pool *p, int64_t now_us) {
    struct cc_worker *best = NULL;
    int depth = p->def->pipeline > 1 ? p->def->pipeline : 1;
    for (struct cc_worker *w = p->workers; w; w = w->next) {
        if (w->st != W_READY || w->nslot >= depth) continue;
        if (w->nslot > 0 && now_us - w->progress_us > PIPELINE_STALL_US) continue;
        if (!best || w->nslot > best->nslot) best = w;
    }
    return best;
}

static void dispatch(struct cc_pool *p) {
    int64_t now_us = p->qhead ? turn_us(p) : 0;
    struct cc_worker *w;
    while (p->qhead && (w = pick(p, now_us))) {
        if (w->nslot == 0 && hung_up(w)) {
            worker_lost(w, "died", true);
            return; /* worker_lost dispatched again */
        }
        send_req(w, q_pop(p));
    }
    if (!p->qhead) return;
    int starting = 0;
    for (w = p->workers; w; w = w->next) starting += w->st == W_STARTING;
    while (starting < p->nqueued && p->n < p->max && p->start_failures < 3) {
        if (!spawn(p)) break;
        starting++;
    }
}

void cc_pool_submit(struct cc_pool *p, struct cc_req *r) {
    r->pool = p;
    q_push(p, r);
    if (p->start_failures >= 3) p->start_failures = 2; /* one more try per new call */
    dispatch(p);
}

static int slot_of(const struct cc_worker *w, const struct cc_req *r) {
    for (int i = 0; i < w->nslot; i++)
        if (w->slot[i].req == r) return i;
    return -1;
}

void cc_pool_abandon(struct cc_pool *p, struct cc_req *r, bool kill_worker) {
    struct cc_worker *w = r->worker;
    r->pool = NULL;
    if (!w) {
        q_unlink(p, r);
        return;
    }
    r->worker = NULL;
    int i = slot_of(w, r);
    if (i < 0) return;
    w->slot[i].req = NULL;
    if (!kill_worker) return; /* the worker answers it later; the answer is dropped */
    if (i > 0) {
        /* Not started yet: the worker is stopped when it gets to it. */
        w->slot[i].doomed = true;
        return;
    }
    requeue_followers(w);
    cc_ops_worker_replaced(p->srv, p->id, NULL, NULL);
    worker_kill(w);
    dispatch(p);
}

static void send_cancel(struct cc_req *r) {
    if (!r->worker) return;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    if (cc_msg_cancel(&sb, r->wid) == 0) queue_frame(r->worker, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

void cc_pool_cancel(struct cc_pool *p, struct cc_req *r) {
    bool frame = p->def->cancel == CC_CANCEL_FRAME;
    if (frame) send_cancel(r);
    /* A worker that cannot stop mid-computation is replaced. */
    cc_pool_abandon(p, r, !frame);
}

static bool announces(const msgpack_object *ops, const char *name) {
    if (!ops || ops->type != MSGPACK_OBJECT_ARRAY) return false;
    for (uint32_t i = 0; i < ops->via.array.size; i++)
        if (cc_mp_str_eq(&ops->via.array.ptr[i], name)) return true;
    return false;
}

/* The first row of the tool table routed to p that the hello does not
 * announce, or NULL. */
static const struct cc_tool *unserved_row(const struct cc_pool *p, const msgpack_object *hello) {
    const msgpack_object *ops = cc_mp_get(hello, "caps");
    for (size_t i = 0; i < cc_tools_count; i++) {
        const struct cc_tool *t = &cc_tools[i];
        if (t->pool == p->id && cc_tool_offered(t) && !announces(ops, t->name)) return t;
    }
    return NULL;
}

/* The answer to slot 0 arrived: take it off w. Returns its request (NULL
 * when abandoned). Returns via *lost true when w was killed because the
 * request it starts next was abandoned with its work to be stopped. */
static struct cc_req *pop_slot(struct cc_worker *w, bool *lost) {
    struct cc_req *r = w->slot[0].req;
    memmove(&w->slot[0], &w->slot[1], (size_t)(w->nslot - 1) * sizeof w->slot[0]);
    w->nslot--;
    w->progress_us = turn_us(w->pool);
    if (w->nslot == 0) w->idle_since = cc_now_ms();
    *lost = false;
    if (w->nslot > 0 && w->slot[0].doomed) {
        requeue_followers(w);
        cc_ops_worker_replaced(w->pool->srv, w->pool->id, NULL, NULL);
        worker_kill(w);
        *lost = true;
    }
    return r;
}

/* Handle one frame from w. Returns -1 when w was killed. */
static int on_frame(struct cc_worker *w, const msgpack_object *f) {
    struct cc_pool *p = w->pool;
    if (w->st == W_STARTING) {
        if (!cc_mp_str_eq(cc_mp_get(f, "hello"), p->def->name)) {
            worker_lost(w, "sent a wrong hello", false);
            return -1;
        }
        const struct cc_tool *t = p->ops_checked ? NULL : unserved_row(p, f);
        if (t) {
            cc_server_fatal(p->srv, "the %s worker (%s) does not serve tool '%s' (%s): this build "
                            "is inconsistent, stopping", p->def->name, p->def->binary, t->name, t->source);
            worker_kill(w);
            return -1;
        }
        p->ops_checked = true;
        w->st = W_READY;
        w->idle_since = cc_now_ms();
        p->start_failures = 0;
        return 0;
    }
    const msgpack_object *id = cc_mp_get(f, "id");
    if (!id || id->type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
        worker_lost(w, "broke the protocol", false);
        return -1;
    }
    if (w->nslot == 0 || id->via.u64 != w->slot[0].wid) {
        cc_log(CC_LOG_ERROR, "%s worker %d answered id %llu while %llu was outstanding; recycled",
               p->def->name, (int)w->pid, (unsigned long long)id->via.u64,
               (unsigned long long)(w->nslot ? w->slot[0].wid : 0));
        worker_lost(w, "answered another request's id", false);
        return -1;
    }
    struct cc_req *r = w->slot[0].req;
    if (cc_mp_get(f, "event")) {
        if (r) cc_req_forward_event(r, f);
        return 0;
    }
    bool lost;
    pop_slot(w, &lost);
    if (r) {
        r->worker = NULL;
        r->pool = NULL;
        cc_req_answer_frame(r, f);
    }
    return lost ? -1 : 0;
}

/* The buffer a plain answer's JSON text is built in, kept between answers. */
static struct cc_strbuf plain_keep;

/* The answer a calc worker sends all day, {id, ok: true, result}, read in
 * place (protocol/mp_raw.h): no decoding into msgpack-c objects, the result
 * goes straight to JSON text. 1: handled; 0: not that frame, or not the
 * answer awaited (on_frame decodes it and does what it always did); -1: w
 * was killed. */
static int on_plain_answer(struct cc_worker *w, const char *body, size_t len) {
    if (w->st != W_READY || w->nslot == 0) return 0;
    struct cc_strbuf sb;
    struct cc_mp_answer a;
    cc_sb_borrow(&plain_keep, &sb);
    if (!cc_mp_raw_answer_json(body, len, &sb, &a) || a.id != w->slot[0].wid) {
        cc_sb_return(&plain_keep, &sb);
        return 0;
    }
    struct cc_req *r = w->slot[0].req;
    bool lost;
    pop_slot(w, &lost);
    if (r) {
        r->worker = NULL;
        r->pool = NULL;
        cc_req_answer_plain(r, sb.data, sb.len, &a.code, &a.verdict);
    }
    cc_sb_return(&plain_keep, &sb);
    return lost ? -1 : 1;
}

static void on_readable(evutil_socket_t fd, short what, void *arg) {
    (void)what;
    struct cc_worker *w = arg;
    struct cc_pool *p = w->pool;
    ssize_t n = cc_frame_reader_read(&w->rd, fd, 1 << 16);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n < 0 && errno == EMSGSIZE) {
        worker_lost(w, "sent an oversized frame", false);
        return;
    }
    if (n <= 0) {
        worker_lost(w, "died", true);
        return;
    }
    const char *body;
    size_t len;
    int rc;
    while ((rc = cc_frame_next(&w->rd, &body, &len)) == 1) {
        int plain = on_plain_answer(w, body, len);
        if (plain < 0) {
            dispatch(p);
            return;
        }
        if (plain) continue;
        msgpack_object f;
        if (cc_frame_decode_in(body, len, frame_zone, &f) < 0) {
            worker_lost(w, "sent a malformed frame", false);
            return;
        }
        if (on_frame(w, &f) < 0) {
            dispatch(p);
            return;
        }
    }
    if (rc < 0) {
        worker_lost(w, "sent an oversized frame", false);
        return;
    }
    /* Every answer of this read is in: refill the workers in one go. */
    dispatch(p);
}

static struct cc_worker *worker_of_pid(struct cc_server *srv, pid_t pid) {
    for (int i = 0; i < CC_WORKER_POOLS; i++) {
        struct cc_pool *p = srv->pools[i];
        for (struct cc_worker *w = p ? p->workers : NULL; w; w = w->next)
            if (w->pid == pid && !w->reaped) return w;
    }
    return NULL;
}

/* SIGCHLD: every exited child is reaped here; a worker keeps its status
 * (how it died decides a guarded call's answer), and one waiting in
 * W_DYING for it is finished now. */
void cc_pool_reap(struct cc_server *srv) {
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        struct cc_worker *w = worker_of_pid(srv, pid);
        if (!w) continue;
        w->reaped = true;
        w->exit_status = st;
        if (w->st != W_DYING) continue; /* its hang-up, still queued, will tell */
        if (w->death_ev) event_free(w->death_ev);
        w->death_ev = NULL;
        w->st = W_READY;
        worker_lost(w, w->dying_why, true);
    }
}

void cc_pool_shrink(struct cc_pool *p, int64_t idle_ms) {
    int64_t now = cc_now_ms();
    struct cc_worker *w = p->workers;
    while (w && p->n > p->min) {
        struct cc_worker *next = w->next;
        if (w->st == W_READY && w->nslot == 0 && now - w->idle_since > idle_ms) {
            cc_log(CC_LOG_DEBUG, "stopping idle %s worker %d", p->def->name, (int)w->pid);
            worker_kill(w);
        }
        w = next;
    }
}

int cc_pool_max(const struct cc_pool *p) { return p->max; }

int cc_pool_pids(const struct cc_pool *p, pid_t *out, int cap) {
    int n = 0;
    for (const struct cc_worker *w = p->workers; w && n < cap; w = w->next) out[n++] = w->pid;
    return n;
}

void cc_pool_stats(const struct cc_pool *p, struct cc_pool_stats *out) {
    *out = (struct cc_pool_stats){.min = p->min, .max = p->max, .workers = p->n, .queued = p->nqueued};
    for (const struct cc_worker *w = p->workers; w; w = w->next) {
        out->starting += w->st == W_STARTING;
        out->idle += w->st == W_READY && w->nslot == 0;
        out->busy += w->st == W_READY && w->nslot > 0;
    }
}
