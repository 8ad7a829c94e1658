/* Newline-delimited JSON-RPC framing with a size cap: the byte-level half of
 * the stdio transport, kept apart from its descriptors and events so the
 * same code can be driven from a buffer (tests/fuzz/fuzz_jsonrpc.c).
 *
 * A line longer than max_line is never held in memory: it is dropped as it
 * arrives, only its first and last 4 KiB are kept, and once its newline is
 * in it is refused with -32600, addressed to the id read from those ends
 * (supervisor/transport/id_sniff.h).
 *
 * Ownership: the reader owns its input buffer; callers append to it. */
#ifndef CC_LINES_H
#define CC_LINES_H

#include <event2/buffer.h>
#include <stdbool.h>
#include <stddef.h>

#include "supervisor/conn.h"

struct cc_lines {
    struct evbuffer *in;          /* bytes not yet framed (owned) */
    size_t max_line;
    size_t scanned;               /* leading bytes of in already searched: no newline */
    bool discarding;              /* inside an over-long line: drop until newline */
    char head[4096], tail[4096];  /* ends of a line being discarded */
    size_t head_len, tail_len;
};

/* 0, or -1 when the buffer cannot be allocated. */
int cc_lines_init(struct cc_lines *l, size_t max_line);
void cc_lines_free(struct cc_lines *l);
/* Hand every complete line to the stateless revision (stateless.h) or else
 * cc_server_handle() on c (a trailing CR is
 * dropped, blank lines are skipped) and refuse over-long ones. */
void cc_lines_drain(struct cc_lines *l, struct cc_conn *c);
/* End of input: a last line without its newline is handled as if it had
 * one. */
void cc_lines_finish(struct cc_lines *l, struct cc_conn *c);

#endif
