/* The exec worker's tool handlers (list_languages, list_execution_providers,
 * execute_code) and their rows of the tool table. */
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"
#include "workers/common/tool_api.h"
#include "supervisor/mcp/tool_table.h"
#include "workers/common/dispatch.h"
#include "workers/sandbox/sandbox.h"

#include <stdlib.h>

static json_t *call(const char *op, const char *args_json) {
    json_error_t e;
    json_t *args = json_loads(args_json, 0, &e);
    json_t *r = NULL;
    for (const struct cc_tool_def *d = cc_dispatch_exec; d->op; d++)
        if (strcmp(d->op, op) == 0) r = d->fn(args, NULL);
    json_decref(args);
    return r;
}

static const char *str(json_t *r, const char *k) { return json_string_value(json_object_get(r, k)); }

/* The execution group's rows of the exec pool, in table order
 * (execute_python, a verification tool of the same pool, is checked by
 * test_exec_execute_python.c; benchmark, of the analysis group, runs there
 * too). */
static int exec_rows(const struct cc_tool **out, int cap) {
    int n = 0;
    for (size_t i = 0; i < cc_tools_count && n < cap; i++)
        if (cc_tools[i].pool == CC_POOL_EXEC && strcmp(cc_tools[i].group, "execution") == 0)
            out[n++] = &cc_tools[i];
    return n;
}

static void test_registry(void) {
    const char *names[] = {"list_languages", "list_execution_providers", "execute_code",
                           "execute_code_stream", "runtimes_status"};
    const struct cc_tool *rows[8];
    int n = exec_rows(rows, 8);
    for (int i = 0; i < n; i++) {
        const struct cc_tool *t = rows[i];
        /* The table orders a group by name: find each row's place in names. */
        int want = -1;
        for (int k = 0; k < 5; k++)
            if (strcmp(t->name, names[k]) == 0) want = k;
        CHECK(want >= 0);
        bool array = want >= 0 && want < 2;
        CHECK_STREQ(t->group, "execution");
        CHECK_INTEQ(t->pool, CC_POOL_EXEC);
        CHECK_INTEQ(t->deadline_s, 900);
        CHECK_INTEQ(!!(t->flags & CC_TOOL_ARRAY_RESULT), array);
        json_error_t e;
        json_t *listing = json_loads(t->listing, 0, &e);
        json_t *in = json_object_get(listing, "inputSchema"), *out = json_object_get(listing, "outputSchema");
        CHECK(in != NULL);
        CHECK_STREQ(str(in, "type"), "object");
        /* runtimes_status declares no output field: the listing has no
         * output schema for it (docs/contract.md, tools/list). */
        bool declares = strcmp(t->name, "runtimes_status") != 0;
        CHECK(declares == (out != NULL));
        if (!out) {
            json_decref(listing);
            continue;
        }
        CHECK_STREQ(str(out, "type"), "object");
        json_t *req = json_object_get(out, "required");
        /* Array tools answer {"result": [...]}; the others declare only their
         * own fields: the shared shape (ok, code, error, remedy) is described
         * once in the server instructions (issue 11 item 15), so a rejected
         * result always satisfies the schema. */
        CHECK(req == NULL);
        if (array) CHECK(json_object_get(json_object_get(out, "properties"), "result") != NULL);
        else CHECK(json_object_get(json_object_get(out, "properties"), "ok") == NULL);
        json_decref(listing);
    }
    CHECK_INTEQ(n, 5);
    /* Every parameter of execute_code is typed and described. */
    json_t *in = json_loads(cc_tool_lookup("execute_code")->input_schema, 0, NULL);
    const char *k;
    json_t *p;
    int described = 0;
    json_object_foreach(json_object_get(in, "properties"), k, p)
        described += json_object_get(p, "type") && json_object_get(p, "description");
    CHECK_INTEQ(described, 13);
    CHECK_INTEQ(json_integer_value(json_object_get(json_object_get(json_object_get(in, "properties"), "timeout"), "default")), 10);
    json_decref(in);
}

