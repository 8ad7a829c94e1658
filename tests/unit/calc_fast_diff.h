/* The differential check of calc_exact's fast path (workers/calc/calc_fast.h)
 * against the full pipeline, shared by tests/unit/test_calc_fast.c and the
 * calc fuzz target: where the fast path takes an expression, its answer
 * frame must be byte for byte the frame the worker sends for the handler's
 * result (value, approx, exact, differs_from_decimal, type, member order,
 * contract_version, every encoding), and wherever the full pipeline fails
 * (any code, any message) the fast path must decline. */
#ifndef CC_CALC_FAST_DIFF_H
#define CC_CALC_FAST_DIFF_H

#include <jansson.h>
#include <msgpack.h>
#include <stdint.h>
#include <string.h>

#include "protocol/msg.h"
#include "workers/calc/calc_exact.h"
#include "workers/calc/calc_fast.h"

enum calc_fast_diff { CALC_FAST_DECLINED, CALC_FAST_SAME, CALC_FAST_DIFFERS };

/* The frame the worker loop sends for the handler's result of {"expr": src}
 * (it appends contract_version, as workers/common/worker_loop.c does). */
static inline int calc_full_frame(const char *src, size_t len, msgpack_sbuffer *sb) {
    json_t *args = json_object();
    json_t *s = json_stringn(src, len);
    if (!args || !s) {
        json_decref(args);
        json_decref(s);
        return -1;
    }
    json_object_set_new(args, "expr", s);
    json_t *res = cc_tool_calc_exact(args, NULL);
    json_decref(args);
    if (json_is_object(res) && !json_object_get(res, "contract_version"))
        json_object_set_new_nocheck(res, "contract_version", json_string_nocheck(CC_CONTRACT_VERSION));
    int rc = res ? cc_msg_result(sb, 7, res) : -1;
    json_decref(res);
    return rc;
}

static inline enum calc_fast_diff calc_fast_compare(const char *src, size_t len) {
    int64_t num, den;
    if (!cc_calc_fast_value(src, len, &num, &den)) return CALC_FAST_DECLINED;
    msgpack_sbuffer fast, full;
    msgpack_sbuffer_init(&fast);
    msgpack_sbuffer_init(&full);
    bool same = cc_calc_fast_answer(&fast, 7, num, den) == 0 && calc_full_frame(src, len, &full) == 0 &&
                fast.size == full.size && memcmp(fast.data, full.data, fast.size) == 0;
    msgpack_sbuffer_destroy(&fast);
    msgpack_sbuffer_destroy(&full);
    return same ? CALC_FAST_SAME : CALC_FAST_DIFFERS;
}

#endif
