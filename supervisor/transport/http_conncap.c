/* The HTTP connection ceiling (http_conncap.h).
 *
 * evhttp tells us when it accepts a connection (its bufferevent callback)
 * but not when it frees one, so the count is kept the other way round: the
 * connections are the sockets of this process on the listening port (the
 * listener itself aside), counted by walking /proc/self/fd. A walk costs
 * one getsockname per descriptor, so between walks each new connection
 * adds one to the last count, and a walk is made only when that estimate
 * reaches the ceiling (at most one per COUNT_EVERY_MS during a flood; in
 * between the estimate, which only overcounts, decides).
 *
 * A refused connection gets its 503 written straight to the socket on the
 * next loop turn (evhttp has set its descriptor by then), what it had sent
 * read and dropped, and both directions shut: evhttp sees the end of the
 * stream and frees the connection itself. Draining first matters: closing
 * a socket with unread data sends a reset, and a reset can make the client
 * lose the answer it has not read yet. */
#include "supervisor/transport/http_conncap.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <event2/bufferevent.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "protocol/knob.h"
#include "protocol/monotonic.h"
#include "supervisor/log.h"

enum { COUNT_EVERY_MS = 20, DRAIN_MAX = 1 << 16 };

static int port_of(const struct sockaddr_storage *ss) {
    if (ss->ss_family == AF_INET) return ntohs(((const struct sockaddr_in *)ss)->sin_port);
    if (ss->ss_family == AF_INET6) return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
    return -1;
}

static int count_exact(struct cc_http_conncap *c) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) return c->held; /* cannot tell: keep the estimate */
    int n = 0, self = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        if (*end || end == e->d_name || fd == self || fd == c->listen_fd) continue;
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        if (getsockname((int)fd, (struct sockaddr *)&ss, &sl) == 0 && port_of(&ss) == c->port) n++;
    }
    closedir(d);
    c->held = n;
    c->counted_ms = cc_now_ms();
    return n;
}

int cc_http_conncap_held(struct cc_http_conncap *c) { return count_exact(c); }

struct refusal {
    struct cc_http_conncap *cap;
    struct bufferevent *bev; /* referenced until the 503 is out */
    struct event *ev;
};

static void on_refuse(evutil_socket_t unused, short what, void *arg) {
    (void)unused, (void)what;
    struct refusal *r = arg;
    int fd = bufferevent_getfd(r->bev);
    if (fd >= 0) {
        char body[256], msg[512], sink[4096];
        int blen = snprintf(body, sizeof body,
                            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":"
                            "\"Server busy: too many HTTP connections (CODECALC_HTTP_MAX_CONNECTIONS "
                            "= %d); retry shortly\"}}",
                            r->cap->max);
        int mlen = snprintf(msg, sizeof msg,
                            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                            "Retry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s",
                            blen, body);
        size_t drained = 0;
        ssize_t got;
        while (drained < DRAIN_MAX && (got = recv(fd, sink, sizeof sink, MSG_DONTWAIT)) > 0)
            drained += (size_t)got;
        /* A few hundred bytes into a fresh socket's empty buffer: one send
         * takes them all, or the client is gone. */
        if (send(fd, msg, (size_t)mlen, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
            cc_log(CC_LOG_DEBUG, "http: a refused connection took no 503: %s", strerror(errno));
        shutdown(fd, SHUT_RDWR);
    }
    bufferevent_decref(r->bev);
    event_free(r->ev);
    free(r);
}

/* Schedule the refusal of a connection whose bufferevent evhttp is about
 * to give its descriptor. */
static void refuse(struct cc_http_conncap *c, struct bufferevent *bev) {
    struct refusal *r = calloc(1, sizeof *r);
    if (!r) return;
    r->cap = c;
    r->bev = bev;
    r->ev = event_new(c->base, -1, 0, on_refuse, r);
    if (!r->ev) {
        free(r);
        return;
    }
    bufferevent_incref(bev);
    event_active(r->ev, EV_TIMEOUT, 0);
    if (c->refused++ == 0 || c->refused % 1000 == 0)
        cc_log(CC_LOG_WARNING, "http: %d connections are open, the ceiling "
               "(CODECALC_HTTP_MAX_CONNECTIONS); new ones are refused with 503 (%ld so far)",
               c->held - 1, c->refused);
}

/* evhttp's hook for a new connection: make its bufferevent as evhttp would
 * (a socket bufferevent, descriptor set later, closed with it), and count. */
static struct bufferevent *on_connection(struct event_base *base, void *arg) {
    struct cc_http_conncap *c = arg;
    struct bufferevent *bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
    if (!bev) return NULL; /* evhttp makes its own; uncounted, it is closed soon anyway */
    int held = c->held + 1;
    c->held = held;
    if (held > c->max && cc_now_ms() - c->counted_ms >= COUNT_EVERY_MS)
        held = count_exact(c); /* evhttp has accepted it: it is among them */
    if (held > c->max) refuse(c, bev);
    return bev;
}

void cc_http_conncap_init(struct cc_http_conncap *c, struct evhttp *http, struct event_base *base,
                          int listen_fd) {
    *c = (struct cc_http_conncap){.base = base, .listen_fd = listen_fd, .port = -1,
                                  .max = (int)cc_knob(CC_KNOB_HTTP_MAX_CONNECTIONS)};
    bool asked = cc_knob_given(CC_KNOB_HTTP_MAX_CONNECTIONS);
    /* Descriptors are the real bound: leave room for workers, sessions and
     * files under the process's own limit. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > 256 &&
        (rlim_t)c->max > rl.rlim_cur - 256) {
        c->max = (int)(rl.rlim_cur - 256);
        if (asked)
            cc_log(CC_LOG_WARNING, "http: at most %d connections (RLIMIT_NOFILE %llu less 256 for the rest)",
               c->max, (unsigned long long)rl.rlim_cur);
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (listen_fd >= 0 && getsockname(listen_fd, (struct sockaddr *)&ss, &sl) == 0) c->port = port_of(&ss);
    c->counted_ms = cc_now_ms();
    evhttp_set_bevcb(http, on_connection, c);
}
