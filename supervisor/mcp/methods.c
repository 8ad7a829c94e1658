/* MCP method handlers. The 2025-era lifecycle (initialize, logging) and,
 * on a connection of the stateless 2026-07-28 revision, server/discover;
 * tools/list and tools/call serve both (supervisor/mcp/stateless.h). */
#include "supervisor/mcp/methods.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/msg.h"
#include "protocol/json_convert.h"
#include "protocol/knob.h"
#include "protocol/strbuf.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/mcp/discover.h"
#include "supervisor/mcp/local_tools.h"
#include "supervisor/mcp/logging.h"
#include "supervisor/log.h"
#include "supervisor/pool.h"
#include "supervisor/request.h"

static const char *const versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", NULL};

const char *cc_mcp_negotiate(const char *requested) {
    for (int i = 0; requested && versions[i]; i++)
        if (strcmp(requested, versions[i]) == 0) return versions[i];
    return versions[0];
}

static void do_initialize(struct cc_server *srv, struct cc_conn *c, json_t *id, json_t *params) {
    const char *req = json_string_value(json_object_get(params, "protocolVersion"));
    const char *ver = cc_mcp_negotiate(req);
    snprintf(c->protocol_version, sizeof c->protocol_version, "%s", ver);
    c->initialized = true;
    json_t *res = json_pack(
        "{s:s,s:{s:{s:b},s:{},s:{s:b,s:b}},s:{s:s,s:s,s:s},s:s}", "protocolVersion", ver,
        "capabilities", "tools", "listChanged", 0, "logging", "resources", "subscribe", 0,
        "listChanged", 0, "serverInfo", "name", CC_SERVER_NAME, "title",
        "codecalc", "version", CC_VERSION, "instructions", srv->instructions ? srv->instructions : "");
    cc_rpc_send_result(c, id, res);
    json_decref(res);
}

#define PAGE_SIZE 100

static void do_tools_list(struct cc_server *srv, struct cc_conn *c, json_t *id, json_t *params) {
    size_t start = 0;
    const char *cursor = json_string_value(json_object_get(params, "cursor"));
    if (cursor) {
        char *end;
        unsigned long v = strtoul(cursor, &end, 10);
        if (!*cursor || *end || v > srv->reg.n) {
            cc_rpc_send_error(c, id, -32602, "Invalid params: unknown cursor");
            return;
        }
        start = v;
    }
    size_t stop = start + PAGE_SIZE < srv->reg.n ? start + PAGE_SIZE : srv->reg.n;
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_puts(&sb, "{\"jsonrpc\":\"2.0\",\"id\":");
    cc_json_emit(&sb, id);
    cc_sb_puts(&sb, ",\"result\":{\"tools\":[");
    for (size_t i = start; i < stop; i++) {
        if (i > start) cc_sb_putc(&sb, ',');
        cc_sb_puts(&sb, srv->reg.e[i].listing);
    }
    cc_sb_putc(&sb, ']');
    if (stop < srv->reg.n) cc_sb_printf(&sb, ",\"nextCursor\":\"%zu\"", stop);
    cc_sb_puts(&sb, "}}");
    cc_conn_send(c, sb.data, sb.len);
    cc_sb_free(&sb);
}

static void do_set_level(struct cc_conn *c, json_t *id, json_t *params) {
    int lvl = cc_mcp_level_parse(json_string_value(json_object_get(params, "level")));
    if (lvl < 0) {
        cc_rpc_send_error(c, id, -32602, "Invalid params: level must be one of debug, info, notice, "
                                         "warning, error, critical, alert, emergency");
        return;
    }
    c->log_level = lvl;
    c->log_subscribed = true; /* before the answer: a transport may copy it then */
    json_t *empty = json_object();
    cc_rpc_send_result(c, id, empty);
    json_decref(empty);
    cc_mcp_log_subscribe(c);
}

/* server/discover: only on a connection of the stateless revision. */
static void do_discover(struct cc_server *srv, struct cc_conn *c, json_t *id) {
    json_t *res = cc_mcp_discover_result(srv);
    if (res) cc_rpc_send_result(c, id, res);
    else cc_rpc_send_error(c, id, -32603, "Internal error: out of memory");
    json_decref(res);
}

static void do_cancelled(struct cc_server *srv, struct cc_conn *c, json_t *params) {
    json_t *rid = json_object_get(params, "requestId");
    if (!rid) return;
    for (struct cc_req *r = srv->inflight; r; r = r->next) {
        if (r->conn != c || !json_equal(r->rpc_id, rid) || r->cancelled) continue;
        r->cancelled = true;
        if (r->pool) cc_pool_cancel(r->pool, r);
        cc_req_free(r);
        return;
    }
}

static int build_frame(struct cc_req *r, json_t *args) {
    return cc_msg_request(&r->frame, r->wid, r->tool->name, args, (uint64_t)r->deadline_ms);
}

/* Is id the id of a call of c's still in flight? Its answer and this one
 * would carry the same id, and a cancellation could stop either. (Over HTTP
 * every request has a connection of its own: the transport checks the MCP
 * session's requests itself.) */
static bool id_in_flight(const struct cc_server *srv, const struct cc_conn *c, const json_t *id) {
    for (const struct cc_req *r = srv->inflight; r; r = r->next)
        if (r->conn == c && !r->cancelled && json_equal(r->rpc_id, id)) return true;
    return false;
}

/* A run's wall clock is its "timeout" argument (compile and run share it,
 * the worker enforces it). A worker that stops answering (stopped, hung)
 * held such a call for the tool's whole deadline, 900 s for a 2 s run; it
 * is given up on CODECALC_RUN_DEADLINE_MARGIN_S (60) after the timeout, counted from when a
 * worker took the call (time queued behind busy workers is not the
 * worker's fault), instead: the call gets -32010 and the worker is
 * replaced, its sandbox dies with it. Without a
 * timeout the largest one any such tool accepts applies. Dependencies to
 * install (listed, or a PEP 723 block) and other providers keep the
 * tool's deadline: their time is not the program's. */
