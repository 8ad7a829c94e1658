/* Receipt pieces: canonical JSON, the three golden spec_hash vectors of
 * TOOLS.md 1.9, provider_reported_enforced and the capability broker. */
#include "tests/unit/check.h"
#include "workers/exec/receipt.h"

#include <stdlib.h>

static struct cc_exec_spec spec(const char *lang, const char *code) {
    return (struct cc_exec_spec){.language = lang, .code = code, .code_len = strlen(code),
                                 .stdin_data = "", .timeout = 10};
}

static void test_golden_vectors(void) {
    char h[72];
    struct cc_exec_spec s = spec("python3", "print(1)");
    CHECK_INTEQ(cc_spec_hash(&s, h), 0);
    CHECK_STREQ(h, "sha256:a5093b8724c9815a4d05452288027446d17416b4009dc1e1fde9e36aea163089");
    s.workdir = "";
    cc_spec_hash(&s, h);
    CHECK_STREQ(h, "sha256:27b48026f158136ad1b8be925e3946860cedba9c6b4010fb044b420cfc81ce86");
    struct cc_exec_spec r = spec("rust", "fn main(){println!(\"hi\");}");
    r.stdin_data = "7\n", r.stdin_len = 2, r.timeout = 30, r.workdir = "/workspace/run";
    r.max_memory_mb = 256, r.max_output_kb = 64, r.max_cpu = 5, r.no_net = true;
    cc_spec_hash(&r, h);
    CHECK_STREQ(h, "sha256:6745d06e8896e2b0ea29005445c1ecb2915e5ac21e46cf0cc3552fde0fb8ca18");
    /* Language is hashed as spelled. */
    struct cc_exec_spec p = spec("py", "print(1)");
    cc_spec_hash(&p, h);
    CHECK(strcmp(h, "sha256:a5093b8724c9815a4d05452288027446d17416b4009dc1e1fde9e36aea163089") != 0);
}

static void test_canonical_json(void) {
    json_t *v = json_pack("{s:s, s:i, s:[b, n], s:s}", "b", "\xc3\xa9\x01\"\\\t", "a", 5, "\xc3\xa0",
                          1, "Z", "x");
    char *t = cc_canonical_json(v);
    /* Raw non-ASCII, control characters as lower-case \u escapes, keys by
     * code point ("Z" < "a" < "b" < U+00E0). */
    CHECK_STREQ(t, "{\"Z\":\"x\",\"a\":5,\"b\":\"\xc3\xa9\\u0001\\\"\\\\\\t\",\"\xc3\xa0\":[true,null]}");
    free(t);
    json_decref(v);
}

static void test_receipt_fields(void) {
    unsetenv("LANG");
    setenv("LC_ALL", "C.UTF-8", 1);
    struct cc_exec_spec s = spec("python3", "print(1)");
    s.max_memory_mb = 64, s.max_cpu = 2, s.no_net = true;
    json_t *un = json_pack("[s]", "cpu_limit_clamped_to_hard_rlimit");
    json_t *caps = json_object();
    json_t *r = cc_receipt_local(&s, NULL, un, caps);
    CHECK_STREQ(json_string_value(json_object_get(r, "receipt_version")), "1.2.0");
    CHECK_STREQ(json_string_value(json_object_get(r, "spec_hash")),
                "sha256:60efb8a43c5d8616c84529af17605544100c721548ce084118e1c4bc8b346e79");
    json_t *enf = json_object_get(json_object_get(r, "limits"), "provider_reported_enforced");
    char *t = cc_canonical_json(enf);
    CHECK_STREQ(t, "[\"timeout\",\"max_memory_mb\",\"no_net\"]");
    free(t);
    CHECK_STREQ(json_string_value(json_object_get(r, "source_sha256")),
                "sha256:d287bb7f9d15abdc5b6e98536263815744b6ef21c8f3c839fc434ca70d8efe99");
    t = cc_canonical_json(json_object_get(r, "determinism"));
    CHECK_STREQ(t, "{\"locale\":{\"LANG\":null,\"LC_ALL\":\"C.UTF-8\"},\"seed\":null,\"source\":"
                   "\"env_allowlist\",\"timezone\":null,\"unrecorded\":[\"locale.LANG\",\"seed\","
                   "\"timezone\"]}");
    free(t);
    CHECK(json_is_null(json_object_get(r, "session_id")));
    json_decref(r);
    json_decref(un);
    json_decref(caps);
}

static char *caps_text(const char *policy, bool no_net, bool netctl, struct cc_broker *b) {
    struct cc_exec_spec s = spec("python3", "1");
    s.no_net = no_net;
    CHECK_INTEQ(cc_broker_decide(&s, netctl, policy, "local", b), 0);
    return b->capabilities ? cc_canonical_json(b->capabilities) : NULL;
}

static void test_broker(void) {
    struct cc_broker b;
    char *t = caps_text(NULL, false, true, &b);
    CHECK_STREQ(t, "{\"approved\":[\"network\"],\"brokered\":false,\"denied\":[],\"effective\":"
                   "[\"network\"],\"policy\":null,\"provider_supported\":[\"network\"],"
                   "\"requested\":[\"network\"]}");
    CHECK(!b.force_no_net && !b.rejected);
    free(t);
    cc_broker_free(&b);

    t = caps_text("Deny-Network", false, true, &b);
    CHECK_STREQ(t, "{\"approved\":[],\"brokered\":true,\"denied\":[\"network\"],\"effective\":[],"
                   "\"policy\":\"Deny-Network\",\"provider_supported\":[\"network\"],"
                   "\"requested\":[\"network\"]}");
    CHECK(b.force_no_net);
    free(t);
    cc_broker_free(&b);

    /* Without network control the denial cannot bite: disclosed as effective. */
    t = caps_text("deny-network", false, false, &b);
    CHECK_STREQ(t, "{\"approved\":[],\"brokered\":true,\"denied\":[\"network\"],\"effective\":"
                   "[\"network\"],\"policy\":\"deny-network\",\"provider_supported\":[],"
                   "\"requested\":[\"network\"]}");
    CHECK(!b.force_no_net);
    free(t);
    cc_broker_free(&b);

    caps_text("deny-network, strict", false, false, &b);
    CHECK(b.rejected);
    CHECK_STREQ(json_string_value(json_object_get(b.rejection, "provider_error")),
                "capability_unenforceable");
    CHECK_STREQ(json_string_value(json_object_get(b.rejection, "code")), "permission_denied");
    cc_broker_free(&b);

    caps_text("allow-network", true, true, &b);
    CHECK(b.rejected);
    CHECK_STREQ(json_string_value(json_object_get(b.rejection, "provider_error")),
                "capability_not_requested");
    CHECK_INTEQ(json_array_size(json_object_get(b.rejection, "requested_capabilities")), 0);
    cc_broker_free(&b);

    /* allow + deny: the grant wins; an unknown directive still activates brokering. */
    t = caps_text("deny-network,grant-network", false, true, &b);
    CHECK(t && strstr(t, "\"approved\":[\"network\"]") && strstr(t, "\"denied\":[]"));
    free(t);
    cc_broker_free(&b);
    t = caps_text("bogus", false, true, &b);
    CHECK(t && strstr(t, "\"brokered\":true") && strstr(t, "\"policy\":\"bogus\""));
    free(t);
    cc_broker_free(&b);
}

int main(void) {
    RUN(test_golden_vectors);
    RUN(test_canonical_json);
    RUN(test_receipt_fields);
    RUN(test_broker);
    return check_summary("exec_receipt");
}
