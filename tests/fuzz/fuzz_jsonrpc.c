/* Fuzz target: the stdio JSON-RPC path, bytes to answers.
 *
 * The input after one flag byte is what a client writes to stdin. It goes
 * through the real line reader (supervisor/transport/lines.c: framing, the
 * size cap, id sniffing of over-long lines) in chunks, then the real
 * cc_server_handle (JSON parse with big-integer protection, JSON-RPC checks,
 * MCP dispatch, argument validation, request frame encoding) up to the
 * point a worker would run the tool; the fake worker of fz_server.c then
 * answers through the real frame-to-answer path.
 *
 * Properties: no sanitizer report; every message the server sends is one
 * strict JSON object; nothing stays in flight once every call was answered;
 * and the id sniffer, when it names an id, names the one the message
 * really carries.
 *
 * Flag byte: bits 0-2 chunk size, bits 3-5 line cap, bit 6 answer newest
 * call first, bit 7 hold every answer until the input ends. */
#include <jansson.h>
#include <string.h>

#include "supervisor/transport/id_sniff.h"
#include "supervisor/transport/lines.h"
#include "tests/fuzz/fz.h"
#include "tests/fuzz/fz_server.h"

static const size_t chunks[8] = {0, 1, 2, 3, 17, 100, 1000, 5000}; /* 0: all at once */
static const size_t caps[8] = {16u << 20, 8, 32, 100, 300, 1000, 5000, 10000};

/* If the whole text is one JSON object without duplicate keys, an id
 * sniffed from its ends must be its id. */
static void sniff_names_the_real_id(const char *text, size_t n) {
    size_t h = n < 4096 ? n : 4096;
    json_t *sniffed = cc_sniff_rpc_id(text, h, text + n - h, h);
    if (!sniffed) return;
    FZ_ASSERT(json_is_integer(sniffed) || json_is_string(sniffed), "sniffed id of a wrong type");
    json_error_t e;
    json_t *msg = json_loadb(text, n, JSON_REJECT_DUPLICATES, &e);
    if (json_is_object(msg)) {
        json_t *id = json_object_get(msg, "id");
        FZ_ASSERT(id && json_equal(id, sniffed), "sniffed an id the message does not carry: %.*s",
                  (int)(n > 300 ? 300 : n), text);
    }
    json_decref(msg);
    json_decref(sniffed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct fz_in in = {data, size};
    uint8_t flags = fz_byte(&in);
    sniff_names_the_real_id((const char *)in.p, in.n);

    struct cc_server *srv = fz_server();
    struct cc_conn *c = fz_conn_new();
    struct cc_lines lines;
    if (cc_lines_init(&lines, caps[(flags >> 3) & 7]) < 0) abort();
    size_t chunk = chunks[flags & 7];
    bool newest_first = flags & 0x40, hold = flags & 0x80;
    while (in.n) {
        size_t len;
        const uint8_t *p = fz_take(&in, chunk ? chunk : in.n, &len);
        evbuffer_add(lines.in, p, len);
        cc_lines_drain(&lines, c);
        if (!hold) fz_answer_pending(newest_first);
    }
    cc_lines_finish(&lines, c);
    fz_answer_pending(newest_first);
    FZ_ASSERT(srv->n_inflight == 0, "%d calls still in flight after every answer", srv->n_inflight);
    cc_lines_free(&lines);
    cc_conn_close(c);
    return 0;
}
