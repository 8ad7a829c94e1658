/* Worker pools: spawn, dispatch, deadline kills, death, respawn, shrink. */
#include "supervisor/pool.h"

#include <errno.h>
#include <poll.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/msg.h"
#include "protocol/strbuf.h"
#include "supervisor/log.h"
#include "supervisor/metrics/hooks.h"

extern char **environ;

enum wstate { W_STARTING, W_IDLE, W_BUSY };

struct cc_worker {
    struct cc_pool *pool;
    pid_t pid;
    struct bufferevent *bev;
    struct cc_frame_reader rd;
    enum wstate st;
    struct cc_req *req;
    int64_t idle_since;
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
};

struct cc_pool *cc_pool_new(struct cc_server *srv, enum cc_pool_id id, int min, int max) {
    if (id >= CC_WORKER_POOLS) return NULL;
    struct cc_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->srv = srv;
    p->id = id;
    p->def = &cc_pool_defs[id];
    p->min = min;
    p->max = max < 1 ? 1 : max;
    return p;
}

static void worker_kill(struct cc_worker *w);

void cc_pool_free(struct cc_pool *p) {
    if (!p) return;
    while (p->workers) worker_kill(p->workers);
    free(p);
}

static void dispatch(struct cc_pool *p);
static void on_read(struct bufferevent *bev, void *arg);
static void on_event(struct bufferevent *bev, short what, void *arg);

