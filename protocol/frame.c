/* The frame codec: length-prefixed msgpack maps with a hard size cap. */
#include "protocol/frame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cc_frame_reader_init(struct cc_frame_reader *r) { memset(r, 0, sizeof *r); }

void cc_frame_reader_free(struct cc_frame_reader *r) {
    free(r->buf);
    memset(r, 0, sizeof *r);
}

static void compact(struct cc_frame_reader *r) {
    if (r->consumed == 0) return;
    memmove(r->buf, r->buf + r->consumed, r->len - r->consumed);
    r->len -= r->consumed;
    r->consumed = 0;
}

/* Room for n more bytes after compacting. Returns 0, or -1 past the bound. */
static int make_room(struct cc_frame_reader *r, size_t n) {
    compact(r);
    if (n > (size_t)CC_FRAME_MAX + 4 || r->len + n > (size_t)CC_FRAME_MAX * 2 + 8) return -1;
    if (r->len + n > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n) cap *= 2;
        char *nb = realloc(r->buf, cap);
        if (!nb) return -1;
        r->buf = nb;
        r->cap = cap;
    }
    return 0;
}

int cc_frame_reader_feed(struct cc_frame_reader *r, const void *data, size_t n) {
    if (make_room(r, n) < 0) return -1;
    memcpy(r->buf + r->len, data, n);
    r->len += n;
    return 0;
}

ssize_t cc_frame_reader_read(struct cc_frame_reader *r, int fd, size_t want) {
    size_t bound = (size_t)CC_FRAME_MAX * 2 + 8;
    compact(r);
    if (r->len >= bound) {
        errno = EMSGSIZE;
        return -1;
    }
    if (want > bound - r->len) want = bound - r->len;
    /* Use what is already allocated when it holds a useful amount. */
    if (r->cap - r->len < want && r->cap - r->len < 4096 && make_room(r, want) < 0) {
        errno = ENOMEM;
        return -1;
    }
    ssize_t n = read(fd, r->buf + r->len, r->cap - r->len);
    if (n > 0) r->len += (size_t)n;
    return n;
}

int cc_frame_next(struct cc_frame_reader *r, const char **body, size_t *len) {
    size_t avail = r->len - r->consumed;
    if (avail < 4) return 0;
    const unsigned char *p = (const unsigned char *)r->buf + r->consumed;
    uint32_t n = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    if (n == 0 || n > CC_FRAME_MAX) return -1;
    if (avail - 4 < n) return 0;
    *body = (const char *)p + 4;
    *len = n;
    r->consumed += 4 + (size_t)n;
    return 1;
}

int cc_frame_ready(const struct cc_frame_reader *r) {
    size_t avail = r->len - r->consumed;
    if (avail < 4) return 0;
    const unsigned char *p = (const unsigned char *)r->buf + r->consumed;
    uint32_t n = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return avail - 4 >= n;
}

/* Big-endian unsigned of w bytes at p. */
static uint64_t be(const unsigned char *p, size_t w) {
    uint64_t v = 0;
    for (size_t i = 0; i < w; i++) v = v << 8 | p[i];
    return v;
}

/* One msgpack header at p (n bytes available): how many bytes it spans
 * including any payload (*skip), and how many elements follow it (*elems).
 * false when the header or its payload is cut off, or the byte is 0xc1. */
