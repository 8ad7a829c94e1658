/* compare_threshold (TOOLS.md 3.3.2): decide "a OP b" exactly with the
 * calc_exact evaluator and report the shortfall when the relation fails. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "workers/calc/calc_exact.h"
#include "workers/calc/calc_internal.h"

/* Trimmed operator: a pointer into op and its length. */
static const char *trim(const char *s, size_t len, size_t *out_len) {
    while (len && isspace((unsigned char)*s)) s++, len--;
    while (len && isspace((unsigned char)s[len - 1])) len--;
    *out_len = len;
    return s;
}

/* The comparison an operator spells (== and = are one), or -1. */
static int relation_op(const char *op, size_t n) {
    static const struct { const char *text; enum cc_op op; } ops[] = {
        {"==", CC_OP_EQ}, {"=", CC_OP_EQ}, {"!=", CC_OP_NE}, {">=", CC_OP_GE},
        {"<=", CC_OP_LE}, {">", CC_OP_GT}, {"<", CC_OP_LT},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strlen(ops[i].text) == n && memcmp(op, ops[i].text, n) == 0) return (int)ops[i].op;
    return -1;
}

static json_t *q_json(const mpq_t q) {
    char *s = cc_calc_q_str(q);
    json_t *j = s ? json_string(s) : json_null();
    free(s);
    return j;
}

static json_t *side_failure(const struct cc_calc_outcome *l, const struct cc_calc_outcome *r) {
    const char *code = !l->ok ? l->code : r->code;
    const char *remedy = !l->ok ? l->remedy : r->remedy;
    json_t *e = cc_err(code, "left: %s; right: %s",
                       l->ok ? "None" : (l->message ? l->message : "failed"),
                       r->ok ? "None" : (r->message ? r->message : "failed"));
    if (remedy) json_object_set_new(e, "remedy", json_string(remedy));
    return e;
}

/* A decimal of q to 25 significant digits (malloc'd by GMP's allocator
 * through MPFR; NULL on failure). */
static json_t *decimal_json(mpq_srcptr q) {
    mpfr_t f;
    mpfr_init2(f, 128);
    mpfr_set_q(f, q, MPFR_RNDN);
    char *s = NULL;
    json_t *j = mpfr_asprintf(&s, "%.25Rg", f) >= 0 ? json_string(s) : json_null();
    if (s) mpfr_free_str(s);
    mpfr_clear(f);
    return j;
}

/* Side o's value on the last look: its exact value when it is proven,
 * else that look's. */
static bool side_value(const struct cc_calc_outcome *o, mpq_srcptr *v) {
    if (cc_calc_value_exact(o)) {
        *v = o->q;
        return true;
    }
    *v = o->look[CC_CALC_LOOKS - 1].q;
    return o->look[CC_CALC_LOOKS - 1].ok;
}

/* The bounds [lo, hi] of side o's true value: its exact value, or the
 * integer both looks hold it at (calc_val.tiny) and its proven distance
 * from there (tanh(300) lies in 1 - [5.3e-261, 5.3e-261], to 64 bits).
 * held: it was the latter. false when neither is known. */
static bool side_bounds(const struct cc_calc_outcome *o, mpq_t lo, mpq_t hi, bool *held) {
    *held = false;
    if (cc_calc_value_exact(o)) {
        mpq_set(lo, o->q);
        mpq_set(hi, o->q);
        return true;
    }
    const struct cc_calc_look *a = &o->look[0], *b = &o->look[1];
    if (!o->looked || !a->ok || !b->ok || !b->tiny || a->tiny != b->tiny || !mpq_equal(a->q, b->q) ||
        !a->dist.known || !b->dist.known)
        return false;
    mpq_t dlo, dhi;
    mpq_inits(dlo, dhi, NULL);
    calc_dist_bounds(&b->dist, dlo, dhi);
    if (b->tiny > 0) {
        mpq_add(lo, b->q, dlo);
        mpq_add(hi, b->q, dhi);
    } else {
        mpq_sub(lo, b->q, dhi);
        mpq_sub(hi, b->q, dlo);
    }
    mpq_clears(dlo, dhi, NULL);
    *held = true;
    return true;
}

/* The decimal every value in [lo, hi] rounds to, at the most significant
 * digits (25 at most) for which that is one decimal: the digits the bounds
 * prove. lo and hi are rounded outward first, so the truth, between them,
 * rounds to it too. NULL when not even one digit is shared (or 0 lies in
 * [lo, hi]). */
