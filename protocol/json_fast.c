/* A fast path for parsing the JSON every request arrives as. jansson's
 * parser reads a byte at a time through a stream layer and costs about 150
 * instructions a byte; this one scans the text directly and builds the very
 * same jansson tree. It handles only what is plainly well formed: anything
 * it is unsure of (an error, a \u escape, an integer of 19 or more digits,
 * deep nesting, a number it cannot reproduce exactly) makes it give up, and
 * the caller parses the text with jansson, which then produces the tree or
 * the error message it always did. */
#include "protocol/json_fast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/ascii16.h"
#include "protocol/strbuf.h"
#include "protocol/utf8.h"

/* Deeper input is left to jansson (its limit is 2048 levels). */
#define FAST_MAX_DEPTH 32

struct parser {
    const unsigned char *p, *end;
    struct cc_strbuf *scratch; /* unescaped string bytes */
};

static void skip_ws(struct parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t'))
        ps->p++;
}

/* The body of a string whose opening quote was consumed, as (*s, *n):
 * pointing into the text when it holds no escape, else into scratch.
 * Returns 0, or -1 to give up. */
/* Bytes that end a plain run inside a string: the closing quote, a
 * backslash, control bytes and the start of anything non-ASCII. */
static const unsigned char stops[256] = {
    [0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x80 ... 0xff] = 1,
};

static int string_body(struct parser *ps, const char **s, size_t *n) {
    const unsigned char *start = ps->p;
    const unsigned char *q = start;
    while (CC_HAVE_ASCII16 && ps->end - q >= 16) {
        unsigned m = cc_json_stops16(q);
        if (m) {
            q += __builtin_ctz(m);
            goto stopped;
        }
        q += 16;
    }
    while (q < ps->end && !stops[*q]) q++;
stopped:
    if (q < ps->end && *q == '"') {
        *s = (const char *)start;
        *n = (size_t)(q - start);
        ps->p = q + 1;
        return 0;
    }
    struct cc_strbuf *sb = ps->scratch;
    sb->len = 0;
    cc_sb_put(sb, start, (size_t)(q - start));
    while (q < ps->end) {
        unsigned char c = *q;
        if (c == '"') {
            *s = sb->data;
            *n = sb->len;
            ps->p = q + 1;
            return 0;
        }
        if (c < 0x20) return -1;
        if (c >= 0x80) {
            size_t l = cc_utf8_seq(q, (size_t)(ps->end - q));
            if (!l) return -1;
            cc_sb_put(sb, q, l);
            q += l;
            continue;
        }
        if (c != '\\') {
            cc_sb_putc(sb, (char)c);
            q++;
            continue;
        }
        if (q + 1 >= ps->end) return -1;
        char e;
        switch (q[1]) {
        case '"': e = '"'; break;
        case '\\': e = '\\'; break;
        case '/': e = '/'; break;
        case 'b': e = '\b'; break;
        case 'f': e = '\f'; break;
        case 'n': e = '\n'; break;
        case 'r': e = '\r'; break;
        case 't': e = '\t'; break;
        default: return -1; /* \u and anything else: jansson's job */
        }
        cc_sb_putc(sb, e);
        q += 2;
    }
    return -1;
}

static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* A number in JSON's grammar; an integer of at most 18 digits is computed
 * here, a real through strtod on a bounded copy. */