static bool header(const unsigned char *p, size_t n, uint64_t *skip, uint64_t *elems) {
    unsigned char b = p[0];
    *elems = 0;
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) return *skip = 1, true;
    if (b <= 0x8f) return *elems = 2u * (b & 0x0f), *skip = 1, true;
    if (b <= 0x9f) return *elems = b & 0x0f, *skip = 1, true;
    if (b <= 0xbf) return *skip = 1u + (b & 0x1f), *skip <= n;
    /* Fixed-size scalars: payload width by type byte. */
    static const unsigned char fixed[0x20] = {
        [0x0a] = 4, [0x0b] = 8, [0x0c] = 1, [0x0d] = 2, [0x0e] = 4, [0x0f] = 8,
        [0x10] = 1, [0x11] = 2, [0x12] = 4, [0x13] = 8,
        [0x14] = 2, [0x15] = 3, [0x16] = 5, [0x17] = 9, [0x18] = 17, /* fixext: type + data */
    };
    unsigned t = b - 0xc0;
    if (fixed[t]) return *skip = 1u + fixed[t], *skip <= n;
    size_t w;  /* width of the length or count field */
    switch (b) {
    case 0xc4: case 0xc7: case 0xd9: w = 1; break;
    case 0xc5: case 0xc8: case 0xda: case 0xdc: case 0xde: w = 2; break;
    case 0xc6: case 0xc9: case 0xdb: case 0xdd: case 0xdf: w = 4; break;
    default: return false; /* 0xc1: never used */
    }
    if (n < 1 + w) return false;
    uint64_t v = be(p + 1, w);
    if (b >= 0xdc) { /* array or map: elements follow */
        *elems = b >= 0xde ? 2 * v : v;
        return *skip = 1 + w, true;
    }
    bool ext = b >= 0xc7 && b <= 0xc9;
    *skip = 1 + w + ext + v;
    return *skip <= n;
}

bool cc_mp_counts_fit(const char *p, size_t n) {
    const unsigned char *u = (const unsigned char *)p;
    size_t at = 0;
    uint64_t pending = 1; /* values still to read, each at least one byte */
    while (pending && at < n) {
        uint64_t skip, elems;
        if (!header(u + at, n - at, &skip, &elems)) return false;
        at += skip;
        pending = pending - 1 + elems;
        if (pending > n - at) return false;
    }
    return pending == 0;
}

int cc_frame_decode(const char *body, size_t len, msgpack_unpacked *out) {
    msgpack_unpacked_init(out);
    if (!cc_mp_counts_fit(body, len)) return -1;
    size_t off = 0;
    msgpack_unpack_return rc = msgpack_unpack_next(out, body, len, &off);
    if (rc != MSGPACK_UNPACK_SUCCESS || off != len || out->data.type != MSGPACK_OBJECT_MAP) {
        msgpack_unpacked_destroy(out);
        msgpack_unpacked_init(out);
        return -1;
    }
    return 0;
}

int cc_frame_decode_in(const char *body, size_t len, msgpack_zone *zone, msgpack_object *out) {
    msgpack_zone_clear(zone);
    if (!cc_mp_counts_fit(body, len)) return -1;
    size_t off = 0;
    msgpack_unpack_return rc = msgpack_unpack(body, len, &off, zone, out);
    if (rc != MSGPACK_UNPACK_SUCCESS || off != len || out->type != MSGPACK_OBJECT_MAP) return -1;
    return 0;
}

void cc_frame_begin(msgpack_sbuffer *sb) {
    static const char zero[4] = {0};
    msgpack_sbuffer_write(sb, zero, 4);
}

int cc_frame_end_at(msgpack_sbuffer *sb, size_t start) {
    if (sb->size < start + 4) return -1;
    size_t body = sb->size - start - 4;
    if (body > CC_FRAME_MAX || body == 0) return -1;
    cc_frame_prefix((uint32_t)body, (unsigned char *)sb->data + start);
    return 0;
}

int cc_frame_end(msgpack_sbuffer *sb) { return cc_frame_end_at(sb, 0); }

const msgpack_object *cc_mp_get(const msgpack_object *map, const char *key) {
    if (!map || map->type != MSGPACK_OBJECT_MAP) return NULL;
    size_t kl = strlen(key);
    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object *k = &map->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == kl &&
            (kl == 0 || memcmp(k->via.str.ptr, key, kl) == 0))
            return &map->via.map.ptr[i].val;
    }
    return NULL;
}

int cc_mp_str(const msgpack_object *o, const char **s, size_t *n) {
    if (!o || o->type != MSGPACK_OBJECT_STR) return -1;
    *s = o->via.str.size ? o->via.str.ptr : ""; /* msgpack-c: NULL when empty */
    *n = o->via.str.size;
    return 0;
}

int cc_mp_str_eq(const msgpack_object *o, const char *lit) {
    const char *s;
    size_t n;
    return cc_mp_str(o, &s, &n) == 0 && n == strlen(lit) && memcmp(s, lit, n) == 0;
}