static struct cc_worker *spawn(struct cc_pool *p) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        cc_log(CC_LOG_ERROR, "socketpair: %s", strerror(errno));
        return NULL;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", p->srv->bindir, p->def->binary);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
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
    int rc = posix_spawn(&pid, path, &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(sv[1]);
    if (rc != 0) {
        cc_log(CC_LOG_ERROR, "cannot start %s: %s", path, strerror(rc));
        close(sv[0]);
        return NULL;
    }
    struct cc_worker *w = calloc(1, sizeof *w);
    struct bufferevent *bev = bufferevent_socket_new(p->srv->base, sv[0], BEV_OPT_CLOSE_ON_FREE);
    if (!w || !bev) {
        free(w);
        if (bev) bufferevent_free(bev);
        else close(sv[0]);
        kill(pid, SIGKILL);
        return NULL;
    }
    w->pool = p;
    w->pid = pid;
    w->bev = bev;
    w->st = W_STARTING;
    cc_frame_reader_init(&w->rd);
    bufferevent_setcb(bev, on_read, NULL, on_event, w);
    bufferevent_enable(bev, EV_READ | EV_WRITE);
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

/* Remove w from its pool, kill the process (reaped by SIGCHLD), free. */
static void worker_kill(struct cc_worker *w) {
    unlink_worker(w);
    if (w->pid > 0) kill(w->pid, SIGKILL);
    bufferevent_free(w->bev);
    cc_frame_reader_free(&w->rd);
    if (w->req) w->req->worker = NULL;
    free(w);
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

/* Did a worker that vanished before its hello fail on its own (a start
 * failure worth counting) rather than get killed from outside? */
static bool failed_to_start(struct cc_worker *w) {
    if (w->st != W_STARTING) return false;
    int st;
    pid_t got = waitpid(w->pid, &st, WNOHANG);
    if (got != w->pid) return false; /* still running or already reaped: unknown */
    w->pid = -1;                     /* reaped here; worker_kill must not signal it */
    return !(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
}

/* The worker died or broke protocol while (maybe) serving a request. */
static void worker_lost(struct cc_worker *w, const char *why) {
    struct cc_pool *p = w->pool;
    struct cc_req *r = w->req;
    bool before_hello = failed_to_start(w);
    w->req = NULL;
    worker_kill(w);
    cc_ops_worker_replaced(p->srv, p->id, why, r);
    if (r) {
        r->worker = NULL;
        r->pool = NULL;
        if (r->guarded)
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

static void send_req(struct cc_worker *w, struct cc_req *r) {
    w->st = W_BUSY;
    w->req = r;
    r->worker = w;
    bufferevent_write(w->bev, r->frame.data, r->frame.size);
}

/* A worker that died while idle may not have been noticed yet (its EOF is
 * still queued in the loop). One poll() tells, so a call is never handed to
 * a corpse. */
static bool hung_up(const struct cc_worker *w) {
    struct pollfd pfd = {.fd = bufferevent_getfd(w->bev), .events = POLLRDHUP};
    return poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL));
}

static void dispatch(struct cc_pool *p) {
    for (struct cc_worker *w = p->workers, *next; w && p->qhead; w = next) {
        next = w->next;
        if (w->st != W_IDLE) continue;
        if (hung_up(w)) {
            worker_lost(w, "died");
            return; /* worker_lost dispatched again */
        }
        send_req(w, q_pop(p));
    }
    if (!p->qhead) return;
    int starting = 0;
    for (struct cc_worker *w = p->workers; w; w = w->next) starting += w->st == W_STARTING;
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

void cc_pool_abandon(struct cc_pool *p, struct cc_req *r, bool kill_worker) {
    if (r->worker) {
        struct cc_worker *w = r->worker;
        w->req = NULL;
        r->worker = NULL;
        if (kill_worker) {
            cc_ops_worker_replaced(p->srv, p->id, NULL, NULL);
            worker_kill(w);
            dispatch(p);
        }
        /* Otherwise the worker stays busy until it answers; the answer for
         * an abandoned request is discarded (req already gone). */
        r->pool = NULL;
        return;
    }
    q_unlink(p, r);
    r->pool = NULL;
}

static void send_cancel(struct cc_req *r) {
    if (!r->worker) return;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    if (cc_msg_cancel(&sb, r->wid) == 0) bufferevent_write(r->worker->bev, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

void cc_pool_cancel(struct cc_pool *p, struct cc_req *r) {
    bool frame = p->def->cancel == CC_CANCEL_FRAME;
    if (frame) send_cancel(r);
    /* A worker that cannot stop mid-computation is replaced. */
    cc_pool_abandon(p, r, !frame);
}

/* Forward a progress event to the client that asked for progress, for a
 * tool whose row says it streams progress. */
static void forward_event(struct cc_req *r, const msgpack_object *frame) {
    const msgpack_object *data = cc_mp_get(frame, "data");
    if (!data || data->type != MSGPACK_OBJECT_MAP) return;
    json_t *d = cc_mp_to_json(data);
    if (d) cc_req_send_progress(r, d);
}

static void answer_from_frame(struct cc_req *r, const msgpack_object *frame) {
    const msgpack_object *ok = cc_mp_get(frame, "ok");
    if (ok && ok->type == MSGPACK_OBJECT_BOOLEAN && ok->via.boolean) {
        const msgpack_object *res = cc_mp_get(frame, "result");
        struct cc_strbuf sb;
        cc_sb_init(&sb);
        if (!res || cc_mp_emit_json(&sb, res) < 0) {
            cc_sb_free(&sb);
            cc_req_answer_fail(r, "internal", "the worker returned no usable result");
            return;
        }
        cc_req_answer_result(r, sb.data, sb.len, false);
        cc_sb_free(&sb);
        return;
    }
    const msgpack_object *err = cc_mp_get(frame, "error");
    const char *code = "internal", *msg = "worker failure";
    size_t cl = strlen(code), ml = strlen(msg);
    cc_mp_str(cc_mp_get(err, "code"), &code, &cl);
    cc_mp_str(cc_mp_get(err, "message"), &msg, &ml);
    char cbuf[64];
    snprintf(cbuf, sizeof cbuf, "%.*s", (int)cl, code);
    cc_req_answer_fail(r, cbuf, "%.*s", (int)ml, msg);
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

/* Handle one frame from w. Returns -1 when w was killed. */
static int on_frame(struct cc_worker *w, const msgpack_object *f) {
    struct cc_pool *p = w->pool;
    if (w->st == W_STARTING) {
        if (!cc_mp_str_eq(cc_mp_get(f, "hello"), p->def->name)) {
            worker_lost(w, "sent a wrong hello");
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
        w->st = W_IDLE;
        w->idle_since = cc_now_ms();
        p->start_failures = 0;
        dispatch(p);
        return 0;
    }
    const msgpack_object *id = cc_mp_get(f, "id");
    if (!id || id->type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
        worker_lost(w, "broke the protocol");
        return -1;
    }
    struct cc_req *r = w->req;
    if (!r) {
        /* An answer to a request that was abandoned (deadline/cancel) while
         * the worker kept running: drop it; the worker is free again. */
        if (cc_mp_get(f, "event")) return 0;
        w->st = W_IDLE;
        w->idle_since = cc_now_ms();
        dispatch(p);
        return 0;
    }
    if (id->via.u64 != r->wid) {
        cc_log(CC_LOG_ERROR, "%s worker %d answered id %llu while %llu was outstanding; recycled",
               p->def->name, (int)w->pid, (unsigned long long)id->via.u64,
               (unsigned long long)r->wid);
        worker_lost(w, "answered another request's id");
        return -1;
    }
    if (cc_mp_get(f, "event")) {
        forward_event(r, f);
        return 0;
    }
    w->req = NULL;
    r->worker = NULL;
    r->pool = NULL;
    w->st = W_IDLE;
    w->idle_since = cc_now_ms();
    answer_from_frame(r, f);
    dispatch(p);
    return 0;
}

static void on_read(struct bufferevent *bev, void *arg) {
    struct cc_worker *w = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    size_t n;
    while ((n = evbuffer_get_length(in)) > 0) {
        unsigned char *data = evbuffer_pullup(in, -1);
        int fr = cc_frame_reader_feed(&w->rd, data, n);
        evbuffer_drain(in, n);
        if (fr < 0) {
            worker_lost(w, "sent an oversized frame");
            return;
        }
        const char *body;
        size_t len;
        int rc;
        while ((rc = cc_frame_next(&w->rd, &body, &len)) == 1) {
            msgpack_unpacked u;
            if (cc_frame_decode(body, len, &u) < 0) {
                worker_lost(w, "sent a malformed frame");
                return;
            }
            int k = on_frame(w, &u.data);
            msgpack_unpacked_destroy(&u);
            if (k < 0) return;
        }
        if (rc < 0) {
            worker_lost(w, "sent an oversized frame");
            return;
        }
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg) {
    (void)bev;
    struct cc_worker *w = arg;
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) worker_lost(w, "died");
}

void cc_pool_reap(struct cc_server *srv) {
    (void)srv;
    int st;
    while (waitpid(-1, &st, WNOHANG) > 0) {}
}

void cc_pool_shrink(struct cc_pool *p, int64_t idle_ms) {
    int64_t now = cc_now_ms();
    struct cc_worker *w = p->workers;
    while (w && p->n > p->min) {
        struct cc_worker *next = w->next;
        if (w->st == W_IDLE && now - w->idle_since > idle_ms) {
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
        out->idle += w->st == W_IDLE;
        out->busy += w->st == W_BUSY;
    }
}
