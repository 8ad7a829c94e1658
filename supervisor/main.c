/* codecalc: the command line. With no arguments (or arguments it does not
 * recognise, since an MCP client may pass anything) it serves MCP on stdio. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "supervisor/transport/http.h"
#include "supervisor/log.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/pool.h"
#include "supervisor/server.h"
#include "supervisor/transport/stdio.h"

static const char usage[] =
    "usage: codecalc [COMMAND]\n"
    "\n"
    "With no command, serve MCP over stdio (what an MCP client launches).\n"
    "\n"
    "commands:\n"
    "  call TOOL 'JSON'   run one tool with the given arguments and print its result\n"
    "                     (exit 0 when the result is ok, 1 otherwise)\n"
    "  tools              list the registered tools\n"
    "  serve-http [--host H] [--port P]\n"
    "                     serve MCP over Streamable HTTP (default 127.0.0.1:8000)\n"
    "  -h, --help         this text\n"
    "  -V, --version      print the version\n"
    "\n"
    "environment: CODECALC_HOME (state, default ~/.codecalc), CODECALC_TOOLS (tool groups),\n"
    "CODECALC_RUNTIME_PATH (where language runtimes are found),\n"
    "CODECALC_LOG (debug|info|warning|error, default warning; logs go to stderr).\n"
    "`codecalc call` works beside a running server except for calls that use the state\n"
    "directory (session_*, run_*, install_package, execute_code with a session_id).\n";

/* ---- `codecalc call` --------------------------------------------------- */

struct capture {
    struct cc_conn conn;
    char *reply;
};

static void cap_send(struct cc_conn *c, const char *msg, size_t len) {
    struct capture *cap = c->transport;
    if (cap->reply) return;
    cap->reply = strndup(msg, len);
    event_base_loopexit(c->srv->base, NULL);
}

static void cap_release(struct cc_conn *c) { (void)c; }

static const struct cc_conn_ops cap_ops = {cap_send, cap_release};

static int print_reply(const char *reply) {
    json_error_t je;
    json_t *msg = cc_json_parse(reply, strlen(reply), &je);
    json_t *res = json_object_get(msg, "result");
    int status = 1;
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    if (res) {
        json_t *sc = json_object_get(res, "structuredContent");
        if (sc) {
            json_t *inner = json_object_get(sc, "result");
            json_t *show = json_is_array(inner) && json_object_size(sc) == 1 ? inner : sc;
            cc_json_emit(&sb, show);
            json_t *ok = json_object_get(sc, "ok");
            status = json_is_array(inner) || json_is_true(ok) ? 0 : 1;
        } else {
            json_t *text = json_object_get(json_array_get(json_object_get(res, "content"), 0), "text");
            cc_sb_puts(&sb, json_string_value(text) ? json_string_value(text) : "");
        }
    } else {
        cc_json_emit(&sb, json_object_get(msg, "error"));
    }
    printf("%s\n", sb.data ? sb.data : "");
    cc_sb_free(&sb);
    json_decref(msg);
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

static int cmd_call(int argc, char **argv) {
    if (argc < 3) {
        fputs("usage: codecalc call TOOL 'JSON-ARGUMENTS'\n", stderr);
        return 2;
    }
    json_error_t je;
    const char *text = argc > 3 ? argv[3] : "{}";
    json_t *args = cc_json_parse(text, strlen(text), &je);
    if (!json_is_object(args)) {
        fprintf(stderr, "codecalc call: arguments must be a JSON object (%s)\n", args ? "not an object" : je.text);
        json_decref(args);
        return 2;
    }
    struct cc_server srv;
    if (cc_server_init(&srv, false, needs_state(argv[2], args)) < 0) return 2;
    struct capture cap = {0};
    cc_conn_init(&cap.conn, &srv, &cap_ops);
    cap.conn.transport = &cap;
    json_t *params = json_pack("{s:s,s:o}", "name", argv[2], "arguments", args);
    json_t *id = json_integer(1);
    cc_mcp_tools_call(&srv, &cap.conn, id, params);
    if (!cap.reply) event_base_dispatch(srv.base);
    json_decref(params);
    json_decref(id);
    int status = srv.fatal ? 2 : cap.reply ? print_reply(cap.reply) : 1;
    free(cap.reply);
    cap.conn.closed = true;
    cc_server_free(&srv);
    return status;
}

static int cmd_tools(void) {
    struct cc_registry reg;
    char err[1024];
    if (cc_registry_load(&reg, getenv("CODECALC_TOOLS"), err, sizeof err) < 0) {
        fprintf(stderr, "codecalc: %s\n", err);
        return 2;
    }
    size_t bytes = 0;
    for (size_t i = 0; i < reg.n; i++) {
        const struct cc_tool *t = reg.e[i].tool;
        size_t len = strlen(t->listing);
        bytes += len + (i > 0);
        printf("%-26s %-13s %5zu  %s\n", t->name, t->group, len, t->title);
    }
    printf("%zu tools, %zu bytes of tools/list entries\n", reg.n, bytes);
    cc_registry_free(&reg);
    return 0;
}

int main(int argc, char **argv) {
    if (cc_log_init() < 0) {
        fputs("codecalc: CODECALC_LOG must be one of debug, info, warning, error\n", stderr);
        return 2;
    }
    const char *cmd = argc > 1 ? argv[1] : "";
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        printf("codecalc %s\n", CC_VERSION);
        return 0;
    }
    if (strcmp(cmd, "call") == 0) return cmd_call(argc, argv);
    if (strcmp(cmd, "tools") == 0) return cmd_tools();
    if (strcmp(cmd, "serve-http") == 0) {
        return cc_http_main(argc - 2, argv + 2);
    }
    struct cc_server srv;
    if (cc_server_init(&srv, true, true) < 0) return 2;
    int rc = cc_stdio_serve(&srv);
    if (srv.fatal) rc = 2;
    cc_server_free(&srv);
    return rc;
}