static json_t *number(struct parser *ps) {
    const unsigned char *start = ps->p, *q = ps->p;
    bool neg = q < ps->end && *q == '-';
    if (neg) q++;
    if (q >= ps->end || !is_digit(*q)) return NULL;
    const unsigned char *digits = q;
    if (*q == '0') q++;
    else
        while (q < ps->end && is_digit(*q)) q++;
    size_t ndig = (size_t)(q - digits);
    bool real = false;
    if (q < ps->end && *q == '.') {
        real = true;
        q++;
        if (q >= ps->end || !is_digit(*q)) return NULL;
        while (q < ps->end && is_digit(*q)) q++;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        real = true;
        q++;
        if (q < ps->end && (*q == '+' || *q == '-')) q++;
        if (q >= ps->end || !is_digit(*q)) return NULL;
        while (q < ps->end && is_digit(*q)) q++;
    }
    /* "01" and "-01": jansson refuses a leading zero followed by digits */
    if (q < ps->end && is_digit(*q)) return NULL;
    ps->p = q;
    if (!real) {
        if (ndig > 18) return NULL;
        json_int_t v = 0;
        for (size_t i = 0; i < ndig; i++) v = v * 10 + (digits[i] - '0');
        return json_integer(neg ? -v : v);
    }
    char buf[64];
    size_t len = (size_t)(q - start);
    if (len >= sizeof buf) return NULL;
    memcpy(buf, start, len);
    buf[len] = '\0';
    double d = strtod(buf, NULL);
    if (isinf(d)) return NULL; /* jansson's "real number overflow" */
    return json_real(d);
}

static json_t *value(struct parser *ps, int depth);

/* After a member of an object or array: 1 when a ',' announces another,
 * 0 when `close` ends it (both consumed), -1 otherwise. */
static int after_member(struct parser *ps, char close) {
    skip_ws(ps);
    if (ps->p >= ps->end) return -1;
    char c = *ps->p++;
    return c == ',' ? 1 : c == close ? 0 : -1;
}

static json_t *object(struct parser *ps, int depth) {
    json_t *obj = json_object();
    if (!obj) return NULL;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        return obj;
    }
    for (;;) {
        skip_ws(ps);
        if (ps->p >= ps->end || *ps->p != '"') break;
        ps->p++;
        const char *k;
        size_t kn;
        if (string_body(ps, &k, &kn) < 0) break;
        /* the key may live in scratch, which the value reuses: copy it */
        char small[64];
        char *key = kn < sizeof small ? small : malloc(kn + 1);
        if (!key) break;
        memcpy(key, k, kn);
        key[kn] = '\0';
        skip_ws(ps);
        json_t *v = NULL;
        if (ps->p < ps->end && *ps->p == ':') {
            ps->p++;
            v = value(ps, depth + 1);
        }
        int rc = v ? json_object_setn_new_nocheck(obj, key, kn, v) : -1;
        if (key != small) free(key);
        if (rc < 0) break;
        int next = after_member(ps, '}');
        if (next == 0) return obj;
        if (next < 0) break;
    }
    json_decref(obj);
    return NULL;
}

static json_t *array(struct parser *ps, int depth) {
    json_t *arr = json_array();
    if (!arr) return NULL;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        return arr;
    }
    for (;;) {
        json_t *v = value(ps, depth + 1);
        if (!v || json_array_append_new(arr, v) < 0) break;
        int next = after_member(ps, ']');
        if (next == 0) return arr;
        if (next < 0) break;
    }
    json_decref(arr);
    return NULL;
}

static bool literal(struct parser *ps, const char *word, size_t n) {
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return false;
    ps->p += n;
    return true;
}

static json_t *value(struct parser *ps, int depth) {
    if (depth > FAST_MAX_DEPTH) return NULL;
    skip_ws(ps);
    if (ps->p >= ps->end) return NULL;
    switch (*ps->p) {
    case '{': ps->p++; return object(ps, depth);
    case '[': ps->p++; return array(ps, depth);
    case '"': {
        ps->p++;
        const char *s;
        size_t n;
        if (string_body(ps, &s, &n) < 0) return NULL;
        return json_stringn_nocheck(s, n);
    }
    case 't': return literal(ps, "true", 4) ? json_true() : NULL;
    case 'f': return literal(ps, "false", 5) ? json_false() : NULL;
    case 'n': return literal(ps, "null", 4) ? json_null() : NULL;
    default: return number(ps);
    }
}

json_t *cc_json_parse_fast(const char *text, size_t len) {
    struct cc_strbuf scratch; /* allocated only when a string has an escape */
    cc_sb_init(&scratch);
    struct parser ps = {(const unsigned char *)text, (const unsigned char *)text + len, &scratch};
    json_t *j = value(&ps, 0);
    skip_ws(&ps);
    if (j && ps.p != ps.end) {
        json_decref(j);
        j = NULL;
    }
    cc_sb_free(&scratch);
    return j;
}

