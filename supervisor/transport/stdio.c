/* stdio transport on libevent: descriptors and events around the line
 * reader (lines.h), and a buffered writer. */
#include "supervisor/transport/stdio.h"

#include <event2/buffer.h>
#include <errno.h>
#include <event2/event.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol/knob.h"
#include "supervisor/transport/lines.h"
#include "supervisor/log.h"
#include "supervisor/mcp/logging.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/mcp/stateless.h"
#include "supervisor/pool.h"

struct stdio_state {
    struct cc_conn conn;
    struct cc_lines lines;
    struct evbuffer *outbuf;
    struct event *in_ev, *out_ev;
    struct event *flush_ev;  /* activated by a send: one write per loop turn */
    bool in_pollable, out_pollable;
    bool eof;
    bool paused;             /* input not read while the client is behind reading answers */
    bool preforked;
    struct event *prefork_ev;
};

/* Workers start after the first message has been answered (or 50 ms after
 * start when the client is slow to speak), so spawning them never delays
 * the initialize answer. */
static void prefork(struct stdio_state *s) {
    if (s->preforked) return;
    s->preforked = true;
    for (int i = 0; i < CC_WORKER_POOLS; i++) cc_pool_prefork(s->conn.srv->pools[i]);
}

static void on_prefork_timer(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    prefork(arg);
}

/* A client that sends requests and does not read the answers would make
 * the answers pile up in memory without bound: past OUT_HIGH bytes waiting
 * to be written, or INFLIGHT_HIGH calls in flight (whose answers are on
 * their way), no more input is read (the client's writes block on a full
 * pipe) until the backlog is under OUT_LOW and the calls under half as
 * many. Calls in flight still answer; nothing is dropped. */
#define OUT_HIGH (16u << 20)
#define OUT_LOW (4u << 20)
#define INFLIGHT_HIGH 1024

static bool behind(const struct stdio_state *s, size_t out, int inflight) {
    return evbuffer_get_length(s->outbuf) > out || cc_server_inflight(s->conn.srv) > inflight;
}

static void throttle(struct stdio_state *s) {
    if (s->paused || s->eof || !behind(s, OUT_HIGH, INFLIGHT_HIGH)) return;
    s->paused = true;
    event_del(s->in_ev);
    cc_log(CC_LOG_DEBUG, "stdio: the client is behind reading answers; input paused");
}

static void unthrottle(struct stdio_state *s) {
    if (!s->paused || behind(s, OUT_LOW, INFLIGHT_HIGH / 2)) return;
    s->paused = false;
    if (s->in_pollable) event_add(s->in_ev, NULL);
    else event_active(s->in_ev, EV_READ, 0);
}

static void maybe_finish(struct stdio_state *s) {
    if (s->eof && cc_server_inflight(s->conn.srv) == 0 && evbuffer_get_length(s->outbuf) == 0)
        event_base_loopexit(s->conn.srv->base, NULL);
}

/* Write what we can; a pipe that is full gets the rest when it drains. A
 * regular file or terminal never says EAGAIN, so it is written in full. */
static void flush_out(struct stdio_state *s) {
    while (evbuffer_get_length(s->outbuf) > 0) {
        int n = evbuffer_write(s->outbuf, 1);
        if (n > 0) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && s->out_pollable) {
            event_add(s->out_ev, NULL);
            unthrottle(s);
            return;
        }
        if (n < 0 && errno == EINTR) continue;
        /* The reader is gone: nobody can receive answers any more. */
        evbuffer_drain(s->outbuf, evbuffer_get_length(s->outbuf));
        event_base_loopexit(s->conn.srv->base, NULL);
        return;
    }
    unthrottle(s);
    maybe_finish(s);
}

static void on_out(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    flush_out(arg);
}

/* Answers produced during one loop turn (a read of many requests, a read
 * of many worker answers) leave in one write at the end of the turn. */
