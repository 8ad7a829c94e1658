/* calc_exact's fast path: the plain rational arithmetic most calls send
 * ("12*3+1/7"), read and evaluated in one pass on 64-bit parts, and its
 * answer frame written as msgpack bytes without a jansson tree. It answers
 * only where the answer is the full pipeline's, byte for byte, and
 * declines everything else (calc_fast.c says what it takes). */
#ifndef CC_CALC_FAST_H
#define CC_CALC_FAST_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The exact value of src[0..len) as num/den in lowest terms (den >= 1), or
 * false to leave the expression to cc_calc_evaluate. */
bool cc_calc_fast_value(const char *src, size_t len, int64_t *num, int64_t *den);

/* Appends the answer frame of request id whose value is num/den: the frame
 * cc_msg_result writes for calc_exact's result object (contract_version
 * included). Returns 0, or -1 as cc_msg_result does. */
int cc_calc_fast_answer(msgpack_sbuffer *sb, uint64_t id, int64_t num, int64_t den);

/* The worker's hook (worker_loop.h): args (a msgpack map, args_len bytes)
 * exactly {"expr": <string>} whose value the fast path takes; the answer
 * frame is appended to out. false, with out untouched, otherwise. */
bool cc_calc_fast_serve(uint64_t id, const char *args, size_t args_len, msgpack_sbuffer *out);

#endif
