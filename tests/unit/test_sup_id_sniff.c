/* The id of an over-long JSON-RPC message, read from its ends. */
#include <string.h>

#include "supervisor/transport/id_sniff.h"
#include "tests/unit/check.h"

static json_t *sniff(const char *head, const char *tail) {
    return cc_sniff_rpc_id(head, head ? strlen(head) : 0, tail, tail ? strlen(tail) : 0);
}

static void id_last_member_is_found(void) {
    json_t *id = sniff(NULL, "xxxx\"}}},\"id\":77}\n");
    CHECK(json_is_integer(id) && json_integer_value(id) == 77);
    json_decref(id);
    id = sniff(NULL, "...\"}}, \"id\" : \"req-9\" }");
    CHECK_STREQ(json_string_value(id), "req-9");
    json_decref(id);
}

static void id_leading_member_is_found(void) {
    json_t *id = sniff("{\"jsonrpc\":\"2.0\",\"id\":-3,\"method\":\"tools/call\",\"params\":{\"x\":\"aaaa", NULL);
    CHECK(json_is_integer(id) && json_integer_value(id) == -3);
    json_decref(id);
}

static void ambiguous_shapes_give_no_id(void) {
    /* "id" only after a nested value: it could belong to the nested object. */
    CHECK(sniff("{\"params\":{\"id\":5},\"id\":6", NULL) == NULL);
    /* The line ends inside nested objects. */
    CHECK(sniff(NULL, "\"code\":\"x\",\"id\":1}}}") == NULL);
    /* An id value that is not a scalar. */
    CHECK(sniff(NULL, ",\"id\":{\"a\":1}}") == NULL);
    /* Escapes inside a string id are not guessed at. */
    CHECK(sniff("{\"id\":\"a\\\"b\",", NULL) == NULL);
    CHECK(sniff(NULL, NULL) == NULL);
}

/* Found by fuzz_jsonrpc: the head sniffer read "id":1000.000 as the id
 * 1000, so the refusal of an over-long message was addressed to whichever
 * request of that client had the id 1000. */
static void regression_sniffed_id_is_the_whole_value(void) {
    CHECK(sniff("{\"jsonrpc\":\"2.0\",\"id\":1000.000,\"method\":\"x\",\"params\":{", NULL) == NULL);
    CHECK(sniff("{\"id\":12e3,\"method\":\"x\"", NULL) == NULL);
    /* The head ends inside the number: more digits may follow. */
    CHECK(sniff("{\"jsonrpc\":\"2.0\",\"id\":12", NULL) == NULL);
    json_t *id = sniff("{\"id\":12 ,\"method\":\"tools/call\",\"params\":{\"x\":\"aaa", NULL);
    CHECK(json_is_integer(id) && json_integer_value(id) == 12);
    json_decref(id);
    id = sniff("{\"id\":\"a\"}", NULL);
    CHECK_STREQ(json_string_value(id), "a");
    json_decref(id);
}

int main(void) {
    RUN(id_last_member_is_found);
    RUN(id_leading_member_is_found);
    RUN(ambiguous_shapes_give_no_id);
    RUN(regression_sniffed_id_is_the_whole_value);
    return check_summary("sup_id_sniff");
}
