/* Frame codec and JSON<->msgpack conversion. */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/mp_raw.h"
#include "protocol/mp_write.h"
#include "protocol/msg.h"
#include "protocol/strbuf.h"
#include "tests/unit/check.h"
#include "tests/unit/mp_packer_ref.h"

static void pack_sample(msgpack_sbuffer *sb) {
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    cc_frame_begin(sb);
    msgpack_pack_map(&pk, 2);
    msgpack_pack_str_with_body(&pk, "id", 2);
    msgpack_pack_uint64(&pk, 42);
    msgpack_pack_str_with_body(&pk, "op", 2);
    msgpack_pack_str_with_body(&pk, "calc_exact", 10);
    cc_frame_end(sb);
}

static void roundtrip_split_feed(void) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    pack_sample(&sb);
    struct cc_frame_reader r;
    cc_frame_reader_init(&r);
    const char *body;
    size_t len;
    /* Byte by byte: no frame until the last byte arrives. */
    for (size_t i = 0; i < sb.size; i++) {
        CHECK(cc_frame_next(&r, &body, &len) == 0);
        CHECK(cc_frame_reader_feed(&r, sb.data + i, 1) == 0);
    }
    CHECK(cc_frame_next(&r, &body, &len) == 1);
    CHECK_INTEQ(len, sb.size - 4);
    msgpack_unpacked u;
    CHECK(cc_frame_decode(body, len, &u) == 0);
    const msgpack_object *id = cc_mp_get(&u.data, "id");
    CHECK(id && id->via.u64 == 42);
    CHECK(cc_mp_str_eq(cc_mp_get(&u.data, "op"), "calc_exact"));
    msgpack_unpacked_destroy(&u);
    CHECK(cc_frame_next(&r, &body, &len) == 0);
    cc_frame_reader_free(&r);
    msgpack_sbuffer_destroy(&sb);
}

static void oversized_and_zero_length_refused(void) {
    struct cc_frame_reader r;
    cc_frame_reader_init(&r);
    unsigned char big[4];
    cc_frame_prefix(CC_FRAME_MAX + 1, big);
    cc_frame_reader_feed(&r, big, 4);
    const char *body;
    size_t len;
    CHECK(cc_frame_next(&r, &body, &len) == -1);
    cc_frame_reader_free(&r);

    cc_frame_reader_init(&r);
    unsigned char zero[4] = {0, 0, 0, 0};
    cc_frame_reader_feed(&r, zero, 4);
    CHECK(cc_frame_next(&r, &body, &len) == -1);
    cc_frame_reader_free(&r);
}

static void garbage_truncated_and_wrong_type_bodies(void) {
    msgpack_unpacked u;
    /* 0xc1 is never used in msgpack. */
    CHECK(cc_frame_decode("\xc1", 1, &u) == -1);
    /* A map header promising one entry, with nothing after it. */
    CHECK(cc_frame_decode("\x81", 1, &u) == -1);
    /* A valid array, but a frame must be a map. */
    CHECK(cc_frame_decode("\x91\x01", 2, &u) == -1);
    /* A valid map followed by trailing bytes. */
    CHECK(cc_frame_decode("\x80\x01", 2, &u) == -1);
    CHECK(cc_frame_decode("\x80", 1, &u) == 0);
    msgpack_unpacked_destroy(&u);
}

