/* execute_python's C side (workers/exec/validate/): the argument checks,
 * the embedded helper files, the checks on the helper's answer and the
 * table row. The helper itself is exercised end to end by
 * tests/validate/. Run from the repository root (it reads the helpers). */
#include "tests/unit/check.h"
#include "supervisor/mcp/tool_table.h"
#include "workers/exec/validate/validate.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *load(const char *text) {
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    if (!j) fprintf(stderr, "bad test JSON: %s\n", e.text);
    return j;
}

/* The error message of a refused request, or NULL when it was accepted. */
static char *refusal(const char *args_json) {
    json_t *args = load(args_json);
    struct ccv_request req;
    json_t *r = ccv_read_request(args, &req);
    char *msg = NULL;
    if (r) {
        CHECK_STREQ(json_string_value(json_object_get(r, "code")), "validation");
        msg = strdup(json_string_value(json_object_get(r, "error")));
        json_decref(r);
    } else {
        ccv_request_free(&req);
    }
    json_decref(args);
    return msg;
}

static void expect_refusal(const char *args_json, const char *fragment) {
    char *m = refusal(args_json);
    CHECK(m && strstr(m, fragment));
    if (m && !strstr(m, fragment)) fprintf(stderr, "  message: %s\n  wanted: %s\n", m, fragment);
    free(m);
}

static void test_spellings(void) {
    json_t *args = load("{\"code\":\"x\",\"language\":\"JavaScript\",\"mode\":\"EXECUTE\"}");
    struct ccv_request req;
    CHECK(ccv_read_request(args, &req) == NULL);
    CHECK_STREQ(req.language, "javascript");
    CHECK_STREQ(req.mode, "execute");
    ccv_request_free(&req);
    json_decref(args);
}

static void test_defaults(void) {
    json_t *args = load("{\"code\":\"x = 1\"}");
    struct ccv_request req;
    CHECK(ccv_read_request(args, &req) == NULL);
    CHECK_STREQ(req.language, "python");
    CHECK_STREQ(req.mode, "static");
    json_t *o = json_object_get(req.helper_req, "options");
    CHECK_INTEQ(json_integer_value(json_object_get(o, "max_iterations")), 3);
    CHECK(json_is_false(json_object_get(o, "optimize")));
    CHECK(json_object_get(o, "timeout_s") == NULL);
    CHECK_STREQ(json_string_value(json_object_get(req.helper_req, "code")), "x = 1");
    ccv_request_free(&req);
    json_decref(args);
}

static void test_refusals(void) {
    expect_refusal("{\"code\":\"\"}", "code is empty");
    expect_refusal("{\"code\":\" \\n\\t\"}", "code is empty");
    expect_refusal("{\"code\":5}", "code must be a string");
    expect_refusal("{\"code\":\"x\",\"mode\":\"run\"}", "unknown mode 'run'");
    expect_refusal("{\"code\":\"x\",\"language\":\"cobol\"}", "unknown language 'cobol'");
    expect_refusal("{\"code\":\"x\",\"language\":\"sql\"}",
                   "language 'sql' is not handled: execute_python checks python, javascript and typescript");
    expect_refusal("{\"code\":\"x\",\"options\":{\"max_iterations\":0}}", "between 1 and 10");
    expect_refusal("{\"code\":\"x\",\"options\":{\"max_iterations\":11}}", "between 1 and 10");
    expect_refusal("{\"code\":\"x\",\"options\":{\"timeout_s\":-1}}", "more than 0");
    expect_refusal("{\"code\":\"x\",\"options\":{\"timeout_s\":60.5}}", "at most 60");
    expect_refusal("{\"code\":\"x\",\"options\":{\"optimize\":1}}", "optimize must be a boolean");
    expect_refusal("{\"code\":\"x\",\"options\":{\"examples\":3}}", "options.examples must be a string");
    expect_refusal("{\"code\":\"x\",\"options\":{\"nope\":1}}", "unknown option 'nope'");
    expect_refusal("{\"code\":\"x\",\"options\":{\"Examples\":\"assert 1\"}}", "unknown option 'Examples'");
    expect_refusal("{\"code\":\"x\",\"options\":{\"transpile_to\":\"go\"}}", "only target is 'javascript'");
    expect_refusal("{\"code\":\"x\",\"language\":\"typescript\",\"options\":{\"transpile_to\":\"javascript\"}}",
                   "translates python code");
    expect_refusal("{\"code\":\"x\",\"options\":[]}", "options must be an object");
    /* 200,000 bytes pass, one more does not */
    size_t n = CCV_MAX_CODE_BYTES;
    char *big = malloc(n + 32);
    memset(big, 'a', n + 1);
    big[n + 1] = '\0';
    json_t *args = json_pack("{s:s}", "code", big);
    struct ccv_request req;
    json_t *r = ccv_read_request(args, &req);
    CHECK(r && strstr(json_string_value(json_object_get(r, "error")), "code is 200001 bytes; the limit is 200000"));
    json_decref(r);
    json_decref(args);
    big[n] = '\0';
    args = json_pack("{s:s}", "code", big);
    r = ccv_read_request(args, &req);
    CHECK(r == NULL);
    if (!r) ccv_request_free(&req);
    json_decref(r);
    json_decref(args);
    free(big);
}

