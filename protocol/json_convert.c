/* Conversions between jansson values, msgpack objects and JSON text. */
#include "protocol/json_convert.h"

#include "protocol/base64.h"
#include "protocol/json_fast.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 512

/* The digits of a JSON integer: an optional '-', then "0" or digits without
 * a leading zero. They are printed as they are, so anything else (a worker's
 * "007") would make the message invalid JSON. No bound on the length: the
 * message that holds them has one (CODECALC_MAX_MESSAGE_BYTES); a bound of
 * 10^6 digits here alone made a longer integer a marker string for the
 * transport (an id echoed as "\u0000bigint:...") and a number for the
 * workers. */
static bool digits_ok(const char *s, size_t n) {
    size_t i = (n && s[0] == '-') ? 1 : 0;
    if (i == n) return false;
    if (s[i] == '0' && n - i > 1) return false;
    for (; i < n; i++)
        if (!isdigit((unsigned char)s[i])) return false;
    return true;
}

const char *cc_json_bigint_digits(const json_t *j, size_t *n) {
    size_t len = json_string_length(j);
    const char *s = json_string_value(j);
    if (len <= CC_BIGINT_PREFIX_LEN || memcmp(s, CC_BIGINT_PREFIX, CC_BIGINT_PREFIX_LEN) != 0)
        return NULL;
    if (!digits_ok(s + CC_BIGINT_PREFIX_LEN, len - CC_BIGINT_PREFIX_LEN)) return NULL;
    *n = len - CC_BIGINT_PREFIX_LEN;
    return s + CC_BIGINT_PREFIX_LEN;
}

bool cc_json_is_bigint(const json_t *j) {
    size_t n;
    return cc_json_bigint_digits(j, &n) != NULL;
}

static json_t *bigint_json(const char *d, size_t n) {
    char *buf = malloc(CC_BIGINT_PREFIX_LEN + n);
    if (!buf) return NULL;
    memcpy(buf, CC_BIGINT_PREFIX, CC_BIGINT_PREFIX_LEN);
    memcpy(buf + CC_BIGINT_PREFIX_LEN, d, n);
    json_t *s = json_stringn_nocheck(buf, CC_BIGINT_PREFIX_LEN + n);
    free(buf);
    return s;
}

/* msgpack-c leaves the pointer of an empty str, bin or ext NULL; library
 * calls want a real pointer even for zero bytes. */
static const char *bytes_of(const char *p, uint32_t n) { return n ? p : ""; }

/* Valid UTF-8 copy of (s, n) with U+FFFD for bad sequences. */
static json_t *utf8_string(const char *s, size_t n) {
    json_t *j = json_stringn(s, n);
    if (j) return j;
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_json_string(&sb, s, n);
    json_error_t e;
    j = json_loadb(sb.data, sb.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    cc_sb_free(&sb);
    return j;
}

static json_t *from_mp(const msgpack_object *o, int depth) {
    if (depth > MAX_DEPTH) return NULL;
    switch (o->type) {
    case MSGPACK_OBJECT_NIL: return json_null();
    case MSGPACK_OBJECT_BOOLEAN: return json_boolean(o->via.boolean);
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        if (o->via.u64 <= (uint64_t)INT64_MAX) return json_integer((json_int_t)o->via.u64);
        {
            char d[24];
            int n = snprintf(d, sizeof d, "%llu", (unsigned long long)o->via.u64);
            return bigint_json(d, (size_t)n);
        }
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: return json_integer((json_int_t)o->via.i64);
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        return isfinite(o->via.f64) ? json_real(o->via.f64) : json_null();
    case MSGPACK_OBJECT_STR: return utf8_string(bytes_of(o->via.str.ptr, o->via.str.size), o->via.str.size);
    case MSGPACK_OBJECT_BIN: {
        struct cc_strbuf sb;
        cc_sb_init(&sb);
        cc_base64_append(&sb, bytes_of(o->via.bin.ptr, o->via.bin.size), o->via.bin.size);
        json_t *j = json_stringn(sb.data ? sb.data : "", sb.len);
        cc_sb_free(&sb);
        return j;
    }
    case MSGPACK_OBJECT_EXT:
        if (o->via.ext.type == CC_MP_EXT_BIGINT && digits_ok(o->via.ext.ptr, o->via.ext.size))
            return bigint_json(o->via.ext.ptr, o->via.ext.size);
        return json_null();
    case MSGPACK_OBJECT_ARRAY: {
        json_t *a = json_array();
        for (uint32_t i = 0; a && i < o->via.array.size; i++) {
            json_t *v = from_mp(&o->via.array.ptr[i], depth + 1);
            if (!v || json_array_append_new(a, v) < 0) {
                json_decref(a);
                return NULL;
            }
        }
        return a;
    }
    case MSGPACK_OBJECT_MAP: {
        json_t *m = json_object();
        for (uint32_t i = 0; m && i < o->via.map.size; i++) {
            const msgpack_object *k = &o->via.map.ptr[i].key;
            if (k->type != MSGPACK_OBJECT_STR) continue;
            const char *key = bytes_of(k->via.str.ptr, k->via.str.size);
            if (memchr(key, 0, k->via.str.size)) continue;
            json_t *v = from_mp(&o->via.map.ptr[i].val, depth + 1);
            if (!v || json_object_setn_new(m, key, k->via.str.size, v) < 0) {
                json_decref(m);
                return NULL;
            }
        }
        return m;
    }
    }
    return NULL;
}

json_t *cc_mp_to_json(const msgpack_object *o) { return from_mp(o, 0); }

/* The shortest digits that read back as d, written as Python's repr
 * writes them: positional while the decimal exponent is in [-4, 16), so 10.0
 * is "10.0" (%g with one digit would say "1e+01"). */
char *cc_json_double(double d, char buf[32]) {
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, d);
        if (strtod(buf, NULL) == d) break;
    }
    char *e = strchr(buf, 'e');
    long exp10 = e ? strtol(e + 1, NULL, 10) : 0;
    /* %g chose an exponent because it exceeds the digits: the value is an
     * integer below 10^16, which %.0f writes exactly. */
    if (e && exp10 >= 0 && exp10 < 16) snprintf(buf, 32, "%.0f", d);
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    return buf;
}

