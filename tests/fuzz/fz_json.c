/* The strict JSON checker of fz.h: a recursive-descent recogniser of RFC
 * 8259 that builds nothing. */
#include "tests/fuzz/fz.h"

#include <string.h>

struct cur {
    const unsigned char *s;
    size_t n, i;
    int depth;
};

static void ws(struct cur *c) {
    while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' ||
                           c->s[c->i] == '\r'))
        c->i++;
}

static bool lit(struct cur *c, const char *w) {
    size_t k = strlen(w);
    if (c->n - c->i < k || memcmp(c->s + c->i, w, k) != 0) return false;
    c->i += k;
    return true;
}

static bool digits(struct cur *c) {
    size_t start = c->i;
    while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9') c->i++;
    return c->i > start;
}

static bool number(struct cur *c) {
    if (c->i < c->n && c->s[c->i] == '-') c->i++;
    if (c->i >= c->n) return false;
    if (c->s[c->i] == '0') c->i++;
    else if (!digits(c)) return false;
    if (c->i < c->n && c->s[c->i] == '.') {
        c->i++;
        if (!digits(c)) return false;
    }
    if (c->i < c->n && (c->s[c->i] == 'e' || c->s[c->i] == 'E')) {
        c->i++;
        if (c->i < c->n && (c->s[c->i] == '+' || c->s[c->i] == '-')) c->i++;
        if (!digits(c)) return false;
    }
    return true;
}

static int hexval(unsigned char h) {
    if (h >= '0' && h <= '9') return h - '0';
    if (h >= 'a' && h <= 'f') return h - 'a' + 10;
    if (h >= 'A' && h <= 'F') return h - 'A' + 10;
    return -1;
}

/* One UTF-8 sequence of a string body (shortest form, no surrogates). */
static bool utf8_seq(struct cur *c) {
    unsigned char b = c->s[c->i];
    size_t len;
    uint32_t cp;
    if (b < 0x80) return c->i++, true;
    if (b >= 0xc2 && b <= 0xdf) len = 2, cp = b & 0x1f;
    else if (b >= 0xe0 && b <= 0xef) len = 3, cp = b & 0x0f;
    else if (b >= 0xf0 && b <= 0xf4) len = 4, cp = b & 0x07;
    else return false;
    if (c->n - c->i < len) return false;
    for (size_t k = 1; k < len; k++) {
        unsigned char t = c->s[c->i + k];
        if ((t & 0xc0) != 0x80) return false;
        cp = cp << 6 | (t & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return false;
    c->i += len;
    return true;
}

static bool string(struct cur *c) {
    if (c->i >= c->n || c->s[c->i] != '"') return false;
    c->i++;
    while (c->i < c->n) {
        unsigned char b = c->s[c->i];
        if (b == '"') return c->i++, true;
        if (b < 0x20) return false;
        if (b != '\\') {
            if (!utf8_seq(c)) return false;
            continue;
        }
        if (++c->i >= c->n) return false;
        unsigned char e = c->s[c->i++];
        if (strchr("\"\\/bfnrt", e) && e) continue;
        if (e != 'u' || c->n - c->i < 4) return false;
        for (int k = 0; k < 4; k++)
            if (hexval(c->s[c->i + k]) < 0) return false;
        c->i += 4;
    }
    return false;
}

static bool value(struct cur *c);

static bool members(struct cur *c, char close, bool keyed) {
    c->i++;
    ws(c);
    if (c->i < c->n && c->s[c->i] == close) return c->i++, true;
    for (;;) {
        if (keyed) {
            if (!string(c)) return false;
            ws(c);
            if (c->i >= c->n || c->s[c->i] != ':') return false;
            c->i++;
            ws(c);
        }
        if (!value(c)) return false;
        ws(c);
        if (c->i >= c->n) return false;
        if (c->s[c->i] == close) return c->i++, true;
        if (c->s[c->i] != ',') return false;
        c->i++;
        ws(c);
    }
}

static bool value(struct cur *c) {
    if (c->i >= c->n || ++c->depth > 10000) return false;
    bool ok;
    switch (c->s[c->i]) {
    case '{': ok = members(c, '}', true); break;
    case '[': ok = members(c, ']', false); break;
    case '"': ok = string(c); break;
    case 't': ok = lit(c, "true"); break;
    case 'f': ok = lit(c, "false"); break;
    case 'n': ok = lit(c, "null"); break;
    default: ok = number(c);
    }
    c->depth--;
    return ok;
}

bool fz_json_valid(const char *s, size_t n) {
    struct cur c = {(const unsigned char *)s, n, 0, 0};
    ws(&c);
    if (!value(&c)) return false;
    ws(&c);
    return c.i == n;
}

uint8_t fz_byte(struct fz_in *in) {
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

const uint8_t *fz_take(struct fz_in *in, size_t n, size_t *len) {
    const uint8_t *p = in->p;
    *len = n < in->n ? n : in->n;
    in->p += *len;
    in->n -= *len;
    return p;
}
