/* Fuzz target: the supervisor reading a worker's byte stream.
 *
 * The input after one flag byte is what a worker writes on its socket. It
 * is fed to the frame reader (protocol/frame.c) in chunks whose sizes come
 * from the flag byte; every complete frame is decoded (by the pool's zone
 * decoder and by the plain one workers use) and handed to what
 * the pool does with it (cc_req_forward_event for an event, otherwise
 * cc_req_answer_frame, on a request of a real tool whose client asked for
 * progress) and to cc_mp_to_json (what the REPL client does with a
 * launcher's frames).
 *
 * An answer {id, ok: true, result} that the in-place reader takes
 * (cc_mp_raw_answer_json, the pool's usual path) must decode, and must give
 * the client the very message cc_req_answer_frame gives for the decoded
 * frame.
 *
 * Properties: no sanitizer report; the frames found do not depend on how
 * the bytes were chunked; both decoders take the same frames; every message sent to the client is strict JSON
 * (fz_server.c's connection checks it); both answer paths send the same.
 *
 * Flag byte: bits 0-2 chunk size, bit 3 the client asked for progress,
 * bits 4-7 which tool the request is for. */
#include <string.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/mp_raw.h"
#include "supervisor/request.h"
#include "tests/fuzz/fz.h"
#include "tests/fuzz/fz_server.h"

static const size_t chunks[8] = {0, 1, 2, 3, 5, 64, 1000, 4099};

struct seen {
    size_t n;
    uint64_t hash;
};

static uint64_t fnv(uint64_t h, const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

/* Every frame body, whole input at once: the reference for chunked reads. */
static struct seen reference(const uint8_t *p, size_t n) {
    struct seen s = {0, 14695981039346656037ULL};
    struct cc_frame_reader rd;
    cc_frame_reader_init(&rd);
    if (n && cc_frame_reader_feed(&rd, p, n) == 0) {
        const char *body;
        size_t len;
        while (cc_frame_next(&rd, &body, &len) == 1) {
            s.n++;
            s.hash = fnv(s.hash, body, len);
        }
    }
    cc_frame_reader_free(&rd);
    return s;
}

/* A request of the tool the flags name, on a connection of its own. */
static struct cc_req *request(struct cc_conn *c, uint8_t flags) {
    struct cc_server *srv = fz_server();
    const struct cc_reg_entry *e = &srv->reg.e[(flags >> 4) % srv->reg.n];
    json_t *id = json_integer(7), *token = flags & 8 ? json_string("tok") : NULL;
    struct cc_req *r = cc_req_new(srv, c, id, e->tool, token);
    if (!r) abort();
    json_decref(id);
    json_decref(token);
    return r;
}

/* The pool's in-place path against the decoding one, on the same frame. */
static void plain_matches_decoded(const char *body, size_t len, uint8_t flags) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    struct cc_mp_answer a;
    if (cc_mp_raw_answer_json(body, len, &sb, &a)) {
        msgpack_unpacked u;
        FZ_ASSERT(cc_frame_decode(body, len, &u) == 0, "the in-place reader took a frame the decoder refuses");
        struct cc_conn *c1 = fz_conn_new(), *c2 = fz_conn_new();
        cc_req_answer_plain(request(c1, flags), sb.data, sb.len, &a.code, &a.verdict);
        cc_req_answer_frame(request(c2, flags), &u.data);
        FZ_ASSERT(fz_conn_sent(c1) == 1 && fz_conn_sent(c2) == 1 && fz_conn_hash(c1) == fz_conn_hash(c2),
                  "the in-place answer differs from the decoded one");
        msgpack_unpacked_destroy(&u);
        cc_conn_close(c1);
        cc_conn_close(c2);
    }
    cc_sb_free(&sb);
}

static void handle(const msgpack_object *f, uint8_t flags) {
    json_t *copy = cc_mp_to_json(f);
    json_decref(copy);
    struct cc_conn *c = fz_conn_new();
    struct cc_req *r = request(c, flags);
    if (cc_mp_get(f, "event")) {
        cc_req_forward_event(r, f);
        cc_req_free(r);
    } else {
        cc_req_answer_frame(r, f);
        FZ_ASSERT(fz_conn_sent(c) == 1, "an answer frame gave %lu messages", fz_conn_sent(c));
    }
    cc_conn_close(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct fz_in in = {data, size};
    uint8_t flags = fz_byte(&in);
    struct seen want = reference(in.p, in.n), got = {0, 14695981039346656037ULL};
    size_t chunk = chunks[flags & 7];
    struct cc_frame_reader rd;
    cc_frame_reader_init(&rd);
    static msgpack_zone *zone;
    if (!zone && !(zone = msgpack_zone_new(MSGPACK_ZONE_CHUNK_SIZE))) abort();
    bool broken = false;
    while (in.n && !broken) {
        size_t len;
        const uint8_t *p = fz_take(&in, chunk ? chunk : in.n, &len);
        if (cc_frame_reader_feed(&rd, p, len) < 0) break;
        const char *body;
        size_t blen;
        int rc;
        while ((rc = cc_frame_next(&rd, &body, &blen)) == 1) {
            got.n++;
            got.hash = fnv(got.hash, body, blen);
            /* The pool decodes into a zone; workers and the REPL client
             * unpack on their own: both must take the same frames. */
            msgpack_object f;
            msgpack_unpacked u;
            int zrc = cc_frame_decode_in(body, blen, zone, &f), urc = cc_frame_decode(body, blen, &u);
            FZ_ASSERT(zrc == urc, "the two frame decoders disagree (%d, %d)", zrc, urc);
            if (urc == 0) msgpack_unpacked_destroy(&u);
            if (zrc < 0) {
                broken = true; /* the pool recycles the worker here */
                break;
            }
            handle(&f, flags);
            plain_matches_decoded(body, blen, flags);
        }
        if (rc < 0) broken = true;
    }
    cc_frame_reader_free(&rd);
    if (!broken) FZ_ASSERT(got.n == want.n && got.hash == want.hash, "chunking changed the frames (%zu vs %zu)", got.n, want.n);
    return 0;
}
