/* The fast JSON parse path (protocol/json_fast.c) against jansson: whenever
 * it returns a tree, jansson returns the same tree (types, key order, exact
 * doubles); it must give up on whatever jansson refuses. The JSON-RPC
 * envelope reader against the whole parse. And the JSON string escaper
 * against a plain byte-at-a-time reference. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/json_fast.h"
#include "protocol/strbuf.h"
#include "protocol/utf8.h"
#include "tests/unit/check.h"

/* Same type, same value, same key order; doubles compared bit for bit. */
static bool same_tree(const json_t *a, const json_t *b) {
    if (json_typeof(a) != json_typeof(b)) return false;
    switch (json_typeof(a)) {
    case JSON_OBJECT: {
        if (json_object_size(a) != json_object_size(b)) return false;
        void *ia = json_object_iter((json_t *)a), *ib = json_object_iter((json_t *)b);
        for (; ia && ib; ia = json_object_iter_next((json_t *)a, ia), ib = json_object_iter_next((json_t *)b, ib)) {
            size_t la = json_object_iter_key_len(ia), lb = json_object_iter_key_len(ib);
            if (la != lb || memcmp(json_object_iter_key(ia), json_object_iter_key(ib), la) != 0) return false;
            if (!same_tree(json_object_iter_value(ia), json_object_iter_value(ib))) return false;
        }
        return !ia && !ib;
    }
    case JSON_ARRAY:
        if (json_array_size(a) != json_array_size(b)) return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!same_tree(json_array_get(a, i), json_array_get(b, i))) return false;
        return true;
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
               memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
    case JSON_INTEGER: return json_integer_value(a) == json_integer_value(b);
    case JSON_REAL: {
        double x = json_real_value(a), y = json_real_value(b);
        return memcmp(&x, &y, sizeof x) == 0;
    }
    default: return true;
    }
}

static int fast_hits;

/* The fast path either gives up or agrees with jansson exactly. */
static void agrees(const char *text, size_t len) {
    json_t *fast = cc_json_parse_fast(text, len);
    json_error_t e;
    json_t *slow = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    if (fast) {
        fast_hits++;
        bool ok = slow && same_tree(fast, slow);
        if (!ok) fprintf(stderr, "fast parse disagrees with jansson on: %.*s\n", (int)len, text);
        CHECK(ok);
    }
    json_decref(fast);
    json_decref(slow);
}

static void agrees_s(const char *text) { agrees(text, strlen(text)); }

static void common_requests_take_the_fast_path(void) {
    static const char *const texts[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"calc_exact\","
        "\"arguments\":{\"expr\":\"2**64 + 1/3\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"ping\"}",
        " [1, -2, 3.5, -0, -0.0, 1e3, 2E-7, 1.25e+2, true, false, null, \"\", {}, []] ",
        "{\"a\":{\"b\":[{\"c\":\"d\\n\\t\\\"\\\\\\/ e\"}]},\"a\":2}",
        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
        "123456789012345678",
        "-123456789012345678",
        "0.1",
        "{\"k\":1.7976931348623157e308,\"t\":4.9e-324,\"u\":1e-400}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        json_t *fast = cc_json_parse_fast(texts[i], strlen(texts[i]));
        CHECK(fast != NULL);
        json_decref(fast);
        agrees_s(texts[i]);
    }
}

static void left_to_jansson(void) {
    /* errors, \u escapes, 19+ digit integers, leading zeros, deep nesting */
    static const char *const texts[] = {
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{1:2}", "01", "-", "-01", "1.", ".5",
        "+1", "1e", "1e+", "tru", "truex", "nul", "[1 2]", "\"a", "\"a\\u0041\"", "\"\\u0000\"",
        "\"\\x\"", "\"tab\there\"", "1234567890123456789", "99999999999999999999", "1e400",
        "\"\xff\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
        "{\"a\":1} x", "1 2",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        json_t *fast = cc_json_parse_fast(texts[i], strlen(texts[i]));
        if (fast) fprintf(stderr, "fast parse accepted: %s\n", texts[i]);
        CHECK(fast == NULL);
        json_decref(fast);
    }
    /* a NUL byte inside the text */
    CHECK(cc_json_parse_fast("\"a\0b\"", 5) == NULL);
    CHECK(cc_json_parse_fast("1\0", 2) == NULL);
}

