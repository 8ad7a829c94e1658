/* Fuzz target: the Streamable HTTP transport above libevent.
 *
 * The input after one flag byte is a sequence of requests separated by a
 * line "%%". Each request is a line "METHOD /path", header lines
 * "Name: value", an empty line and the body. The harness builds an
 * evhttp_request for each (no connection: libevent then frees a request
 * when it is answered, like a client that read everything) and hands it to
 * cc_http_transport_handle, the callback serve-http installs: Origin/Host
 * checks, bearer token, Content-Type/Accept, session ids and their table,
 * both protocol eras, SSE, JSON-RPC parsing and dispatch. Calls go to the
 * fake worker of fz_server.c. A header value "$SID" is replaced by the last
 * Mcp-Session-Id the server issued, so sessions can be used.
 *
 * Properties: no sanitizer report; every body is strict JSON (but the
 * text and HTML of the operator routes) and so is every SSE data line;
 * every request is answered exactly once by the time the transport is
 * freed; nothing stays in flight.
 *
 * Flag byte: bit 0 a bearer token is configured ("fuzz-token"), bit 1 the
 * listener is loopback, bit 2 answer newest call first, bit 3 hold answers
 * until the input ends. */
#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/http_struct.h>
#include <event2/keyvalq_struct.h>
#include <string.h>
#include <strings.h>

#include "supervisor/metrics/http_routes.h"
#include "supervisor/transport/http.h"
#include "tests/fuzz/fz.h"
#include "tests/fuzz/fz_server.h"

/* ---- every request we made, and whether libevent was told it is done ---- */

#define MAX_REQS 64
static struct evhttp_request *reqs[MAX_REQS];
static bool done[MAX_REQS], streaming[MAX_REQS];
static int nreqs;
static char last_sid[64];

static int slot_of(struct evhttp_request *req) {
    for (int i = nreqs - 1; i >= 0; i--)
        if (reqs[i] == req && !done[i]) return i;
    FZ_ASSERT(0, "a reply on a request that was already answered or never made");
    return -1;
}

static void check_json_body(struct evhttp_request *req) {
    struct evbuffer *out = evhttp_request_get_output_buffer(req);
    size_t n = evbuffer_get_length(out);
    const char *ct = evhttp_find_header(evhttp_request_get_output_headers(req), "Content-Type");
    if (!n) return;
    /* The operator routes (/metrics, /status) answer text and HTML too. */
    const char *path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
    if (ct && cc_ops_path(path) && (strncmp(ct, "text/plain;", 11) == 0 || strncmp(ct, "text/html;", 10) == 0))
        return;
    FZ_ASSERT(ct && strcmp(ct, "application/json") == 0, "a body without a JSON content type");
    const char *body = (const char *)evbuffer_pullup(out, -1);
    FZ_ASSERT(fz_json_valid(body, n), "invalid JSON body: %.*s", (int)(n > 2000 ? 2000 : n), body);
}

void __real_evhttp_send_reply(struct evhttp_request *req, int code, const char *reason, struct evbuffer *databuf);
void __wrap_evhttp_send_reply(struct evhttp_request *req, int code, const char *reason, struct evbuffer *databuf);
void __wrap_evhttp_send_reply(struct evhttp_request *req, int code, const char *reason, struct evbuffer *databuf) {
    int i = slot_of(req);
    FZ_ASSERT(!streaming[i], "a plain reply on a request whose SSE stream started");
    FZ_ASSERT(code >= 200 && code <= 599, "status %d", code);
    FZ_ASSERT(databuf == NULL, "replies are built in the request's own buffer");
    check_json_body(req);
    const char *sid = evhttp_find_header(evhttp_request_get_output_headers(req), "Mcp-Session-Id");
    if (sid) snprintf(last_sid, sizeof last_sid, "%s", sid);
    done[i] = true;
    __real_evhttp_send_reply(req, code, reason, databuf);
}

void __real_evhttp_send_reply_start(struct evhttp_request *req, int code, const char *reason);
void __wrap_evhttp_send_reply_start(struct evhttp_request *req, int code, const char *reason);
void __wrap_evhttp_send_reply_start(struct evhttp_request *req, int code, const char *reason) {
    int i = slot_of(req);
    FZ_ASSERT(!streaming[i], "an SSE stream started twice");
    streaming[i] = true;
    const char *sid = evhttp_find_header(evhttp_request_get_output_headers(req), "Mcp-Session-Id");
    if (sid) snprintf(last_sid, sizeof last_sid, "%s", sid);
    __real_evhttp_send_reply_start(req, code, reason);
}

/* Every record is "event: message" or a comment, then "data: <JSON>" lines. */
static void check_sse(const char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        FZ_ASSERT(nl, "an SSE chunk that does not end its line");
        size_t len = (size_t)(nl - (s + i));
        const char *line = s + i;
        if (len > 6 && memcmp(line, "data: ", 6) == 0)
            FZ_ASSERT(fz_json_valid(line + 6, len - 6), "invalid JSON in SSE data: %.*s",
                      (int)(len > 2000 ? 2000 : len), line);
        else
            FZ_ASSERT(len == 0 || (len == 14 && memcmp(line, "event: message", 14) == 0) || line[0] == ':',
                      "unexpected SSE line: %.*s", (int)(len > 200 ? 200 : len), line);
        i += len + 1;
    }
}

