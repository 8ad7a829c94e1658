/* msgpack straight into an sbuffer (mp_write.h). */
#include "protocol/mp_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"

/* Room for n more bytes; the buffer grows as msgpack_sbuffer_write grows
 * it (doubling), from a small start: a frame is usually tiny. */
static unsigned char *room(msgpack_sbuffer *sb, size_t n) {
    if (sb->alloc - sb->size < n) {
        size_t cap = sb->alloc ? sb->alloc * 2 : 256;
        while (cap < sb->size + n) cap *= 2;
        char *p = realloc(sb->data, cap);
        if (!p) {
            fputs("codecalc: out of memory\n", stderr);
            abort();
        }
        sb->data = p;
        sb->alloc = cap;
    }
    return (unsigned char *)sb->data + sb->size;
}

/* A type byte and a w-byte big-endian value. */
static void typed(msgpack_sbuffer *sb, unsigned char type, uint64_t v, size_t w) {
    unsigned char *o = room(sb, 1 + w);
    o[0] = type;
    for (size_t i = 0; i < w; i++) o[1 + i] = (unsigned char)(v >> (8 * (w - 1 - i)));
    sb->size += 1 + w;
}

static void byte(msgpack_sbuffer *sb, unsigned char b) {
    *room(sb, 1) = b;
    sb->size++;
}

/* fix (a one-byte header holding n) below 16, else the 16- or 32-bit form */
static void count(msgpack_sbuffer *sb, size_t n, unsigned char fix, unsigned char t16, unsigned char t32) {
    if (n < 16) byte(sb, (unsigned char)(fix | n));
    else if (n < 65536) typed(sb, t16, n, 2);
    else typed(sb, t32, n, 4);
}

void cc_mpw_map(msgpack_sbuffer *sb, size_t n) { count(sb, n, 0x80, 0xde, 0xdf); }

void cc_mpw_array(msgpack_sbuffer *sb, size_t n) { count(sb, n, 0x90, 0xdc, 0xdd); }

void cc_mpw_str(msgpack_sbuffer *sb, const char *s, size_t n) {
    if (n < 32) byte(sb, (unsigned char)(0xa0 | n));
    else if (n < 256) typed(sb, 0xd9, n, 1);
    else if (n < 65536) typed(sb, 0xda, n, 2);
    else typed(sb, 0xdb, n, 4);
    if (n) memcpy(room(sb, n), s, n);
    sb->size += n;
}

void cc_mpw_uint(msgpack_sbuffer *sb, uint64_t v) {
    if (v < 128) byte(sb, (unsigned char)v);
    else if (v < 256) typed(sb, 0xcc, v, 1);
    else if (v < 65536) typed(sb, 0xcd, v, 2);
    else if (v < (1ull << 32)) typed(sb, 0xce, v, 4);
    else typed(sb, 0xcf, v, 8);
}

void cc_mpw_int(msgpack_sbuffer *sb, int64_t v) {
    if (v >= 0) {
        cc_mpw_uint(sb, (uint64_t)v);
        return;
    }
    if (v >= -32) byte(sb, (unsigned char)(int8_t)v);
    else if (v >= -128) typed(sb, 0xd0, (uint64_t)v, 1);
    else if (v >= -32768) typed(sb, 0xd1, (uint64_t)v, 2);
    else if (v >= -2147483648ll) typed(sb, 0xd2, (uint64_t)v, 4);
    else typed(sb, 0xd3, (uint64_t)v, 8);
}

void cc_mpw_bool(msgpack_sbuffer *sb, int b) { byte(sb, b ? 0xc3 : 0xc2); }

static void ext(msgpack_sbuffer *sb, const char *d, size_t n, int8_t type) {
    static const unsigned char fixext[17] = {[1] = 0xd4, [2] = 0xd5, [4] = 0xd6, [8] = 0xd7, [16] = 0xd8};
    if (n <= 16 && fixext[n]) byte(sb, fixext[n]);
    else if (n < 256) typed(sb, 0xc7, n, 1);
    else if (n < 65536) typed(sb, 0xc8, n, 2);
    else typed(sb, 0xc9, n, 4);
    byte(sb, (unsigned char)type);
    if (n) memcpy(room(sb, n), d, n);
    sb->size += n;
}

static int value(msgpack_sbuffer *sb, const json_t *j, int depth) {
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        if (depth >= CC_MP_MAX_NESTING) return -1;
        cc_mpw_map(sb, json_object_size(j));
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v) {
            cc_mpw_str(sb, k, strlen(k));
            if (value(sb, v, depth + 1) < 0) return -1;
        }
        return 0;
    }
    case JSON_ARRAY: {
        if (depth >= CC_MP_MAX_NESTING) return -1;
        size_t n = json_array_size(j);
        cc_mpw_array(sb, n);
        for (size_t i = 0; i < n; i++)
            if (value(sb, json_array_get(j, i), depth + 1) < 0) return -1;
        return 0;
    }
    case JSON_STRING: {
        size_t n;
        const char *d = cc_json_bigint_digits(j, &n);
        if (d) ext(sb, d, n, CC_MP_EXT_BIGINT);
        else cc_mpw_str(sb, json_string_value(j), json_string_length(j));
        return 0;
    }
    case JSON_INTEGER: cc_mpw_int(sb, json_integer_value(j)); return 0;
    case JSON_REAL: {
        double d = json_real_value(j);
        uint64_t bits;
        memcpy(&bits, &d, 8);
        typed(sb, 0xcb, bits, 8);
        return 0;
    }
    case JSON_TRUE: cc_mpw_bool(sb, 1); return 0;
    case JSON_FALSE: cc_mpw_bool(sb, 0); return 0;
    case JSON_NULL: byte(sb, 0xc0); return 0;
    }
    return -1;
}

int cc_mpw_json(msgpack_sbuffer *sb, const json_t *j) { return value(sb, j, 0); }
