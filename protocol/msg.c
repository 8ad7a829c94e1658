/* Builders for the worker protocol's messages. */
#include "protocol/msg.h"

#include <string.h>

#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/mp_write.h"

static void key(msgpack_sbuffer *sb, const char *k) { cc_mpw_str(sb, k, strlen(k)); }

/* Start a frame, after whatever sb holds, holding a map of n entries
 * whose first entry is id. Returns where the frame starts (for end()). */
static size_t begin(msgpack_sbuffer *sb, size_t n, uint64_t id) {
    size_t start = sb->size;
    cc_frame_begin(sb);
    cc_mpw_map(sb, n);
    key(sb, "id");
    cc_mpw_uint(sb, id);
    return start;
}

int cc_msg_hello(msgpack_sbuffer *sb, const char *role, int64_t pid, const char *version,
                 const char *const *ops, size_t nops) {
    size_t start = sb->size;
    cc_frame_begin(sb);
    cc_mpw_map(sb, 4);
    key(sb, "hello");
    key(sb, role);
    key(sb, "pid");
    cc_mpw_int(sb, pid);
    key(sb, "version");
    key(sb, version);
    key(sb, "caps");
    cc_mpw_array(sb, nops);
    for (size_t i = 0; i < nops; i++) key(sb, ops[i]);
    return cc_frame_end_at(sb, start);
}

int cc_msg_request(msgpack_sbuffer *sb, uint64_t id, const char *op, const json_t *args,
                   uint64_t deadline_ms) {
    size_t start = begin(sb, 4, id);
    key(sb, "op");
    key(sb, op);
    key(sb, "args");
    if (cc_mpw_json(sb, args) < 0) return -1;
    key(sb, "deadline_ms");
    cc_mpw_uint(sb, deadline_ms);
    return cc_frame_end_at(sb, start);
}

int cc_msg_event(msgpack_sbuffer *sb, uint64_t id, const char *event, const json_t *data) {
    size_t start = begin(sb, 3, id);
    key(sb, "event");
    key(sb, event);
    key(sb, "data");
    if (cc_mpw_json(sb, data) < 0) return -1;
    return cc_frame_end_at(sb, start);
}

size_t cc_msg_result_begin(msgpack_sbuffer *sb, uint64_t id) {
    size_t start = begin(sb, 3, id);
    key(sb, "ok");
    cc_mpw_bool(sb, 1);
    key(sb, "result");
    return start;
}

int cc_msg_result(msgpack_sbuffer *sb, uint64_t id, const json_t *result) {
    size_t start = cc_msg_result_begin(sb, id);
    if (cc_mpw_json(sb, result) < 0) return -1;
    return cc_frame_end_at(sb, start);
}

int cc_msg_error(msgpack_sbuffer *sb, uint64_t id, const char *code, const char *message) {
    size_t start = begin(sb, 3, id);
    key(sb, "ok");
    cc_mpw_bool(sb, 0);
    key(sb, "error");
    cc_mpw_map(sb, 2);
    key(sb, "code");
    key(sb, code);
    key(sb, "message");
    key(sb, message);
    return cc_frame_end_at(sb, start);
}

int cc_msg_cancel(msgpack_sbuffer *sb, uint64_t id) {
    size_t start = begin(sb, 2, id);
    key(sb, "cancel");
    cc_mpw_bool(sb, 1);
    return cc_frame_end_at(sb, start);
}