static void bigint_survives_json_to_msgpack_to_text(void) {
    const char *in = "{\"n\":-1180591620717411303424,\"m\":18446744073709551616,\"k\":5,\"f\":0.1}";
    json_error_t e;
    json_t *j = cc_json_parse(in, strlen(in), &e);
    CHECK(j != NULL);
    CHECK(json_is_string(json_object_get(j, "n")));
    CHECK(json_integer_value(json_object_get(j, "k")) == 5);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    CHECK(cc_mpw_json(&sb, j) == 0);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    CHECK(msgpack_unpack_next(&u, sb.data, sb.size, &off) == MSGPACK_UNPACK_SUCCESS);
    const msgpack_object *n = cc_mp_get(&u.data, "n");
    CHECK(n && n->type == MSGPACK_OBJECT_EXT && n->via.ext.type == CC_MP_EXT_BIGINT);
    struct cc_strbuf out;
    cc_sb_init(&out);
    CHECK(cc_mp_emit_json(&out, cc_mp_get(&u.data, "n")) == 0);
    CHECK_STREQ(out.data, "-1180591620717411303424");
    cc_sb_free(&out);
    cc_sb_init(&out);
    cc_json_emit(&out, j);
    CHECK(strstr(out.data, "\"m\":18446744073709551616") != NULL);
    CHECK(strstr(out.data, "\"f\":0.1") != NULL);
    cc_sb_free(&out);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    json_decref(j);
}

static void bigint_inside_strings_untouched(void) {
    const char *in = "{\"s\":\"99999999999999999999999\",\"a\":[-5,1.5e3,-0.25E-2]}";
    json_error_t e;
    json_t *j = cc_json_parse(in, strlen(in), &e);
    CHECK(j != NULL);
    CHECK_STREQ(json_string_value(json_object_get(j, "s")), "99999999999999999999999");
    json_decref(j);
}

static void doubles_print_shortest_with_a_point(void) {
    char buf[32];
    CHECK_STREQ(cc_json_double(3.0, buf), "3.0");
    CHECK_STREQ(cc_json_double(0.1, buf), "0.1");
    CHECK_STREQ(cc_json_double(2.7105053979070703e-08, buf), "2.7105053979070703e-08");
    CHECK_STREQ(cc_json_double(1e300, buf), "1e+300");
    /* Regression (percentiles answered "nearest_rank": 1e+01 for 10): an
     * integral double below 10^16 is written positionally, as Python does. */
    CHECK_STREQ(cc_json_double(10.0, buf), "10.0");
    CHECK_STREQ(cc_json_double(120.0, buf), "120.0");
    CHECK_STREQ(cc_json_double(-3e5, buf), "-300000.0");
    CHECK_STREQ(cc_json_double(1e15, buf), "1000000000000000.0");
    CHECK_STREQ(cc_json_double(9.1e15, buf), "9100000000000000.0");
    CHECK_STREQ(cc_json_double(1e16, buf), "1e+16");
    CHECK_STREQ(cc_json_double(1e-5, buf), "1e-05");
    CHECK_STREQ(cc_json_double(0.0001, buf), "0.0001");
    CHECK_STREQ(cc_json_double(123456789012.5, buf), "123456789012.5");
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    msgpack_object inf = {.type = MSGPACK_OBJECT_FLOAT64, .via.f64 = INFINITY};
    CHECK(cc_mp_emit_json(&sb, &inf) == 0);
    CHECK_STREQ(sb.data, "null");
    cc_sb_free(&sb);
}

static void invalid_utf8_replaced(void) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_json_string(&sb, "a\xff" "b\n\x01", 5);
    CHECK_STREQ(sb.data, "\"a\xef\xbf\xbd" "b\\n\\u0001\"");
    cc_sb_free(&sb);
}

static void malformed_json_rejected(void) {
    json_error_t e;
    CHECK(cc_json_parse("{\"a\":", 5, &e) == NULL);
    CHECK(cc_json_parse("nonsense", 8, &e) == NULL);
}

/* Regression: a client's string "\u0000bigint:12" read as the integer 12
 * (a string id was answered with the number id 12). The client parse
 * refuses it, however "bigint:" is escaped; the server's own big integers,
 * and the same string in text the server wrote, still read as before. */
