/* Frame codec and JSON<->msgpack conversion. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "tests/unit/check.h"

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
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    CHECK(cc_json_to_mp(&pk, j) == 0);
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

int main(void) {
    RUN(roundtrip_split_feed);
    RUN(oversized_and_zero_length_refused);
    RUN(garbage_truncated_and_wrong_type_bodies);
    RUN(bigint_survives_json_to_msgpack_to_text);
    RUN(bigint_inside_strings_untouched);
    RUN(doubles_print_shortest_with_a_point);
    RUN(invalid_utf8_replaced);
    RUN(malformed_json_rejected);
    return check_summary("proto_frame");
}
