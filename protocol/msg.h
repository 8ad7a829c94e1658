/* The message shapes of the worker protocol (docs/protocol.md). Each builder
 * appends one complete frame, length prefix included, to an sbuffer the
 * caller initialised and owns, after whatever it already holds. Returns 0,
 * or -1 when the frame would exceed CC_FRAME_MAX or a value nests too deeply
 * (what the builder appended is then garbage: cut sb back to its old size). */
#ifndef CC_MSG_H
#define CC_MSG_H

#include <jansson.h>
#include <msgpack.h>
#include <stddef.h>
#include <stdint.h>

int cc_msg_hello(msgpack_sbuffer *sb, const char *role, int64_t pid, const char *version,
                 const char *const *ops, size_t nops);
int cc_msg_request(msgpack_sbuffer *sb, uint64_t id, const char *op, const json_t *args,
                   uint64_t deadline_ms);
int cc_msg_event(msgpack_sbuffer *sb, uint64_t id, const char *event, const json_t *data);
int cc_msg_result(msgpack_sbuffer *sb, uint64_t id, const json_t *result);
/* The start of a result frame, up to its "result" key: the caller writes
 * the result (protocol/mp_write.h) and ends the frame with
 * cc_frame_end_at(sb, <the returned start>). */
size_t cc_msg_result_begin(msgpack_sbuffer *sb, uint64_t id);
int cc_msg_error(msgpack_sbuffer *sb, uint64_t id, const char *code, const char *message);
int cc_msg_cancel(msgpack_sbuffer *sb, uint64_t id);

#endif
