/* One request at a time: read a frame, run the handler, write the answer. */
#include "workers/common/worker_loop.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/single_threaded.h>
#include <time.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/frame.h"
#include "protocol/json_convert.h"
#include "protocol/mp_raw.h"
#include "protocol/monotonic.h"
#include "protocol/msg.h"
#include "protocol/progress.h"
#include "workers/common/answers.h"
#include "workers/common/test_ops.h"

#ifndef CC_VERSION
#define CC_VERSION "0.1.0"
#endif

struct cc_wctx {
    uint64_t id;
    int in_fd, out_fd;
    int64_t deadline_ms;   /* absolute CLOCK_MONOTONIC ms; 0 = none */
    bool cancelled;
    int64_t received_us;   /* when the request's bytes were read */
    struct cc_frame_reader *reader;
    struct cc_progress *progress; /* shared with the supervisor, or NULL */
};

int64_t cc_wctx_received_us(const cc_wctx *ctx) { return ctx->received_us; }

/* Write one built frame (or fail when the builder did) and release it. */
static int send_frame(int fd, msgpack_sbuffer *sb, int built) {
    int rc = built == 0 ? cc_write_all(fd, sb->data, sb->size) : -1;
    msgpack_sbuffer_destroy(sb);
    return rc;
}

int cc_wctx_event(cc_wctx *ctx, const char *event, json_t *data) {
    /* answers to earlier requests go first: the supervisor reads in order */
    if (cc_answers_flush() < 0) return -1;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    return send_frame(ctx->out_fd, &sb, cc_msg_event(&sb, ctx->id, event, data));
}

/* Read whatever is pending on the protocol pipe without blocking and note a
 * cancel for the current request. Other frames stay queued in the reader. */
static void poll_cancel(cc_wctx *ctx) {
    struct pollfd pfd = {.fd = ctx->in_fd, .events = POLLIN};
    while (poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLIN | POLLHUP))) {
        char buf[4096];
        ssize_t n = read(ctx->in_fd, buf, sizeof buf);
        if (n <= 0) {
            ctx->cancelled = true; /* supervisor gone: stop the work */
            return;
        }
        if (cc_frame_reader_feed(ctx->reader, buf, (size_t)n) < 0) exit(3);
    }
    /* Peek at complete frames for a cancel of our id. Requests that arrive
     * early are impossible by protocol (one in flight); drop them. */
    const char *body;
    size_t len;
    while (cc_frame_next(ctx->reader, &body, &len) == 1) {
        msgpack_unpacked u;
        if (cc_frame_decode(body, len, &u) < 0) exit(3);
        const msgpack_object *id = cc_mp_get(&u.data, "id");
        const msgpack_object *c = cc_mp_get(&u.data, "cancel");
        if (id && id->type == MSGPACK_OBJECT_POSITIVE_INTEGER && id->via.u64 == ctx->id && c &&
            c->type == MSGPACK_OBJECT_BOOLEAN && c->via.boolean)
            ctx->cancelled = true;
        msgpack_unpacked_destroy(&u);
    }
}

/* A handler called without a worker loop (ctx NULL: the unit tests, an
 * internal caller) has no supervisor that could cancel it. The sandbox's
 * wait loop asks only when a run outlasts its tick, so the NULL case was
 * reached only on a loaded machine (UBSan, in the unit tests). */
bool cc_wctx_cancelled(cc_wctx *ctx) {
    if (!ctx) return false;
    if (!ctx->cancelled) poll_cancel(ctx);
    return ctx->cancelled;
}

int64_t cc_wctx_remaining_ms(const cc_wctx *ctx) {
    if (ctx->deadline_ms == 0) return INT64_MAX;
    int64_t left = ctx->deadline_ms - cc_now_ms();
    return left > 0 ? left : 0;
}

/* Test-only rows are served only with CODECALC_TEST_OPS=1. */
static bool offered(const struct cc_tool_def *d) {
    return !d->test_only || cc_test_ops_enabled();
}

static cc_tool_fn find_in(const struct cc_tool_def *d, const char *op, size_t n) {
    for (; d && d->op; d++)
        if (offered(d) && strlen(d->op) == n && memcmp(d->op, op, n) == 0) return d->fn;
    return NULL;
}

static cc_tool_fn find_op(const struct cc_worker_cfg *cfg, const char *op, size_t n) {
    cc_tool_fn fn = find_in(cfg->ops, op, n);
    return fn ? fn : find_in(cfg->internal, op, n);
}

