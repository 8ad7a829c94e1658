/* SSE framing and the chunked reply that carries it. */
#include "supervisor/transport/sse.h"

#include <event2/bufferevent.h>
#include <string.h>

void cc_sse_format(struct evbuffer *out, const char *data, size_t len) {
    evbuffer_add(out, "event: message\n", 15);
    size_t i = 0;
    do {
        size_t j = i;
        while (j < len && data[j] != '\n' && data[j] != '\r') j++;
        evbuffer_add(out, "data: ", 6);
        evbuffer_add(out, data + i, j - i);
        evbuffer_add(out, "\n", 1);
        /* A CRLF pair is one line break, not two. */
        if (j + 1 < len && data[j] == '\r' && data[j + 1] == '\n') j++;
        i = j + 1;
    } while (i < len);
    evbuffer_add(out, "\n", 1);
}

void cc_sse_start(struct cc_sse *s, struct evhttp_request *req) {
    s->req = req;
    s->started = true;
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", "text/event-stream");
    evhttp_add_header(h, "Cache-Control", "no-cache");
    evhttp_send_reply_start(req, 200, "OK");
}

static int send_buffer(struct cc_sse *s, struct evbuffer *buf) {
    if (!s->req || !s->started) return -1;
    evhttp_send_reply_chunk(s->req, buf);
    return 0;
}

int cc_sse_send(struct cc_sse *s, const char *data, size_t len) {
    struct evbuffer *buf = evbuffer_new();
    if (!buf) return -1;
    cc_sse_format(buf, data, len);
    int rc = send_buffer(s, buf);
    evbuffer_free(buf);
    return rc;
}

int cc_sse_comment(struct cc_sse *s, const char *text) {
    struct evbuffer *buf = evbuffer_new();
    if (!buf) return -1;
    evbuffer_add_printf(buf, ": %s\n\n", text);
    int rc = send_buffer(s, buf);
    evbuffer_free(buf);
    return rc;
}

size_t cc_sse_backlog(const struct cc_sse *s) {
    struct evhttp_connection *evcon = s->req ? evhttp_request_get_connection(s->req) : NULL;
    struct bufferevent *bev = evcon ? evhttp_connection_get_bufferevent(evcon) : NULL;
    return bev ? evbuffer_get_length(bufferevent_get_output(bev)) : 0;
}

void cc_sse_end(struct cc_sse *s) {
    struct evhttp_request *req = s->req;
    s->req = NULL;
    if (req && s->started) evhttp_send_reply_end(req);
}

void cc_sse_detach(struct cc_sse *s) { s->req = NULL; }
