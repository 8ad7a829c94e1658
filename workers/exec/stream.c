/* execute_code_stream (TOOLS.md 3.1.4, 6, as amended by issue 18):
 * execute_code with progress events. The sandbox hands over every chunk of
 * the run step's stdout as it drains it; every tick (250 ms) with new bytes
 * sends one progress event whose `progress` is the stdout byte count so far
 * and whose `message` is the new output itself (its last 1 KiB when more
 * arrived in one tick, marked with a leading "…"), so a client that shows
 * progress messages shows the output live. The supervisor forwards it as
 * notifications/progress to the client that gave a progressToken, and drops
 * it otherwise. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/strbuf.h"
#include "protocol/utf8.h"
#include "workers/common/tool_api.h"
#include "workers/exec/execute.h"

#define STREAM_TIMEOUT_DEFAULT 30
#define STREAM_TIMEOUT_MAX 300
#define MESSAGE_MAX 1024      /* bytes of new output a progress message carries */

json_t *cc_exec_run_request(json_t *args, cc_wctx *ctx, int64_t tdefault, int64_t tmax,
                            const struct cc_exec_hooks *hooks);

struct stream_state {
    cc_wctx *ctx;
    uint64_t seen;     /* bytes of the run step's stdout so far */
    uint64_t sent;     /* seen at the last progress event */
    uint64_t cap;      /* bytes of partial text kept (the stdout cap) */
    char *partial;     /* first min(seen, cap + 1) bytes */
    size_t plen;
    char fresh[MESSAGE_MAX + 4]; /* the newest output not yet reported */
    size_t flen;
    bool fresh_cut;    /* older unreported output was dropped */
};

/* Keep the last MESSAGE_MAX (+3 for a split character) bytes of new output. */
static void remember(struct stream_state *st, const char *buf, size_t n) {
    size_t room = sizeof st->fresh;
    if (n >= room) {
        memcpy(st->fresh, buf + n - room, room);
        st->flen = room;
        st->fresh_cut = true;
        return;
    }
    if (st->flen + n > room) {
        size_t drop = st->flen + n - room;
        memmove(st->fresh, st->fresh + drop, st->flen - drop);
        st->flen -= drop;
        st->fresh_cut = true;
    }
    memcpy(st->fresh + st->flen, buf, n);
    st->flen += n;
}

static void on_output(void *ud, const char *phase, int stream, const char *data, size_t n) {
    struct stream_state *st = ud;
    if (stream != 1 || strcmp(phase, "run") != 0) return;
    st->seen += n;
    remember(st, data, n);
    size_t room = st->cap + 1 > st->plen ? (size_t)(st->cap + 1 - st->plen) : 0;
    size_t take = n < room ? n : room;
    if (!take) return;
    char *p = realloc(st->partial, st->plen + take + 1);
    if (!p) return;
    st->partial = p;
    memcpy(p + st->plen, data, take);
    st->plen += take;
    p[st->plen] = '\0';
}

/* The new output as message text: whole UTF-8 characters only. A
 * character split at the end waits for the next tick (unless this is the
 * last message: the stream has ended and it can never complete); one split
 * at the front by the 1 KiB cut is dropped with the bytes before it. */
static json_t *fresh_message(struct stream_state *st, bool last) {
    const unsigned char *p = (const unsigned char *)st->fresh;
    size_t start = 0, end = st->flen;
    bool cut = st->fresh_cut || end > MESSAGE_MAX;
    if (end > MESSAGE_MAX) start = end - MESSAGE_MAX;
    while (start < end && cut && (p[start] & 0xC0) == 0x80) start++;
    /* Hold back an incomplete last character for the next tick. */
    for (size_t i = end; !last && i > start && end - i < 4; i--) {
        unsigned char c = p[i - 1];
        if ((c & 0xC0) == 0x80) continue;
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (i - 1 + need > end) end = i - 1;
        break;
    }
    size_t n;
    char *fixed = cc_utf8_repair(st->fresh + start, end - start, &n);
    json_t *msg = NULL;
    if (fixed) {
        struct cc_strbuf sb;
        cc_sb_init(&sb);
        if (cut) cc_sb_puts(&sb, "\xE2\x80\xA6"); /* … */
        cc_sb_put(&sb, fixed, n);
        msg = json_stringn(sb.data ? sb.data : "", sb.len);
        cc_sb_free(&sb);
        free(fixed);
    }
    memmove(st->fresh, st->fresh + end, st->flen - end);
    st->flen -= end;
    st->fresh_cut = false;
    return msg;
}

/* One progress event for the output seen since the last one, if any. */
static void report(struct stream_state *st, bool last) {
    if (st->seen <= st->sent) return;
    st->sent = st->seen;
    json_t *data = json_pack("{s:I,s:o?}", "progress", (json_int_t)st->seen, "message", fresh_message(st, last));
    if (data) cc_wctx_event(st->ctx, "progress", data);
    json_decref(data);
}

static int on_tick(void *ud) {
    struct stream_state *st = ud;
    report(st, false);
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
    struct stream_state st = {.ctx = ctx, .cap = cc_exec_output_cap(kb)};
    struct cc_exec_hooks hooks = {.tick = on_tick, .ud = &st, .tick_ms = 250, .on_output = on_output};
    json_t *r = cc_exec_run_request(a, ctx, STREAM_TIMEOUT_DEFAULT, STREAM_TIMEOUT_MAX, &hooks);
    json_decref(a);
    if (r && json_object_get(r, "verdict")) {
        /* Output written after the last tick (a program that printed and
         * exited within 250 ms, or its last lines) is reported before the
         * answer, so the progress stream ends at the byte count the result
         * has and its messages end with the run's last output. */
        report(&st, true);
        json_object_set_new(r, "streamed", json_true());
        json_object_set_new(r, "streamed_partial", partial_text(&st));
    }
    free(st.partial);
    return r;
}