static size_t count_ops(const struct cc_tool_def *d) {
    size_t n = 0;
    for (; d && d->op; d++) n++;
    return n;
}

/* Append the offered ops of d to ops, except omit. */
static void list_ops(const struct cc_tool_def *d, const char *omit, const char **ops, size_t *n) {
    for (; d && d->op; d++)
        if (offered(d) && !(omit && strcmp(omit, d->op) == 0)) ops[(*n)++] = d->op;
}

/* The hello announces every op this worker serves; the supervisor checks
 * them against the tool table (supervisor/pool.c). */
static int send_hello(int fd, const struct cc_worker_cfg *cfg) {
    size_t nops = 0;
    const char **ops = calloc(count_ops(cfg->ops) + count_ops(cfg->internal) + 1, sizeof *ops);
    if (!ops) return -1;
    const char *omit = cc_test_omitted_op();
    list_ops(cfg->ops, omit, ops, &nops);
    list_ops(cfg->internal, omit, ops, &nops);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    int rc = send_frame(fd, &sb, cc_msg_hello(&sb, cfg->role, getpid(), CC_VERSION, ops, nops));
    free(ops);
    return rc;
}

/* Append the answer to the current request (a result, or else an error
 * frame); it leaves now or with the rest of the batch (answers.h). */
static int answer(cc_wctx *ctx, const json_t *result, const char *code, const char *message) {
    msgpack_sbuffer *out = cc_answers_begin();
    size_t mark = out->size;
    int rc = result ? cc_msg_result(out, ctx->id, result) : cc_msg_error(out, ctx->id, code, message);
    if (rc < 0 && result) {
        /* A result that cannot become a frame (over CC_FRAME_MAX, or nested
         * deeper than a frame can carry) is answered with an error instead:
         * failing would end the worker and cost the caller a misleading
         * "worker died". */
        out->size = mark;
        rc = cc_msg_error(out, ctx->id, "resource_exhausted", "the result is too large or too deeply nested to send");
    }
    if (rc < 0) out->size = mark; /* a failed builder's garbage */
    bool more = cc_frame_ready(ctx->reader);
    int wrc = cc_answers_end(more);
    return rc < 0 ? -1 : wrc;
}

static int answer_result(cc_wctx *ctx, const json_t *result) { return answer(ctx, result, NULL, NULL); }

static int answer_error(cc_wctx *ctx, const char *code, const char *message) {
    return answer(ctx, NULL, code, message);
}

/* Each request may burn `seconds` of CPU from its own start: the soft limit
 * is re-armed to (whole seconds of CPU used so far + budget + 1), so a
 * request gets more than `seconds` and at most one second more. The hard
 * limit does not change, so it is read once.
 *
 * Re-arming costs two system calls. A single-threaded worker skips it
 * while the wall time since the last arm is below what that arm left
 * spare (the fraction of a second its rounding down gave away): one thread
 * cannot use more CPU time than wall time passes, so the request still
 * starts with more than `seconds` and at most one second more.
 *
 * A worker that may start threads (the symbolic one: z3's timers) is single
 * threaded while glibc says no thread was ever created
 * (__libc_single_threaded, which never turns back to true): the two calls
 * cost about 7 us on a virtual machine, more than a trivial request. */
static void arm_cpu_budget(int seconds, bool single_thread) {
    single_thread = single_thread || __libc_single_threaded;
    static rlim_t hard;
    static bool have_hard;
    static int64_t armed_us, spare_us;
    if (seconds <= 0) return;
    int64_t now = cc_now_us();
    if (single_thread && armed_us && now - armed_us < spare_us) return;
    if (!have_hard) {
        struct rlimit rl;
        if (getrlimit(RLIMIT_CPU, &rl) < 0) return;
        hard = rl.rlim_max;
        have_hard = true;
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) < 0) return;
    int64_t used_us = (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
                      ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
    rlim_t want = (rlim_t)(used_us / 1000000) + (rlim_t)seconds + 1;
    if (hard != RLIM_INFINITY && want > hard) want = hard;
    struct rlimit rl = {want, hard};
    if (setrlimit(RLIMIT_CPU, &rl) < 0) {
        armed_us = 0;
        return;
    }
    /* the spare is measured from `now`, taken before the CPU time was read */
    armed_us = want == (rlim_t)(used_us / 1000000) + (rlim_t)seconds + 1 ? now : 0;
    spare_us = 1000000 - used_us % 1000000;
}

