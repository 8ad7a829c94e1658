/* The worker-less supervisor of fz_server.h. */
#include "tests/fuzz/fz_server.h"

#include <event2/event.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/msg.h"
#include "supervisor/pool.h"
#include "supervisor/request.h"
#include "tests/fuzz/fz.h"

static struct cc_server srv;
static bool ready;

struct cc_server *fz_server(void) {
    if (ready) return &srv;
    memset(&srv, 0, sizeof srv);
    char err[512];
    if (cc_registry_load(&srv.reg, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "fz_server: %s\n", err);
        abort();
    }
    srv.base = event_base_new();
    if (!srv.base) abort();
    for (int i = 0; i < CC_WORKER_POOLS; i++)
        if (!(srv.pools[i] = cc_pool_new(&srv, i, 0, cc_pool_defs[i].max))) abort();
    ready = true;
    return &srv;
}

/* ---- the capturing connection ---- */

struct fz_conn {
    struct cc_conn conn;
    unsigned long sent;
    uint64_t hash; /* of every message sent, in order */
};

static void check_message(const char *msg, size_t len) {
    FZ_ASSERT(fz_json_valid(msg, len), "the server sent invalid JSON: %.*s", (int)(len > 2000 ? 2000 : len), msg);
    FZ_ASSERT(len > 0 && msg[0] == '{', "a message that is not an object: %.*s", (int)(len > 200 ? 200 : len), msg);
    FZ_ASSERT(memchr(msg, '\n', len) == NULL, "a raw newline inside a message would split the stdio line");
}

static void fz_send(struct cc_conn *c, const char *msg, size_t len) {
    check_message(msg, len);
    struct fz_conn *f = c->transport;
    f->sent++;
    if (!f->hash) f->hash = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++) f->hash = (f->hash ^ (unsigned char)msg[i]) * 1099511628211ULL;
}

static void fz_release(struct cc_conn *c) { free(c->transport); }

static const struct cc_conn_ops fz_ops = {fz_send, fz_release};

struct cc_conn *fz_conn_new(void) {
    struct fz_conn *f = calloc(1, sizeof *f);
    if (!f) abort();
    cc_conn_init(&f->conn, fz_server(), &fz_ops);
    f->conn.transport = f;
    return &f->conn;
}

unsigned long fz_conn_sent(const struct cc_conn *c) { return ((const struct fz_conn *)c->transport)->sent; }

uint64_t fz_conn_hash(const struct cc_conn *c) { return ((const struct fz_conn *)c->transport)->hash; }

/* ---- the fake worker ---- */

static uint64_t *held;
static size_t nheld, capheld;

void __real_cc_pool_submit(struct cc_pool *p, struct cc_req *r);
void __wrap_cc_pool_submit(struct cc_pool *p, struct cc_req *r);

/* The request frame must be exactly what docs/protocol.md describes. */
static void check_request_frame(const struct cc_req *r) {
    const msgpack_sbuffer *f = &r->frame;
    FZ_ASSERT(f->size > 4, "empty request frame");
    const unsigned char *d = (const unsigned char *)f->data;
    uint32_t n = (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3];
    FZ_ASSERT(n == f->size - 4, "frame prefix %u for a body of %zu bytes", n, f->size - 4);
    msgpack_unpacked u;
    FZ_ASSERT(cc_frame_decode(f->data + 4, n, &u) == 0, "request frame does not decode");
    const msgpack_object *id = cc_mp_get(&u.data, "id");
    FZ_ASSERT(id && id->type == MSGPACK_OBJECT_POSITIVE_INTEGER && id->via.u64 == r->wid, "frame id");
    FZ_ASSERT(cc_mp_str_eq(cc_mp_get(&u.data, "op"), r->tool->name), "frame op is not the tool");
    const msgpack_object *args = cc_mp_get(&u.data, "args");
    FZ_ASSERT(args && args->type == MSGPACK_OBJECT_MAP, "frame args is not a map");
    msgpack_unpacked_destroy(&u);
}

void __wrap_cc_pool_submit(struct cc_pool *p, struct cc_req *r) {
    (void)p;
    check_request_frame(r);
    if (nheld == capheld) {
        capheld = capheld ? capheld * 2 : 16;
        held = realloc(held, capheld * sizeof *held);
        if (!held) abort();
    }
    held[nheld++] = r->wid;
}

static struct cc_req *find(uint64_t wid) {
    for (struct cc_req *r = srv.inflight; r; r = r->next)
        if (r->wid == wid) return r;
    return NULL;
}

/* Decode a frame the way the pool does, then hand it to fn. */
static void deliver(msgpack_sbuffer *sb, struct cc_req *r, void (*fn)(struct cc_req *, const msgpack_object *)) {
    msgpack_unpacked u;
    FZ_ASSERT(sb->size > 4 && cc_frame_decode(sb->data + 4, sb->size - 4, &u) == 0, "fake worker frame");
    fn(r, &u.data);
    msgpack_unpacked_destroy(&u);
}

/* What a worker would answer: {"ok": true, "echo": <the arguments>}. */
static void answer(struct cc_req *r) {
    msgpack_unpacked req;
    FZ_ASSERT(cc_frame_decode(r->frame.data + 4, r->frame.size - 4, &req) == 0, "request frame");
    json_t *args = cc_mp_to_json(cc_mp_get(&req.data, "args"));
    msgpack_unpacked_destroy(&req);
    FZ_ASSERT(args != NULL, "arguments did not come back from msgpack");
    msgpack_sbuffer sb;
    if (r->progress_token) {
        json_t *data = json_pack("{s:i,s:s}", "progress", 1, "message", "working");
        msgpack_sbuffer_init(&sb);
        FZ_ASSERT(cc_msg_event(&sb, r->wid, "progress", data) == 0, "event frame");
        json_decref(data);
        deliver(&sb, r, cc_req_forward_event);
        msgpack_sbuffer_destroy(&sb);
    }
    json_t *res = json_pack("{s:b,s:o}", "ok", 1, "echo", args);
    msgpack_sbuffer_init(&sb);
    int rc = cc_msg_result(&sb, r->wid, res);
    json_decref(res);
    if (rc == 0) deliver(&sb, r, cc_req_answer_frame);
    else cc_req_answer_fail(r, "resource_exhausted", "the answer is too large");
    msgpack_sbuffer_destroy(&sb);
}

void fz_answer_pending(bool newest_first) {
    /* Answering can make the core submit nothing new, but copy anyway. */
    size_t n = nheld;
    uint64_t *ids = held;
    held = NULL;
    nheld = capheld = 0;
    for (size_t k = 0; k < n; k++) {
        struct cc_req *r = find(ids[newest_first ? n - 1 - k : k]);
        if (r) answer(r);
    }
    free(ids);
}

void fz_forget_pending(void) { nheld = 0; }
