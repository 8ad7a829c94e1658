/* msgpack bytes read in place (mp_raw.h). */
#include "protocol/mp_raw.h"

#include <math.h>
#include <string.h>

#include "protocol/ascii16.h"
#include "protocol/json_convert.h"

struct rd {
    const unsigned char *p, *end;
};

static bool have(const struct rd *r, size_t k) { return (size_t)(r->end - r->p) >= k; }

static uint64_t be(const unsigned char *p, size_t w) {
    uint64_t v = 0;
    for (size_t i = 0; i < w; i++) v = v << 8 | p[i];
    return v;
}

/* What one header announces. */
enum kind { K_NIL, K_FALSE, K_TRUE, K_UINT, K_INT, K_F32, K_F64, K_STR, K_ARRAY, K_MAP, K_OTHER };

struct head {
    enum kind k;
    uint64_t u;        /* K_UINT value, K_STR length, K_ARRAY/K_MAP count */
    int64_t i;         /* K_INT value */
    double d;          /* K_F32 / K_F64 */
    const char *s;     /* K_STR bytes */
};

static bool head_long(struct rd *r, unsigned char b, struct head *h);

/* Read one header (and a scalar's payload). false: cut off, or a kind the
 * plain forms do not include (bin, ext, 0xc1). The one-byte headers (short
 * strings, small integers, small maps and arrays, true, false) are read
 * here, inline; the rest in head_long. */
static inline __attribute__((always_inline)) bool head(struct rd *r, struct head *h) {
    if (r->p >= r->end) return false;
    unsigned char b = *r->p++;
    if (b <= 0x7f) return h->k = K_UINT, h->u = b, true;
    if (b >= 0xe0) return h->k = K_INT, h->i = (int8_t)b, true;
    if (b <= 0x8f) return h->k = K_MAP, h->u = b & 0x0f, true;
    if (b <= 0x9f) return h->k = K_ARRAY, h->u = b & 0x0f, true;
    if (b <= 0xbf) {
        h->k = K_STR, h->u = b & 0x1f;
        if ((size_t)(r->end - r->p) < h->u) return false;
        h->s = (const char *)r->p;
        r->p += h->u;
        return true;
    }
    if (b == 0xc3) return h->k = K_TRUE, true;
    if (b == 0xc2) return h->k = K_FALSE, true;
    return head_long(r, b, h);
}

static bool head_long(struct rd *r, unsigned char b, struct head *h) {
    size_t w = 0;
    switch (b) {
    case 0xc0: return h->k = K_NIL, true;
    case 0xcc: case 0xcd: case 0xce: case 0xcf:
        w = (size_t)1 << (b - 0xcc);
        if (!have(r, w)) return false;
        h->k = K_UINT, h->u = be(r->p, w), r->p += w;
        return true;
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
        w = (size_t)1 << (b - 0xd0);
        if (!have(r, w)) return false;
        uint64_t v = be(r->p, w);
        r->p += w;
        unsigned shift = (unsigned)(64 - 8 * w); /* sign-extend the w-byte value */
        h->k = K_INT, h->i = (int64_t)(v << shift) >> shift;
        return true;
    }
    case 0xca: {
        if (!have(r, 4)) return false;
        uint32_t v = (uint32_t)be(r->p, 4);
        float f;
        memcpy(&f, &v, 4);
        r->p += 4;
        return h->k = K_F32, h->d = f, true;
    }
    case 0xcb: {
        if (!have(r, 8)) return false;
        uint64_t v = be(r->p, 8);
        memcpy(&h->d, &v, 8);
        r->p += 8;
        return h->k = K_F64, true;
    }
    case 0xd9: case 0xda: case 0xdb:
        w = (size_t)1 << (b - 0xd9);
        if (!have(r, w)) return false;
        h->k = K_STR, h->u = be(r->p, w), r->p += w;
        goto str_body;
    case 0xdc: case 0xdd:
        w = b == 0xdc ? 2 : 4;
        if (!have(r, w)) return false;
        h->k = K_ARRAY, h->u = be(r->p, w), r->p += w;
        return true;
    case 0xde: case 0xdf:
        w = b == 0xde ? 2 : 4;
        if (!have(r, w)) return false;
        h->k = K_MAP, h->u = be(r->p, w), r->p += w;
        return true;
    }
    return h->k = K_OTHER, false;
str_body:
    if (!have(r, h->u)) return false;
    h->s = (const char *)r->p;
    r->p += h->u;
    return true;
}

/* The result's members the metrics read (NULL below the result's top). */
struct capture {
    struct cc_mp_member *code, *verdict;
    bool code_seen, verdict_seen;
};

static bool key_is(const struct head *k, const char *lit, size_t n) {
    return k->u == n && memcmp(k->s, lit, n) == 0;
}

