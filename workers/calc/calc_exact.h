/* calc_exact (TOOLS.md 3.3.1): exact rational evaluation of a Python-style
 * arithmetic expression, and the pieces compare_threshold (3.3.2) reuses. */
#ifndef CC_CALC_EXACT_H
#define CC_CALC_EXACT_H

#include <gmp.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workers/common/tool_api.h"

/* The outcome of one evaluation. Initialise with cc_calc_outcome_init() and
 * release with cc_calc_outcome_clear() (which frees message). */
struct cc_calc_outcome {
    bool ok;
    const char *code;  /* failure: one of the 8 codes (static string) */
    char *message;     /* failure: malloc'd message */
    const char *remedy; /* failure: specific remedy (static string) or NULL */
    bool is_bool;      /* success: top-level comparison */
    bool truth;        /* success with is_bool */
    mpq_t q;           /* success, numeric: the exact value (canonical) */
    uint64_t funcs;    /* binary64 functions used (bit per function table entry) */
    unsigned consts;   /* constants used: bit 0 pi, bit 1 e, bit 2 tau */
};

void cc_calc_outcome_init(struct cc_calc_outcome *o);
void cc_calc_outcome_clear(struct cc_calc_outcome *o);

/* The whole pipeline: length cap, screen, parse (Python dialect), evaluate,
 * and the 4300-digit format limit. Never fails to fill o. */
void cc_calc_evaluate(const char *src, size_t len, struct cc_calc_outcome *o);

/* "p/q", or "n" when the denominator is 1. malloc'd; NULL on OOM. */
char *cc_calc_q_str(const mpq_t q);
/* The approx rendering of 3.3.1 (50 significant digits, then at most 12
 * fractional digits, half-even, trailing zeros removed). malloc'd. */
char *cc_calc_approx_str(const mpq_t q);

json_t *cc_tool_calc_exact(json_t *args, cc_wctx *ctx);
json_t *cc_tool_compare_threshold(json_t *args, cc_wctx *ctx);

#endif
