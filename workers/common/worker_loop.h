/* The main loop shared by every worker binary: announce ourselves with a
 * hello frame, then answer one request at a time on the protocol pipe.
 *
 * Descriptor discipline: the supervisor hands us the protocol on fds 0 (in)
 * and 1 (out). We move them to private close-on-exec descriptors and point
 * 0 at /dev/null and 1 at stderr, so a library that prints to stdout (giac
 * does) or a child we spawn can never write into the protocol stream. */
#ifndef CC_WORKER_LOOP_H
#define CC_WORKER_LOOP_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workers/common/tool_api.h"

struct cc_worker_cfg {
    const char *role;                        /* "calc", "symbolic", "exec" */
    const struct cc_tool_def *ops;           /* the pool's generated dispatch table */
    const struct cc_tool_def *internal;      /* ops that are no tool (sent only by the
                                                supervisor itself), or NULL */
    uint64_t as_limit_bytes;                 /* RLIMIT_AS; 0 = leave as is */
    int cpu_per_request_s;                   /* RLIMIT_CPU budget per request; 0 = none */
    bool single_thread;                      /* the worker never starts a thread (the
                                                CPU budget is then re-armed less often) */
    bool batch_answers;                      /* hold answers while more requests wait
                                                (workers/common/answers.h; uses SIGALRM) */
    void (*warmup)(void);                    /* run once before lockdown (may be NULL) */
    int (*lockdown)(void);                   /* install the seccomp filter (may be NULL) */
    /* Work kept off the request path: run after hello and after each
     * answer, once no complete request is waiting (may be NULL). */
    void (*idle)(void);
    /* Requests of fast_op may be answered from their msgpack args without
     * the handler: fast appends the whole answer frame to out and returns
     * true, or returns false to leave the request to the handler (may be
     * NULL; workers/calc/calc_fast.h). */
    const char *fast_op;
    bool (*fast)(uint64_t id, const char *args, size_t args_len, msgpack_sbuffer *out);
};

int cc_worker_main(const struct cc_worker_cfg *cfg);

#endif