static json_t *proven_decimal(mpq_srcptr lo, mpq_srcptr hi) {
    if (mpq_sgn(lo) * mpq_sgn(hi) <= 0) return NULL;
    mpfr_t l, h;
    mpfr_inits2(256, l, h, (mpfr_ptr)0);
    mpfr_set_q(l, lo, MPFR_RNDD);
    mpfr_set_q(h, hi, MPFR_RNDU);
    json_t *j = NULL;
    for (int digits = 25; digits >= 1 && !j; digits--) {
        char *a = NULL, *b = NULL;
        if (mpfr_asprintf(&a, "%.*Rg", digits, l) >= 0 && mpfr_asprintf(&b, "%.*Rg", digits, h) >= 0 &&
            strcmp(a, b) == 0)
            j = json_string(a);
        if (a) mpfr_free_str(a);
        if (b) mpfr_free_str(b);
    }
    mpfr_clears(l, h, (mpfr_ptr)0);
    return j;
}

/* a - b of two sides at least one of which is held beside an integer at
 * a proven distance (side_bounds), as the decimal its bounds prove
 * (proven_decimal); NULL otherwise, or when its sign is not the one that
 * decided the relation (truth of rop). erf(18) <= 1.0 has difference
 * -erfc(18) (-5.5e-143), where the side rule alone knew only its sign. */
static json_t *held_difference(const struct cc_calc_outcome *l, const struct cc_calc_outcome *r, enum cc_op rop,
                               bool truth, bool negate) {
    mpq_t al, ah, bl, bh;
    mpq_inits(al, ah, bl, bh, NULL);
    bool lheld, rheld;
    json_t *j = NULL;
    if (side_bounds(l, al, ah, &lheld) && side_bounds(r, bl, bh, &rheld) && (lheld || rheld)) {
        mpq_sub(al, al, bh); /* the difference's low end */
        mpq_sub(ah, ah, bl); /* and high end */
        int sign = mpq_sgn(al);
        if (sign == mpq_sgn(ah) && sign != 0 && cc_calc_relation_holds(rop, sign) == (int)truth) {
            if (negate) {
                mpq_neg(al, al);
                mpq_neg(ah, ah);
                mpq_swap(al, ah);
            }
            j = proven_decimal(al, ah);
        }
    }
    mpq_clears(al, ah, bl, bh, NULL);
    return j;
}

/* Approximated sides (a binary64 function or constant): the relation of
 * the true values, as the second looks of "a op b" evaluated as one
 * comparison tell it (rel, cc_calc_evaluate_relation): the evaluator's
 * rule for every comparison of approximations, here as in calc_exact. The
 * exact difference of the doubles would decide sqrt(2) == 1.4142135623730951
 * as true and sqrt(2)**2 == 2 as false, both wrong. holds is null when the
 * looks cannot tell: the sides agree to their precision (an identity looks
 * like that), or the looks disagree. difference and shortfall are the last
 * look's, null when the relation was decided by the side a saturated value
 * lies on (its distance is not known). */
