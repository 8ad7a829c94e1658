/* JSON-RPC dispatch and the MCP lifecycle (2025-era revisions). */
#include "supervisor/server.h"
#include "protocol/text_knob.h"
#include "workers/common/deps.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "protocol/json_convert.h"
#include "protocol/json_fast.h"
#include "protocol/knob.h"
#include "protocol/strbuf.h"
#include "supervisor/mcp/instructions.h"
#include "supervisor/mcp/local_tools.h"
#include "supervisor/log.h"
#include "supervisor/native_check.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/metrics/metrics.h"
#include "supervisor/pool.h"
#include "supervisor/request.h"
#include "supervisor/transport/id_sniff.h"

static void on_sigchld(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    cc_pool_reap(arg);
}

static void on_shrink(evutil_socket_t fd, short what, void *arg) {
    (void)fd, (void)what;
    struct cc_server *srv = arg;
    for (int i = 0; i < CC_WORKER_POOLS; i++) cc_pool_shrink(srv->pools[i], 30000);
}

int cc_server_bindir(char *out, size_t cap) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = '\0';
    if ((size_t)snprintf(out, cap, "%s", exe) >= cap) return -1;
    return 0;
}

int cc_server_init(struct cc_server *srv, bool prefork, bool stateful) {
    memset(srv, 0, sizeof *srv);
    srv->stateful = stateful;
    cc_metrics_started();
    char err[1024];
    if (cc_registry_load(&srv->reg, cc_text(CC_TEXT_TOOLS), err, sizeof err) < 0) {
        fprintf(stderr, "codecalc: %s\n", err);
        return -1;
    }
    srv->instructions = cc_mcp_instructions(&srv->reg);
    if (cc_server_bindir(srv->bindir, sizeof srv->bindir) < 0) {
        fprintf(stderr, "codecalc: cannot locate the worker binaries\n");
        return -1;
    }
    if (cc_native_check(srv->bindir, err, sizeof err) < 0) {
        fprintf(stderr, "codecalc: %s\n", err);
        return -1;
    }
    /* The changelist batches the epoll changes of one loop turn: a call
     * toggles reading and writing on its sockets several times, and each
     * toggle would otherwise be its own system call. */
    struct event_config *cfg = event_config_new();
    if (!cfg) return -1;
    event_config_set_flag(cfg, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
    srv->base = event_base_new_with_config(cfg);
    event_config_free(cfg);
    if (!srv->base) return -1;
    srv->test_deadline_ms = (int)cc_knob(CC_KNOB_TEST_DEADLINE_MS);
    srv->prefork = prefork;
    /* Before any worker exists: boxes show it to programs (per-run
     * dependencies); a failure only means dependencies cannot be cached. */
    (void)cc_deps_make_root();
    for (int i = 0; i < CC_WORKER_POOLS; i++) {
        const struct cc_pool_def *d = &cc_pool_defs[i];
        int max = d->max_env ? (int)cc_knob_or(cc_knob_find(d->max_env), d->max) : d->max;
        if (!(srv->pools[i] = cc_pool_new(srv, i, prefork ? d->min : 0, max))) return -1;
    }
    signal(SIGPIPE, SIG_IGN);
    srv->sigchld_ev = evsignal_new(srv->base, SIGCHLD, on_sigchld, srv);
    srv->shrink_ev = event_new(srv->base, -1, EV_PERSIST, on_shrink, srv);
    struct timeval ten = {10, 0};
    if (!srv->sigchld_ev || !srv->shrink_ev || evsignal_add(srv->sigchld_ev, NULL) < 0 ||
        event_add(srv->shrink_ev, &ten) < 0)
        return -1;
    if (srv->stateful && (cc_runs_init(srv) < 0 || cc_sessions_init(srv) < 0)) return -1;
    return 0;
}

void cc_server_free(struct cc_server *srv) {
    if (srv->stateful) {
        cc_sessions_shutdown(srv);
        cc_runs_shutdown(srv);
    }
    while (srv->inflight) cc_req_free(srv->inflight);
    for (int i = 0; i < CC_WORKER_POOLS; i++) cc_pool_free(srv->pools[i]);
    if (srv->sigchld_ev) event_free(srv->sigchld_ev);
    if (srv->shrink_ev) event_free(srv->shrink_ev);
    cc_registry_free(&srv->reg);
    free(srv->instructions);
    if (srv->base) event_base_free(srv->base);
    memset(srv, 0, sizeof *srv);
}

int cc_server_inflight(const struct cc_server *srv) { return srv->n_inflight; }

void cc_server_fatal(struct cc_server *srv, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("codecalc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    srv->fatal = true;
    event_base_loopbreak(srv->base);
}

void cc_server_drop_conn(struct cc_server *srv, struct cc_conn *c) {
    /* Freeing a request may free others (a local tool's sub-requests, see
     * cc_req.on_free), so the scan restarts after each. */
    for (;;) {
        struct cc_req *r = srv->inflight;
        while (r && r->conn != c) r = r->next;
        if (!r) return;
        r->cancelled = true;
        if (r->pool) cc_pool_cancel(r->pool, r);
        cc_req_free(r);
    }
}

/* ---- JSON-RPC plumbing ------------------------------------------------- */

void cc_rpc_error_text(struct cc_strbuf *sb, const json_t *id, int code, const char *msg,
                       const json_t *data) {
    cc_sb_puts(sb, "{\"jsonrpc\":\"2.0\",\"id\":");
    if (id) cc_json_emit(sb, id);
    else cc_sb_puts(sb, "null");
    cc_sb_printf(sb, ",\"error\":{\"code\":%d,\"message\":", code);
    cc_sb_json_string(sb, msg, strlen(msg));
    if (data) {
        cc_sb_puts(sb, ",\"data\":");
        cc_json_emit(sb, data);
    }
    cc_sb_puts(sb, "}}");
}

void cc_rpc_send_error(struct cc_conn *c, const json_t *id, int code, const char *msg) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_rpc_error_text(&sb, id, code, msg, NULL);
    cc_conn_send(c, sb.data, sb.len);
    cc_sb_free(&sb);
}

void cc_rpc_send_result(struct cc_conn *c, const json_t *id, const json_t *result) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_puts(&sb, "{\"jsonrpc\":\"2.0\",\"id\":");
    cc_json_emit(&sb, id);
    cc_sb_puts(&sb, ",\"result\":");
    cc_json_emit(&sb, result);
    cc_sb_putc(&sb, '}');
    cc_conn_send(c, sb.data, sb.len);
    cc_sb_free(&sb);
}

