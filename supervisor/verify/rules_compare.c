/* compare_execution's summary (TOOLS.md 3.1.5): the fastest working run
 * and the discrepancies worth a second look. */
#include "supervisor/verify/rules.h"

#include <stdio.h>
#include <stdlib.h>

int cc_cmp_fastest(const struct cc_cmp_row *rows, size_t n) {
    int best = -1;
    for (size_t i = 0; i < n; i++)
        if (rows[i].ok && rows[i].has_duration && (best < 0 || rows[i].duration_ms < rows[best].duration_ms))
            best = (int)i;
    return best;
}

/* Why a row stayed timed out, judged from its siblings' durations. */
static const char *variance_note(const struct cc_cmp_row *rows, size_t n, size_t self, int64_t timeout_s,
                                 json_t *siblings) {
    int64_t lo = 0, hi = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == self || !rows[i].ok || !rows[i].has_duration) continue;
        json_object_set_new(siblings, rows[i].language, json_integer(rows[i].duration_ms));
        if (k == 0 || rows[i].duration_ms < lo) lo = rows[i].duration_ms;
        if (k == 0 || rows[i].duration_ms > hi) hi = rows[i].duration_ms;
        k++;
    }
    if (k == 0) return "no other language ran successfully, so there is nothing to compare the timeout with";
    if ((lo > 0 && hi >= 10 * lo) || hi * 4 >= timeout_s * 1000)
        return "the other languages' timings vary widely or came close to the timeout: the runner "
               "itself may be slow right now, so this timeout may not be the program's fault";
    return "the other languages finished quickly and consistently: the timeout looks specific to this "
           "language's program";
}

static json_t *timeout_row(const struct cc_cmp_row *rows, size_t n, size_t i, int64_t timeout_s) {
    json_t *sib = json_object();
    const char *note = variance_note(rows, n, i, timeout_s, sib);
    char *detail = NULL;
    if (asprintf(&detail, "%s did not finish within its %llds timeout on either attempt; raise timeout "
                 "if it is expected to be slow, or look for an endless loop or a read from stdin that "
                 "never ends", rows[i].language, (long long)timeout_s) < 0)
        detail = NULL;
    json_t *d = json_pack("{s:s, s:b, s:b, s:s, s:o, s:s, s:s}", "language", rows[i].language, "ok", 0,
                          "timed_out", 1, "issue", "timed out and stayed timed out after one warm retry",
                          "sibling_durations_ms", sib, "variance_note", note, "detail",
                          detail ? detail : "");
    free(detail);
    return d;
}

static json_t *silent_row(const struct cc_cmp_row *r) {
    const char *detail = r->ok ? "it exited cleanly but printed nothing: an ok run without output cannot "
                                 "be told apart from output that was lost"
                               : "it failed; its stderr (or error) says why";
    return json_pack("{s:s, s:s, s:b, s:O, s:b, s:s}", "language", r->language, "issue",
                     "no stdout while another language produced some", "ok", r->ok, "exit_code",
                     r->exit_code ? r->exit_code : json_null(), "timed_out", r->timed_out, "detail",
                     detail);
}

json_t *cc_cmp_discrepancies(const struct cc_cmp_row *rows, size_t n, int64_t timeout_s) {
    json_t *out = json_array();
    bool any_printed = false, any_silent = false;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].timed_out) json_array_append_new(out, timeout_row(rows, n, i, timeout_s));
        if (rows[i].printed) any_printed = true;
        else any_silent = true;
    }
    if (any_printed && any_silent)
        for (size_t i = 0; i < n; i++)
            if (!rows[i].printed && !rows[i].timed_out) json_array_append_new(out, silent_row(&rows[i]));
    return out;
}