static void emit_double(struct cc_strbuf *sb, double d) {
    if (!isfinite(d)) {
        cc_sb_puts(sb, "null");
        return;
    }
    char buf[32];
    cc_sb_puts(sb, cc_json_double(d, buf));
}

static int emit_mp(struct cc_strbuf *sb, const msgpack_object *o, int depth) {
    if (depth > MAX_DEPTH) return -1;
    switch (o->type) {
    case MSGPACK_OBJECT_NIL: cc_sb_puts(sb, "null"); return 0;
    case MSGPACK_OBJECT_BOOLEAN: cc_sb_puts(sb, o->via.boolean ? "true" : "false"); return 0;
    case MSGPACK_OBJECT_POSITIVE_INTEGER: cc_sb_put_u64(sb, o->via.u64); return 0;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: cc_sb_put_i64(sb, o->via.i64); return 0;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64: emit_double(sb, o->via.f64); return 0;
    case MSGPACK_OBJECT_STR: cc_sb_json_string(sb, bytes_of(o->via.str.ptr, o->via.str.size), o->via.str.size); return 0;
    case MSGPACK_OBJECT_BIN:
        cc_sb_putc(sb, '"');
        cc_base64_append(sb, bytes_of(o->via.bin.ptr, o->via.bin.size), o->via.bin.size);
        cc_sb_putc(sb, '"');
        return 0;
    case MSGPACK_OBJECT_EXT:
        if (o->via.ext.type == CC_MP_EXT_BIGINT && digits_ok(o->via.ext.ptr, o->via.ext.size))
            cc_sb_put(sb, o->via.ext.ptr, o->via.ext.size);
        else
            cc_sb_puts(sb, "null");
        return 0;
    case MSGPACK_OBJECT_ARRAY:
        cc_sb_putc(sb, '[');
        for (uint32_t i = 0; i < o->via.array.size; i++) {
            if (i) cc_sb_putc(sb, ',');
            if (emit_mp(sb, &o->via.array.ptr[i], depth + 1) < 0) return -1;
        }
        cc_sb_putc(sb, ']');
        return 0;
    case MSGPACK_OBJECT_MAP:
        cc_sb_putc(sb, '{');
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            const msgpack_object *k = &o->via.map.ptr[i].key;
            if (i) cc_sb_putc(sb, ',');
            if (k->type == MSGPACK_OBJECT_STR)
                cc_sb_json_string(sb, bytes_of(k->via.str.ptr, k->via.str.size), k->via.str.size);
            else
                cc_sb_puts(sb, "\"\"");
            cc_sb_putc(sb, ':');
            if (emit_mp(sb, &o->via.map.ptr[i].val, depth + 1) < 0) return -1;
        }
        cc_sb_putc(sb, '}');
        return 0;
    }
    return -1;
}

int cc_mp_emit_json(struct cc_strbuf *sb, const msgpack_object *o) { return emit_mp(sb, o, 0); }

static int emit_json(struct cc_strbuf *sb, const json_t *j, int depth) {
    if (depth > MAX_DEPTH) return -1;
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        cc_sb_putc(sb, '{');
        const char *k;
        json_t *v;
        int first = 1;
        json_object_foreach((json_t *)j, k, v) {
            if (!first) cc_sb_putc(sb, ',');
            first = 0;
            cc_sb_json_string(sb, k, strlen(k));
            cc_sb_putc(sb, ':');
            if (emit_json(sb, v, depth + 1) < 0) return -1;
        }
        cc_sb_putc(sb, '}');
        return 0;
    }
    case JSON_ARRAY:
        cc_sb_putc(sb, '[');
        for (size_t i = 0; i < json_array_size(j); i++) {
            if (i) cc_sb_putc(sb, ',');
            if (emit_json(sb, json_array_get(j, i), depth + 1) < 0) return -1;
        }
        cc_sb_putc(sb, ']');
        return 0;
    case JSON_STRING: {
        size_t n;
        const char *d = cc_json_bigint_digits(j, &n);
        if (d) cc_sb_put(sb, d, n);
        else cc_sb_json_string(sb, json_string_value(j), json_string_length(j));
        return 0;
    }
    case JSON_INTEGER: cc_sb_put_i64(sb, json_integer_value(j)); return 0;
    case JSON_REAL: emit_double(sb, json_real_value(j)); return 0;
    case JSON_TRUE: cc_sb_puts(sb, "true"); return 0;
    case JSON_FALSE: cc_sb_puts(sb, "false"); return 0;
    case JSON_NULL: cc_sb_puts(sb, "null"); return 0;
    }
    return -1;
}

