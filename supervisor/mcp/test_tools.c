/* Test-only local tools (registered with CODECALC_TEST_OPS=1 only): a flood
 * of MCP log records, the one server-to-client traffic a client cannot
 * otherwise produce at will, so a test can show what a client that stops
 * reading its SSE streams costs the server (docs/security.md). */
#include <stdlib.h>
#include <string.h>

#include "supervisor/mcp/local_tools.h"
#include "supervisor/mcp/logging.h"

#define FLOOD_MAX_COUNT 1000000
#define FLOOD_MAX_BYTES (1 << 20)

CC_LOCAL_TOOL(__test_log_flood) {
    (void)srv;
    json_int_t count = json_integer_value(json_object_get(args, "count"));
    json_int_t bytes = json_integer_value(json_object_get(args, "bytes"));
    const char *to = json_string_value(json_object_get(args, "to"));
    bool caller = to && strcmp(to, "caller") == 0;
    if (count < 0 || count > FLOOD_MAX_COUNT || bytes < 1 || bytes > FLOOD_MAX_BYTES) {
        cc_req_answer_fail(r, "validation", "count is 0..%d and bytes 1..%d", FLOOD_MAX_COUNT, FLOOD_MAX_BYTES);
        return;
    }
    char *text = malloc((size_t)bytes + 1);
    if (!text) {
        cc_req_answer_fail(r, "resource_exhausted", "out of memory");
        return;
    }
    memset(text, 'x', (size_t)bytes);
    text[bytes] = '\0';
    json_t *data = json_pack("{s:s}", "message", text);
    free(text);
    for (json_int_t i = 0; data && i < count; i++) {
        if (caller) cc_mcp_log_to(r->conn, CC_MCP_WARNING, "codecalc.test", data);
        else cc_mcp_log_all(CC_MCP_WARNING, "codecalc.test", data);
    }
    json_decref(data);
    json_t *o = json_pack("{s:b,s:I}", "ok", 1, "sent", (json_int_t)count);
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!s) {
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    cc_req_answer_result(r, s, strlen(s), false);
    free(s);
}