void __real_evhttp_send_reply_chunk(struct evhttp_request *req, struct evbuffer *databuf);
void __wrap_evhttp_send_reply_chunk(struct evhttp_request *req, struct evbuffer *databuf);
void __wrap_evhttp_send_reply_chunk(struct evhttp_request *req, struct evbuffer *databuf) {
    int i = slot_of(req);
    FZ_ASSERT(streaming[i], "a chunk before the stream started");
    size_t n = evbuffer_get_length(databuf);
    check_sse((const char *)evbuffer_pullup(databuf, -1), n);
    __real_evhttp_send_reply_chunk(req, databuf);
}

void __real_evhttp_send_reply_end(struct evhttp_request *req);
void __wrap_evhttp_send_reply_end(struct evhttp_request *req);
void __wrap_evhttp_send_reply_end(struct evhttp_request *req) {
    int i = slot_of(req);
    FZ_ASSERT(streaming[i], "a stream ended that never started");
    done[i] = true;
    __real_evhttp_send_reply_end(req);
}

/* ---- building requests ---- */

static enum evhttp_cmd_type command(const char *m, size_t n) {
    static const struct { const char *name; enum evhttp_cmd_type t; } cmds[] = {
        {"GET", EVHTTP_REQ_GET}, {"POST", EVHTTP_REQ_POST}, {"DELETE", EVHTTP_REQ_DELETE},
        {"PUT", EVHTTP_REQ_PUT}, {"HEAD", EVHTTP_REQ_HEAD}, {"OPTIONS", EVHTTP_REQ_OPTIONS},
        {"PATCH", EVHTTP_REQ_PATCH},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strlen(cmds[i].name) == n && memcmp(cmds[i].name, m, n) == 0) return cmds[i].t;
    return EVHTTP_REQ_POST;
}

static const char *line_end(const char *p, const char *end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl : end;
}

/* One request from text[0..n); NULL when its first line names no URI
 * libevent would have accepted (it answers 400 itself then). */
static struct evhttp_request *build(const char *text, size_t n) {
    const char *p = text, *end = text + n, *eol = line_end(p, end);
    const char *sp = memchr(p, ' ', (size_t)(eol - p));
    if (!sp) return NULL;
    char *uri = strndup(sp + 1, (size_t)(eol - sp - 1));
    struct evhttp_uri *elems = uri ? evhttp_uri_parse_with_flags(uri, EVHTTP_URI_NONCONFORMANT) : NULL;
    if (!elems) {
        free(uri);
        return NULL;
    }
    struct evhttp_request *req = evhttp_request_new(NULL, NULL);
    if (!req) abort();
    req->kind = EVHTTP_REQUEST;
    req->type = command(p, (size_t)(sp - p));
    req->uri = uri;
    req->uri_elems = elems;
    req->major = 1;
    req->minor = 1;
    struct evkeyvalq *h = evhttp_request_get_input_headers(req);
    for (p = eol < end ? eol + 1 : end; p < end; ) {
        eol = line_end(p, end);
        size_t len = (size_t)(eol - p);
        if (len && p[len - 1] == '\r') len--;
        const char *next = eol < end ? eol + 1 : end;
        if (len == 0) {
            p = next;
            break;
        }
        const char *colon = memchr(p, ':', len);
        if (colon && colon > p) {
            char *name = strndup(p, (size_t)(colon - p));
            const char *v = colon + 1;
            while (v < p + len && *v == ' ') v++;
            char *val = strndup(v, (size_t)(p + len - v));
            if (!name || !val) abort();
            /* Headers with a NUL are cut there by libevent's parser too. */
            evhttp_add_header(h, name, strcmp(val, "$SID") == 0 ? last_sid : val);
            free(name);
            free(val);
        }
        p = next;
    }
    evbuffer_add(evhttp_request_get_input_buffer(req), p, (size_t)(end - p));
    return req;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct fz_in in = {data, size};
    uint8_t flags = fz_byte(&in);
    struct cc_server *srv = fz_server();
    struct cc_http_transport *t = cc_http_transport_new(srv, flags & 1 ? "fuzz-token" : NULL, flags & 2);
    if (!t) abort();
    nreqs = 0;
    last_sid[0] = '\0';
    bool newest_first = flags & 4, hold = flags & 8;
    const char *text = (const char *)in.p, *end = text + in.n;
    while (text < end && nreqs < MAX_REQS) {
        const char *sep = memmem(text, (size_t)(end - text), "\n%%\n", 4);
        const char *stop = sep ? sep : end;
        struct evhttp_request *req = build(text, (size_t)(stop - text));
        text = sep ? sep + 4 : end;
        if (!req) continue;
        reqs[nreqs] = req;
        done[nreqs] = streaming[nreqs] = false;
        nreqs++;
        cc_http_transport_handle(req, t);
        if (!hold) fz_answer_pending(newest_first);
    }
    fz_answer_pending(newest_first);
    cc_http_transport_free(t);
    for (int i = 0; i < nreqs; i++) FZ_ASSERT(done[i], "request %d was never answered", i);
    FZ_ASSERT(srv->n_inflight == 0, "%d calls still in flight after the transport ended", srv->n_inflight);
    return 0;
}