/* Random texts from a small grammar, then byte mutations of them. */
static uint64_t rng = 88172645463325252ull;
static unsigned rnd(unsigned n) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static void gen(struct cc_strbuf *sb, int depth) {
    static const char *const atoms[] = {
        "0", "-0", "7", "-12", "3.25", "-0.5e-3", "1E10", "123456789012345678", "1234567890123456789",
        "true", "false", "null", "\"\"", "\"x\"", "\"a\\\"b\"", "\"\\n\\u00e9\"", "\"\xc3\xa9\"",
        "\"\\\\\"", "1.0", "2e308", "0.30000000000000004",
    };
    unsigned k = depth > 5 ? 0 : rnd(4);
    if (k == 1) {
        cc_sb_putc(sb, '[');
        unsigned n = rnd(4);
        for (unsigned i = 0; i < n; i++) {
            if (i) cc_sb_puts(sb, rnd(8) ? "," : " , ");
            gen(sb, depth + 1);
        }
        cc_sb_putc(sb, ']');
    } else if (k == 2) {
        cc_sb_putc(sb, '{');
        unsigned n = rnd(4);
        for (unsigned i = 0; i < n; i++) {
            if (i) cc_sb_putc(sb, ',');
            static const char *const keys[] = {"\"a\"", "\"b\"", "\"\"", "\"k\\ty\"", "\"a\""};
            cc_sb_puts(sb, keys[rnd(5)]);
            cc_sb_puts(sb, rnd(6) ? ":" : " :\n");
            gen(sb, depth + 1);
        }
        cc_sb_putc(sb, '}');
    } else {
        cc_sb_puts(sb, atoms[rnd(sizeof atoms / sizeof atoms[0])]);
    }
}

static void random_texts_agree(void) {
    static const char mutations[] = "{}[],:\"\\ -+.eE0159tfn\x01\x80\xff";
    for (int i = 0; i < 20000; i++) {
        struct cc_strbuf sb;
        cc_sb_init(&sb);
        gen(&sb, 0);
        agrees(sb.data, sb.len);
        for (int m = 0; m < 3 && sb.len; m++) {
            sb.data[rnd((unsigned)sb.len)] = mutations[rnd(sizeof mutations - 1)];
            agrees(sb.data, sb.len);
        }
        cc_sb_free(&sb);
    }
    /* the comparisons above mean something only if many texts took the fast path */
    CHECK(fast_hits > 10000);
}

/* The escaper of cc_sb_json_string, one byte at a time. */
static void reference_escape(struct cc_strbuf *sb, const unsigned char *p, size_t n) {
    cc_sb_putc(sb, '"');
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c >= 0x80) {
            size_t l = cc_utf8_seq(p + i, n - i);
            if (l) cc_sb_put(sb, p + i, l), i += l;
            else cc_sb_put(sb, "\xEF\xBF\xBD", 3), i++;
            continue;
        }
        const char *esc = NULL;
        char u[8];
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        default:
            if (c < 0x20) snprintf(u, sizeof u, "\\u%04x", c), esc = u;
        }
        if (esc) cc_sb_puts(sb, esc);
        else cc_sb_putc(sb, (char)c);
        i++;
    }
    cc_sb_putc(sb, '"');
}

/* rounds random texts of up to 63 bytes drawn from pool, after a prefix:
 * both escapers give the reference's bytes. Returns the mismatches. */
static int random_escapes(const unsigned char *pool, size_t pool_len, int rounds) {
    int mismatches = 0;
    for (int i = 0; i < rounds; i++) {
        unsigned char in[64];
        size_t n = rnd(sizeof in);
        for (size_t k = 0; k < n; k++) in[k] = pool[rnd(pool_len)];
        struct cc_strbuf got, want;
        cc_sb_init(&got);
        cc_sb_init(&want);
        cc_sb_puts(&got, "pre");
        cc_sb_puts(&want, "pre");
        reference_escape(&want, in, n);
        cc_sb_json_string(&got, (const char *)in, n);
        mismatches += got.len != want.len || memcmp(got.data, want.data, got.len) != 0 || got.data[got.len] != '\0';
        got.len = 3;
        cc_sb_json_text_string(&got, (const char *)in, n);
        mismatches += got.len != want.len || memcmp(got.data, want.data, got.len) != 0 || got.data[got.len] != '\0';
        cc_sb_free(&got);
        cc_sb_free(&want);
    }
    return mismatches;
}

static void escaper_matches_reference(void) {
    static const unsigned char pool[] = "ab\"\\\n\t\x01\x1f\x7f\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xff\xc0";
    CHECK_INTEQ(random_escapes(pool, sizeof pool - 1, 5000), 0);
}

/* The escaper copies eight bytes at a time up to the first byte that
 * needs care: every special byte at every position of runs of every length
 * around the word size, with a second special byte behind it. */
static void escaper_at_every_position(void) {
    static const unsigned char specials[] = {'"', '\\', 0x00, 0x01, 0x1f, '\n', 0x7f, 0x80, 0xc3, 0xe2, 0xff, ' ', '~'};
    int mismatches = 0;
    for (size_t len = 1; len <= 24; len++)
        for (size_t at = 0; at < len; at++)
            for (size_t k = 0; k < sizeof specials; k++) {
                unsigned char in[32];
                for (size_t i = 0; i < len; i++) in[i] = (unsigned char)('a' + i % 26);
                in[at] = specials[k];
                if (len > at + 1 && specials[k] == 0xc3) in[at + 1] = 0xa9; /* a valid two-byte sequence */
                if (len > at + 3) in[at + 3] = '"';
                struct cc_strbuf got, want;
                cc_sb_init(&got);
                cc_sb_init(&want);
                cc_sb_json_string(&got, (const char *)in, len);
                reference_escape(&want, in, len);
                mismatches += got.len != want.len || memcmp(got.data, want.data, got.len) != 0;
                got.len = 0;
                cc_sb_json_text_string(&got, (const char *)in, len);
                mismatches += got.len != want.len || memcmp(got.data, want.data, got.len) != 0;
                cc_sb_free(&got);
                cc_sb_free(&want);
            }
    CHECK_INTEQ(mismatches, 0);
}

