/* The launcher's poll loop: accept the supervisor, relay its requests to the
 * host, check and finish the host's answers, enforce the per-call deadline,
 * replace a host that died. Single-threaded; every descriptor nonblocking,
 * so a host that stops reading can never stall the deadline. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/json_convert.h"
#include "protocol/monotonic.h"
#include "protocol/mp_write.h"
#include "repl-workers/launcher.h"

#define SOCK_CHECK_MS 1000
#define DEADLINE_GRACE_MS 500
#define REMEDY_LOST "the host was replaced; its variables are gone, the next call starts fresh"

/* ---- output queues ----------------------------------------------------- */

/* Write what the peer accepts now; -1 when the peer is gone. */
static int out_flush(struct rl_peer *p) {
    while (p->out.len > 0) {
        ssize_t w = send(p->fd, p->out.data, p->out.len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        if (w <= 0) return -1;
        memmove(p->out.data, p->out.data + w, p->out.len - (size_t)w);
        p->out.len -= (size_t)w;
    }
    return 0;
}

static void queue_frame(struct rl_peer *p, const char *body, size_t n) {
    unsigned char pre[4];
    if (p->fd < 0) return;
    cc_frame_prefix((uint32_t)n, pre);
    cc_sb_put(&p->out, pre, 4);
    cc_sb_put(&p->out, body, n);
    (void)out_flush(p);
}

static void queue_json(struct rl_peer *p, json_t *msg) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    if (cc_mpw_json(&sb, msg) == 0 && sb.size <= CC_FRAME_MAX) queue_frame(p, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

void rl_send_result(struct launcher *L, uint64_t id, json_t *result) {
    json_t *m = json_pack("{s:I,s:b,s:O}", "id", (json_int_t)id, "ok", 1, "result", result);
    if (m) queue_json(&L->client, m);
    json_decref(m);
}

/* ---- the call in progress ------------------------------------------------ */

static void start_call(struct launcher *L, uint64_t id, const char *body, size_t n, json_t *args,
                       int64_t deadline_ms);

void rl_queued_drop(struct launcher *L) {
    free(L->queued.body);
    json_decref(L->queued.args);
    memset(&L->queued, 0, sizeof L->queued);
}

/* The orphaned call ended: the queued one runs now, with what is left of
 * its budget (the supervisor's wait for it started when it was sent). */
static void start_queued(struct launcher *L) {
    int64_t left = L->queued.until_ms - cc_now_ms();
    json_t *args = L->queued.args;
    L->queued.args = NULL;
    start_call(L, L->queued.id, L->queued.body, L->queued.n, args, left > 1 ? left : 1);
    rl_queued_drop(L);
}

static void finish_call(struct launcher *L, json_t *result) {
    /* An orphaned call's answer has no one to go to: the supervisor that
     * asked is gone, and its successor never sent this request. */
    if (!L->orphan && L->notice && json_is_object(result)) {
        json_object_set_new(result, "state_lost", json_true());
        json_object_set_new(result, "host_restarted", json_string(L->notice));
        free(L->notice);
        L->notice = NULL;
    }
    if (!L->orphan) rl_send_result(L, L->req_id, result);
    json_decref(result);
    json_decref(L->req_args);
    L->req_args = NULL;
    L->busy = L->orphan = false;
    rl_disk_call_ended(L);
    if (L->queued.set) start_queued(L);
}

/* The orphaned call outlasted the queued call's budget: answer it unrun.
 * The host and its variables stay; the orphan goes on to its own end. */
static void queued_expired(struct launcher *L) {
    json_t *r = rl_shape_failure(L, L->queued.args, "timeout", "TLE", "this call did not run: the %s host was "
                                 "still running a call that was in progress when the server restarted "
                                 "(it may run until its own timeout); the host and its variables are kept, "
                                 "retry later", L->lang);
    rl_send_result(L, L->queued.id, r);
    json_decref(r);
    rl_queued_drop(L);
}

static void set_notice(struct launcher *L, const char *why) {
    free(L->notice);
    if (asprintf(&L->notice, "the previous %s host %s; this call ran on a fresh one and earlier "
                 "variables, imports and definitions are gone", L->lang, why) < 0)
        L->notice = NULL;
}

/* The host is gone or must go: kill it, answer the call it owed, and leave
 * the next call a fresh host. */
static void host_lost(struct launcher *L, const char *code, const char *verdict, const char *what,
                      const char *reason) {
    char *how = NULL;
    bool oom = false;
    rl_host_stop(L, &how, &oom);
    dprintf(L->log_fd, "repl %s: host %s (%s)\n", L->id, what, how ? how : "?");
    /* The call that was owed gets the error; the next one hears of the loss. */
    free(L->notice);
    L->notice = NULL;
    if (L->busy && oom)
        finish_call(L, rl_shape_failure(L, L->req_args, "resource_exhausted", "RTE",
                    "%s worker was killed by its %llu MiB memory ceiling; " REMEDY_LOST, L->lang,
                    (unsigned long long)rl_host_memory_mb()));
    else if (L->busy)
        finish_call(L, rl_shape_failure(L, L->req_args, code, verdict, "%s (%s); " REMEDY_LOST, what,
                    how ? how : "no exit status"));
    set_notice(L, oom ? "was killed by its memory ceiling" : reason);
    free(how);
}

static void start_call(struct launcher *L, uint64_t id, const char *body, size_t n, json_t *args,
                       int64_t deadline_ms) {
    L->busy = true;
    L->orphan = false;
    L->req_id = id;
    L->req_args = args;
    /* Grace past the call's own budget: node's vm timeout (same budget)
     * ends a runaway script itself and keeps the context; we kill only a
     * host that cannot stop on its own. */
    L->deadline_ms = cc_now_ms() + (deadline_ms > 0 ? deadline_ms : 30000) + DEADLINE_GRACE_MS;
    if (!L->host_up) {
        char *why = NULL;
        if (rl_host_start(L, &why) != 0) {
            finish_call(L, rl_shape_failure(L, args, "worker_failure", "RTE", "failed to start %s REPL "
                        "worker: %s", L->lang, why ? why : "unknown reason"));
            free(why);
            return;
        }
    }
    /* A fall during this call counts from here. */
    rl_disk_arm(L);
    queue_frame(&L->host, body, n);
}

/* The workspace's disk fell below the floor (diskwatch.c): the host goes,
 * with the call it owed answered as resource_exhausted. */
static void disk_full(struct launcher *L) {
    char *how = NULL;
    bool oom = false;
    unsigned long long mb = (unsigned long long)(cc_host_floor_bytes() >> 20);
    rl_host_stop(L, &how, &oom);
    dprintf(L->log_fd, "repl %s: host killed, the disk under the workspace fell below %llu MiB free\n", L->id, mb);
    free(how);
    free(L->notice);
    L->notice = NULL;
    if (L->busy) {
        json_t *r = rl_shape_failure(L, L->req_args, "resource_exhausted", "RTE",
                                     "the %s worker was killed by the sandbox (SIGKILL): the host's disk "
                                     "under the workspace fell below %llu MiB free "
                                     "(CODECALC_MIN_HOST_FREE_MB); " REMEDY_LOST, L->lang, mb);
        json_object_set_new(r, "space_exhausted", json_pack("[s]", "workspace"));
        finish_call(L, r);
    }
    char why[160];
    snprintf(why, sizeof why, "was killed: the host's disk under the workspace fell below %llu MiB free "
             "(CODECALC_MIN_HOST_FREE_MB)", mb);
    set_notice(L, why);
}

/* ---- frames from the supervisor ------------------------------------------ */

static uint64_t mp_uint(const msgpack_object *o) {
    return o && o->type == MSGPACK_OBJECT_POSITIVE_INTEGER ? o->via.u64 : 0;
}

static void on_client_frame(struct launcher *L, const char *body, size_t n) {
    msgpack_unpacked u;
    if (cc_frame_decode(body, n, &u) != 0) return;
    const msgpack_object *m = &u.data;
    const msgpack_object *kill = cc_mp_get(m, "kill");
    if (kill && kill->type == MSGPACK_OBJECT_BOOLEAN && kill->via.boolean) {
        L->stop = true;
    } else if (cc_mp_str_eq(cc_mp_get(m, "op"), "exec")) {
        uint64_t id = mp_uint(cc_mp_get(m, "id"));
        json_t *args = cc_mp_to_json(cc_mp_get(m, "args"));
        if (!json_is_object(args)) {
            json_decref(args);
            args = json_object();
        }
        if (L->busy && L->orphan && !L->queued.set && (L->queued.body = malloc(n ? n : 1))) {
            /* The call in progress was sent by a supervisor that is gone
             * (it restarted mid-call): this one waits for it to end. */
            memcpy(L->queued.body, body, n);
            L->queued.n = n;
            L->queued.set = true;
            L->queued.id = id;
            L->queued.args = args;
            int64_t budget = (int64_t)mp_uint(cc_mp_get(m, "deadline_ms"));
            L->queued.until_ms = cc_now_ms() + (budget > 0 ? budget : 30000);
        } else if (L->busy) {
            json_t *r = rl_shape_failure(L, args, "worker_failure", "RTE", "the %s worker is busy with "
                                         "request %llu", L->lang, (unsigned long long)L->req_id);
            rl_send_result(L, id, r);
            json_decref(r);
            json_decref(args);
        } else {
            start_call(L, id, body, n, args, (int64_t)mp_uint(cc_mp_get(m, "deadline_ms")));
        }
    }
    msgpack_unpacked_destroy(&u);
}

/* ---- frames from the host ------------------------------------------------- */

static void on_host_frame(struct launcher *L, const char *body, size_t n) {
    msgpack_unpacked u;
    if (cc_frame_decode(body, n, &u) != 0) {
        host_lost(L, "worker_failure", "RTE", "worker protocol error, session terminated: a malformed frame",
                  "broke the protocol");
        return;
    }
    const msgpack_object *m = &u.data;
    if (cc_mp_get(m, "hello")) {
        L->host_ready = true;
    } else if (!L->busy || mp_uint(cc_mp_get(m, "id")) != L->req_id) {
        char what[200];
        snprintf(what, sizeof what, "worker replied to request %llu while %llu was outstanding; session "
                 "terminated rather than return another call's result",
                 (unsigned long long)mp_uint(cc_mp_get(m, "id")), (unsigned long long)L->req_id);
        host_lost(L, "worker_failure", "RTE", what, "desynchronised");
    } else if (cc_mp_get(m, "ok")) {
        json_t *frame = cc_mp_to_json(m);
        json_t *hr = json_object_get(frame, "result");
        json_t *res = json_is_object(hr) ? rl_shape_answer(L, L->req_args, hr)
                      : rl_shape_failure(L, L->req_args, "internal", "RTE", "the %s worker refused the "
                                         "request: %s", L->lang, json_string_value(json_object_get(
                                         json_object_get(frame, "error"), "message")) ?: "no reason");
        json_decref(frame);
        finish_call(L, res);
    }
    msgpack_unpacked_destroy(&u);
}

/* ---- reading ------------------------------------------------------------- */

typedef void (*frame_fn)(struct launcher *L, const char *body, size_t n);

/* Read what is there and dispatch whole frames; -1 on EOF/error/bad length. */
static int pump(struct launcher *L, struct rl_peer *p, frame_fn fn) {
    char buf[65536];
    for (;;) {
        ssize_t r = read(p->fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (r <= 0) return -1;
        if (cc_frame_reader_feed(&p->rd, buf, (size_t)r) != 0) return -1;
        if ((size_t)r < sizeof buf) break;
    }
    const char *body;
    size_t n;
    int k;
    int fd = p->fd;
    while (p->fd == fd && (k = cc_frame_next(&p->rd, &body, &n)) == 1) fn(L, body, n);
    return p->fd == fd && k < 0 ? -1 : 0;
}

static void close_client(struct launcher *L) {
    if (L->client.fd >= 0) close(L->client.fd);
    L->client.fd = -1;
    L->client.out.len = 0;
    cc_frame_reader_free(&L->client.rd);
    cc_frame_reader_init(&L->client.rd);
    if (L->busy) L->orphan = true;
    /* A call queued behind an orphan was asked by this client: no one is
     * left to answer. */
    if (L->queued.set) rl_queued_drop(L);
}

/* A new supervisor connection replaces the old one and learns who we are. */
static void on_accept(struct launcher *L) {
    int fd = accept4(L->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    close_client(L);
    L->client.fd = fd;
    json_t *un = rl_structural_unenforced(L);
    json_t *hello = json_pack("{s:s,s:s,s:s,s:I,s:I,s:b,s:o,s:b}", "hello", "repl-launcher", "session_id",
                              L->id, "language", L->lang, "pid", (json_int_t)getpid(), "gen",
                              (json_int_t)L->gen, "confined", rl_host_confined(L), "unenforced", un,
                              "host_alive", L->host_up);
    if (hello) queue_json(&L->client, hello);
    json_decref(hello);
}

/* Our socket path must still be ours: a removed home ends the session. */
static bool socket_still_ours(const struct launcher *L) {
    struct stat st;
    return lstat(L->sock_path, &st) == 0 && st.st_ino == L->sock_ino && st.st_dev == L->sock_dev;
}

static int poll_timeout(const struct launcher *L) {
    int64_t now = cc_now_ms(), t = SOCK_CHECK_MS;
    if (L->busy) {
        int64_t left = L->deadline_ms - now;
        if (left < t) t = left < 0 ? 0 : left;
    }
    if (L->queued.set) {
        int64_t left = L->queued.until_ms - now;
        if (left < t) t = left < 0 ? 0 : left;
    }
    int64_t disk = rl_disk_next_ms(L);
    if (disk != INT64_MAX && disk - now < t) t = disk - now < 0 ? 0 : disk - now;
    return (int)t;
}

static void died(struct launcher *L) {
    char what[64];
    snprintf(what, sizeof what, "%s worker died", L->lang);
    host_lost(L, "worker_failure", "RTE", what, "died");
}

static void handle_events(struct launcher *L, struct pollfd *pf) {
    if (pf[0].revents & POLLIN) on_accept(L);
    if (L->client.fd >= 0 && pf[1].fd == L->client.fd && pf[1].revents) {
        if ((pf[1].revents & POLLOUT) && out_flush(&L->client) < 0) close_client(L);
        else if ((pf[1].revents & (POLLIN | POLLHUP | POLLERR)) && pump(L, &L->client, on_client_frame) < 0)
            close_client(L);
    }
    if (L->host_up && pf[2].fd == L->host.fd && pf[2].revents) {
        if ((pf[2].revents & POLLOUT) && out_flush(&L->host) < 0)
            host_lost(L, "worker_failure", "RTE", "worker closed", "closed its channel");
        else if ((pf[2].revents & (POLLIN | POLLHUP | POLLERR)) && pump(L, &L->host, on_host_frame) < 0 &&
                 L->host_up)
            died(L);
    }
    if (L->host_up && pf[3].fd == L->proc.pidfd && (pf[3].revents & POLLIN))
        died(L);
}

int rl_relay_run(struct launcher *L) {
    int64_t next_check = cc_now_ms() + SOCK_CHECK_MS;
    while (!L->stop) {
        struct pollfd pf[4] = {
            {.fd = L->listen_fd, .events = POLLIN},
            {.fd = L->client.fd, .events = (short)(POLLIN | (L->client.out.len ? POLLOUT : 0))},
            {.fd = L->host_up ? L->host.fd : -1, .events = (short)(POLLIN | (L->host.out.len ? POLLOUT : 0))},
            {.fd = L->host_up ? L->proc.pidfd : -1, .events = POLLIN},
        };
        int r = poll(pf, 4, poll_timeout(L));
        if (r < 0 && errno != EINTR) return -1;
        if (r > 0) handle_events(L, pf);
        if (L->busy && cc_now_ms() >= L->deadline_ms) {
            char what[64];
            snprintf(what, sizeof what, "%s worker timed out", L->lang);
            host_lost(L, "timeout", "TLE", what, "timed out and was killed");
        }
        if (L->queued.set && cc_now_ms() >= L->queued.until_ms) queued_expired(L);
        if (rl_disk_fell(L)) disk_full(L);
        if (cc_now_ms() >= next_check) {
            next_check = cc_now_ms() + SOCK_CHECK_MS;
            if (!socket_still_ours(L)) L->stop = true;
        }
    }
    return 0;
}