/* A string without escapes or non-ASCII bytes, in place. */
static bool plain_string(struct parser *ps, const char **s, size_t *n) {
    skip_ws(ps);
    if (ps->p >= ps->end || *ps->p != '"') return false;
    ps->p++;
    const unsigned char *start = ps->p;
    if (string_body(ps, s, n) < 0) return false;
    return (const unsigned char *)*s == start; /* not unescaped into scratch */
}

/* The id's text, an integer of at most 18 digits (as number() reads it)
 * or a plain string, checked without making its value: made only once the
 * whole envelope is known to be plain. */
struct id_span {
    const unsigned char *at;
    const char *s;
    size_t n;
    bool is_string;
};

static bool id_span(struct parser *ps, struct id_span *id) {
    skip_ws(ps);
    if (ps->p >= ps->end) return false;
    id->at = ps->p;
    id->is_string = *ps->p == '"';
    if (id->is_string) return plain_string(ps, &id->s, &id->n);
    const unsigned char *q = ps->p + (*ps->p == '-');
    const unsigned char *digits = q;
    while (q < ps->end && is_digit(*q)) q++;
    size_t nd = (size_t)(q - digits);
    if (nd == 0 || nd > 18 || (nd > 1 && *digits == '0')) return false;
    if (q < ps->end && (*q == '.' || *q == 'e' || *q == 'E')) return false; /* a real: not an id */
    ps->p = q;
    return true;
}

static json_t *id_value(struct parser *ps, const struct id_span *id) {
    if (id->is_string) return json_stringn_nocheck(id->s, id->n);
    ps->p = id->at;
    return number(ps);
}

bool cc_json_rpc_fast(const char *text, size_t len, struct cc_rpc_fast *out) {
    struct cc_strbuf scratch;
    cc_sb_init(&scratch);
    struct parser ps = {(const unsigned char *)text, (const unsigned char *)text + len, &scratch};
    bool seen[4] = {false}, ok = false;
    struct id_span span;
    const char *m = NULL;
    size_t mn = 0;
    json_t *p = NULL;
    skip_ws(&ps);
    if (ps.p >= ps.end || *ps.p++ != '{') goto out;
    for (;;) {
        const char *k, *v;
        size_t kn, vn;
        if (!plain_string(&ps, &k, &kn)) goto out;
        skip_ws(&ps);
        if (ps.p >= ps.end || *ps.p++ != ':') goto out;
        int which = kn == 7 && memcmp(k, "jsonrpc", 7) == 0  ? 0
                    : kn == 2 && memcmp(k, "id", 2) == 0     ? 1
                    : kn == 6 && memcmp(k, "method", 6) == 0 ? 2
                    : kn == 6 && memcmp(k, "params", 6) == 0 ? 3
                                                             : -1;
        if (which < 0 || seen[which]) goto out;
        seen[which] = true;
        if (which == 0 && !plain_string(&ps, &v, &vn)) goto out;
        if (which == 1 && !id_span(&ps, &span)) goto out;
        if (which == 2 && (!plain_string(&ps, &m, &mn) || mn >= sizeof out->method)) goto out;
        if (which == 3) {
            p = value(&ps, 1); /* json_is_object evaluates its argument twice */
            if (!json_is_object(p)) goto out;
        }
        int next = after_member(&ps, '}');
        if (next < 0) goto out;
        if (next == 0) break;
    }
    skip_ws(&ps);
    if (ps.p != ps.end || !seen[2]) goto out;
    out->id = seen[1] ? id_value(&ps, &span) : NULL;
    if (seen[1] && !out->id) goto out;
    memcpy(out->method, m, mn);
    out->method[mn] = '\0';
    out->params = p;
    ok = true;
out:
    if (!ok) json_decref(p);
    cc_sb_free(&scratch);
    return ok;
}
