/* Fuzz target: JSON <-> msgpack conversion (protocol/json_convert.c), both
 * ways. Byte 0 chooses the direction; the rest is the text or the bytes.
 *
 * JSON text -> jansson (cc_json_parse, with its big-integer protection) ->
 * msgpack -> jansson must give back the same value, and printing the value
 * must give strict JSON that parses back to a value that prints the same.
 *
 * msgpack bytes (what a worker could send) -> jansson and -> JSON text:
 * both printed forms must be strict JSON, and the jansson value must
 * survive another trip through msgpack unchanged.
 *
 * Properties: no sanitizer report, no oversized allocation, the equalities
 * above. */
#include <msgpack.h>
#include <string.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "tests/fuzz/fz.h"

/* v -> msgpack -> jansson; NULL when v nests too deeply to pack. */
static json_t *through_msgpack(const json_t *v) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    json_t *back = NULL;
    if (cc_json_to_mp(&pk, v) == 0) {
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        size_t off = 0;
        FZ_ASSERT(msgpack_unpack_next(&u, sb.data, sb.size, &off) == MSGPACK_UNPACK_SUCCESS && off == sb.size,
                  "our own msgpack does not unpack");
        back = cc_mp_to_json(&u.data);
        FZ_ASSERT(back != NULL, "our own msgpack does not convert back");
        msgpack_unpacked_destroy(&u);
    }
    msgpack_sbuffer_destroy(&sb);
    return back;
}

/* Print v; the text must be strict JSON. Returns the text (caller frees) or
 * NULL when v nests too deeply to print. */
static char *print_checked(const json_t *v, size_t *len) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    if (cc_json_emit(&sb, v) < 0) {
        cc_sb_free(&sb);
        return NULL;
    }
    FZ_ASSERT(fz_json_valid(sb.data, sb.len), "printed value is not JSON: %.*s", (int)(sb.len > 2000 ? 2000 : sb.len), sb.data);
    return cc_sb_take(&sb, len);
}

static void from_text(const char *text, size_t n) {
    json_error_t e;
    json_t *v = cc_json_parse(text, n, &e);
    if (!v) return;
    json_t *back = through_msgpack(v);
    if (back) FZ_ASSERT(json_equal(v, back), "a value changed on its way through msgpack: %.*s", (int)(n > 500 ? 500 : n), text);
    json_decref(back);
    size_t l1, l2;
    char *t1 = print_checked(v, &l1);
    if (t1) {
        json_t *again = cc_json_parse(t1, l1, &e);
        FZ_ASSERT(again, "our own output does not parse: %s (%s)", t1, e.text);
        char *t2 = print_checked(again, &l2);
        FZ_ASSERT(t2 && l1 == l2 && memcmp(t1, t2, l1) == 0, "printing is not stable: %s vs %s", t1, t2 ? t2 : "");
        free(t2);
        json_decref(again);
    }
    free(t1);
    json_decref(v);
}

static void from_msgpack(const char *bytes, size_t n) {
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    /* Untrusted msgpack is only unpacked after this check (cc_frame_decode). */
    while (off < n && cc_mp_counts_fit(bytes + off, n - off) &&
           msgpack_unpack_next(&u, bytes, n, &off) == MSGPACK_UNPACK_SUCCESS) {
        struct cc_strbuf sb;
        cc_sb_init(&sb);
        if (cc_mp_emit_json(&sb, &u.data) == 0)
            FZ_ASSERT(fz_json_valid(sb.data, sb.len), "a worker's value printed as invalid JSON: %.*s",
                      (int)(sb.len > 2000 ? 2000 : sb.len), sb.data);
        cc_sb_free(&sb);
        json_t *v = cc_mp_to_json(&u.data);
        if (v) {
            size_t l;
            free(print_checked(v, &l));
            json_t *back = through_msgpack(v);
            if (back) FZ_ASSERT(json_equal(v, back), "a worker's value changed on a second trip");
            json_decref(back);
            json_decref(v);
        }
    }
    msgpack_unpacked_destroy(&u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct fz_in in = {data, size};
    uint8_t which = fz_byte(&in);
    if (which & 1) from_msgpack((const char *)in.p, in.n);
    else from_text((const char *)in.p, in.n);
    return 0;
}
