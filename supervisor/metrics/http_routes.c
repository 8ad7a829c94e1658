#include "supervisor/metrics/http_routes.h"

#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "protocol/base64.h"
#include "protocol/json_convert.h"

bool cc_ops_path(const char *path) {
    return path && (!strcmp(path, "/metrics") || !strcmp(path, "/status") || !strcmp(path, "/status.json"));
}

bool cc_ops_basic_matches(const char *auth, const char *token, bool (*equal)(const char *, const char *)) {
    if (!auth || strncasecmp(auth, "Basic ", 6) != 0) return false;
    size_t n;
    unsigned char *raw = cc_base64_decode(auth + 6, strlen(auth + 6), &n);
    if (!raw) return false;
    char *text = strndup((const char *)raw, n);
    free(raw);
    char *colon = text ? strchr(text, ':') : NULL;
    bool ok = colon && equal(token, colon + 1);
    free(text);
    return ok;
}

static void reply(struct evhttp_request *req, const char *type, struct cc_strbuf *body) {
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", type);
    evhttp_add_header(h, "Cache-Control", "no-store");
    evhttp_add_header(h, "X-Content-Type-Options", "nosniff");
    if (strncmp(type, "text/html", 9) == 0)
        evhttp_add_header(h, "Content-Security-Policy",
                          "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                          "connect-src 'self'; base-uri 'none'; frame-ancestors 'none'");
    if (evhttp_request_get_command(req) != EVHTTP_REQ_HEAD)
        evbuffer_add(evhttp_request_get_output_buffer(req), body->data ? body->data : "", body->len);
    evhttp_send_reply(req, 200, "OK", NULL);
}

void cc_ops_serve(struct evhttp_request *req, const char *path, struct cc_server *srv,
                  const struct cc_metrics_http *http) {
    enum evhttp_cmd_type cmd = evhttp_request_get_command(req);
    if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_HEAD) {
        evhttp_add_header(evhttp_request_get_output_headers(req), "Allow", "GET, HEAD");
        evhttp_send_reply(req, 405, "Method Not Allowed", NULL);
        return;
    }
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    if (strcmp(path, "/metrics") == 0) {
        cc_metrics_render(&sb, srv, http);
        reply(req, "text/plain; version=0.0.4; charset=utf-8", &sb);
    } else if (strcmp(path, "/status") == 0) {
        cc_metrics_status_page(&sb, srv, http);
        reply(req, "text/html; charset=utf-8", &sb);
    } else {
        json_t *snap = cc_metrics_snapshot(srv, http);
        cc_json_emit(&sb, snap);
        json_decref(snap);
        reply(req, "application/json", &sb);
    }
    cc_sb_free(&sb);
}