static void st_send(struct cc_conn *c, const char *msg, size_t len) {
    struct stdio_state *s = c->transport;
    evbuffer_add(s->outbuf, msg, len);
    evbuffer_add(s->outbuf, "\n", 1);
    throttle(s);
    if (!s->out_pollable || !event_pending(s->out_ev, EV_WRITE, NULL))
        event_active(s->flush_ev, EV_WRITE, 0);
}

static void st_release(struct cc_conn *c) { (void)c; }

static const struct cc_conn_ops stdio_ops = {st_send, st_release};

static void on_in(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct stdio_state *s = arg;
    int n = evbuffer_read(s->lines.in, 0, 1 << 16);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
        cc_lines_finish(&s->lines, &s->conn);
        s->eof = true;
        event_del(s->in_ev);
        maybe_finish(s);
        return;
    }
    cc_lines_drain(&s->lines, &s->conn);
    throttle(s);
    /* The answers to these lines go out now, before any worker is started
     * (the first initialize answer must not wait for a spawn); answers
     * from workers leave at the end of the loop turn. */
    if (evbuffer_get_length(s->outbuf) && !(s->out_pollable && event_pending(s->out_ev, EV_WRITE, NULL)))
        flush_out(s);
    prefork(s);
    /* A regular file is never "readable" to epoll: keep pulling. */
    if (!s->in_pollable && !s->paused) event_active(s->in_ev, EV_READ, 0);
}

/* Can epoll watch fd? Regular files and directories never, and neither can
 * some character devices (/dev/null): epoll refuses them with EPERM, and an
 * input that is never reported readable would never reach its end. Asking
 * epoll itself is the only reliable test. */
static bool pollable(int fd) {
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return false;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) return false;
    struct epoll_event ev = {.events = EPOLLIN};
    bool ok = epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0;
    close(ep);
    return ok;
}

int cc_stdio_serve(struct cc_server *srv) {
    struct stdio_state s;
    memset(&s, 0, sizeof s);
    cc_conn_init(&s.conn, srv, &stdio_ops);
    s.conn.transport = &s;
    if (cc_lines_init(&s.lines, (size_t)cc_knob(CC_KNOB_MAX_MESSAGE_BYTES)) < 0) return 1;
    if (isatty(0))
        fputs("codecalc: serving MCP over stdio; an MCP client launches this command "
              "(see `codecalc --help`)\n", stderr);
    s.in_pollable = pollable(0);
    s.out_pollable = pollable(1);
    if (s.in_pollable) evutil_make_socket_nonblocking(0);
    if (s.out_pollable) evutil_make_socket_nonblocking(1);
    s.outbuf = evbuffer_new();
    s.in_ev = event_new(srv->base, s.in_pollable ? 0 : -1, s.in_pollable ? EV_READ | EV_PERSIST : 0,
                        on_in, &s);
    s.out_ev = event_new(srv->base, s.out_pollable ? 1 : -1, EV_WRITE, on_out, &s);
    s.flush_ev = event_new(srv->base, -1, 0, on_out, &s);
    if (!s.outbuf || !s.in_ev || !s.out_ev || !s.flush_ev) return 1;
    if (s.in_pollable) event_add(s.in_ev, NULL);
    else event_active(s.in_ev, EV_READ, 0);
    s.prefork_ev = evtimer_new(srv->base, on_prefork_timer, &s);
    struct timeval fifty = {0, 50000};
    if (s.prefork_ev) evtimer_add(s.prefork_ev, &fifty);
    event_base_dispatch(srv->base);
    if (s.prefork_ev) event_free(s.prefork_ev);
    cc_stateless_stream_close(&s.conn);
    s.conn.closed = true;
    cc_mcp_log_unsubscribe(&s.conn);
    event_free(s.in_ev);
    event_free(s.out_ev);
    event_free(s.flush_ev);
    cc_lines_free(&s.lines);
    evbuffer_free(s.outbuf);
    return 0;
}