/* As cc_mp_get finds a member: the first entry with that key. */
static void capture(struct capture *c, const struct head *k, const struct head *v) {
    bool *seen = NULL;
    struct cc_mp_member *m = NULL;
    if (!c->code_seen && key_is(k, "code", 4)) seen = &c->code_seen, m = c->code;
    else if (!c->verdict_seen && key_is(k, "verdict", 7)) seen = &c->verdict_seen, m = c->verdict;
    if (!seen) return;
    *seen = true;
    m->is_str = v->k == K_STR;
    if (m->is_str) m->s = v->s, m->n = v->u;
}

/* A string of the frame (s, n bytes, inside r's bytes) as a JSON string.
 * A short one of plain printable ASCII, which most results' keys and
 * values are, is copied with one 16-byte store when 16 bytes are there to
 * read; everything else goes to the escaper, which writes the same bytes. */
static void put_string(struct cc_strbuf *sb, const struct rd *r, const char *s, size_t n) {
    if (CC_HAVE_ASCII16 && n <= 16 && r->end - (const unsigned char *)s >= 16 &&
        !(cc_json_stops16(s) & ((1u << n) - 1))) {
        cc_sb_reserve(sb, 16 + 2);
        char *o = sb->data + sb->len;
        o[0] = '"';
        memcpy(o + 1, s, 16);
        o[1 + n] = '"';
        sb->len += n + 2;
        sb->data[sb->len] = '\0';
        return;
    }
    cc_sb_json_string(sb, s, n);
}

static bool emit(struct cc_strbuf *sb, struct rd *r, const struct head *h, int depth, struct capture *cap);

static bool emit_container(struct cc_strbuf *sb, struct rd *r, const struct head *h, int depth,
                           struct capture *cap) {
    if (depth >= CC_MP_MAX_NESTING) return false;
    bool map = h->k == K_MAP;
    cc_sb_putc(sb, map ? '{' : '[');
    for (uint64_t i = 0; i < h->u; i++) {
        if (i) cc_sb_putc(sb, ',');
        struct head k, v;
        if (map) {
            if (!head(r, &k) || k.k != K_STR) return false;
            put_string(sb, r, k.s, k.u);
            cc_sb_putc(sb, ':');
        }
        if (!head(r, &v)) return false;
        if (map && cap) capture(cap, &k, &v);
        if (!emit(sb, r, &v, depth + 1, NULL)) return false;
    }
    cc_sb_putc(sb, map ? '}' : ']');
    return true;
}

/* The value whose header h was just read. */
static bool emit(struct cc_strbuf *sb, struct rd *r, const struct head *h, int depth, struct capture *cap) {
    switch (h->k) {
    case K_NIL: cc_sb_put(sb, "null", 4); return true;
    case K_FALSE: cc_sb_put(sb, "false", 5); return true;
    case K_TRUE: cc_sb_put(sb, "true", 4); return true;
    case K_UINT: cc_sb_put_u64(sb, h->u); return true;
    case K_INT: cc_sb_put_i64(sb, h->i); return true; /* the same digits as a non-negative u64 */
    case K_F32:
    case K_F64: {
        char buf[32];
        if (isfinite(h->d)) cc_sb_puts(sb, cc_json_double(h->d, buf));
        else cc_sb_put(sb, "null", 4);
        return true;
    }
    case K_STR: put_string(sb, r, h->s, h->u); return true;
    case K_ARRAY:
    case K_MAP: return emit_container(sb, r, h, depth, cap);
    case K_OTHER: return false;
    }
    return false;
}

bool cc_mp_raw_json(struct cc_strbuf *sb, const char *p, size_t n) {
    struct rd r = {(const unsigned char *)p, (const unsigned char *)p + n};
    struct head h;
    return head(&r, &h) && emit(sb, &r, &h, 0, NULL) && r.p == r.end;
}

bool cc_mp_raw_answer_json(const char *body, size_t len, struct cc_strbuf *sb, struct cc_mp_answer *out) {
    struct rd r = {(const unsigned char *)body, (const unsigned char *)body + len};
    *out = (struct cc_mp_answer){0};
    struct capture cap = {.code = &out->code, .verdict = &out->verdict};
    struct head m;
    if (!head(&r, &m) || m.k != K_MAP || m.u != 3) return false;
    bool got_id = false, got_ok = false, got_res = false;
    for (int i = 0; i < 3; i++) {
        struct head k, v;
        if (!head(&r, &k) || k.k != K_STR || !head(&r, &v)) return false;
        if (!got_id && key_is(&k, "id", 2) && v.k == K_UINT) {
            out->id = v.u;
            got_id = true;
        } else if (!got_ok && key_is(&k, "ok", 2) && v.k == K_TRUE) {
            got_ok = true;
        } else if (!got_res && key_is(&k, "result", 6)) {
            /* depth 1: the frame's map is one level, as the decoder counts */
            if (!emit(sb, &r, &v, 1, v.k == K_MAP ? &cap : NULL)) return false;
            got_res = true;
        } else {
            return false;
        }
    }
    return r.p == r.end;
}

