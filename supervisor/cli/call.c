/* `codecalc call` and in-process tool calls (see call.h). */
#include "supervisor/cli/call.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "supervisor/cli/cli.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/mcp/tool_table.h"

struct capture {
    struct cc_conn conn;
    char *reply;
};

static void cap_send(struct cc_conn *c, const char *msg, size_t len) {
    struct capture *cap = c->transport;
    if (cap->reply) return;
    /* Progress notifications are not the answer. */
    static const char resp[] = "{\"jsonrpc\":\"2.0\",\"id\":";
    if (len < sizeof resp - 1 || memcmp(msg, resp, sizeof resp - 1) != 0) return;
    cap->reply = strndup(msg, len);
    event_base_loopexit(c->srv->base, NULL);
}

static void cap_release(struct cc_conn *c) { (void)c; }

static const struct cc_conn_ops cap_ops = {cap_send, cap_release};

json_t *cc_cli_call(struct cc_server *srv, const char *tool, json_t *args) {
    struct capture cap = {0};
    cc_conn_init(&cap.conn, srv, &cap_ops);
    cap.conn.transport = &cap;
    json_t *params = json_pack("{s:s,s:O}", "name", tool, "arguments", args);
    json_t *id = json_integer(1);
    if (params && id) cc_mcp_tools_call(srv, &cap.conn, id, params);
    if (!cap.reply) event_base_dispatch(srv->base);
    json_decref(params);
    json_decref(id);
    cap.conn.closed = true;
    json_error_t je;
    json_t *msg = cap.reply ? cc_json_parse(cap.reply, strlen(cap.reply), &je) : NULL;
    free(cap.reply);
    return msg;
}

json_t *cc_cli_result(json_t *msg) {
    json_t *sc = json_object_get(json_object_get(msg, "result"), "structuredContent");
    json_t *inner = json_object_get(sc, "result");
    return json_is_array(inner) && json_object_size(sc) == 1 ? inner : sc;
}

/* Print what the call answered; exit status 0 when the result is ok. */
static int print_reply(json_t *msg) {
    json_t *res = json_object_get(msg, "result");
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    int status = 1;
    json_t *show = cc_cli_result(msg);
    if (show) {
        cc_json_emit(&sb, show);
        status = json_is_array(show) || json_is_true(json_object_get(show, "ok")) ? 0 : 1;
    } else if (res) {
        json_t *text = json_object_get(json_array_get(json_object_get(res, "content"), 0), "text");
        cc_sb_puts(&sb, json_string_value(text) ? json_string_value(text) : "");
    } else {
        cc_json_emit(&sb, json_object_get(msg, "error"));
    }
    printf("%s\n", sb.data ? sb.data : "");
    cc_sb_free(&sb);
    return status;
}

/* Does this call read or write the state directory (and so need its lock,
 * which a running server holds)? A tool whose row has the state_dir flag
 * always; a session_exec tool (execute_code) only with a session_id, so a
 * plain one-shot run works beside a running server. An unknown tool needs
 * nothing: the call answers "unknown tool". */
static bool needs_state(const char *tool, json_t *args) {
    const struct cc_tool *t = cc_tool_lookup(tool);
    if (!t) return false;
    json_t *sid = json_object_get(args, "session_id");
    return (t->flags & CC_TOOL_STATE_DIR) || ((t->flags & CC_TOOL_SESSION_EXEC) && sid && !json_is_null(sid));
}

int cc_cli_run_call(int argc, char **argv) {
    if (argc < 2) {
        fputs("usage: codecalc call TOOL 'JSON-ARGUMENTS'\n", stderr);
        return 2;
    }
    json_error_t je;
    const char *text = argc > 2 ? argv[2] : "{}";
    json_t *args = cc_json_parse(text, strlen(text), &je);
    if (!json_is_object(args)) {
        fprintf(stderr, "codecalc call: arguments must be a JSON object (%s)\n", args ? "not an object" : je.text);
        json_decref(args);
        return 2;
    }
    struct cc_server srv;
    if (cc_server_init(&srv, false, needs_state(argv[1], args)) < 0) {
        json_decref(args);
        return 2;
    }
    json_t *msg = cc_cli_call(&srv, argv[1], args);
    json_decref(args);
    int status = srv.fatal ? 2 : msg ? print_reply(msg) : 1;
    json_decref(msg);
    cc_server_free(&srv);
    return status;
}
