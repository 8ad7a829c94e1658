/* N() by a Ziv loop over our own MPC evaluator (see sym_nval.h). */
#include "workers/symbolic/sym_nval.h"

#include <float.h>
#include <math.h>
#include <mpc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_numeval.h"

/* Bits per decimal digit. */
#define LOG2_10 3.3219280948873623
/* Guard bits of the first round above the requested digits. */
#define FIRST_GUARD 24
/* The loop stops at this precision or at 4 times the requested one,
 * whichever is more (sin(10**1000) needs ~3400 bits to reduce its
 * argument), and gives up after this many rounds that failed outright
 * (a division by a value that rounded to 0, an operand that cancelled to 0:
 * 1 + N(exp(200) + 2 - exp(200)) needs 300 bits, the fifth round). */
#define MAX_FAILED_ROUNDS 5
/* A value this many bits closer to a rounding boundary than the digits
 * asked for is taken as on it (see settled()). */
#define TIE_BITS 96

/* One part's progress through the rounds. */
struct part {
    bool done;
    char *digits; /* the answer (NULL: exactly 0) once done */
    long exp;
    mpfr_t prev;  /* the last round's value, 0 before the first round */
    int noise;    /* rounds where it was 0 but not exactly, or shrank with the precision */
    bool asked;   /* the CAS was asked whether it is 0 */
};

static char *round_digits(mpfr_srcptr x, int digits, long *exp) {
    mpfr_exp_t e;
    char *s = mpfr_get_str(NULL, &e, 10, (size_t)digits, x, MPFR_RNDN);
    if (!s)
        return NULL;
    char *r = strdup(s);
    mpfr_free_str(s);
    *exp = (long)e;
    return r;
}

/* x rounded away from zero to digits (a tie's rounding) */
static char *round_away(mpfr_srcptr x, int digits, long *exp) {
    mpfr_exp_t e;
    char *a = mpfr_get_str(NULL, &e, 10, (size_t)digits, x, MPFR_RNDA);
    char *s = a ? strdup(a) : NULL;
    mpfr_free_str(a);
    *exp = (long)e;
    return s;
}

/* digits of x as a decimal string with the exponent e (value = 0.digits *
 * 10**e), exactly, as an mpq */
static void decimal_q(mpq_t q, const char *digits, long e, size_t n) {
    mpz_t t;
    mpz_init(t);
    mpz_set_str(mpq_numref(q), digits, 10);
    mpz_set_ui(mpq_denref(q), 1);
    long shift = e - (long)n; /* value = int(digits) * 10**shift */
    mpz_ui_pow_ui(t, 10, (unsigned long)(shift < 0 ? -shift : shift));
    if (shift < 0)
        mpz_set(mpq_denref(q), t);
    else
        mpz_mul(mpq_numref(q), mpq_numref(q), t);
    mpq_canonicalize(q);
    mpz_clear(t);
}

/* Rounds an exactly known x to digits, an exact tie away from zero, as
 * SymPy and mpmath print (N(1/8, 2) = 0.13); MPFR's nearest would go to
 * even. A tie is x = its first digits + 1 truncated digits ending in 5,
 * exactly. */
static char *round_tie_away(mpfr_srcptr x, int digits, long *exp) {
    mpfr_exp_t e;
    char *z = mpfr_get_str(NULL, &e, 10, (size_t)digits + 1, x, MPFR_RNDZ);
    bool tie = false;
    if (z && z[strlen(z) - 1] == '5' && labs((long)e) < 100000) {
        mpq_t qx, qz;
        mpq_inits(qx, qz, NULL);
        mpfr_get_q(qx, x);
        decimal_q(qz, z, (long)e, strlen(z) - (z[0] == '-'));
        tie = mpq_equal(qz, qx);
        mpq_clears(qx, qz, NULL);
    }
    mpfr_free_str(z);
    if (!tie)
        return round_digits(x, digits, exp);
    return round_away(x, digits, exp);
}

static bool same_rounding(mpfr_srcptr x, int digits, const char *s, long exp) {
    long e2;
    char *t = round_digits(x, digits, &e2);
    bool same = t && e2 == exp && !strcmp(t, s);
    free(t);
    return same;
}

/* x within a hair of a rounding boundary, i.e. of a tie (its next digit
 * is a 5 followed by nothing): rounded away from zero, as an exact tie */