/* The jansson value of the plain value whose header h was just read, as
 * cc_mp_to_json converts the decoded one; NULL to give up (a big unsigned
 * integer, invalid UTF-8, a key holding NUL: cc_mp_to_json's own rules
 * apply, on the decoding path). */
static json_t *to_json(struct rd *r, const struct head *h, int depth) {
    switch (h->k) {
    case K_NIL: return json_null();
    case K_FALSE: return json_false();
    case K_TRUE: return json_true();
    case K_UINT: return h->u <= (uint64_t)INT64_MAX ? json_integer((json_int_t)h->u) : NULL;
    case K_INT: return json_integer((json_int_t)h->i);
    case K_F32:
    case K_F64: return isfinite(h->d) ? json_real(h->d) : json_null();
    case K_STR: return json_stringn(h->s, h->u);
    case K_ARRAY:
    case K_MAP: break;
    case K_OTHER: return NULL;
    }
    if (depth >= CC_MP_MAX_NESTING) return NULL;
    bool map = h->k == K_MAP;
    json_t *c = map ? json_object() : json_array();
    if (!c) return NULL;
    for (uint64_t i = 0; i < h->u; i++) {
        struct head k, v;
        json_t *x;
        if (map && (!head(r, &k) || k.k != K_STR || memchr(k.s, 0, k.u))) goto fail;
        if (!head(r, &v) || !(x = to_json(r, &v, depth + 1))) goto fail;
        /* the _new calls take x even when they fail */
        if ((map ? json_object_setn_new(c, k.s, k.u, x) : json_array_append_new(c, x)) < 0) goto fail;
    }
    return c;
fail:
    json_decref(c);
    return NULL;
}

/* Steps over the plain value whose header h was just read, as to_json
 * walks it (string keys, the same nesting bound) without converting it. */
static bool skip(struct rd *r, const struct head *h, int depth) {
    if (h->k != K_ARRAY && h->k != K_MAP) return h->k != K_OTHER;
    if (depth >= CC_MP_MAX_NESTING) return false;
    for (uint64_t i = 0; i < h->u; i++) {
        struct head k, v;
        if (h->k == K_MAP && (!head(r, &k) || k.k != K_STR)) return false;
        if (!head(r, &v) || !skip(r, &v, depth + 1)) return false;
    }
    return true;
}

bool cc_mp_raw_request(const char *body, size_t len, struct cc_mp_request *out) {
    struct rd r = {(const unsigned char *)body, (const unsigned char *)body + len};
    *out = (struct cc_mp_request){0};
    struct head m;
    if (!head(&r, &m) || m.k != K_MAP || m.u < 3 || m.u > 4) return false;
    bool got_id = false, got_op = false, got_args = false;
    for (uint64_t i = 0; i < m.u; i++) {
        struct head k, v;
        if (!head(&r, &k) || k.k != K_STR) return false;
        const unsigned char *value_at = r.p;
        if (!head(&r, &v)) return false;
        if (!got_id && key_is(&k, "id", 2) && v.k == K_UINT) {
            out->id = v.u;
            got_id = true;
        } else if (!got_op && key_is(&k, "op", 2) && v.k == K_STR) {
            out->op = v.s;
            out->op_len = v.u;
            got_op = true;
        } else if (!got_args && key_is(&k, "args", 4) && v.k == K_MAP) {
            /* depth 1: the frame's map is one level, as the decoder counts */
            if (!skip(&r, &v, 1)) return false;
            out->args_at = (const char *)value_at;
            out->args_len = (size_t)(r.p - value_at);
            got_args = true;
        } else if (!out->has_deadline && key_is(&k, "deadline_ms", 11) && v.k == K_UINT) {
            out->deadline_ms = v.u;
            out->has_deadline = true;
        } else {
            return false;
        }
    }
    return got_id && got_op && got_args && r.p == r.end;
}

json_t *cc_mp_raw_request_args(const struct cc_mp_request *rq) {
    struct rd r = {(const unsigned char *)rq->args_at, (const unsigned char *)rq->args_at + rq->args_len};
    struct head h;
    if (!head(&r, &h) || h.k != K_MAP) return NULL;
    json_t *args = to_json(&r, &h, 1);
    if (args && r.p != r.end) {
        json_decref(args);
        return NULL;
    }
    return args;
}

bool cc_mp_raw_only_str(const char *p, size_t n, const char *key, const char **s, size_t *sn) {
    struct rd r = {(const unsigned char *)p, (const unsigned char *)p + n};
    struct head m, k, v;
    if (!head(&r, &m) || m.k != K_MAP || m.u != 1 || !head(&r, &k) || k.k != K_STR ||
        !key_is(&k, key, strlen(key)) || !head(&r, &v) || v.k != K_STR || r.p != r.end)
        return false;
    *s = v.s;
    *sn = v.u;
    return true;
}