static void regression_client_string_spelling_the_bigint_marker_refused(void) {
    json_error_t e;
    const char *spoof = "{\"id\":\"\\u0000bigint:12\",\"a\":1}";
    CHECK(cc_json_parse_client(spoof, strlen(spoof), &e) == NULL);
    CHECK(strstr(e.text, "reserved") != NULL);
    const char *escaped = "[\"\\u0000\\u0062igint:7\"]";
    CHECK(cc_json_parse_client(escaped, strlen(escaped), &e) == NULL);
    const char *big = "{\"id\":18446744073709551616,\"s\":\"\\u0000x\"}";
    json_t *j = cc_json_parse_client(big, strlen(big), &e);
    CHECK(j != NULL);
    size_t n = 0;
    const char *d = j ? cc_json_bigint_digits(json_object_get(j, "id"), &n) : NULL;
    CHECK(d && n == 20 && memcmp(d, "18446744073709551616", 20) == 0);
    json_decref(j);
    j = cc_json_parse(spoof, strlen(spoof), &e);
    CHECK(j != NULL);
    json_decref(j);
}

/* Found by fuzz_frame and fuzz_convert: msgpack-c allocates a container's
 * element slots before reading them, so a worker's 5-byte frame "array of
 * 2^32 elements" made the supervisor allocate 64 GiB (and a 2^27-element
 * one 4 GiB that overcommit lets through). */
static void regression_container_counts_beyond_the_body_refused(void) {
    msgpack_unpacked u;
    CHECK(!cc_mp_counts_fit("\xdd\xff\xff\xff\xff", 5));
    CHECK(cc_frame_decode("\xdf\xff\xff\xff\xff", 5, &u) == -1);
    CHECK(cc_frame_decode("\x81\xa1" "k" "\xdd\x08\x00\x00\x00\x01", 9, &u) == -1);
    /* Nested counts add up: two maps of one entry each need four values. */
    CHECK(!cc_mp_counts_fit("\x82\x01\x81\x01", 4));
    /* Honest headers still decode, payload lengths are followed. */
    CHECK(cc_mp_counts_fit("\x92\xc4\x02" "ab" "\xd9\x01" "z", 8));
    CHECK(!cc_mp_counts_fit("\xc4\x05" "ab", 4));
    CHECK(cc_frame_decode("\x81\xa2id\x93\x01\xc7\x01\x01" "5\xcb\x3f\xf0\0\0\0\0\0\0", 19, &u) == 0);
    msgpack_unpacked_destroy(&u);
    /* 0xc1 is never valid. */
    CHECK(!cc_mp_counts_fit("\x91\xc1", 2));
}

/* The zone decoder the pool and the worker loop use for every frame (added
 * for speed after the fix above) must refuse the same lies: it lost the
 * check once, and a worker's 5-byte frame would again have asked for
 * 64 GiB. */
static void regression_zone_decoder_refuses_container_counts_beyond_the_body(void) {
    msgpack_zone *z = msgpack_zone_new(MSGPACK_ZONE_CHUNK_SIZE);
    msgpack_object o;
    CHECK(z != NULL);
    CHECK(cc_frame_decode_in("\xdf\xff\xff\xff\xff", 5, z, &o) == -1);
    CHECK(cc_frame_decode_in("\xdd\xff\xff\xff\xff", 5, z, &o) == -1);
    /* Refused before anything is allocated: a zone keeps what a failed
     * decode allocated, so the mapped bytes would show 2^27 slots (2 GiB).
     * (mallinfo2 counts nothing under ASan: there only the verdict.) */
    size_t mapped = mallinfo2().hblkhd;
    CHECK(cc_frame_decode_in("\x81\xa1" "k" "\xdd\x08\x00\x00\x00\x01", 9, z, &o) == -1);
    CHECK(mallinfo2().hblkhd < mapped + (64u << 20));
    CHECK(cc_frame_decode_in("\x81\xa2id\x93\x01\xc7\x01\x01" "5\xcb\x3f\xf0\0\0\0\0\0\0", 19, z, &o) == 0);
    CHECK(o.type == MSGPACK_OBJECT_MAP && o.via.map.size == 1);
    msgpack_zone_free(z);
}

/* Found by fuzz_frame and fuzz_convert: a worker's big integer "000...1234"
 * (msgpack ext) was printed digit for digit, and a leading zero is not JSON:
 * the client got an answer it could not parse. The client side had the
 * mirror image: -000999...9 (invalid JSON) was turned into a big integer
 * instead of being refused. */