/* JSON text is printable ASCII with a quote every few bytes, several in a
 * block: the JSON-text escaper (sixteen bytes at a time) on such texts. */
static void text_escaper_on_quote_dense_ascii(void) {
    static const unsigned char pool[] = "\"\"\"\\{}:,ab09 ~\x7f";
    CHECK_INTEQ(random_escapes(pool, sizeof pool - 1, 20000), 0);
}

/* cc_json_rpc_fast takes the usual JSON-RPC lines, in any member order
 * and spacing, and gives back the id, method and params the parse holds;
 * everything else is left to the whole parse. */
static int envelope_hits;

static void envelope_agrees(const char *text, size_t len) {
    struct cc_rpc_fast f;
    if (!cc_json_rpc_fast(text, len, &f)) return;
    envelope_hits++;
    json_t *whole = cc_json_parse_fast(text, len);
    const json_t *id = json_object_get(whole, "id"), *params = json_object_get(whole, "params");
    const json_t *rpc = json_object_get(whole, "jsonrpc");
    bool ok = json_is_object(whole) && (f.id ? id && same_tree(f.id, id) : !id) &&
              (f.params ? params && same_tree(f.params, params) : !params) && (!rpc || json_is_string(rpc)) &&
              json_object_size(whole) == 1u + !!f.id + !!f.params + !!rpc &&
              json_string_value(json_object_get(whole, "method")) &&
              strcmp(json_string_value(json_object_get(whole, "method")), f.method) == 0;
    if (!ok) fprintf(stderr, "envelope disagrees with the parse on: %.*s\n", (int)len, text);
    CHECK(ok);
    json_decref(whole);
    json_decref(f.id);
    json_decref(f.params);
}

static void usual_envelopes_read_without_a_tree(void) {
    static const char *const taken[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"calc_exact\",\"arguments\":{\"expr\":\"1/7\"}}}",
        " { \"params\" : {\"name\":\"x\",\"_meta\":{\"progressToken\":1}} , \"method\":\"tools/call\", \"id\" : \"a-1\",\"jsonrpc\":\"2.0\" } ",
        "{\"jsonrpc\":\"\",\"id\":-123456789012345678,\"method\":\"tools/call\",\"params\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
    };
    static const char *const left[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"tools/call\",\"params\":{}}",      /* a real id */
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":007,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1234567890123456789,\"method\":\"tools/call\",\"params\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"\\u0041\",\"method\":\"tools/call\",\"params\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"tools/call\",\"params\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":[]}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{},\"x\":0}",
        "{\"jsonrpc\":2,\"id\":1,\"method\":\"tools/call\",\"params\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}} x",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"a\":}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"params\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"caf\xc3\xa9\"}",
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
    };
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
        struct cc_rpc_fast f;
        CHECK(cc_json_rpc_fast(taken[i], strlen(taken[i]), &f));
        json_decref(f.id);
        json_decref(f.params);
        envelope_agrees(taken[i], strlen(taken[i]));
    }
    for (size_t i = 0; i < sizeof left / sizeof left[0]; i++) {
        struct cc_rpc_fast f;
        bool took = cc_json_rpc_fast(left[i], strlen(left[i]), &f);
        if (took) fprintf(stderr, "envelope taken: %s\n", left[i]);
        CHECK(!took);
    }
    /* byte mutations of usual lines: taken only where the parse agrees */
    static const char mutations[] = "{}[],:\"\\ -+.eE0159tfn\x01\x80\xff";
    for (int i = 0; i < 40000; i++) {
        const char *base = taken[i % 2 ? 0 : 3];
        char t[256];
        size_t n = strlen(base);
        memcpy(t, base, n);
        for (int m = 0; m < 1 + (int)rnd(3); m++) t[rnd((unsigned)n)] = mutations[rnd(sizeof mutations - 1)];
        envelope_agrees(t, n);
    }
    CHECK(envelope_hits > 1000);
}

int main(void) {
    RUN(common_requests_take_the_fast_path);
    RUN(left_to_jansson);
    RUN(random_texts_agree);
    RUN(escaper_matches_reference);
    RUN(escaper_at_every_position);
    RUN(text_escaper_on_quote_dense_ascii);
    RUN(usual_envelopes_read_without_a_tree);
    return check_summary("proto_json_fast");
}