static char *round_nearest_boundary(mpfr_srcptr x, int digits, long *exp) {
    mpfr_exp_t e;
    char *z = mpfr_get_str(NULL, &e, 10, (size_t)digits + 1, x, MPFR_RNDN);
    if (!z)
        return NULL;
    bool tie = z[strlen(z) - 1] == '5';
    mpfr_free_str(z);
    if (!tie)
        return round_digits(x, digits, exp);
    return round_away(x, digits, exp);
}

/* x settled: x - d and x + d (d a bound on x's error) round to the same
 * digits */
static bool settled_within(struct part *pt, mpfr_srcptr x, mpfr_srcptr d, int digits) {
    mpfr_t lo, hi;
    mpfr_inits2(mpfr_get_prec(x) + 8, lo, hi, (mpfr_ptr)0);
    mpfr_sub(lo, x, d, MPFR_RNDD);
    mpfr_add(hi, x, d, MPFR_RNDU);
    /* x lies between lo and hi: when they round alike, so does x */
    long exp;
    char *s = round_digits(lo, digits, &exp);
    bool ok = s && same_rounding(hi, digits, s, exp);
    /* a value on a rounding boundary (3**8/40**8 = 1.001129150390625e-9 to
     * 15 digits) straddles it at every precision: within TIE_BITS of it,
     * either neighbour is as right as the other and x's rounding stands */
    if (!ok && mpfr_get_exp(d) < mpfr_get_exp(x) - (mpfr_exp_t)(digits * LOG2_10) - TIE_BITS) {
        free(s);
        s = round_nearest_boundary(x, digits, &exp);
        ok = s != NULL;
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    if (ok) {
        pt->digits = s;
        pt->exp = exp;
    } else {
        free(s);
    }
    return ok;
}

/* x settled by the previous round: d, the distance to its value, is a
 * generous bound on x's own error (the previous round's is far larger) */
static bool settled(struct part *pt, mpfr_srcptr x, int digits) {
    if (mpfr_zero_p(pt->prev) || mpfr_sgn(pt->prev) != mpfr_sgn(x))
        return false;
    mpfr_t d;
    mpfr_init2(d, mpfr_get_prec(x) + 8);
    mpfr_sub(d, x, pt->prev, MPFR_RNDA);
    mpfr_abs(d, d, MPFR_RNDA);
    /* at least an ulp of the previous round: two rounds that agree to the
     * last bit (both just below a tie) have not shown x exact */
    mpfr_t ulp;
    mpfr_init2(ulp, 8);
    mpfr_set_ui_2exp(ulp, 1, mpfr_get_exp(x) - (mpfr_exp_t)mpfr_get_prec(pt->prev), MPFR_RNDU);
    if (mpfr_cmp(d, ulp) < 0)
        mpfr_set(d, ulp, MPFR_RNDU);
    mpfr_clear(ulp);
    bool ok = settled_within(pt, x, d, digits);
    mpfr_clear(d);
    return ok;
}

/* Folds this round's value x of a part (exact: it is the true value) into
 * its progress. */
static void advance(struct part *pt, mpfr_srcptr x, bool exact, mpfr_srcptr bound, int digits) {
    if (exact) {
        pt->done = true;
        if (!mpfr_zero_p(x))
            pt->digits = round_tie_away(x, digits, &pt->exp);
        return;
    }
    /* the running error bound settles most values in one round */
    if (bound && !mpfr_zero_p(x) && settled_within(pt, x, bound, digits)) {
        pt->done = true;
        return;
    }
    if (mpfr_zero_p(x)) {
        pt->noise++; /* a cancellation, or a special point of a rounded argument */
    } else if (!mpfr_zero_p(pt->prev)) {
        if (settled(pt, x, digits)) {
            pt->done = true;
            return;
        }
        /* rounding noise shrinks as fast as the precision grows */
        mpfr_exp_t grown = (mpfr_exp_t)(mpfr_get_prec(x) - mpfr_get_prec(pt->prev));
        if (mpfr_get_exp(x) < mpfr_get_exp(pt->prev) - grown / 2)
            pt->noise++;
    }
    mpfr_set_prec(pt->prev, mpfr_get_prec(x));
    mpfr_set(pt->prev, x, MPFR_RNDN);
}

/* A part that looks like noise for two rounds is asked of the CAS once:
 * exactly 0 ends it, anything else lets the loop go on. */
static void ask_zero(struct part *pt, int which, const struct cc_node *arg, sym_nv_zero_fn zero,
                     void *ctx) {
    if (pt->done || pt->asked || pt->noise < 2 || !zero)
        return;
    pt->asked = true;
    if (zero(arg, which, ctx))
        pt->done = true;
}

/* The absolute error bound of v from its relative bound err (units of
 * 2**-prec): false when err is unknown or v is 0. */
static bool error_bound(const mpc_t v, double err, mpfr_t bound) {
    if (!isfinite(err) || err > 1e15 || mpc_cmp_si_si(v, 0, 0) == 0)
        return false;
    mpfr_exp_t e = mpfr_zero_p(mpc_realref(v)) ? mpfr_get_exp(mpc_imagref(v))
                   : mpfr_zero_p(mpc_imagref(v))
                       ? mpfr_get_exp(mpc_realref(v))
                       : (mpfr_get_exp(mpc_realref(v)) > mpfr_get_exp(mpc_imagref(v))
                              ? mpfr_get_exp(mpc_realref(v))
                              : mpfr_get_exp(mpc_imagref(v)));
    /* |v| < 2**(e + 1); the bound is (err + 1) * 2**(e + 1 - prec) */
    mpfr_set_d(bound, err + 1, MPFR_RNDU);
    mpfr_mul_2si(bound, bound, (long)e + 1 - (long)mpfr_get_prec(mpc_realref(v)), MPFR_RNDU);
    return true;
}

static enum sym_nv_rc loop(const struct cc_node *arg, int digits, sym_nv_zero_fn zero, void *ctx,
                           struct part *re, struct part *im, mpfr_prec_t max_bits) {
    mpfr_prec_t want = (mpfr_prec_t)ceil(digits * LOG2_10);
    mpfr_prec_t cap = want * 4 > max_bits ? want * 4 : max_bits;
    int failed = 0;
    bool underflowed = false; /* a part below the range may be that 0 */
    mpc_t v;
    mpc_init2(v, want + FIRST_GUARD);
    enum sym_nv_rc rc = SYM_NV_UNRESOLVED;
    /* the second round 32 bits up settles the common case (the first
     * round's error is far below the digits asked for); then doubling */
    for (mpfr_prec_t p = want + FIRST_GUARD; p <= cap; p = p == want + FIRST_GUARD ? p + 32 : 2 * p) {
        mpc_set_prec(v, p);
        struct sym_strict info;
        mpfr_clear_flags();
        if (sym_numeval_strict(arg, v, &info) < 0) {
            /* beyond the exponent range: no value of ours, and giac's
             * evalf answers such a value wrongly (sinh(10**49) was
             * 0.115 - 0.615*I) */
            if (mpfr_overflow_p() || mpfr_underflow_p()) { /* 1/exp(-10**48) too */
                rc = SYM_NV_RANGE;
                break;
            }
            /* a function we lack fails at once and everywhere; a division
             * by a rounded 0 may succeed at a higher precision */
            if (info.complex_gap) {
                rc = SYM_NV_COMPLEX_GAP;
                break;
            }
            if (++failed >= MAX_FAILED_ROUNDS || sym_numeval_never(arg)) {
                rc = SYM_NV_DECLINE;
                break;
            }
            continue;
        }
        mpfr_t bound;
        mpfr_init2(bound, 16);
        bool bounded = error_bound(v, info.err, bound);
        underflowed |= mpfr_underflow_p();
        if (!re->done)
            advance(re, mpc_realref(v), info.exact_re, bounded ? bound : NULL, digits);
        if (!im->done)
            advance(im, mpc_imagref(v), info.exact_im, bounded ? bound : NULL, digits);
        mpfr_clear(bound);
        ask_zero(re, 0, arg, zero, ctx);
        ask_zero(im, 1, arg, zero, ctx);
        if (re->done && im->done) {
            rc = SYM_NV_OK;
            break;
        }
    }
    mpc_clear(v);
    return rc == SYM_NV_UNRESOLVED && underflowed ? SYM_NV_RANGE : rc;
}

static enum sym_nv_rc nvalue(const struct cc_node *arg, int digits, sym_nv_zero_fn zero, void *ctx,
                             struct sym_nv *v, mpfr_prec_t max_bits);

enum sym_nv_rc sym_nvalue(const struct cc_node *arg, int digits, sym_nv_zero_fn zero, void *ctx,
                          struct sym_nv *v) {
    return nvalue(arg, digits, zero, ctx, v, SYM_NV_MAX_BITS);
}

static enum sym_nv_rc nvalue(const struct cc_node *arg, int digits, sym_nv_zero_fn zero, void *ctx,
                             struct sym_nv *v, mpfr_prec_t max_bits) {
    memset(v, 0, sizeof *v);
    if (digits < 1 || digits > SYM_NV_MAX_DIGITS || sym_numeval_never(arg))
        return SYM_NV_DECLINE;
    /* a wide exponent range: 10**400 and exp(-1000) are numbers, not inf
     * and 0 (restored for the CAS, which shares MPFR); not the widest,
     * where MPC spends minutes on a part 2**-(10**16) below the other
     * (tanh(10**16 - 4*I)) */
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-SYM_NV_MAX_EXP);
    mpfr_set_emax(SYM_NV_MAX_EXP);
    struct part re = {0}, im = {0};
    mpfr_init2(re.prev, MPFR_PREC_MIN);
    mpfr_init2(im.prev, MPFR_PREC_MIN);
    mpfr_set_zero(re.prev, 1); /* no previous round */
    mpfr_set_zero(im.prev, 1);
    enum sym_nv_rc rc = loop(arg, digits, zero, ctx, &re, &im, max_bits);
    mpfr_clear(re.prev);
    mpfr_clear(im.prev);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    if (rc != SYM_NV_OK) {
        free(re.digits);
        free(im.digits);
        return rc;
    }
    *v = (struct sym_nv){re.digits, im.digits, re.exp, im.exp, digits};
    return SYM_NV_OK;
}