json_t *cc_rpc_parse_failure(const char *text, size_t len, const json_error_t *je, int *code,
                             char *msg, size_t cap) {
    *code = -32700;
    switch (json_error_code(je)) {
    case json_error_invalid_utf8:
        snprintf(msg, cap, "Parse error: the message is not valid UTF-8 (at byte %d)", je->position);
        break;
    case json_error_stack_overflow:
        *code = -32600;
        snprintf(msg, cap, "Invalid Request: JSON nested too deep (the limit is %d levels)", JSON_PARSER_MAX_DEPTH);
        break;
    default:
        snprintf(msg, cap, "Parse error: the message is not valid JSON: %s (at byte %d)", je->text, je->position);
    }
    return cc_sniff_rpc_id(text, len, text, len);
}

static bool valid_id(const json_t *id) {
    return json_is_string(id) || json_is_integer(id);
}

void cc_server_handle(struct cc_server *srv, struct cc_conn *c, const char *text, size_t len) {
    /* A message in its usual form: the envelope is read without building
     * a tree (protocol/json_fast.h), and it is the dispatch the checks
     * below would reach (the id is an integer or a string, params an
     * object or absent). */
    struct cc_rpc_fast f;
    if (cc_json_rpc_fast(text, len, &f)) {
        cc_mcp_dispatch(srv, c, f.id, f.method, f.params);
        json_decref(f.id);
        json_decref(f.params);
        return;
    }
    json_error_t je;
    json_t *msg = cc_json_parse_client(text, len, &je);
    if (!msg) {
        char why[JSON_ERROR_TEXT_LENGTH + 128];
        int code;
        json_t *id = cc_rpc_parse_failure(text, len, &je, &code, why, sizeof why);
        cc_rpc_send_error(c, id, code, why);
        json_decref(id);
        return;
    }
    if (json_is_array(msg)) {
        cc_rpc_send_error(c, NULL, -32600, "Invalid Request: JSON-RPC batches are not supported");
        json_decref(msg);
        return;
    }
    json_t *id = json_object_get(msg, "id");
    const char *method = json_string_value(json_object_get(msg, "method"));
    if (!json_is_object(msg) || (id && !valid_id(id))) {
        cc_rpc_send_error(c, NULL, -32600, "Invalid Request");
        json_decref(msg);
        return;
    }
    if (!method) {
        /* A response from the client (we send no requests) or garbage. */
        if (!json_object_get(msg, "result") && !json_object_get(msg, "error"))
            cc_rpc_send_error(c, id, -32600, "Invalid Request: no method");
        json_decref(msg);
        return;
    }
    json_t *params = json_object_get(msg, "params");
    if (params && !json_is_object(params)) {
        if (id) cc_rpc_send_error(c, id, -32602, "Invalid params: params must be an object");
        json_decref(msg);
        return;
    }
    cc_mcp_dispatch(srv, c, id, method, params);
    json_decref(msg);
}