static void regression_big_integers_with_leading_zeros_never_printed(void) {
    msgpack_object ext = {.type = MSGPACK_OBJECT_EXT};
    ext.via.ext.type = CC_MP_EXT_BIGINT;
    ext.via.ext.ptr = "000000000007041923886918632809";
    ext.via.ext.size = 30;
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    CHECK(cc_mp_emit_json(&sb, &ext) == 0);
    CHECK_STREQ(sb.data, "null");
    cc_sb_free(&sb);
    json_t *j = cc_mp_to_json(&ext);
    CHECK(json_is_null(j));
    json_decref(j);
    ext.via.ext.ptr = "-0";
    ext.via.ext.size = 2;
    cc_sb_init(&sb);
    CHECK(cc_mp_emit_json(&sb, &ext) == 0);
    CHECK_STREQ(sb.data, "-0");
    cc_sb_free(&sb);

    json_error_t e;
    CHECK(cc_json_parse("{\"a\":-00099999999999999999999}", 30, &e) == NULL);
    CHECK(cc_json_parse("[0099999999999999999999]", 24, &e) == NULL);
    j = cc_json_parse("[-99999999999999999999,0]", 25, &e);
    CHECK(j && json_is_string(json_array_get(j, 0)) && json_integer_value(json_array_get(j, 1)) == 0);
    json_decref(j);
    /* A client that types the sentinel itself with a leading zero gets a
     * string back, never a bare 007. */
    j = json_stringn("\0bigint:007", 11);
    cc_sb_init(&sb);
    cc_json_emit(&sb, j);
    CHECK(sb.data[0] == '"');
    cc_sb_free(&sb);
    json_decref(j);
}

/* Found by fuzz_frame and fuzz_convert (UBSan): msgpack-c leaves the
 * pointer of an empty string NULL, and it went to memchr and jansson. */
static void regression_empty_msgpack_strings_have_no_pointer(void) {
    msgpack_object_kv kv = {.key = {.type = MSGPACK_OBJECT_STR}, .val = {.type = MSGPACK_OBJECT_BIN}};
    msgpack_object m = {.type = MSGPACK_OBJECT_MAP};
    m.via.map.size = 1;
    m.via.map.ptr = &kv;
    json_t *j = cc_mp_to_json(&m);
    CHECK(j && json_object_size(j) == 1);
    CHECK_STREQ(json_string_value(json_object_get(j, "")), "");
    json_decref(j);
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    CHECK(cc_mp_emit_json(&sb, &m) == 0);
    CHECK_STREQ(sb.data, "{\"\":\"\"}");
    cc_sb_free(&sb);
    const char *s = NULL;
    size_t n = 1;
    CHECK(cc_mp_str(&kv.key, &s, &n) == 0 && s && n == 0);
    CHECK(cc_mp_get(&m, "") == &kv.val);
}

/* Nested JSON arrays: depth levels around a scalar. */
static json_t *nested(int depth) {
    json_t *v = json_integer(1);
    while (depth-- > 0) {
        json_t *a = json_array();
        json_array_append_new(a, v);
        v = a;
    }
    return v;
}

/* Found by fuzz_convert: arguments nested more than 31 deep were packed
 * into a request frame that msgpack-c cannot unpack (it allows 32 open
 * containers); the worker exited on it and the call failed as if the
 * worker had died. They are now refused when the frame is built. */
static void regression_values_deeper_than_a_frame_carries_are_not_packed(void) {
    for (int depth = 30; depth <= 32; depth++) {
        json_t *args = json_object();
        json_object_set_new(args, "x", nested(depth));
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        int rc = cc_msg_request(&sb, 1, "calc_exact", args, 1000);
        if (depth + 1 <= CC_MP_MAX_NESTING) {
            CHECK(rc == 0);
            msgpack_unpacked u;
            CHECK(cc_frame_decode(sb.data + 4, sb.size - 4, &u) == 0);
            msgpack_unpacked_destroy(&u);
        } else {
            CHECK(rc == -1);
        }
        msgpack_sbuffer_destroy(&sb);
        json_decref(args);
    }
}