static void test_list_tools(void) {
    json_t *l = call("list_languages", "{}");
    CHECK_INTEQ(json_array_size(l), 32);
    json_decref(l);
    json_t *p = call("list_execution_providers", "{}");
    /* Regression (issue 11.13): linux-strict was listed though every run
     * failed, and local claimed it could not cancel or hold sessions. */
    CHECK_INTEQ(json_array_size(p), 1);
    json_t *local = json_array_get(p, 0);
    CHECK_STREQ(str(local, "provider_id"), "local");
    CHECK_STREQ(str(local, "host_class"), "local");
    CHECK_STREQ(str(local, "interface_version"), "1.0.0");
    json_t *caps = json_object_get(local, "capabilities");
    CHECK(json_is_true(json_object_get(caps, "execute")));
    CHECK(json_is_true(json_object_get(caps, "stream")));
    CHECK(json_is_true(json_object_get(caps, "cancel")));
    CHECK(json_is_true(json_object_get(caps, "sessions")));
    CHECK(json_is_true(json_object_get(caps, "managed_runs")));
    CHECK(json_is_false(json_object_get(caps, "cleanup")));
    CHECK_INTEQ(json_object_size(caps), 13);
    CHECK_INTEQ(json_is_true(json_object_get(caps, "network_control")), sbx_probe()->seccomp);
    json_decref(p);
}

static long long requested_timeout(json_t *r) {
    json_t *lim = json_object_get(json_object_get(r, "provider"), "limits");
    return json_integer_value(json_object_get(json_object_get(lim, "requested"), "timeout_seconds"));
}

static void test_execute(void) {
    json_t *r = call("execute_code", "{\"language\":\"python3\",\"code\":\"import sys; sys.exit(3)\",\"receipt\":true}");
    CHECK(json_is_false(json_object_get(r, "ok")));
    CHECK_INTEQ(json_integer_value(json_object_get(r, "exit_code")), 3);
    CHECK_STREQ(str(r, "verdict"), "RTE");
    CHECK(!json_object_get(r, "code"));
    CHECK_STREQ(str(json_object_get(r, "provider"), "provider_id"), "local");
    CHECK_INTEQ(requested_timeout(r), 10);
    json_decref(r);

    r = call("execute_code", "{\"language\":\"python3\",\"code\":\"print(1)\",\"receipt\":true,\"timeout\":0}");
    CHECK_INTEQ(requested_timeout(r), 1);
    CHECK_STREQ(str(r, "stdout"), "1\n");
    json_decref(r);
    r = call("execute_code", "{\"language\":\"python3\",\"code\":\"print(1)\",\"receipt\":true,\"timeout\":999}");
    CHECK_INTEQ(requested_timeout(r), 120);
    json_decref(r);
    r = call("execute_code", "{\"language\":\"python3\",\"code\":\"print(1)\",\"receipt\":true,\"timeout\":-5}");
    CHECK_INTEQ(requested_timeout(r), 1);
    json_decref(r);
}

/* A handler called with no worker loop (ctx NULL, as these tests call it)
 * dereferenced it when a run outlasted the sandbox's 250 ms cancellation
 * tick: only on a loaded machine, where UBSan failed CI. */
static void test_cancel_tick_without_worker_loop(void) {
    CHECK(!cc_wctx_cancelled(NULL));
    json_t *r = call("execute_code", "{\"language\":\"python3\",\"code\":\"import time; time.sleep(0.6); print(2)\"}");
    CHECK_STREQ(str(r, "stdout"), "2\n");
    CHECK_STREQ(str(r, "verdict"), "OK");
    json_decref(r);
}

