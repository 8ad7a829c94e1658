/* The stateless revision on any transport (stateless.h). */
#include "supervisor/mcp/stateless.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "supervisor/conn.h"
#include "supervisor/mcp/discover.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/server.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"

bool cc_rpc_is_response(const char *msg, size_t len) {
    static const char prefix[] = "{\"jsonrpc\":\"2.0\",\"id\":";
    return len >= sizeof prefix - 1 && memcmp(msg, prefix, sizeof prefix - 1) == 0;
}

/* Length of the JSON id token (a number or a string) at the start of p,
 * or 0 when it is neither. */
static size_t id_token_len(const char *p, size_t n) {
    size_t i = 0;
    if (n && p[0] == '"') {
        for (i = 1; i < n; i++) {
            if (p[i] == '\\') i++;
            else if (p[i] == '"') return i + 1;
        }
        return 0;
    }
    while (i < n && (p[i] == '-' || (p[i] >= '0' && p[i] <= '9'))) i++;
    return i;
}

size_t cc_stateless_splice(const char *method, const char *msg, size_t len, char suffix[static 160], int *status) {
    static const char prefix[] = "{\"jsonrpc\":\"2.0\",\"id\":";
    static const char result[] = ",\"result\":{";
    static const char unknown[] = ",\"error\":{\"code\":-32601,";
    suffix[0] = '\0';
    size_t at = sizeof prefix - 1;
    if (len < at || memcmp(msg, prefix, at) != 0) return len;
    size_t idl = id_token_len(msg + at, len - at);
    if (idl == 0) return len;
    at += idl;
    const char *rest = msg + at;
    size_t left = len - at;
    if (left >= sizeof unknown - 1 && memcmp(rest, unknown, sizeof unknown - 1) == 0) *status = 404;
    if (left < sizeof result - 1 + 2 || memcmp(rest, result, sizeof result - 1) != 0 ||
        memcmp(msg + len - 2, "}}", 2) != 0)
        return len;
    long ttl;
    const char *scope;
    bool hint = cc_mcp_cache_hint(method, &ttl, &scope);
    /* An empty result object ("{}") takes no leading comma. */
    int n = snprintf(suffix, 160, "%s\"resultType\":\"complete\"", msg[len - 3] != '{' ? "," : "");
    if (hint && n > 0 && n < 160)
        n += snprintf(suffix + n, 160 - (size_t)n, ",\"ttlMs\":%ld,\"cacheScope\":\"%s\"", ttl, scope);
    if (n <= 0 || n >= 158) { /* cannot happen with our constants; send as is */
        suffix[0] = '\0';
        return len;
    }
    memcpy(suffix + n, "}}", 3);
    return len - 2;
}


/* ---- stateless requests on a stream transport ----------------------------- */

/* One stateless request: its own connection, so its answer can be spliced
 * and its progress notifications still reach the stream. */
struct stateless_ex {
    struct cc_conn conn;
    struct cc_conn *parent;
    json_t *id;                 /* owned */
    char method[48];
    struct stateless_ex *prev, *next;
};

static struct stateless_ex *live; /* every stateless request still open */

static void ex_unlink(struct stateless_ex *ex) {
    if (ex->prev) ex->prev->next = ex->next;
    else if (live == ex) live = ex->next;
    if (ex->next) ex->next->prev = ex->prev;
    ex->prev = ex->next = NULL;
}

static void ex_send(struct cc_conn *c, const char *msg, size_t len) {
    struct stateless_ex *ex = c->transport;
    if (!cc_rpc_is_response(msg, len)) {
        cc_conn_send(ex->parent, msg, len); /* progress and log records */
        return;
    }
    char suffix[160];
    int status = 200;
    size_t keep = cc_stateless_splice(ex->method, msg, len, suffix, &status);
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_put(&sb, msg, keep);
    cc_sb_puts(&sb, suffix);
    cc_conn_send(ex->parent, sb.data, sb.len);
    cc_sb_free(&sb);
    /* Answered: the request is over (closing cannot free ex under us: the
     * caller holds a reference). */
    ex_unlink(ex);
    cc_conn_close(c);
}

static void ex_release(struct cc_conn *c) {
    struct stateless_ex *ex = c->transport;
    ex_unlink(ex);
    json_decref(ex->id);
    free(ex);
}

static const struct cc_conn_ops ex_ops = {ex_send, ex_release};

