/* server/discover reuses the initialize handler of supervisor/mcp/methods.c through a private
 * in-memory connection, so the identity and the instructions (which state the
 * sandbox tier this process resolved) are written in one place only. */
#include "supervisor/mcp/discover.h"

#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "supervisor/mcp/methods.h"

/* The legacy revisions initialize accepts (cc_mcp_negotiate echoes a
 * supported one and answers the newest for anything else). */
static const char *const legacy[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", NULL};

bool cc_mcp_version_supported(const char *v) {
    if (!v) return false;
    if (strcmp(v, CC_MCP_STATELESS_VERSION) == 0) return true;
    return strcmp(cc_mcp_negotiate(v), v) == 0;
}

json_t *cc_mcp_supported_versions(void) {
    json_t *a = json_array();
    if (!a) return NULL;
    json_array_append_new(a, json_string(CC_MCP_STATELESS_VERSION));
    for (int i = 0; legacy[i]; i++)
        if (cc_mcp_version_supported(legacy[i])) json_array_append_new(a, json_string(legacy[i]));
    return a;
}

struct capture {
    struct cc_conn conn;
    json_t *msg;
};

static void cap_send(struct cc_conn *c, const char *msg, size_t len) {
    struct capture *cap = c->transport;
    json_error_t je;
    if (!cap->msg) cap->msg = cc_json_parse(msg, len, &je);
}

static void cap_release(struct cc_conn *c) { (void)c; }

static const struct cc_conn_ops cap_ops = {cap_send, cap_release};

/* The result initialize would send, or NULL. */
static json_t *initialize_result(struct cc_server *srv) {
    struct capture cap = {0};
    cc_conn_init(&cap.conn, srv, &cap_ops);
    cap.conn.transport = &cap;
    json_t *id = json_integer(0);
    json_t *params = json_pack("{s:s}", "protocolVersion", legacy[0]);
    if (id && params) cc_mcp_dispatch(srv, &cap.conn, id, "initialize", params);
    json_decref(id);
    json_decref(params);
    cap.conn.closed = true;
    json_t *res = json_incref(json_object_get(cap.msg, "result"));
    json_decref(cap.msg);
    return res;
}

json_t *cc_mcp_discover_result(struct cc_server *srv) {
    json_t *init = initialize_result(srv);
    if (!init) return NULL;
    json_t *caps = json_deep_copy(json_object_get(init, "capabilities"));
    if (!caps) caps = json_object();
    /* logging/setLevel does not exist in the stateless revision. */
    json_object_del(caps, "logging");
    json_t *res = json_pack("{s:o,s:o,s:O,s:O}", "supportedVersions", cc_mcp_supported_versions(),
                            "capabilities", caps, "serverInfo", json_object_get(init, "serverInfo"),
                            "instructions", json_object_get(init, "instructions"));
    json_decref(init);
    return res;
}

bool cc_mcp_cache_hint(const char *method, long *ttl_ms, const char **scope) {
    static const struct {
        const char *method;
        long ttl;
        const char *scope;
    } hints[] = {
        {"tools/list", 60000, "public"},
        {"resources/list", 10000, "public"},
        {"resources/templates/list", 60000, "public"},
        {"resources/read", 0, "private"},
        {"server/discover", 60000, "public"},
    };
    for (size_t i = 0; method && i < sizeof hints / sizeof hints[0]; i++)
        if (strcmp(hints[i].method, method) == 0) {
            *ttl_ms = hints[i].ttl;
            *scope = hints[i].scope;
            return true;
        }
    return false;
}
