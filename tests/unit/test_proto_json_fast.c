/* The fast JSON parse path (protocol/json_fast.c) against jansson: whenever
 * it returns a tree, jansson returns the same tree (types, key order, exact
 * doubles); it must give up on whatever jansson refuses. And the JSON string
 * escaper against a plain byte-at-a-time reference. */
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

static void escaper_matches_reference(void) {
    static const unsigned char pool[] = "ab\"\\\n\t\x01\x1f\x7f\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xff\xc0";
    for (int i = 0; i < 5000; i++) {
        unsigned char in[64];
        size_t n = rnd(sizeof in);
        for (size_t k = 0; k < n; k++) in[k] = pool[rnd(sizeof pool - 1)];
        struct cc_strbuf got, want;
        cc_sb_init(&got);
        cc_sb_init(&want);
        cc_sb_puts(&got, "pre");
        cc_sb_puts(&want, "pre");
        cc_sb_json_string(&got, (const char *)in, n);
        reference_escape(&want, in, n);
        CHECK(got.len == want.len && memcmp(got.data, want.data, got.len) == 0 && got.data[got.len] == '\0');
        cc_sb_free(&got);
        cc_sb_free(&want);
    }
}

int main(void) {
    RUN(common_requests_take_the_fast_path);
    RUN(left_to_jansson);
    RUN(random_texts_agree);
    RUN(escaper_matches_reference);
    return check_summary("proto_json_fast");
}
