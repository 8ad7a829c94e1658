/* compare_threshold (TOOLS.md 3.3.2): decide "a OP b" exactly with the
 * calc_exact evaluator and report the shortfall when the relation fails. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "workers/calc/calc_exact.h"

/* Trimmed operator: a pointer into op and its length. */
static const char *trim(const char *s, size_t len, size_t *out_len) {
    while (len && isspace((unsigned char)*s)) s++, len--;
    while (len && isspace((unsigned char)s[len - 1])) len--;
    *out_len = len;
    return s;
}

/* -1 for an unknown operator, else the truth of cmp (= sign of a - b). */
static int relation_holds(const char *op, size_t n, int cmp) {
    if ((n == 2 && memcmp(op, "==", 2) == 0) || (n == 1 && op[0] == '=')) return cmp == 0;
    if (n == 2 && memcmp(op, "!=", 2) == 0) return cmp != 0;
    if (n == 2 && memcmp(op, ">=", 2) == 0) return cmp >= 0;
    if (n == 2 && memcmp(op, "<=", 2) == 0) return cmp <= 0;
    if (n == 1 && op[0] == '>') return cmp > 0;
    if (n == 1 && op[0] == '<') return cmp < 0;
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

/* Approximated sides (a binary64 function or constant): the relation of
 * the true values, as the second looks tell it (calc_exact.h). The exact
 * difference of the doubles would decide sqrt(2) == 1.4142135623730951 as
 * true and sqrt(2)**2 == 2 as false, both wrong. holds is null when the
 * looks cannot tell: the sides agree to 200 bits (an identity looks like
 * that), or the looks disagree. */
static void decide_approximated(const struct cc_calc_outcome *l, const struct cc_calc_outcome *r,
                                const char *op, size_t oplen, json_t *res) {
    mpq_t diff;
    mpq_init(diff);
    int sign = 0;
    bool by_side = false;
    bool told = cc_calc_looked_sign(l, r, &sign, diff, &by_side) && sign != 0;
    int holds = told ? relation_holds(op, oplen, sign) : -1;
    json_object_set_new(res, "holds", holds < 0 ? json_null() : json_boolean(holds));
    json_object_set_new(res, "difference", told && !by_side ? decimal_json(diff) : json_null());
    if (holds == 0 && !by_side) {
        mpq_neg(diff, diff);
        json_object_set_new(res, "shortfall", decimal_json(diff));
    } else {
        json_object_set_new(res, "shortfall", json_null());
    }
    json_object_set_new(res, "exact", json_false());
    json_object_set_new(res, "note", json_string(
        by_side ? "a binary64 function's true value lies beside the integer its evaluation gives, closer "
                  "than 256 and 384 bits hold (a saturated limit such as tanh(300) < 1 or exp(-10**10) > 0, "
                  "never reached): holds is decided by the side it lies on; the distance, so difference and "
                  "shortfall, is not known"
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
                      const char *op, size_t oplen) {
    json_t *res = cc_ok();
    json_object_set_new(res, "a", q_json(l->q));
    json_object_set_new(res, "b", q_json(r->q));
    json_object_set_new(res, "op", json_stringn(op, oplen));
    if (!cc_calc_value_exact(l) || !cc_calc_value_exact(r)) {
        decide_approximated(l, r, op, oplen, res);
        return res;
    }
    int holds = relation_holds(op, oplen, mpq_cmp(l->q, r->q));
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
    if (relation_holds(op, oplen, 0) < 0)
        return cc_err("validation", "bad operator '%.*s'; use ==, !=, >, >=, <, <=",
                      (int)(oplen > 100 ? 100 : oplen), op);
    struct cc_calc_outcome l, r;
    cc_calc_outcome_init(&l);
    cc_calc_outcome_init(&r);
    cc_calc_evaluate(json_string_value(ja), json_string_length(ja), &l);
    cc_calc_evaluate(json_string_value(jb), json_string_length(jb), &r);
    json_t *res;
    if (!l.ok || !r.ok) res = side_failure(&l, &r);
    else if (l.is_bool || r.is_bool) res = cc_err("validation", "operands must be numeric");
    else res = decide(&l, &r, op, oplen);
    cc_calc_outcome_clear(&l);
    cc_calc_outcome_clear(&r);
    return res;
}