/* Short strings are copied sixteen bytes at a time where sixteen bytes
 * are there to read: every length up to past 16, plain or holding a byte
 * that needs escaping at every position, as a key and as a value, in the
 * middle of the frame and at its very end, print as the decoder prints
 * them. */
static void short_strings_read_in_place_print_alike(void) {
    static const char specials[] = {'a', '"', '\\', '\n', 0x01, 0x7f, (char)0xc3, (char)0xff};
    int mismatches = 0;
    for (size_t len = 0; len <= 18; len++)
        for (size_t at = 0; at <= len; at++)
            for (size_t k = 0; k < sizeof specials; k++) {
                char text[20];
                for (size_t i = 0; i < len; i++) text[i] = (char)('a' + i);
                if (at < len) text[at] = specials[k];
                msgpack_sbuffer sb;
                msgpack_sbuffer_init(&sb);
                size_t start = cc_msg_result_begin(&sb, 9);
                cc_mpw_map(&sb, 2);
                cc_mpw_str(&sb, text, len); /* a key, the frame going on */
                cc_mpw_str(&sb, text, len);
                cc_mpw_str(&sb, "k", 1);
                cc_mpw_str(&sb, text, len); /* the frame's last bytes */
                CHECK(cc_frame_end_at(&sb, start) == 0);
                const char *body = sb.data + 4;
                size_t body_len = sb.size - 4;
                struct cc_strbuf raw, dec;
                cc_sb_init(&raw);
                cc_sb_init(&dec);
                struct cc_mp_answer a;
                msgpack_unpacked u;
                if (cc_mp_raw_answer_json(body, body_len, &raw, &a) && cc_frame_decode(body, body_len, &u) == 0) {
                    if (cc_mp_emit_json(&dec, cc_mp_get(&u.data, "result")) != 0 || raw.len != dec.len ||
                        memcmp(raw.data, dec.data, raw.len) != 0)
                        mismatches++;
                    msgpack_unpacked_destroy(&u);
                } else {
                    mismatches++;
                }
                cc_sb_free(&raw);
                cc_sb_free(&dec);
                msgpack_sbuffer_destroy(&sb);
            }
    CHECK_INTEQ(mismatches, 0);
}

/* A worker's usual answer is read in place; its result prints as the
 * decoder prints it, and anything else is left to the decoder. */
static void plain_answers_read_in_place(void) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    json_t *res = json_pack("{s:b,s:s,s:i,s:f,s:[i,n,b],s:{}}", "ok", 1, "code", "x\"y", "n", -5, "f", 0.1, "a", 7,
                            1, "m");
    CHECK(cc_msg_result(&sb, 42, res) == 0);
    struct cc_strbuf raw, dec;
    cc_sb_init(&raw);
    cc_sb_init(&dec);
    struct cc_mp_answer a;
    CHECK(cc_mp_raw_answer_json(sb.data + 4, sb.size - 4, &raw, &a));
    CHECK_INTEQ(a.id, 42);
    msgpack_unpacked u;
    CHECK(cc_frame_decode(sb.data + 4, sb.size - 4, &u) == 0);
    CHECK(cc_mp_emit_json(&dec, cc_mp_get(&u.data, "result")) == 0);
    CHECK_STREQ(raw.data, dec.data);
    CHECK(a.code.is_str && a.code.n == 3 && memcmp(a.code.s, "x\"y", 3) == 0);
    CHECK(!a.verdict.is_str);
    msgpack_unpacked_destroy(&u);
    /* an error answer, a bin value, a trailing byte, a repeated key: the decoding way */
    msgpack_sbuffer_clear(&sb);
    CHECK(cc_msg_error(&sb, 42, "internal", "boom") == 0);
    CHECK(!cc_mp_raw_answer_json(sb.data + 4, sb.size - 4, &raw, &a));
    CHECK(!cc_mp_raw_answer_json("\x83\xa2id\x01\xa2ok\xc3\xa6result\xc4\x01z", 19, &raw, &a));
    raw.len = 0;
    CHECK(cc_mp_raw_answer_json("\x83\xa2id\x01\xa2ok\xc3\xa6result\xc0", 17, &raw, &a));
    CHECK_STREQ(raw.data, "null");
    CHECK(!cc_mp_raw_answer_json("\x83\xa2id\x01\xa2ok\xc3\xa6result\xc0\xc0", 18, &raw, &a));
    CHECK(!cc_mp_raw_answer_json("\x83\xa2id\x01\xa2id\x02\xa6result\xc0", 17, &raw, &a));
    cc_sb_free(&raw);
    cc_sb_free(&dec);
    msgpack_sbuffer_destroy(&sb);
    json_decref(res);
}

