/* The stdio line reader (supervisor/transport/lines.c): framing of lines
 * that arrive in pieces, and over-long lines refused to their own id. Only
 * over-long and blank lines are fed, so no line reaches the server. */
#include <stdlib.h>
#include <string.h>

#include "supervisor/conn.h"
#include "supervisor/server.h"
#include "supervisor/transport/lines.h"
#include "tests/unit/check.h"

static char answers[8][256];
static int n_answers;
static void keep_answer(struct cc_conn *c, const char *msg, size_t len) {
    (void)c;
    if (n_answers >= 8) { n_answers++; return; }
    size_t n = len < 255 ? len : 255;
    memcpy(answers[n_answers], msg, n);
    answers[n_answers][n] = '\0';
    n_answers++;
}
static void keep(struct cc_conn *c) { (void)c; }
static const struct cc_conn_ops ops = {keep_answer, keep};
static struct cc_server srv;

/* A line of len bytes: {"id":ID,"pad":"aaa...a"} (len >= 40). */
static char *padded_line(size_t len, int id) {
    char *s = malloc(len + 1);
    if (!s) return NULL;
    int h = snprintf(s, len + 1, "{\"id\":%d,\"pad\":\"", id);
    memset(s + h, 'a', len - (size_t)h - 2);
    memcpy(s + len - 2, "\"}", 2);
    s[len] = '\0';
    return s;
}

/* Feed text in chunks of chunk bytes, draining after each. */
static void feed(struct cc_lines *l, struct cc_conn *c, const char *text, size_t n, size_t chunk) {
    for (size_t at = 0; at < n; at += chunk) {
        evbuffer_add(l->in, text + at, n - at < chunk ? n - at : chunk);
        cc_lines_drain(l, c);
    }
}

static bool refused(int i, const char *id) {
    char want[64];
    snprintf(want, sizeof want, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32600,", id);
    return i < n_answers && strncmp(answers[i], want, strlen(want)) == 0;
}

/* Regression (CI flake "huge stdin ... server keeps serving"): a line that
 * arrived in 64 KiB reads was searched for its newline from its first byte
 * at every read, quadratic in its length; a 17 MiB stdin took the server
 * 24 s under load and the test's 20 s wait ran out. Each read now searches
 * only the bytes it added. */
static void regression_huge_stdin_line_searched_from_start_at_every_read(void) {
    struct cc_conn c;
    cc_conn_init(&c, &srv, &ops);
    struct cc_lines l;
    CHECK(cc_lines_init(&l, 16u << 20) == 0);
    n_answers = 0;
    size_t len = 17u << 20;
    char *line = padded_line(len, 4242);
    if (!line) return;
    /* Below the cap the line is held; what was searched is remembered. */
    feed(&l, &c, line, 1u << 20, 1u << 16);
    CHECK_INTEQ(evbuffer_get_length(l.in), 1u << 20);
    CHECK_INTEQ(l.scanned, 1u << 20);
    feed(&l, &c, line + (1u << 20), len - (1u << 20), 1u << 16);
    CHECK_INTEQ(n_answers, 0); /* its id may be last: answered at the newline */
    feed(&l, &c, "\n", 1, 1);
    CHECK_INTEQ(n_answers, 1);
    CHECK(refused(0, "4242"));
    CHECK_INTEQ(evbuffer_get_length(l.in), 0);
    CHECK_INTEQ(l.scanned, 0);
    free(line);
    cc_lines_free(&l);
}

/* Lines split at every possible place (1, 2, 7 and 64-byte pieces; the
 * newline alone, first or last in a piece), with blank lines between: each
 * over-long line is answered once, to its own id, in order. */
static void lines_in_pieces_are_framed_as_whole_lines(void) {
    const size_t chunks[] = {1, 2, 7, 64, 129, 4096};
    char *a = padded_line(150, 7), *b = padded_line(300, 8), *d = padded_line(101, 9);
    if (!a || !b || !d) return;
    size_t cap = strlen(d) - 1; /* d is one byte over */
    char *text = malloc(1024);
    if (!text) return;
    int n = snprintf(text, 1024, "%s\n  \r\n\n%s\r\n%s\n \n", a, b, d);
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
        struct cc_conn c;
        cc_conn_init(&c, &srv, &ops);
        struct cc_lines l;
        CHECK(cc_lines_init(&l, cap) == 0);
        n_answers = 0;
        feed(&l, &c, text, (size_t)n, chunks[k]);
        cc_lines_finish(&l, &c);
        CHECK_INTEQ(n_answers, 3);
        CHECK(refused(0, "7"));
        CHECK(refused(1, "8"));
        CHECK(refused(2, "9"));
        CHECK_INTEQ(evbuffer_get_length(l.in), 0);
        cc_lines_free(&l);
    }
    free(text);
    free(a), free(b), free(d);
}

int main(void) {
    RUN(regression_huge_stdin_line_searched_from_start_at_every_read);
    RUN(lines_in_pieces_are_framed_as_whole_lines);
    return check_summary("sup_lines");
}