/* The request becomes the current one. */
static void start_request(cc_wctx *ctx, uint64_t id, const uint64_t *deadline) {
    ctx->id = id;
    ctx->cancelled = false;
    if (ctx->progress) {
        ctx->progress->started = ctx->id;
        __atomic_signal_fence(__ATOMIC_SEQ_CST); /* stored before the work starts */
    }
    ctx->deadline_ms = deadline ? cc_now_ms() + (int64_t)*deadline : 0;
}

/* Serve a request whose id, op, deadline and (owned) args were read.
 * Returns -1 when the pipe is broken. */
static int serve_parsed(const struct cc_worker_cfg *cfg, cc_wctx *ctx, uint64_t id, const char *opname,
                        size_t oplen, bool have_op, const uint64_t *deadline, json_t *jargs) {
    start_request(ctx, id, deadline);

    cc_tool_fn fn = have_op ? find_op(cfg, opname, oplen) : NULL;
    if (!fn) {
        json_decref(jargs);
        return answer_error(ctx, "internal", "unknown op");
    }
    if (!jargs || !json_is_object(jargs)) {
        json_decref(jargs);
        return answer_error(ctx, "validation", "args must be an object");
    }
    arm_cpu_budget(cfg->cpu_per_request_s, cfg->single_thread);
    json_t *res = fn(jargs, ctx);
    json_decref(jargs);
    if (!res) return answer_error(ctx, "internal", "handler failed");
    if (json_is_object(res) && !json_object_get(res, "contract_version"))
        json_object_set_new_nocheck(res, "contract_version", json_string_nocheck(CC_CONTRACT_VERSION));
    int rc = answer_result(ctx, res);
    json_decref(res);
    return rc;
}

/* Serve one decoded request frame. Returns -1 when the pipe is broken. */
static int serve(const struct cc_worker_cfg *cfg, cc_wctx *ctx, const msgpack_object *req) {
    const msgpack_object *id = cc_mp_get(req, "id");
    const msgpack_object *op = cc_mp_get(req, "op");
    const msgpack_object *args = cc_mp_get(req, "args");
    const msgpack_object *dl = cc_mp_get(req, "deadline_ms");
    if (cc_mp_get(req, "cancel")) return 0; /* a cancel for a request already answered */
    if (!id || id->type != MSGPACK_OBJECT_POSITIVE_INTEGER) return -1;
    const char *opname = NULL;
    size_t oplen = 0;
    bool have_op = cc_mp_str(op, &opname, &oplen) == 0;
    bool have_dl = dl && dl->type == MSGPACK_OBJECT_POSITIVE_INTEGER;
    /* args are converted only for an op this worker serves, as before */
    json_t *jargs = have_op && find_op(cfg, opname, oplen) ? (args ? cc_mp_to_json(args) : json_object()) : NULL;
    return serve_parsed(cfg, ctx, id->via.u64, opname, oplen, have_op, have_dl ? &dl->via.u64 : NULL, jargs);
}

/* The fast hook's answer, built in here before it is known to be one (a
 * declined request leaves the answers buffer untouched). */
static msgpack_sbuffer fast_out;

/* Whether cfg's fast hook answered the request (into fast_out). Only the
 * op the hook is for, and only while this worker serves that op. */
static bool serve_fast(const struct cc_worker_cfg *cfg, cc_wctx *ctx, const struct cc_mp_request *rq,
                       const uint64_t *deadline) {
    static int served = -1; /* does this worker serve fast_op (a test may omit it)? */
    if (!cfg->fast) return false;
    size_t n = strlen(cfg->fast_op);
    if (rq->op_len != n || memcmp(rq->op, cfg->fast_op, n) != 0) return false;
    if (served < 0) served = find_op(cfg, cfg->fast_op, n) != NULL;
    if (!served) return false;
    /* started and budgeted as any request (a declined one is started again
     * by serve_parsed): the progress page names it, and a worker serving
     * only answers from the bytes would otherwise run into the CPU limit
     * armed for an earlier request and die of SIGXCPU */
    start_request(ctx, rq->id, deadline);
    arm_cpu_budget(cfg->cpu_per_request_s, cfg->single_thread);
    fast_out.size = 0;
    return cfg->fast(rq->id, rq->args_at, rq->args_len, &fast_out);
}

