/* Unit tests of the HTTP transport's pure parts: loopback and Accept rules,
 * the session table, SSE framing, revisions and cache hints. */
#include <event2/buffer.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/transport/mcp_session.h"
#include "supervisor/transport/sse.h"
#include "supervisor/transport/http.h"
#include "supervisor/mcp/discover.h"
#include "tests/unit/check.h"

static bool lo(const char *h) { return cc_http_host_is_loopback(h, strlen(h)); }

static void test_loopback(void) {
    CHECK(lo("127.0.0.1"));
    CHECK(lo("127.255.3.4"));
    CHECK(lo("::1"));
    CHECK(lo("[::1]"));
    CHECK(lo("localhost"));
    CHECK(lo("LOCALHOST"));
    CHECK(lo("ip6-localhost"));
    CHECK(!lo("128.0.0.1"));
    CHECK(!lo("0.0.0.0"));
    CHECK(!lo("::"));
    CHECK(!lo("evil.example.com"));
    CHECK(!lo("localhost.evil.com"));
    CHECK(!lo(""));
    CHECK(!lo("[]"));
    char longname[200];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK(!lo(longname));
}

static void test_accepts(void) {
    CHECK(cc_http_accepts("application/json, text/event-stream", "application/json"));
    CHECK(cc_http_accepts("application/json, text/event-stream", "text/event-stream"));
    CHECK(!cc_http_accepts("application/json", "text/event-stream"));
    CHECK(cc_http_accepts("*/*", "text/event-stream"));
    CHECK(cc_http_accepts("text/*;q=0.5", "text/event-stream"));
    CHECK(!cc_http_accepts("text/*", "application/json"));
    CHECK(!cc_http_accepts(NULL, "application/json"));
    CHECK(cc_http_accepts("Application/JSON", "application/json"));
}

static void test_sessions(void) {
    struct cc_mcp_sessions t;
    cc_mcp_sessions_init(&t, 3, 1000);
    struct cc_mcp_session *a = cc_mcp_session_new(&t, 0);
    struct cc_mcp_session *b = cc_mcp_session_new(&t, 0);
    CHECK(a && b);
    CHECK(cc_mcp_session_id_valid(a->id));
    CHECK(strcmp(a->id, b->id) != 0);
    CHECK(cc_mcp_session_find(&t, a->id, 500) == a);
    CHECK(cc_mcp_session_find(&t, "00000000000000000000000000000000", 500) == NULL);
    CHECK(cc_mcp_session_find(&t, "not-an-id", 500) == NULL);
    CHECK(cc_mcp_session_find(&t, NULL, 500) == NULL);
    /* b was last used at 0: at 1500 it is past the 1000 ms idle limit. */
    CHECK(cc_mcp_session_find(&t, b->id, 1500) == NULL);
    CHECK_INTEQ(t.count, 1);
    /* a was touched at 500, so it lives until 1500. */
    CHECK(cc_mcp_session_find(&t, a->id, 1400) == a);
    CHECK(cc_mcp_session_new(&t, 0) && cc_mcp_session_new(&t, 0));
    CHECK(cc_mcp_session_new(&t, 0) == NULL); /* the cap is 3 */
    cc_mcp_session_remove(&t, a);
    CHECK_INTEQ(t.count, 2);
    CHECK(!cc_mcp_session_id_valid("ABCDEF00000000000000000000000000"));
    cc_mcp_sessions_free(&t);
    CHECK_INTEQ(t.count, 0);
}

static char *format(const char *data) {
    struct evbuffer *b = evbuffer_new();
    cc_sse_format(b, data, strlen(data));
    size_t n = evbuffer_get_length(b);
    char *out = calloc(1, n + 1);
    evbuffer_remove(b, out, n);
    evbuffer_free(b);
    return out;
}

static void test_sse(void) {
    char *s = format("{\"a\":1}");
    CHECK_STREQ(s, "event: message\ndata: {\"a\":1}\n\n");
    free(s);
    /* A line break in data can never end the record early. */
    s = format("x\ny\r\nz\rw");
    CHECK_STREQ(s, "event: message\ndata: x\ndata: y\ndata: z\ndata: w\n\n");
    free(s);
    s = format("");
    CHECK_STREQ(s, "event: message\ndata: \n\n");
    free(s);
}

static void test_versions(void) {
    CHECK(cc_mcp_version_supported("2026-07-28"));
    CHECK(cc_mcp_version_supported("2025-11-25"));
    CHECK(cc_mcp_version_supported("2025-03-26"));
    CHECK(!cc_mcp_version_supported("2025-13-01"));
    CHECK(!cc_mcp_version_supported(NULL));
    long ttl = -1;
    const char *scope = NULL;
    CHECK(cc_mcp_cache_hint("tools/list", &ttl, &scope));
    CHECK_INTEQ(ttl, 60000);
    CHECK_STREQ(scope, "public");
    CHECK(cc_mcp_cache_hint("resources/read", &ttl, &scope));
    CHECK_INTEQ(ttl, 0);
    CHECK_STREQ(scope, "private");
    CHECK(cc_mcp_cache_hint("resources/list", &ttl, &scope));
    CHECK_INTEQ(ttl, 10000);
    CHECK(!cc_mcp_cache_hint("tools/call", &ttl, &scope));
    json_t *v = cc_mcp_supported_versions();
    CHECK_STREQ(json_string_value(json_array_get(v, 0)), "2026-07-28");
    CHECK(json_array_size(v) >= 4);
    json_decref(v);
}

int main(void) {
    RUN(test_loopback);
    RUN(test_accepts);
    RUN(test_sessions);
    RUN(test_sse);
    RUN(test_versions);
    return check_summary("sup_http");
}
