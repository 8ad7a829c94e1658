/* calc_exact (TOOLS.md 3.3.1): exact rational evaluation of a Python-style
 * arithmetic expression, and the pieces compare_threshold (3.3.2) reuses. */
#ifndef CC_CALC_EXACT_H
#define CC_CALC_EXACT_H

#include <gmp.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workers/common/expr_ast.h"
#include "workers/common/tool_api.h"

/* A proven bound on the distance between a value held at a function's
 * saturated limit (calc_val.tiny in calc_internal.h) and its true value:
 * lo <= |true - held| <= hi, each as m * 2^x (a 64-bit integer and an
 * exponent: erf(389) is 2^-218000 from 1). known false: no bound (the
 * limit is an underflow, an argument is an approximation, or the function
 * has no remainder formula here). */
struct calc_dist {
    bool known;
    uint64_t lo_m, hi_m;
    long lo_x, hi_x;
};

/* The second look at an approximated result (calc_internal.h): the same
 * expression with its functions and constants at CC_CALC_LOOK_BITS[k] bits.
 * ok is false when that evaluation failed or a step was too close to call
 * at its precision. */
#define CC_CALC_LOOKS 2
extern const unsigned CC_CALC_LOOK_BITS[CC_CALC_LOOKS];
struct cc_calc_look {
    bool ok;
    bool truth;        /* a comparison's truth */
    mpq_t q;           /* a number's value */
    /* a number's: q is the integer this look holds in place of a binary64
     * function's true value, which lies beside it on this side (+1 above,
     * -1 below) closer than the look can hold (tanh(300), exp(-10**10):
     * calc_internal.h); 0 otherwise */
    signed char tiny;
    /* with tiny: the proven distance of the true value from q, if known */
    struct calc_dist dist;
    /* a number's: it came through a binary64 function whose value MPFR
     * did not prove (calc_val.unproven): the look cannot confirm it */
    bool unproven;
    /* a comparison's: decided without the distance between its sides
     * (calc_ev.no_distance): the look's difference is not the true one */
    bool no_distance;
};

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
    bool looked;       /* approximated (funcs or consts): look[] was filled */
    struct cc_calc_look look[CC_CALC_LOOKS];
    /* approximated comparison: the b64 pass (Python's floats) succeeded,
     * and the truth it found (binary64_value) */
    bool b64_ok, b64_truth;
};

/* What the second looks say of an approximated value: CC_CALC_SAME when
 * both agree with v to well within their precision (v is then the true
 * value, as far as 200 bits can tell), CC_CALC_DIFFERS when both agree with
 * each other and not with v, CC_CALC_UNSURE otherwise (a look failed, was
 * too close to call, or the two disagree). */
enum cc_calc_verdict { CC_CALC_SAME, CC_CALC_DIFFERS, CC_CALC_UNSURE };
enum cc_calc_verdict cc_calc_check_value(const struct cc_calc_outcome *o, mpq_srcptr v);
/* A numeric outcome whose value is the true value: nothing approximated,
 * or an integer from binary64 functions (no constant) that the second looks
 * confirm (sqrt(16), log(8, 2); not exp(50), an integer only as a double). */
bool cc_calc_value_exact(const struct cc_calc_outcome *o);
/* The same for a comparison's truth. */
enum cc_calc_verdict cc_calc_check_truth(const struct cc_calc_outcome *o);
/* The truth both second looks give a comparison (a numeric outcome's
 * never): false when a look failed, was too close to call, or the two
 * disagree. */
bool cc_calc_looked_truth(const struct cc_calc_outcome *o, bool *truth);

void cc_calc_outcome_init(struct cc_calc_outcome *o);
void cc_calc_outcome_clear(struct cc_calc_outcome *o);

/* The whole pipeline: length cap, screen, parse (Python dialect), evaluate,
 * and the 4300-digit format limit. Never fails to fill o. */
void cc_calc_evaluate(const char *src, size_t len, struct cc_calc_outcome *o);

/* The truth of "c op 0" for c = sign of (left - right); -1 for an operator
 * that is not a comparison. */
int cc_calc_relation_holds(enum cc_op op, int c);

/* compare_threshold (3.3.2): a and b evaluated as cc_calc_evaluate does,
 * into l and r; when both are numbers and either was approximated, the
 * relation "a op b" (op CC_OP_EQ .. CC_OP_GE) as one comparison node of
 * the two trees, looked at into rel (is_bool, looked, look[]), so that a
 * comparison of approximations has one rule, the evaluator's. Each look
 * evaluates each side once: the sides' looks and the relation's come from
 * that one evaluation. rel->looked stays false otherwise (or when the node
 * could not be built). */
void cc_calc_evaluate_relation(const char *a, size_t alen, const char *b, size_t blen, enum cc_op op,
                               struct cc_calc_outcome *l, struct cc_calc_outcome *r,
                               struct cc_calc_outcome *rel);

/* "p/q", or "n" when the denominator is 1. malloc'd; NULL on OOM. */
char *cc_calc_q_str(const mpq_t q);
/* The approx rendering of 3.3.1 (50 significant digits, then at most 12
 * fractional digits, half-even, trailing zeros removed). malloc'd. */
char *cc_calc_approx_str(const mpq_t q);

json_t *cc_tool_calc_exact(json_t *args, cc_wctx *ctx);
json_t *cc_tool_compare_threshold(json_t *args, cc_wctx *ctx);

#endif
