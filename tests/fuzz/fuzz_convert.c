/* Fuzz target: JSON <-> msgpack conversion (protocol/json_convert.c), both
 * ways. Byte 0 chooses the direction; the rest is the text or the bytes.
 *
 * JSON text -> jansson (cc_json_parse, with its big-integer protection) ->
 * msgpack -> jansson must give back the same value, and printing the value
 * must give strict JSON that parses back to a value that prints the same;
 * the frame builders' writer must write the packer's very bytes; the
 * JSON-RPC envelope reader must agree with the parse.
 *
 * msgpack bytes (what a worker could send) -> jansson and -> JSON text:
 * both printed forms must be strict JSON, and the jansson value must
 * survive another trip through msgpack unchanged. Read in place
 * (protocol/mp_raw.c), the same bytes must print the very text the decoded
 * value prints, whenever the in-place reader takes them; and as the result
 * of an answer frame {id, ok: true, result} they must be found again.
 *
 * Properties: no sanitizer report, no oversized allocation, the equalities
 * above. */
#include <msgpack.h>
#include <string.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/json_fast.h"
#include "protocol/mp_raw.h"
#include "protocol/mp_write.h"
#include "protocol/strbuf.h"
#include "tests/fuzz/fz.h"
#include "tests/unit/mp_packer_ref.h"

/* The frame builders' writer (protocol/mp_write.c) must write the bytes
 * msgpack-c's packer writes. */
static void writer_matches_packer(const json_t *v) {
    msgpack_sbuffer a, b;
    msgpack_sbuffer_init(&a);
    msgpack_sbuffer_init(&b);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &a, msgpack_sbuffer_write);
    int ra = ref_json_to_mp(&pk, v), rb = cc_mpw_json(&b, v);
    FZ_ASSERT(ra == rb, "the writer and the packer disagree on packing a value at all");
    if (ra == 0) FZ_ASSERT(a.size == b.size && memcmp(a.data, b.data, a.size) == 0, "the writer's bytes differ from the packer's");
    msgpack_sbuffer_destroy(&a);
    msgpack_sbuffer_destroy(&b);
}

/* v -> msgpack -> jansson; NULL when v nests too deeply to pack. */
static json_t *through_msgpack(const json_t *v) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    json_t *back = NULL;
    if (cc_mpw_json(&sb, v) == 0) {
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

/* The JSON-RPC envelope read without a tree (cc_json_rpc_fast) must
 * agree with the whole parse wherever it takes the text. */
static void envelope_matches_parse(const char *text, size_t n, const json_t *whole) {
    struct cc_rpc_fast f;
    if (!cc_json_rpc_fast(text, n, &f)) return;
    const json_t *id = json_object_get(whole, "id"), *params = json_object_get(whole, "params");
    const json_t *rpc = json_object_get(whole, "jsonrpc");
    const char *m = json_string_value(json_object_get(whole, "method"));
    FZ_ASSERT(json_is_object(whole) && json_object_size(whole) == 1u + !!f.id + !!f.params + !!rpc,
              "the envelope reader took a text the parser reads otherwise");
    FZ_ASSERT(f.id ? id && json_equal(f.id, id) : !id, "the envelope's id differs");
    FZ_ASSERT(f.params ? params && json_equal(f.params, params) && json_is_object(params) : !params,
              "the envelope's params differ");
    FZ_ASSERT(!rpc || json_is_string(rpc), "the envelope's jsonrpc is not a string");
    FZ_ASSERT(m && strcmp(m, f.method) == 0, "the envelope's method differs");
    json_decref(f.id);
    json_decref(f.params);
}

static void from_text(const char *text, size_t n) {
    json_error_t e;
    json_t *v = cc_json_parse(text, n, &e);
    struct cc_rpc_fast f;
    if (!v && cc_json_rpc_fast(text, n, &f))
        FZ_ASSERT(0, "the envelope reader took a text the parser refuses: %.*s", (int)(n > 500 ? 500 : n), text);
    if (v) envelope_matches_parse(text, n, v);
    if (!v) return;
    writer_matches_packer(v);
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

/* The in-place reader against the decoder, on the value bytes[0..n). */
static void raw_matches_decoded(const char *bytes, size_t n, const msgpack_object *o) {
    struct cc_strbuf raw, dec;
    cc_sb_init(&raw);
    cc_sb_init(&dec);
    if (cc_mp_raw_json(&raw, bytes, n)) {
        FZ_ASSERT(cc_mp_emit_json(&dec, o) == 0, "the in-place reader took a value the decoder cannot print");
        FZ_ASSERT(raw.len == dec.len && memcmp(raw.data, dec.data, raw.len) == 0,
                  "in place: %.*s; decoded: %.*s", (int)(raw.len > 500 ? 500 : raw.len), raw.data,
                  (int)(dec.len > 500 ? 500 : dec.len), dec.data);
        /* the same value as the result of an answer frame */
        msgpack_sbuffer sb;
        msgpack_sbuffer_init(&sb);
        msgpack_packer pk;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_map(&pk, 3);
        msgpack_pack_str_with_body(&pk, "ok", 2);
        msgpack_pack_true(&pk);
        msgpack_pack_str_with_body(&pk, "result", 6);
        msgpack_sbuffer_write(&sb, bytes, n);
        msgpack_pack_str_with_body(&pk, "id", 2);
        msgpack_pack_uint64(&pk, 77);
        struct cc_strbuf ans;
        cc_sb_init(&ans);
        struct cc_mp_answer a;
        if (cc_mp_raw_answer_json(sb.data, sb.size, &ans, &a)) {
            FZ_ASSERT(a.id == 77 && ans.len == dec.len && memcmp(ans.data, dec.data, ans.len) == 0,
                      "the answer's result printed differently");
            const char *keys[] = {"code", "verdict"};
            const struct cc_mp_member *got[] = {&a.code, &a.verdict};
            for (int i = 0; i < 2; i++) {
                const msgpack_object *c = cc_mp_get(o, keys[i]);
                bool str = c && c->type == MSGPACK_OBJECT_STR;
                FZ_ASSERT(got[i]->is_str == str &&
                              (!str || (got[i]->n == c->via.str.size && memcmp(got[i]->s, c->via.str.ptr, got[i]->n) == 0)),
                          "the member %s read in place differs from cc_mp_get's", keys[i]);
            }
        }
        cc_sb_free(&ans);
        msgpack_sbuffer_destroy(&sb);
    }
    cc_sb_free(&raw);
    cc_sb_free(&dec);
}

static void from_msgpack(const char *bytes, size_t n) {
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0, start = 0;
    /* Untrusted msgpack is only unpacked after this check (cc_frame_decode). */
    while (off < n && cc_mp_counts_fit(bytes + off, n - off) &&
           msgpack_unpack_next(&u, bytes, n, &off) == MSGPACK_UNPACK_SUCCESS) {
        raw_matches_decoded(bytes + start, off - start, &u.data);
        start = off;
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