int cc_json_emit(struct cc_strbuf *sb, const json_t *j) { return emit_json(sb, j, 0); }

/* ---- parsing with big-integer protection -------------------------------- */

/* Does the integer literal (optional '-', digits) fit in int64? */
static bool fits_i64(const char *s, size_t n) {
    bool neg = s[0] == '-';
    const char *d = s + neg;
    size_t dn = n - neg;
    while (dn > 1 && *d == '0') d++, dn--;
    if (dn < 19) return true;
    if (dn > 19) return false;
    return memcmp(d, neg ? "9223372036854775808" : "9223372036854775807", 19) <= 0;
}

/* Rewrite integer literals that do not fit int64 into sentinel strings,
 * counting them in *made. Returns NULL when nothing needed rewriting (the
 * common case). */
static char *protect_bigints(const char *t, size_t len, size_t *outlen, size_t *made) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    size_t copied = 0;
    bool in_str = false;
    for (size_t i = 0; i < len; i++) {
        char c = t[i];
        if (in_str) {
            if (c == '\\') i++;
            else if (c == '"') in_str = false;
            continue;
        }
        if (c == '"') {
            in_str = true;
            continue;
        }
        if (c != '-' && !isdigit((unsigned char)c)) continue;
        size_t j = i + (c == '-');
        while (j < len && isdigit((unsigned char)t[j])) j++;
        size_t d0 = i + (c == '-');
        /* "007" is not JSON: leave it for the parser to refuse. */
        bool is_int = j > d0 && (j == len || !strchr(".eE", t[j])) && !(t[d0] == '0' && j - d0 > 1);
        if (is_int && !fits_i64(t + i, j - i)) {
            cc_sb_put(&sb, t + copied, i - copied);
            cc_sb_puts(&sb, "\"\\u0000bigint:");
            cc_sb_put(&sb, t + i, j - i);
            cc_sb_putc(&sb, '"');
            copied = j;
            ++*made;
        }
        /* Skip the rest of this number token (fraction/exponent). */
        while (j < len && (isdigit((unsigned char)t[j]) || strchr(".eE+-", t[j]))) j++;
        i = j - 1;
    }
    if (copied == 0) {
        cc_sb_free(&sb);
        return NULL;
    }
    cc_sb_put(&sb, t + copied, len - copied);
    return cc_sb_take(&sb, outlen);
}

/* How many strings of j (keys aside) begin with CC_BIGINT_PREFIX. */
static size_t count_markers(const json_t *j) {
    if (json_is_string(j))
        return json_string_length(j) >= CC_BIGINT_PREFIX_LEN &&
               memcmp(json_string_value(j), CC_BIGINT_PREFIX, CC_BIGINT_PREFIX_LEN) == 0;
    size_t n = 0, i;
    const char *k;
    json_t *v;
    if (json_is_object(j)) json_object_foreach((json_t *)j, k, v) n += count_markers(v);
    if (json_is_array(j)) json_array_foreach(j, i, v) n += count_markers(v);
    return n;
}

static json_t *parse(const char *text, size_t len, json_error_t *err, bool from_client) {
    json_t *fast = cc_json_parse_fast(text, len);
    if (fast) return fast;
    size_t plen, made = 0;
    char *prot = protect_bigints(text, len, &plen, &made);
    json_t *j = prot ? json_loadb(prot, plen, JSON_DECODE_ANY | JSON_ALLOW_NUL, err)
                     : json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, err);
    free(prot);
    /* A string the sender wrote as "\u0000bigint:..." would read as the big
     * integer of that name (a string id answered with a number id, a string
     * argument taken for an integer). Only text holding the escape \u0000
     * can spell it (JSON writes NUL no other way): there, every marker must
     * be one of ours. (Text we wrote ourselves may hold such a string from a
     * program's output; it is read as before.) */
    if (from_client && j && memmem(text, len, "\\u0000", 6) && count_markers(j) > made) {
        json_decref(j);
        memset(err, 0, sizeof *err);
        snprintf(err->text, sizeof err->text - 1, "a string begins with \\u0000bigint:, which is reserved");
        return NULL;
    }
    return j;
}

json_t *cc_json_parse(const char *text, size_t len, json_error_t *err) { return parse(text, len, err, false); }

json_t *cc_json_parse_client(const char *text, size_t len, json_error_t *err) {
    return parse(text, len, err, true);
}