/* Every file of the helpers directory is embedded, byte for byte. */
static void test_assets(void) {
    size_t n;
    const struct ccv_asset *a = ccv_assets(&n);
    DIR *d = opendir("workers/exec/validate/helpers");
    CHECK(d != NULL);
    if (!d) return;
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || e->d_type == DT_DIR) continue; /* __pycache__ of a local run */
        files++;
        const struct ccv_asset *hit = NULL;
        for (size_t i = 0; i < n; i++)
            if (strcmp(a[i].name, e->d_name) == 0) hit = &a[i];
        CHECK(hit != NULL);
        if (!hit) {
            fprintf(stderr, "  %s is not in CCV_HELPERS (workers/exec/validate/assets.c)\n", e->d_name);
            continue;
        }
        char path[512];
        snprintf(path, sizeof path, "workers/exec/validate/helpers/%s", e->d_name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (!f) continue;
        char *buf = malloc(hit->len + 1);
        size_t got = fread(buf, 1, hit->len + 1, f);
        fclose(f);
        CHECK_INTEQ(got, hit->len);
        CHECK(got == hit->len && memcmp(buf, hit->data, got) == 0);
        free(buf);
    }
    closedir(d);
    CHECK_INTEQ(files, n);
}

static json_t *build(const char *answer) {
    struct ccv_request req = {.language = "python", .mode = "execute"};
    struct ccv_run run = {.answer = load(answer), .unenforced = json_array(), .wall_ms = 12};
    json_t *r = ccv_build_result(&req, &run);
    ccv_run_free(&run);
    return r;
}

static void test_answer_checks(void) {
    json_t *r = build("{\"valid\":false,\"score\":0.5,\"fixed_code\":\"y\",\"diagnostics\":[{\"code\":"
                      "\"python:x\",\"message\":\"m\",\"severity\":\"error\",\"line\":2,\"column\":null}],"
                      "\"edits\":[],\"repair\":{\"rounds\":1},\"junk\":1,\"stdout\":7}");
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK(json_is_false(json_object_get(r, "valid")));
    CHECK(json_real_value(json_object_get(r, "score")) == 0.5);
    CHECK_STREQ(json_string_value(json_object_get(r, "fixed_code")), "y");
    CHECK(json_object_get(r, "junk") == NULL);   /* unknown keys dropped */
    CHECK(json_object_get(r, "stdout") == NULL);  /* wrong type dropped */
    CHECK(json_is_object(json_object_get(r, "repair")));
    CHECK_INTEQ(json_integer_value(json_object_get(r, "sandbox_ms")), 12);
    CHECK(json_is_array(json_object_get(r, "unenforced")));
    json_decref(r);
    const char *bad[] = {
        "{\"valid\":1,\"score\":1,\"fixed_code\":null,\"diagnostics\":[],\"edits\":[]}",
        "{\"valid\":true,\"score\":1.5,\"fixed_code\":null,\"diagnostics\":[],\"edits\":[]}",
        "{\"valid\":true,\"score\":1,\"fixed_code\":3,\"diagnostics\":[],\"edits\":[]}",
        "{\"valid\":true,\"score\":1,\"fixed_code\":null,\"diagnostics\":[{\"code\":\"c\",\"message\":\"m\","
        "\"severity\":\"fatal\"}],\"edits\":[]}",
        "{\"valid\":true,\"score\":1,\"fixed_code\":null,\"diagnostics\":[],\"edits\":[1]}",
        "{\"rejected\":{\"code\":\"made_up\",\"error\":\"x\"}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = build(bad[i]);
        CHECK_STREQ(json_string_value(json_object_get(r, "code")), "internal");
        CHECK(strstr(json_string_value(json_object_get(r, "error")), "malformed") != NULL);
        json_decref(r);
    }
    r = build("{\"rejected\":{\"code\":\"validation\",\"error\":\"options.examples is empty\"}}");
    CHECK_STREQ(json_string_value(json_object_get(r, "code")), "validation");
    CHECK_STREQ(json_string_value(json_object_get(r, "error")), "options.examples is empty");
    json_decref(r);
    r = build("{\"internal\":\"Traceback: boom\"}");
    CHECK_STREQ(json_string_value(json_object_get(r, "code")), "internal");
    CHECK(strstr(json_string_value(json_object_get(r, "error")), "boom") != NULL);
    json_decref(r);
}

static void test_table_row(void) {
    const struct cc_tool *t = NULL;
    for (size_t i = 0; i < cc_tools_count; i++)
        if (strcmp(cc_tools[i].name, "execute_python") == 0) t = &cc_tools[i];
    CHECK(t != NULL);
    if (!t) return;
    CHECK_STREQ(t->group, "verification");
    CHECK_INTEQ(t->pool, CC_POOL_EXEC);
    CHECK_INTEQ(t->deadline_s, 300);
    CHECK(strstr(t->description, "the only way to tell running code from right code") != NULL);
    CHECK(strstr(t->listing, "\"readOnlyHint\":true") != NULL);
    json_t *in = load(t->input_schema);
    CHECK(in != NULL);
    json_t *props = json_object_get(in, "properties");
    const char *keys[] = {"code", "language", "mode", "options", NULL};
    for (int i = 0; keys[i]; i++) CHECK(json_object_get(props, keys[i]) != NULL);
    json_t *opts = json_object_get(json_object_get(props, "options"), "properties");
    CHECK_INTEQ(json_object_size(opts), 6);
    /* language and mode are plain strings: the handler answers an unknown
     * value with its own validation result naming the accepted ones */
    CHECK(json_object_get(json_object_get(props, "language"), "enum") == NULL);
    CHECK(json_object_get(json_object_get(props, "mode"), "enum") == NULL);
    json_decref(in);
}

int main(void) {
    RUN(test_defaults);
    RUN(test_spellings);
    RUN(test_refusals);
    RUN(test_assets);
    RUN(test_answer_checks);
    RUN(test_table_row);
    return check_summary("exec_execute_python");
}