static int answer_fast(cc_wctx *ctx) {
    msgpack_sbuffer *out = cc_answers_begin();
    int rc = msgpack_sbuffer_write(out, fast_out.data, fast_out.size);
    bool more = cc_frame_ready(ctx->reader);
    int wrc = cc_answers_end(more);
    return rc < 0 ? -1 : wrc;
}

/* Serve one frame: the usual request read in place (protocol/mp_raw.h),
 * anything else decoded into zone first. Returns -1 when the frame is
 * malformed, the pipe broken or the request has no id. */
static int serve_frame(const struct cc_worker_cfg *cfg, cc_wctx *ctx, const char *body, size_t len,
                       msgpack_zone *zone) {
    struct cc_mp_request rq;
    if (cc_mp_raw_request(body, len, &rq)) {
        const uint64_t *deadline = rq.has_deadline ? &rq.deadline_ms : NULL;
        if (serve_fast(cfg, ctx, &rq, deadline)) return answer_fast(ctx);
        /* args are converted only for an op this worker serves, as below;
         * args the in-place conversion gives up on take the decoding way */
        bool known = find_op(cfg, rq.op, rq.op_len) != NULL;
        json_t *args = known ? cc_mp_raw_request_args(&rq) : NULL;
        if (args || !known) return serve_parsed(cfg, ctx, rq.id, rq.op, rq.op_len, true, deadline, args);
    }
    msgpack_object req;
    if (cc_frame_decode_in(body, len, zone, &req) < 0) return -1;
    return serve(cfg, ctx, &req);
}

/* Block until the protocol socket has bytes, in poll() rather than in
 * read(): a reader asleep in read() on a unix socket is also woken each
 * time the supervisor consumes this worker's answers (the kernel signals
 * "write space" on the same wait queue), a context switch for nothing;
 * poll() waits for input only. */
static void wait_readable(int fd) {
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    while (poll(&pfd, 1, -1) < 0 && errno == EINTR) {}
}

static int take_fds(int *in_fd, int *out_fd) {
    *in_fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
    *out_fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (*in_fd < 0 || *out_fd < 0) return -1;
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(2, 1) < 0) return -1;
    close(devnull);
    return 0;
}

int cc_worker_main(const struct cc_worker_cfg *cfg) {
    struct cc_progress *progress = cc_progress_attach();
    int in_fd, out_fd;
    if (take_fds(&in_fd, &out_fd) < 0) {
        perror("codecalc worker: fds");
        return 2;
    }
    if (cfg->as_limit_bytes) {
        struct rlimit rl = {cfg->as_limit_bytes, cfg->as_limit_bytes};
        if (setrlimit(RLIMIT_AS, &rl) < 0) perror("codecalc worker: RLIMIT_AS");
    }
    if (cfg->warmup) cfg->warmup();
    if (cfg->lockdown && cfg->lockdown() < 0) {
        fprintf(stderr, "codecalc %s worker: seccomp lockdown failed\n", cfg->role);
        return 2;
    }
    if (send_hello(out_fd, cfg) < 0) return 2;
    if (cfg->idle) cfg->idle();

    struct cc_frame_reader reader;
    cc_frame_reader_init(&reader);
    cc_wctx ctx = {.in_fd = in_fd, .out_fd = out_fd, .reader = &reader, .progress = progress};
    if (cc_answers_init(out_fd, cfg->batch_answers) < 0) return 2;
    /* every request is decoded into this zone, cleared per request */
    msgpack_zone *zone = msgpack_zone_new(8192);
    if (!zone) return 2;
    for (;;) {
        const char *body;
        size_t len;
        int fr;
        bool served = false;
        while ((fr = cc_frame_next(&reader, &body, &len)) == 1) {
            if (serve_frame(cfg, &ctx, body, len, zone) < 0) return 3;
            served = true;
        }
        if (fr < 0) return 3;
        if (cc_answers_flush() < 0) return 3;
        if (served && cfg->idle) cfg->idle();
        wait_readable(in_fd);
        ssize_t n = cc_frame_reader_read(&reader, in_fd, 1 << 16);
        ctx.received_us = cc_now_us();
        if (n == 0) return 0; /* supervisor closed the pipe: orderly exit */
        if (n < 0) {
            if (errno == EINTR) continue;
            return 3;
        }
    }
}
