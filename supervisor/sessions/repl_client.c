/* Client side of the launcher socket (see supervisor/sessions/repl_client.h). */
#include "supervisor/sessions/repl_client.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/msg.h"

/* The launcher enforces the deadline itself; this only catches a launcher
 * that stopped answering altogether. */
#define GRACE_MS 5000

struct call {
    uint64_t id;
    msgpack_sbuffer frame;
    int64_t deadline_ms;
    cc_repl_done cb;
    void *ud;
    struct call *next;
};

struct cc_repl {
    struct event_base *base;
    struct bufferevent *bev;
    struct cc_frame_reader rd;
    struct event *timer;
    struct call *head, *tail;   /* head is on the wire once sent */
    bool sent;                  /* head was written */
    bool dead;
    json_t *hello;
};

static void call_free(struct call *k) {
    msgpack_sbuffer_destroy(&k->frame);
    free(k);
}

/* Pop the head and run its callback. */
static void complete(struct cc_repl *c, json_t *result, const char *code, const char *err) {
    struct call *k = c->head;
    if (!k) return;
    c->head = k->next;
    if (!c->head) c->tail = NULL;
    c->sent = false;
    evtimer_del(c->timer);
    k->cb(k->ud, result, code, err);
    call_free(k);
}

/* The connection can no longer be trusted: fail everything waiting. */
static void die(struct cc_repl *c, const char *err) {
    if (c->dead) return;
    c->dead = true;
    if (c->bev) bufferevent_disable(c->bev, EV_READ);
    while (c->head) complete(c, NULL, "worker_failure", err);
}

static void send_next(struct cc_repl *c) {
    if (c->dead || c->sent || !c->head) return;
    struct call *k = c->head;
    if (bufferevent_write(c->bev, k->frame.data, k->frame.size) != 0) {
        die(c, "worker protocol error, session terminated: cannot write to the REPL launcher");
        return;
    }
    c->sent = true;
    struct timeval tv = {(k->deadline_ms + GRACE_MS) / 1000, ((k->deadline_ms + GRACE_MS) % 1000) * 1000};
    evtimer_add(c->timer, &tv);
}

static void on_timer(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    die(arg, "the REPL launcher stopped answering; session terminated");
}

/* One frame from the launcher: its hello, or the answer to the head call. */
static void on_frame(struct cc_repl *c, const msgpack_object *m) {
    if (cc_mp_get(m, "hello")) {
        json_decref(c->hello);
        c->hello = cc_mp_to_json(m);
        return;
    }
    if (cc_mp_get(m, "event")) return;
    const msgpack_object *id = cc_mp_get(m, "id");
    uint64_t got = id && id->type == MSGPACK_OBJECT_POSITIVE_INTEGER ? id->via.u64 : 0;
    if (!c->sent || got != c->head->id) {
        char err[200];
        snprintf(err, sizeof err, "worker replied to request %llu while %llu was outstanding; session "
                 "terminated rather than return another call's result", (unsigned long long)got,
                 (unsigned long long)(c->sent ? c->head->id : 0));
        die(c, err);
        return;
    }
    json_t *frame = cc_mp_to_json(m);
    json_t *res = json_object_get(frame, "result");
    if (json_is_object(res)) complete(c, res, NULL, NULL);
    else complete(c, NULL, "worker_failure", "worker protocol error, session terminated: an answer without a result");
    json_decref(frame);
    send_next(c);
}

static void on_read(struct bufferevent *bev, void *arg) {
    struct cc_repl *c = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    size_t n;
    while (!c->dead && (n = evbuffer_get_length(in)) > 0) {
        unsigned char *data = evbuffer_pullup(in, -1);
        int fr = cc_frame_reader_feed(&c->rd, data, n);
        evbuffer_drain(in, n);
        const char *body;
        size_t len;
        int rc = fr < 0 ? -1 : 0;
        while (!c->dead && rc == 0 && (rc = cc_frame_next(&c->rd, &body, &len)) == 1) {
            msgpack_unpacked u;
            if (cc_frame_decode(body, len, &u) < 0) {
                rc = -1;
                break;
            }
            on_frame(c, &u.data);
            msgpack_unpacked_destroy(&u);
            rc = 0;
        }
        if (rc < 0) die(c, "worker protocol error, session terminated: a malformed frame");
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg) {
    (void)bev;
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) die(arg, "worker closed");
}

struct cc_repl *cc_repl_client_new(struct event_base *base, const char *sock_path) {
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(sock_path) >= sizeof sa.sun_path) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    memcpy(sa.sun_path, sock_path, strlen(sock_path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return NULL;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || evutil_make_socket_nonblocking(fd) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    struct cc_repl *c = calloc(1, sizeof *c);
    if (c) c->bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (c) c->timer = evtimer_new(base, on_timer, c);
    if (!c || !c->bev || !c->timer) {
        if (c && c->bev) bufferevent_free(c->bev);
        else close(fd);
        if (c && c->timer) event_free(c->timer);
        free(c);
        errno = ENOMEM;
        return NULL;
    }
    c->base = base;
    cc_frame_reader_init(&c->rd);
    bufferevent_setcb(c->bev, on_read, NULL, on_event, c);
    bufferevent_enable(c->bev, EV_READ | EV_WRITE);
    return c;
}

static int build(struct call *k, json_t *args) {
    msgpack_sbuffer_init(&k->frame);
    return cc_msg_request(&k->frame, k->id, "exec", args, (uint64_t)k->deadline_ms);
}

int cc_repl_client_call(struct cc_repl *c, uint64_t id, json_t *args, int64_t deadline_ms,
                        cc_repl_done cb, void *ud) {
    if (!c || c->dead) return -1;
    struct call *k = calloc(1, sizeof *k);
    if (!k) return -1;
    *k = (struct call){.id = id, .deadline_ms = deadline_ms, .cb = cb, .ud = ud};
    if (build(k, args) != 0) {
        call_free(k);
        return -1;
    }
    if (c->tail) c->tail->next = k;
    else c->head = k;
    c->tail = k;
    send_next(c);
    return 0;
}

void cc_repl_client_kill(struct cc_repl *c) {
    if (!c || !c->bev) return;
    /* Written directly: the client is freed right after, before the loop
     * would flush a bufferevent. A tiny frame fits any socket buffer. */
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    cc_frame_begin(&sb);
    msgpack_pack_map(&pk, 1);
    msgpack_pack_str_with_body(&pk, "kill", 4);
    msgpack_pack_true(&pk);
    if (cc_frame_end(&sb) == 0) {
        bufferevent_flush(c->bev, EV_WRITE, BEV_FLUSH);
        ssize_t w = send(bufferevent_getfd(c->bev), sb.data, sb.size, MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)w; /* a gone launcher needs no kill frame */
    }
    msgpack_sbuffer_destroy(&sb);
}

void cc_repl_client_free(struct cc_repl *c, const char *err) {
    if (!c) return;
    die(c, err ? err : "the session was closed");
    bufferevent_free(c->bev);
    event_free(c->timer);
    cc_frame_reader_free(&c->rd);
    json_decref(c->hello);
    free(c);
}

bool cc_repl_client_alive(const struct cc_repl *c) { return c && !c->dead; }

json_t *cc_repl_client_hello(const struct cc_repl *c) { return c ? c->hello : NULL; }
