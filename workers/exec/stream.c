/* execute_code_stream (TOOLS.md 3.1.4, 6): execute_code with progress events
 * carrying how much stdout the program has written so far. While the run
 * step executes, every tick (250 ms) reads what the stdout capture file grew
 * by, appends it to the partial text and sends one progress event; the
 * supervisor forwards it as notifications/progress to the client that gave a
 * progressToken, and drops it otherwise. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workers/common/tool_api.h"
#include "workers/exec/execute.h"

#define STREAM_TIMEOUT_DEFAULT 30
#define STREAM_TIMEOUT_MAX 300

json_t *cc_exec_run_request(json_t *args, cc_wctx *ctx, int64_t tdefault, int64_t tmax,
                            const struct cc_exec_hooks *hooks);

struct stream_state {
    cc_wctx *ctx;
    int fd;            /* stdout capture of the run step, -1 before it starts */
    uint64_t seen;     /* bytes of stdout observed so far */
    uint64_t cap;      /* bytes of partial text kept (the stdout cap) */
    char *partial;     /* first min(seen, cap + 1) bytes */
    size_t plen;
};

static void on_step(void *ud, const char *phase, const char *stdout_path) {
    struct stream_state *st = ud;
    if (st->fd >= 0) close(st->fd);
    st->fd = -1;
    if (strcmp(phase, "run") != 0 || !stdout_path) return;
    st->fd = open(stdout_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
}

/* Read what the capture file grew by; keep at most cap + 1 bytes. */
static void drain(struct stream_state *st) {
    if (st->fd < 0) return;
    char buf[65536];
    for (;;) {
        ssize_t n = read(st->fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        st->seen += (uint64_t)n;
        size_t room = st->cap + 1 > st->plen ? (size_t)(st->cap + 1 - st->plen) : 0;
        size_t take = (size_t)n < room ? (size_t)n : room;
        if (take) {
            char *p = realloc(st->partial, st->plen + take + 1);
            if (!p) return;
            st->partial = p;
            memcpy(p + st->plen, buf, take);
            st->plen += take;
            p[st->plen] = '\0';
        }
    }
}

static int on_tick(void *ud) {
    struct stream_state *st = ud;
    uint64_t before = st->seen;
    drain(st);
    if (st->seen > before) {
        char msg[64];
        snprintf(msg, sizeof msg, "stdout so far: %llu bytes", (unsigned long long)st->seen);
        json_t *data = json_pack("{s:I,s:s}", "progress", (json_int_t)st->seen, "message", msg);
        if (data) cc_wctx_event(st->ctx, "progress", data);
        json_decref(data);
    }
    return cc_wctx_cancelled(st->ctx) ? 1 : 0;
}

/* streamed_partial: the observed stdout cut like stdout itself (1.6). */
static json_t *partial_text(const struct stream_state *st) {
    size_t keep = st->plen > st->cap ? (size_t)st->cap : st->plen;
    size_t n;
    char *fixed = cc_utf8_repair(st->partial ? st->partial : "", keep, &n);
    if (!fixed) return json_string("");
    json_t *j;
    if (st->plen > st->cap) {
        char *withmark = malloc(n + sizeof CC_TRUNC_MARKER);
        if (!withmark) {
            free(fixed);
            return json_string("");
        }
        memcpy(withmark, fixed, n);
        memcpy(withmark + n, CC_TRUNC_MARKER, sizeof CC_TRUNC_MARKER);
        j = json_stringn(withmark, n + sizeof CC_TRUNC_MARKER - 1);
        free(withmark);
    } else {
        j = json_stringn(fixed, n);
    }
    free(fixed);
    return j ? j : json_string("");
}

json_t *cc_tool_execute_code_stream(json_t *args, cc_wctx *ctx) {
    json_t *a = json_deep_copy(args);
    if (!a) return NULL;
    /* Not parameters of this tool (3.1.4): never honoured here. */
    json_object_del(a, "session_id");
    json_object_del(a, "compact");
    int64_t kb = json_integer_value(json_object_get(a, "max_output_kb"));
    struct stream_state st = {.ctx = ctx, .fd = -1, .cap = cc_exec_output_cap(kb)};
    struct cc_exec_hooks hooks = {.tick = on_tick, .ud = &st, .tick_ms = 250, .step_start = on_step};
    json_t *r = cc_exec_run_request(a, ctx, STREAM_TIMEOUT_DEFAULT, STREAM_TIMEOUT_MAX, &hooks);
    json_decref(a);
    drain(&st);
    if (st.fd >= 0) close(st.fd);
    if (r && json_object_get(r, "verdict")) {
        json_object_set_new(r, "streamed", json_true());
        json_object_set_new(r, "streamed_partial", partial_text(&st));
    }
    free(st.partial);
    return r;
}