static void decide_approximated(const struct cc_calc_outcome *l, const struct cc_calc_outcome *r,
                                const struct cc_calc_outcome *rel, enum cc_op rop, json_t *res) {
    bool truth = false;
    bool told = cc_calc_looked_truth(rel, &truth);
    json_t *held = told ? held_difference(l, r, rop, truth, false) : NULL;
    if (held) {
        json_object_set_new(res, "holds", json_boolean(truth));
        json_object_set_new(res, "difference", held);
        json_object_set_new(res, "shortfall", truth ? json_null() : held_difference(l, r, rop, truth, true));
        json_object_set_new(res, "exact", json_false());
        json_object_set_new(res, "note", json_string(
            "a binary64 function's value lies beside the integer its evaluation gives (a saturated limit "
            "such as tanh(300) = 1 - 5.3e-261, never reached), at a distance bounded in MPFR with directed "
            "rounding: holds is decided by it, and difference and shortfall carry the significant digits "
            "(at most 25) those bounds prove"));
        return;
    }
    bool no_distance = told && (rel->look[0].no_distance || rel->look[1].no_distance);
    mpq_srcptr va, vb;
    bool known = told && !no_distance && side_value(l, &va) && side_value(r, &vb);
    mpq_t diff;
    mpq_init(diff);
    if (known) mpq_sub(diff, va, vb);
    json_object_set_new(res, "holds", told ? json_boolean(truth) : json_null());
    json_object_set_new(res, "difference", known ? decimal_json(diff) : json_null());
    if (known && !truth) {
        mpq_neg(diff, diff);
        json_object_set_new(res, "shortfall", decimal_json(diff));
    } else {
        json_object_set_new(res, "shortfall", json_null());
    }
    json_object_set_new(res, "exact", json_false());
    json_object_set_new(res, "note", json_string(
        no_distance ? "the true values are closer than 256 and 384 bits hold: a binary64 function's value lies "
                  "beside the integer its evaluation gives (a saturated limit such as tanh(300) < 1 or "
                  "exp(-10**10) > 0, never reached, at a distance from it bounded in MPFR: tanh(300) < "
                  "1 - 10**-300), or one increasing or decreasing function's values are ordered as its "
                  "arguments (tanh(300) < tanh(400)); holds is decided so, and the exact distance, so "
                  "difference and shortfall, is not known"
        : told ? "a binary64 function or constant was used, so a and b are approximations: holds is "
               "decided on the true values, evaluated at 256 and 384 bits, and difference and shortfall "
               "are decimals of that evaluation"
             : "undecided: a binary64 function or constant was used (a and b are the binary64 results, which "
               "may differ where the true values do not) and the true values of the two sides agree to 200 "
               "bits or more, which an evaluation cannot turn into equality or inequality (an identity such "
               "as sqrt(2)**2 == 2 looks like this); prove it symbolically, e.g. with algebraic_equiv"));
    mpq_clear(diff);
}

static json_t *decide(const struct cc_calc_outcome *l, const struct cc_calc_outcome *r,
                      const struct cc_calc_outcome *rel, enum cc_op rop, const char *op, size_t oplen) {
    json_t *res = cc_ok();
    json_object_set_new(res, "a", q_json(l->q));
    json_object_set_new(res, "b", q_json(r->q));
    json_object_set_new(res, "op", json_stringn(op, oplen));
    if (!cc_calc_value_exact(l) || !cc_calc_value_exact(r)) {
        decide_approximated(l, r, rel, rop, res);
        return res;
    }
    int holds = cc_calc_relation_holds(rop, mpq_cmp(l->q, r->q));
    mpq_t diff;
    mpq_init(diff);
    mpq_sub(diff, l->q, r->q);
    json_object_set_new(res, "holds", json_boolean(holds));
    json_object_set_new(res, "difference", q_json(diff));
    if (holds) {
        json_object_set_new(res, "shortfall", json_null());
    } else {
        mpq_neg(diff, diff);
        json_object_set_new(res, "shortfall", q_json(diff));
    }
    mpq_clear(diff);
    return res;
}

json_t *cc_tool_compare_threshold(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *ja = json_object_get(args, "a"), *jb = json_object_get(args, "b");
    json_t *jop = json_object_get(args, "op");
    if (!json_is_string(ja)) return cc_err("validation", "a must be a string");
    if (!json_is_string(jb)) return cc_err("validation", "b must be a string");
    if (!json_is_string(jop)) return cc_err("validation", "op must be a string");
    size_t oplen;
    const char *op = trim(json_string_value(jop), json_string_length(jop), &oplen);
    int rop = relation_op(op, oplen);
    if (rop < 0)
        return cc_err("validation", "bad operator '%.*s'; use ==, !=, >, >=, <, <=",
                      (int)(oplen > 100 ? 100 : oplen), op);
    struct cc_calc_outcome l, r, rel;
    cc_calc_outcome_init(&l);
    cc_calc_outcome_init(&r);
    cc_calc_outcome_init(&rel);
    cc_calc_evaluate_relation(json_string_value(ja), json_string_length(ja), json_string_value(jb),
                              json_string_length(jb), (enum cc_op)rop, &l, &r, &rel);
    json_t *res;
    if (!l.ok || !r.ok) res = side_failure(&l, &r);
    else if (l.is_bool || r.is_bool) res = cc_err("validation", "operands must be numeric");
    else res = decide(&l, &r, &rel, (enum cc_op)rop, op, oplen);
    cc_calc_outcome_clear(&l);
    cc_calc_outcome_clear(&r);
    cc_calc_outcome_clear(&rel);
    return res;
}
