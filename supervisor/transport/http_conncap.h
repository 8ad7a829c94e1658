/* The HTTP transport's connection ceiling (CODECALC_HTTP_MAX_CONNECTIONS).
 *
 * Every client connection costs a descriptor and evhttp's buffers for as
 * long as the client keeps it (CODECALC_HTTP_TIMEOUT_MS while idle), and
 * libevent 2.1's evhttp has no ceiling of its own. Past the ceiling a new
 * connection is answered at once with a 503 (Retry-After, a JSON-RPC error
 * naming the ceiling) and closed; /metrics counts the refusals and shows
 * the connections held. */
#ifndef CC_HTTP_CONNCAP_H
#define CC_HTTP_CONNCAP_H

#include <event2/event.h>
#include <event2/http.h>
#include <stdint.h>

struct cc_http_conncap {
    struct event_base *base;
    int listen_fd;           /* the bound socket: connections are the sockets on its port */
    int port;
    int max;                 /* the ceiling */
    int held;                /* connections at the last count, plus those accepted since */
    int64_t counted_ms;      /* when held was last counted exactly */
    long refused;            /* connections refused for the ceiling */
};

/* Read the ceiling from the environment and hook evhttp's new-connection
 * callback. listen_fd is the socket evhttp listens on. */
void cc_http_conncap_init(struct cc_http_conncap *c, struct evhttp *http, struct event_base *base,
                          int listen_fd);

/* The connections the server holds now (an exact count). */
int cc_http_conncap_held(struct cc_http_conncap *c);

#endif
