/* Builders for the worker protocol's messages. */
#include "protocol/msg.h"

#include <string.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"

static void key(msgpack_packer *pk, const char *k) { msgpack_pack_str_with_body(pk, k, strlen(k)); }

/* Start a frame, after whatever sb holds, holding a map of n entries
 * whose first entry is id. Returns where the frame starts (for end()). */
static size_t begin(msgpack_sbuffer *sb, msgpack_packer *pk, size_t n, uint64_t id) {
    size_t start = sb->size;
    msgpack_packer_init(pk, sb, msgpack_sbuffer_write);
    cc_frame_begin(sb);
    msgpack_pack_map(pk, n);
    key(pk, "id");
    msgpack_pack_uint64(pk, id);
    return start;
}

int cc_msg_hello(msgpack_sbuffer *sb, const char *role, int64_t pid, const char *version,
                 const char *const *ops, size_t nops) {
    msgpack_packer pk;
    size_t start = sb->size;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    cc_frame_begin(sb);
    msgpack_pack_map(&pk, 4);
    key(&pk, "hello");
    key(&pk, role);
    key(&pk, "pid");
    msgpack_pack_int64(&pk, pid);
    key(&pk, "version");
    key(&pk, version);
    key(&pk, "caps");
    msgpack_pack_array(&pk, nops);
    for (size_t i = 0; i < nops; i++) key(&pk, ops[i]);
    return cc_frame_end_at(sb, start);
}

int cc_msg_request(msgpack_sbuffer *sb, uint64_t id, const char *op, const json_t *args,
                   uint64_t deadline_ms) {
    msgpack_packer pk;
    size_t start = begin(sb, &pk, 4, id);
    key(&pk, "op");
    key(&pk, op);
    key(&pk, "args");
    if (cc_json_to_mp(&pk, args) < 0) return -1;
    key(&pk, "deadline_ms");
    msgpack_pack_uint64(&pk, deadline_ms);
    return cc_frame_end_at(sb, start);
}

int cc_msg_event(msgpack_sbuffer *sb, uint64_t id, const char *event, const json_t *data) {
    msgpack_packer pk;
    size_t start = begin(sb, &pk, 3, id);
    key(&pk, "event");
    key(&pk, event);
    key(&pk, "data");
    if (cc_json_to_mp(&pk, data) < 0) return -1;
    return cc_frame_end_at(sb, start);
}

int cc_msg_result(msgpack_sbuffer *sb, uint64_t id, const json_t *result) {
    msgpack_packer pk;
    size_t start = begin(sb, &pk, 3, id);
    key(&pk, "ok");
    msgpack_pack_true(&pk);
    key(&pk, "result");
    if (cc_json_to_mp(&pk, result) < 0) return -1;
    return cc_frame_end_at(sb, start);
}

int cc_msg_error(msgpack_sbuffer *sb, uint64_t id, const char *code, const char *message) {
    msgpack_packer pk;
    size_t start = begin(sb, &pk, 3, id);
    key(&pk, "ok");
    msgpack_pack_false(&pk);
    key(&pk, "error");
    msgpack_pack_map(&pk, 2);
    key(&pk, "code");
    key(&pk, code);
    key(&pk, "message");
    key(&pk, message);
    return cc_frame_end_at(sb, start);
}

int cc_msg_cancel(msgpack_sbuffer *sb, uint64_t id) {
    msgpack_packer pk;
    size_t start = begin(sb, &pk, 2, id);
    key(&pk, "cancel");
    msgpack_pack_true(&pk);
    return cc_frame_end_at(sb, start);
}