#define RUN_TIMEOUT_MAX_S 300

static int64_t run_margin_s(void) {
    static int64_t margin = -1;
    if (margin < 0) margin = cc_knob(CC_KNOB_RUN_DEADLINE_MARGIN_S);
    return margin;
}

static void bound_by_timeout(struct cc_server *srv, struct cc_req *r, json_t *args) {
    if (srv->test_deadline_ms > 0) return;
    json_t *deps = json_object_get(args, "dependencies");
    const char *code = json_string_value(json_object_get(args, "code"));
    const char *provider = json_string_value(json_object_get(args, "provider"));
    if (json_array_size(deps) > 0 || (code && strstr(code, "# /// script")) ||
        (provider && strcmp(provider, "local") != 0))
        return;
    json_t *tv = json_object_get(args, "timeout");
    json_int_t t = json_is_integer(tv) ? json_integer_value(tv) : RUN_TIMEOUT_MAX_S;
    if (t < 1) t = 1;
    if (t > RUN_TIMEOUT_MAX_S) t = RUN_TIMEOUT_MAX_S;
    int64_t ms = ((int64_t)t + run_margin_s()) * 1000;
    if (ms < r->deadline_ms) r->run_deadline_ms = ms;
}

void cc_mcp_tools_call(struct cc_server *srv, struct cc_conn *c, json_t *id, json_t *params) {
    if (!id) return; /* a call sent as a notification has nobody to answer */
    const char *name = json_string_value(json_object_get(params, "name"));
    if (!name) {
        cc_rpc_send_error(c, id, -32602, "Invalid params: tools/call needs a tool name");
        return;
    }
    const struct cc_reg_entry *e = cc_registry_find(&srv->reg, name);
    if (!e) {
        char msg[300];
        snprintf(msg, sizeof msg, "Unknown tool: %.200s", name);
        cc_rpc_send_error(c, id, -32602, msg);
        return;
    }
    json_t *args = json_object_get(params, "arguments");
    json_t *empty = NULL;
    if (!args || json_is_null(args)) args = empty = json_object();
    json_t *token = json_object_get(json_object_get(params, "_meta"), "progressToken");
    struct cc_req *r = cc_req_new(srv, c, id, e->tool, token);
    if (!r) {
        json_decref(empty);
        cc_rpc_send_error(c, id, -32603, "Internal error: out of memory");
        return;
    }
    char why[512];
    if (cc_validator_check(e->validator, args, why, sizeof why) < 0) {
        char text[700];
        int n = snprintf(text, sizeof text, "invalid arguments for tool '%s': %s", name, why);
        cc_req_answer_result_error_text(r, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
        json_decref(empty);
        return;
    }
    const struct cc_tool *t = e->tool;
    json_t *sid = json_object_get(args, "session_id");
    /* A session another server holds: that server answers (cluster). */
    if (json_is_string(sid) && !c->forwarded && cc_cluster_forward(srv, r, params, args)) {
        json_decref(empty);
        return;
    }
    if (t->local) {
        t->local(srv, r, args);
    } else if ((t->flags & CC_TOOL_SESSION_EXEC) && sid && !json_is_null(sid) &&
               cc_sessions_intercept(srv, r, args)) {
        /* the sessions layer answers it */
    } else if (build_frame(r, args) < 0) {
        cc_req_answer_fail(r, "resource_exhausted", "the arguments are too large or too deeply nested");
    } else {
        if (t->flags & CC_TOOL_TIMEOUT_DEADLINE) bound_by_timeout(srv, r, args);
        cc_pool_submit(srv->pools[t->pool], r);
    }
    json_decref(empty);
}

void cc_mcp_dispatch(struct cc_server *srv, struct cc_conn *c, json_t *id, const char *method,
                     json_t *params) {
    /* Any request (a ping too) answered with the id of a call in flight
     * could be taken for that call's answer. */
    if (id && srv->inflight && id_in_flight(srv, c, id)) {
        cc_rpc_send_error(c, id, -32600, CC_RPC_ID_IN_USE);
        return;
    }
    json_t *none = NULL;
    if (!params) params = none = json_object();
    if (strcmp(method, "initialize") == 0 && id) do_initialize(srv, c, id, params);
    else if (strcmp(method, "ping") == 0 && id) {
        json_t *empty = json_object();
        cc_rpc_send_result(c, id, empty);
        json_decref(empty);
    } else if (strcmp(method, "tools/list") == 0 && id) do_tools_list(srv, c, id, params);
    else if (strcmp(method, "tools/call") == 0) cc_mcp_tools_call(srv, c, id, params);
    else if (strcmp(method, "logging/setLevel") == 0 && id) do_set_level(c, id, params);
    else if (strcmp(method, "server/discover") == 0 && id &&
             strcmp(c->protocol_version, CC_MCP_STATELESS_VERSION) == 0) do_discover(srv, c, id);
    else if (strcmp(method, "notifications/cancelled") == 0) do_cancelled(srv, c, params);
    else if (strncmp(method, "resources/", 10) == 0 && id && cc_resources_dispatch(srv, c, id, method, params)) {
    }
    else if (strncmp(method, "notifications/", 14) == 0) { /* initialized, roots, ...: nothing to do */
    } else if (id) {
        char msg[300];
        snprintf(msg, sizeof msg, "Method not found: %.200s", method);
        cc_rpc_send_error(c, id, -32601, msg);
    }
    json_decref(none);
}
