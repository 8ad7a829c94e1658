/* Line framing of the stdio transport (see lines.h). */
#include "supervisor/transport/lines.h"

#include <stdio.h>
#include <string.h>

#include "supervisor/mcp/methods.h"
#include "supervisor/mcp/stateless.h"
#include "supervisor/server.h"
#include "supervisor/transport/id_sniff.h"

int cc_lines_init(struct cc_lines *l, size_t max_line) {
    memset(l, 0, sizeof *l);
    l->max_line = max_line;
    l->in = evbuffer_new();
    return l->in ? 0 : -1;
}

void cc_lines_free(struct cc_lines *l) {
    if (l->in) evbuffer_free(l->in);
    l->in = NULL;
}

static void too_long(struct cc_lines *l, struct cc_conn *c) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "Invalid Request: message longer than the %zu-byte limit (CODECALC_MAX_MESSAGE_BYTES)",
             l->max_line);
    json_t *id = cc_sniff_rpc_id(l->head, l->head_len, l->tail, l->tail_len);
    cc_rpc_send_error(c, id, -32600, msg);
    json_decref(id);
    l->head_len = l->tail_len = 0;
}

/* Drop n bytes of an over-long line, remembering its first and last bytes. */
static void discard(struct cc_lines *l, size_t n) {
    struct evbuffer *in = l->in;
    if (l->head_len == 0 && !l->discarding) {
        size_t h = n < sizeof l->head ? n : sizeof l->head;
        evbuffer_copyout(in, l->head, h);
        l->head_len = h;
    }
    if (n >= sizeof l->tail) {
        evbuffer_drain(in, n - sizeof l->tail);
        evbuffer_remove(in, l->tail, sizeof l->tail);
        l->tail_len = sizeof l->tail;
        return;
    }
    /* Shift the rolling tail left to make room for the n new bytes. */
    size_t keep = l->tail_len + n > sizeof l->tail ? sizeof l->tail - n : l->tail_len;
    memmove(l->tail, l->tail + l->tail_len - keep, keep);
    evbuffer_remove(in, l->tail + keep, n);
    l->tail_len = keep + n;
}

/* The first newline in, searched for only past the bytes an earlier call
 * already searched: a line arriving in 64 KiB reads was searched from its
 * start at every read, quadratic in its length (a 17 MiB line took 24 s of
 * the server's time under load, and CI's "huge stdin" test timed out). */
static struct evbuffer_ptr next_eol(struct cc_lines *l) {
    struct evbuffer_ptr from;
    if (evbuffer_ptr_set(l->in, &from, l->scanned, EVBUFFER_PTR_SET) < 0)
        return evbuffer_search_eol(l->in, NULL, NULL, EVBUFFER_EOL_LF);
    return evbuffer_search_eol(l->in, &from, NULL, EVBUFFER_EOL_LF);
}

void cc_lines_drain(struct cc_lines *l, struct cc_conn *c) {
    struct evbuffer *in = l->in;
    for (;;) {
        struct evbuffer_ptr eol = next_eol(l);
        if (eol.pos < 0) {
            size_t have = evbuffer_get_length(in);
            l->scanned = have;
            if (l->discarding || have > l->max_line) {
                discard(l, have);
                l->discarding = true;
                l->scanned = 0;
            }
            return;
        }
        l->scanned = 0; /* what follows this line is not searched yet */
        size_t n = (size_t)eol.pos;
        if (l->discarding || n > l->max_line) {
            /* Answer only once the whole line is in: its id may be last. */
            discard(l, n);
            evbuffer_drain(in, 1);
            too_long(l, c);
            l->discarding = false;
            continue;
        }
        char *line = (char *)evbuffer_pullup(in, (ev_ssize_t)n + 1);
        size_t len = n;
        if (len && line[len - 1] == '\r') len--;
        if (strspn(line, " \t\r") < len && !cc_stateless_stream_handle(c->srv, c, line, len))
            cc_server_handle(c->srv, c, line, len);
        evbuffer_drain(in, n + 1);
    }
}

void cc_lines_finish(struct cc_lines *l, struct cc_conn *c) {
    if (evbuffer_get_length(l->in) > 0 && !l->discarding) {
        evbuffer_add(l->in, "\n", 1);
        cc_lines_drain(l, c);
    }
}
