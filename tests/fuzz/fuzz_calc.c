/* Fuzz target: the calculator's expression front ends.
 *
 * Byte 0 chooses the entry; the rest is the expression:
 *  - even: calc_exact's pipeline (length cap, token screen, Python-dialect
 *    parser, shape check, exact evaluator with its resource guards, the
 *    4300-digit format limit), on the raw bytes, then the tool handler with
 *    the same text as a JSON string when it is UTF-8;
 *  - odd: truth_table's own tokeniser, parser and table builder.
 *
 * Properties: no sanitizer report, no timeout (the guards must bound the
 * work); a result follows the result contract and prints as strict JSON;
 * evaluating the same text twice gives the same outcome (no state leaks
 * between calls of a long-lived worker); where the fast path
 * (workers/calc/calc_fast.h) takes the text, its answer frame is byte for
 * byte the full pipeline's (tests/unit/calc_fast_diff.h). */
#include <gmp.h>
#include <string.h>

#include "workers/calc/calc_exact.h"
#include "tests/fuzz/fz.h"
#include "tests/fuzz/fz_util.h"
#include "tests/unit/calc_fast_diff.h"

json_t *cc_tool_truth_table(json_t *args, cc_wctx *ctx);

static void same_outcome(const struct cc_calc_outcome *a, const struct cc_calc_outcome *b) {
    FZ_ASSERT(a->ok == b->ok, "the same expression succeeded once and failed once");
    if (!a->ok) {
        FZ_ASSERT(strcmp(a->code, b->code) == 0, "two codes for one expression: %s, %s", a->code, b->code);
        FZ_ASSERT(a->message && b->message && strcmp(a->message, b->message) == 0, "two messages");
        return;
    }
    FZ_ASSERT(a->is_bool == b->is_bool && a->truth == b->truth, "two truth values");
    FZ_ASSERT(mpq_equal(a->q, b->q), "two values for one expression");
    FZ_ASSERT(a->funcs == b->funcs && a->consts == b->consts, "two approximation records");
}

static void calc(const uint8_t *p, size_t n) {
    struct cc_calc_outcome a, b;
    cc_calc_outcome_init(&a);
    cc_calc_outcome_init(&b);
    cc_calc_evaluate((const char *)p, n, &a);
    cc_calc_evaluate((const char *)p, n, &b);
    if (!a.ok) FZ_ASSERT(a.code && a.message, "a failure without code or message");
    same_outcome(&a, &b);
    cc_calc_outcome_clear(&a);
    cc_calc_outcome_clear(&b);

    fz_tool_on_text(cc_tool_calc_exact, "calc_exact", "expr", p, n);
    FZ_ASSERT(calc_fast_compare((const char *)p, n) != CALC_FAST_DIFFERS,
              "the fast path's answer differs from the full pipeline's");
}

static void truth_table(const uint8_t *p, size_t n) {
    fz_tool_on_text(cc_tool_truth_table, "truth_table", "expression", p, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct fz_in in = {data, size};
    uint8_t which = fz_byte(&in);
    if (which & 1) truth_table(in.p, in.n);
    else calc(in.p, in.n);
    return 0;
}