static void test_compact(void) {
    json_t *r = call("execute_code", "{\"language\":\"python3\",\"code\":\"print('z')\",\"compact\":true}");
    const char *keys[] = {"ok", "verdict", "stdout", "exit_code"};
    const char *k;
    json_t *v;
    int i = 0;
    json_object_foreach(r, k, v) {
        if (i < 4) CHECK_STREQ(k, keys[i]);
        i++;
    }
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK_STREQ(str(r, "stdout"), "z\n");
    CHECK(!json_object_get(r, "cpu_ms") && !json_object_get(r, "stderr") && !json_object_get(r, "backend"));
    json_t *u = json_object_get(r, "unenforced");
    CHECK(!u || (json_array_size(u) > 0 && json_object_get(r, "unenforced_detail")));
    for (size_t j = 0; u && j < json_array_size(u); j++)
        CHECK(!strchr(json_string_value(json_array_get(u, j)), ':'));
    json_t *p = json_object_get(r, "provider");
    const char *pk[] = {"receipt_version", "provider_id", "session_id", "spec_hash", "limits", "receipt_detail"};
    i = 0;
    json_object_foreach(p, k, v) {
        if (i < 6) CHECK_STREQ(k, pk[i]);
        i++;
    }
    CHECK_INTEQ(i, 6);
    CHECK_STREQ(str(p, "receipt_detail"),
                "call without compact=True for capabilities, determinism, host_class, "
                "interface_version, provider_version, source_sha256, spec_schema_version");
    json_decref(r);

    /* A rejected request is not compacted. */
    r = call("execute_code", "{\"language\":\"klingon\",\"code\":\"x\",\"compact\":true}");
    CHECK_STREQ(str(r, "code"), "validation");
    CHECK(str(r, "remedy") != NULL);
    CHECK(!json_object_get(r, "verdict"));
    CHECK(strncmp(str(r, "error"), "unknown language 'klingon'. Available: awk, bash,", 49) == 0);
    json_decref(r);
}

static void test_rejections(void) {
    json_t *r = call("execute_code", "{\"language\":5,\"code\":\"x\"}");
    CHECK_STREQ(str(r, "code"), "validation");
    CHECK_STREQ(str(r, "error"), "language must be a string");
    json_decref(r);
    r = call("execute_code", "{\"language\":\"python3\",\"code\":\"x\",\"timeout\":\"soon\"}");
    CHECK_STREQ(str(r, "error"), "timeout must be an integer");
    json_decref(r);
    r = call("execute_code", "{\"language\":\"python3\",\"code\":\"x\",\"provider\":\"piston\"}");
    CHECK_STREQ(str(r, "code"), "validation");
    CHECK_STREQ(str(r, "provider_error"), "unknown_provider");
    CHECK_STREQ(str(r, "error"), "unknown execution provider 'piston'; available: local");
    CHECK_INTEQ(json_array_size(json_object_get(r, "available_providers")), 1);
    json_decref(r);
    r = call("execute_code", "{\"language\":\"python3\",\"code\":\"x\",\"provider\":\"linux-strict\"}");
    CHECK_STREQ(str(r, "code"), "validation");
    CHECK_STREQ(str(r, "provider_error"), "unknown_provider");
    json_decref(r);
    knob_setenv("CODECALC_CAPABILITY_POLICY", "allow-network");
    r = call("execute_code", "{\"language\":\"python3\",\"code\":\"x\",\"no_net\":true}");
    CHECK_STREQ(str(r, "code"), "permission_denied");
    CHECK_STREQ(str(r, "requested_provider"), "local");
    json_decref(r);
    knob_setenv("CODECALC_CAPABILITY_POLICY", NULL);
}

int main(void) {
    knob_setenv("CODECALC_RUNTIME_PATH", "/usr/local/bin:/usr/bin:/bin");
    knob_setenv("CODECALC_CAPABILITY_POLICY", NULL);
    knob_setenv("CODECALC_EXECUTION_PROVIDER", NULL);
    RUN(test_registry);
    RUN(test_list_tools);
    RUN(test_execute);
    RUN(test_cancel_tick_without_worker_loop);
    RUN(test_compact);
    RUN(test_rejections);
    return check_summary("exec_tools");
}