void sym_nv_clear(struct sym_nv *v) {
    free(v->re);
    free(v->im);
    v->re = v->im = NULL;
}

char *sym_nv_decimal(const char *digits, long exp) {
    if (!digits)
        return strdup("0");
    char *out = NULL;
    bool neg = digits[0] == '-';
    if (asprintf(&out, "%s0.%se%ld", neg ? "-" : "", digits + neg, exp) < 0)
        return NULL;
    return out;
}

/* A float node printing the part's digits (sym_print's multiprecision
 * form; f carries the sign and magnitude for the printer's ordering). */
static struct sym_node *part_float(const char *digits, long exp, int n) {
    char *dec = sym_nv_decimal(digits, exp);
    if (!dec)
        return NULL;
    double d = strtod(dec, NULL);
    if (d == 0 || isinf(d)) /* beyond binary64: the sign is what matters */
        d = digits[0] == '-' ? (d == 0 ? -DBL_TRUE_MIN : -DBL_MAX) : (d == 0 ? DBL_TRUE_MIN : DBL_MAX);
    struct sym_node *f = sym_float(d);
    if (!f) {
        free(dec);
        return NULL;
    }
    f->name = dec;
    f->ival = n;
    return f;
}

struct sym_node *sym_nv_tree(const struct sym_nv *v) {
    if (!v->re && !v->im)
        return sym_int(0);
    struct sym_node *re = v->re ? part_float(v->re, v->exp_re, v->digits) : NULL;
    if (!v->im)
        return re;
    struct sym_node *im = sym_bin(SYM_MUL, part_float(v->im, v->exp_im, v->digits),
                                  sym_const(SYM_I));
    if (!v->re)
        return im;
    return sym_bin(SYM_ADD, re, im);
}

static bool set_part(mpfr_ptr x, const char *digits, long exp) {
    if (!digits) {
        mpfr_set_zero(x, 1);
        return true;
    }
    char *dec = sym_nv_decimal(digits, exp);
    bool ok = dec && mpfr_set_str(x, dec, 10, MPFR_RNDN) == 0;
    free(dec);
    return ok;
}

bool sym_nvalue_mpc(const struct cc_node *arg, int digits, mpc_t out) {
    /* a check, not an answer: a part that has not settled by 4 times the
     * digits (sin(pi), exactly 0) is left to the 128-bit evaluation */
    return sym_nvalue_mpc_bits(arg, digits, 0, out);
}

bool sym_nvalue_mpc_bits(const struct cc_node *arg, int digits, mpfr_prec_t max_bits, mpc_t out) {
    struct sym_nv v;
    if (nvalue(arg, digits, NULL, NULL, &v, max_bits) != SYM_NV_OK)
        return false;
    bool ok = set_part(mpc_realref(out), v.re, v.exp_re) && set_part(mpc_imagref(out), v.im, v.exp_im);
    sym_nv_clear(&v);
    return ok;
}
