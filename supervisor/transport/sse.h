/* Server-Sent Events on one evhttp request: a chunked 200 reply whose body
 * is a sequence of "event: message / data: <JSON-RPC message>" records. Used
 * for a POST whose answer is preceded by progress notifications, and for the
 * long-lived GET stream of a 2025-era session.
 *
 * Ownership: the stream borrows the evhttp request; evhttp frees it once the
 * reply ended or the connection died. The caller clears req (cc_sse_detach)
 * when it learns the peer is gone, so nothing is written to a freed request. */
#ifndef CC_HTTP_SSE_H
#define CC_HTTP_SSE_H

#include <event2/buffer.h>
#include <event2/http.h>
#include <stdbool.h>
#include <stddef.h>

struct cc_sse {
    struct evhttp_request *req; /* NULL once ended or detached */
    bool started;
};

/* Append one SSE record carrying data to out. Every line of data becomes its
 * own "data:" field, so a CR or LF inside data can never end the record. */
void cc_sse_format(struct evbuffer *out, const char *data, size_t len);

/* Send the status line and headers (200, text/event-stream, no-cache). */
void cc_sse_start(struct cc_sse *s, struct evhttp_request *req);
/* Send one message as a record. Returns -1 when the stream is not open. */
int cc_sse_send(struct cc_sse *s, const char *data, size_t len);
/* A comment line (": text"): keeps idle proxies from closing the stream. */
int cc_sse_comment(struct cc_sse *s, const char *text);
/* Bytes written to the stream that the client has not taken yet, beyond
 * what the kernel's socket buffers hold (the connection's output buffer):
 * what a client that stops reading costs the server. 0 when not open. */
size_t cc_sse_backlog(const struct cc_sse *s);
/* Finish the chunked reply; the stream is closed afterwards. */
void cc_sse_end(struct cc_sse *s);
/* Forget the request without touching it (its connection is gone). */
void cc_sse_detach(struct cc_sse *s);

#endif