/* The frame builders write msgpack themselves; every size class of every
 * kind must come out as msgpack-c's packer writes it. */
static void writer_writes_what_the_packer_writes(void) {
    static const long long ints[] = {0, 1, 127, 128, 255, 256, 65535, 65536, 4294967295ll, 4294967296ll,
                                     INT64_MAX, -1, -32, -33, -128, -129, -32768, -32769, -2147483648ll,
                                     -2147483649ll, INT64_MIN};
    json_t *v = json_array();
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) json_array_append_new(v, json_integer(ints[i]));
    static const size_t lens[] = {0, 1, 31, 32, 255, 256, 65535, 65536};
    char *big = calloc(70000, 1);
    memset(big, 'x', 69999);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) json_array_append_new(v, json_stringn(big, lens[i]));
    json_t *obj = json_object();
    for (int i = 0; i < 20; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", i);
        json_object_set_new(obj, k, json_real(i / 3.0));
    }
    json_array_append_new(v, obj);
    json_array_append_new(v, json_pack("[b,b,n,f,{}]", 1, 0, -0.0));
    for (size_t n = 1; n <= 20; n++) { /* big integers of every fixext and ext size */
        char d[32] = "\0bigint:";
        for (size_t i = 0; i < n; i++) d[8 + i] = (char)('1' + i % 9);
        json_array_append_new(v, json_stringn(d, 8 + n));
    }
    for (int i = 0; i < 20; i++) json_array_append_new(v, json_null()); /* an array past 16 */
    msgpack_sbuffer a, b;
    msgpack_sbuffer_init(&a);
    msgpack_sbuffer_init(&b);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &a, msgpack_sbuffer_write);
    CHECK(ref_json_to_mp(&pk, v) == 0);
    CHECK(cc_mpw_json(&b, v) == 0);
    CHECK(a.size == b.size && memcmp(a.data, b.data, a.size) == 0);
    msgpack_sbuffer_destroy(&a);
    msgpack_sbuffer_destroy(&b);
    free(big);
    json_decref(v);
}

int main(void) {
    RUN(roundtrip_split_feed);
    RUN(plain_answers_read_in_place);
    RUN(short_strings_read_in_place_print_alike);
    RUN(writer_writes_what_the_packer_writes);
    RUN(oversized_and_zero_length_refused);
    RUN(garbage_truncated_and_wrong_type_bodies);
    RUN(bigint_survives_json_to_msgpack_to_text);
    RUN(bigint_inside_strings_untouched);
    RUN(doubles_print_shortest_with_a_point);
    RUN(invalid_utf8_replaced);
    RUN(malformed_json_rejected);
    RUN(regression_client_string_spelling_the_bigint_marker_refused);
    RUN(regression_container_counts_beyond_the_body_refused);
    RUN(regression_zone_decoder_refuses_container_counts_beyond_the_body);
    RUN(regression_big_integers_with_leading_zeros_never_printed);
    RUN(regression_empty_msgpack_strings_have_no_pointer);
    RUN(regression_values_deeper_than_a_frame_carries_are_not_packed);
    return check_summary("proto_frame");
}