static void run_stateless(struct cc_server *srv, struct cc_conn *parent, json_t *id, const char *method,
                          json_t *params) {
    /* Each request runs on a connection of its own: the ids of the stream's
     * requests in flight are checked here (docs/contract.md). */
    for (struct stateless_ex *o = live; id && o; o = o->next)
        if (o->parent == parent && json_equal(o->id, id)) {
            cc_rpc_send_error(parent, id, -32600, CC_RPC_ID_IN_USE);
            return;
        }
    struct stateless_ex *ex = calloc(1, sizeof *ex);
    if (!ex) {
        cc_rpc_send_error(parent, id, -32603, "Internal error: out of memory");
        return;
    }
    cc_conn_init(&ex->conn, srv, &ex_ops);
    ex->conn.transport = ex;
    ex->conn.initialized = true;
    snprintf(ex->conn.protocol_version, sizeof ex->conn.protocol_version, "%s", CC_MCP_STATELESS_VERSION);
    ex->parent = parent;
    ex->id = json_incref(id);
    snprintf(ex->method, sizeof ex->method, "%s", method);
    ex->next = live;
    if (live) live->prev = ex;
    live = ex;
    cc_conn_ref(&ex->conn);
    cc_mcp_dispatch(srv, &ex->conn, id, method, params);
    cc_conn_unref(&ex->conn);
}

/* notifications/cancelled naming one of parent's stateless requests. */
static bool cancel_stateless(struct cc_server *srv, struct cc_conn *parent, json_t *params) {
    json_t *rid = json_object_get(params, "requestId");
    for (struct stateless_ex *ex = live; rid && ex; ex = ex->next) {
        if (ex->parent != parent || !json_equal(ex->id, rid)) continue;
        cc_mcp_dispatch(srv, &ex->conn, NULL, "notifications/cancelled", params);
        ex_unlink(ex);
        cc_conn_close(&ex->conn); /* a cancelled request gets no answer */
        return true;
    }
    return false;
}

/* A text to look for, holding a '/': before is where its first '/' is
 * (filled in by needles_ready). */
struct needle {
    const char *s;
    size_t before, len;
};

static void needles_ready(struct needle *k, size_t n) {
    for (size_t i = 0; i < n; i++) {
        k[i].len = strlen(k[i].s);
        k[i].before = (size_t)(strchr(k[i].s, '/') - k[i].s);
    }
}

/* Does text contain one of the needles? One pass over the slashes of the
 * line (memchr) instead of a memmem per needle: this runs on every line,
 * and a tools/call line holds one or two slashes. */
static bool mentions_any(const char *text, size_t len, const struct needle *needles, size_t n) {
    const char *end = text + len;
    for (const char *p = text; (p = memchr(p, '/', (size_t)(end - p))); p++)
        for (size_t i = 0; i < n; i++) {
            const struct needle *k = &needles[i];
            if ((size_t)(p - text) >= k->before && (size_t)(end - p) >= k->len - k->before &&
                memcmp(p - k->before, k->s, k->len) == 0)
                return true;
        }
    return false;
}

bool cc_stateless_stream_handle(struct cc_server *srv, struct cc_conn *parent, const char *text, size_t len) {
    static struct needle cancel[] = {{"notifications/cancelled", 0, 0}};
    static struct needle stateless[] = {{META_VERSION, 0, 0}, {"server/discover", 0, 0}};
    static bool ready;
    if (!ready) {
        needles_ready(cancel, 1);
        needles_ready(stateless, 2);
        ready = true;
    }
    bool maybe_cancel = live && mentions_any(text, len, cancel, 1);
    if (!maybe_cancel && !mentions_any(text, len, stateless, 2)) return false;
    json_error_t je;
    json_t *msg = cc_json_parse_client(text, len, &je);
    json_t *id = json_object_get(msg, "id");
    const char *method = json_string_value(json_object_get(msg, "method"));
    json_t *params = json_object_get(msg, "params");
    const char *ver = json_string_value(json_object_get(json_object_get(params, "_meta"), META_VERSION));
    bool handled = false;
    if (!json_is_object(msg) || !method || (params && !json_is_object(params)) ||
        (id && !json_is_string(id) && !json_is_integer(id))) {
        handled = false; /* malformed: the usual path answers it */
    } else if (strcmp(method, "notifications/cancelled") == 0) {
        handled = maybe_cancel && cancel_stateless(srv, parent, params);
    } else if (!ver && strcmp(method, "server/discover") != 0) {
        handled = false;
    } else if (ver && !cc_mcp_version_supported(ver)) {
        handled = true;
        if (id) {
            json_t *data = json_pack("{s:o,s:s}", "supported", cc_mcp_supported_versions(), "requested", ver);
            struct cc_strbuf sb;
            cc_sb_init(&sb);
            cc_rpc_error_text(&sb, id, -32602, "Unsupported protocol version", data);
            cc_conn_send(parent, sb.data, sb.len);
            cc_sb_free(&sb);
            json_decref(data);
        }
    } else if (!id) {
        handled = true; /* a stateless notification changes nothing */
    } else {
        handled = true;
        run_stateless(srv, parent, id, method, params);
    }
    json_decref(msg);
    return handled;
}

void cc_stateless_stream_close(struct cc_conn *parent) {
    struct stateless_ex *ex = live;
    while (ex) {
        struct stateless_ex *next = ex->next;
        if (ex->parent == parent) {
            ex_unlink(ex);
            cc_conn_close(&ex->conn);
        }
        ex = next;
    }
}
