/* The binary64 functions of calc_exact (TOOLS.md 3.3.1). The transcendental
 * ones are evaluated with MPFR from the exact rational arguments and rounded
 * once to the nearest double, so the result is the correctly rounded value
 * (cbrt(27) is 3 and exact; glibc's cbrt gives 3.0000000000000004). The
 * operations that are exact on doubles (fabs, copysign, fmod, remainder,
 * float) run in libm on the arguments rounded to doubles. Failures are
 * reported the way Python's math module reports them. The result enters
 * exact arithmetic as the rational of its shortest repr, and the function
 * is recorded as approximated. */
#include <fenv.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <mpfr.h>
#include <string.h>

#include "workers/calc/calc_internal.h"
#include "workers/calc/numfmt.h"

/* Working precision: far beyond 53 bits, so the single final rounding is
 * the correct one except in cases no test of doubles can construct. */
#define WORK_PREC 256

typedef int (*mpfr_fn1)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*mpfr_fn2)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

static int lgamma_abs(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd) {
    int sign;
    return mpfr_lgamma(r, &sign, x, rnd);
}

static int to_degrees(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd) {
    mpfr_const_pi(r, rnd);
    mpfr_div(r, x, r, rnd);
    return mpfr_mul_ui(r, r, 180, rnd);
}

static int to_radians(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd) {
    mpfr_const_pi(r, rnd);
    mpfr_mul(r, r, x, rnd);
    return mpfr_div_ui(r, r, 180, rnd);
}

static int log_base(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr b, mpfr_rnd_t rnd) {
    mpfr_t lb;
    mpfr_init2(lb, mpfr_get_prec(r));
    mpfr_log(lb, b, rnd);
    mpfr_log(r, x, rnd);
    int rc = mpfr_div(r, r, lb, rnd);
    mpfr_clear(lb);
    return rc;
}

static const struct {
    const char *name;
    mpfr_fn1 f1;
    mpfr_fn2 f2;
} MPFR_FUNCS[] = {
    {"acos", mpfr_acos, NULL},   {"acosh", mpfr_acosh, NULL}, {"asin", mpfr_asin, NULL},
    {"asinh", mpfr_asinh, NULL}, {"atan", mpfr_atan, NULL},   {"atan2", NULL, mpfr_atan2},
    {"atanh", mpfr_atanh, NULL}, {"cbrt", mpfr_cbrt, NULL},   {"cos", mpfr_cos, NULL},
    {"cosh", mpfr_cosh, NULL},   {"degrees", to_degrees, NULL}, {"erf", mpfr_erf, NULL},
    {"erfc", mpfr_erfc, NULL},   {"exp", mpfr_exp, NULL},     {"exp2", mpfr_exp2, NULL},
    {"expm1", mpfr_expm1, NULL}, {"gamma", mpfr_gamma, NULL}, {"hypot", NULL, mpfr_hypot},
    {"lgamma", lgamma_abs, NULL}, {"log", mpfr_log, log_base}, {"log10", mpfr_log10, NULL},
    {"log1p", mpfr_log1p, NULL}, {"log2", mpfr_log2, NULL},   {"pow", NULL, mpfr_pow},
    {"radians", to_radians, NULL}, {"sin", mpfr_sin, NULL},   {"sinh", mpfr_sinh, NULL},
    {"sqrt", mpfr_sqrt, NULL},   {"tan", mpfr_tan, NULL},     {"tanh", mpfr_tanh, NULL},
};

/* log(x, base) = log(x) / log(base); Python refuses a base of 1 with a
 * division by zero. */
static int libm_log_with_base(struct calc_ev *e, const double x[2], double *r) {
    /* each logarithm is Python's math.log of one argument: a base or an
     * argument <= 0 is a domain error (log(2, 0) is not log(2) / -inf) */
    if (!(x[0] > 0) || !(x[1] > 0)) return calc_fail(e, "validation", "math domain error");
    double den = log(x[1]);
    *r = log(x[0]);
    if (den == 0 && !fetestexcept(FE_INVALID | FE_DIVBYZERO))
        return calc_fail(e, "validation", "division by zero");
    *r /= den;
    return 0;
}

/* Python's errors from the floating-point flags of one libm call. */
static int check_result(struct calc_ev *e, const struct calc_fdef *f, double r) {
    int flags = fetestexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW);
    if (!f->raw) {
        if (isnan(r) || (flags & FE_INVALID)) return calc_fail(e, "validation", "math domain error");
        if (isinf(r) && (flags & FE_DIVBYZERO))
            return calc_fail(e, "validation", "math domain error");
        if (isinf(r) && (flags & FE_OVERFLOW)) return calc_fail(e, "validation", "math range error");
    }
    if (!isfinite(r))
        return calc_fail(e, "validation", "%s produced non-finite result", f->name);
    return 0;
}

static int libm_apply(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                      double *r) {
    double x[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        if (calc_q_to_double(a[i].q, &x[i]) != 0)
            return calc_fail(e, "validation", "math range error");
        if (a[i].negzero) x[i] = -0.0;
    }
    feclearexcept(FE_ALL_EXCEPT);
    if (f->f1 == log && n == 2) {
        if (libm_log_with_base(e, x, r) != 0) return -1;
    } else {
        *r = f->f1 ? f->f1(x[0]) : f->f2(x[0], x[1]);
    }
    return check_result(e, f, *r);
}

/* y is the integer limit a function approaches as its argument grows:
 * tanh and erf +-1, erfc 0 or 2, exp and exp2 0, expm1 -1. */
static bool saturated(const char *name, mpfr_srcptr y) {
    if (strcmp(name, "tanh") == 0 || strcmp(name, "erf") == 0) return mpfr_cmpabs_ui(y, 1) == 0;
    if (strcmp(name, "erfc") == 0) return mpfr_zero_p(y) || mpfr_cmp_ui(y, 2) == 0;
    if (strcmp(name, "exp") == 0 || strcmp(name, "exp2") == 0) return mpfr_zero_p(y);
    if (strcmp(name, "expm1") == 0) return mpfr_cmp_si(y, -1) == 0;
    return false;
}

/* One MPFR call, correctly rounded, so its ternary value tells whether the
 * result is exact (the composed ones round twice). */
static bool direct(int i, int n) {
    if (n == 2) return MPFR_FUNCS[i].f2 != log_base;
    return MPFR_FUNCS[i].f1 != lgamma_abs && MPFR_FUNCS[i].f1 != to_degrees &&
           MPFR_FUNCS[i].f1 != to_radians;
}

/* log(x, b) where x is an integer power b**k of b (log(8, 2), log(10**-6,
 * 10)): k, exactly. MPFR's quotient of two rounded logarithms may land on
 * k, but cannot prove it (calc_val.unproven). */
static bool exact_log_power(mpq_srcptr x, mpq_srcptr b, long *k) {
    if (mpq_cmp_ui(x, 1, 1) == 0) {
        *k = 0;
        return true;
    }
    mpfr_t lx, lb;
    mpfr_inits2(64, lx, lb, (mpfr_ptr)0);
    mpfr_set_q(lx, x, MPFR_RNDN);
    mpfr_set_q(lb, b, MPFR_RNDN);
    mpfr_log(lx, lx, MPFR_RNDN);
    mpfr_log(lb, lb, MPFR_RNDN);
    mpfr_div(lx, lx, lb, MPFR_RNDN);
    double kd = mpfr_get_d(lx, MPFR_RNDN);
    mpfr_clears(lx, lb, (mpfr_ptr)0);
    if (!(fabs(kd) < 1e6)) return false;
    *k = lround(kd);
    if (*k == 0) return false;
    /* b**|k| can be no larger than x's own size (or 1/x's) */
    size_t bbits = mpz_sizeinbase(mpq_numref(b), 2) + mpz_sizeinbase(mpq_denref(b), 2);
    size_t xbits = mpz_sizeinbase(mpq_numref(x), 2) + mpz_sizeinbase(mpq_denref(x), 2);
    if ((size_t)labs(*k) > (xbits + 64) / (bbits > 2 ? bbits - 2 : 1) + 1) return false;
    mpq_t p;
    mpq_init(p);
    mpz_pow_ui(mpq_numref(p), mpq_numref(b), (unsigned long)labs(*k));
    mpz_pow_ui(mpq_denref(p), mpq_denref(b), (unsigned long)labs(*k));
    if (*k < 0) mpq_inv(p, p);
    bool eq = mpq_equal(p, x);
    mpq_clear(p);
    return eq;
}

/* The precision of a distance bound: its width does not matter, its
 * direction does. */
#define DIST_PREC 64

/* The distance from f's saturated limit to f(x) for |x| = ax, rounded in
 * direction rnd (ax already rounded the opposite way: every distance here
 * decreases as |x| grows): 1 - |tanh x| = 2/(exp(2|x|) + 1); 1 - |erf x|,
 * erfc(x) from 0 (x > 0) and 2 - erfc(x) (x < 0) are erfc(|x|); expm1(x)
 * + 1 = exp(-|x|) for x < 0. false for another function. */
static bool distance_at(const char *name, mpfr_srcptr ax, mpfr_rnd_t rnd, mpfr_ptr r) {
    mpfr_rnd_t away = rnd == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD;
    if (strcmp(name, "tanh") == 0) {
        mpfr_mul_2ui(r, ax, 1, away);
        mpfr_exp(r, r, away);
        mpfr_add_ui(r, r, 1, away);
        mpfr_ui_div(r, 2, r, rnd);
    } else if (strcmp(name, "erf") == 0 || strcmp(name, "erfc") == 0) {
        mpfr_erfc(r, ax, rnd);
    } else if (strcmp(name, "expm1") == 0) {
        mpfr_neg(r, ax, MPFR_RNDN); /* exact: the same precision */
        mpfr_exp(r, r, rnd);
    } else {
        return false;
    }
    return true;
}

/* The largest |x| a distance is computed for: beyond it the distance is
 * below MPFR's smallest exponent (tanh near 3.7e8, erfc near 27,000), and
 * the bound would be 0. */
#define DIST_ARG_MAX 400000000UL

/* One end of a distance bound: r as m * 2^x, m a 64-bit integer (r has
 * DIST_PREC bits, so the conversion is exact). */
static bool store_end(mpfr_srcptr r, uint64_t *m, long *x) {
    if (!mpfr_regular_p(r) || mpfr_sgn(r) <= 0) return false;
    mpfr_t t;
    mpfr_init2(t, DIST_PREC);
    /* rounded outward by the caller already: exact at DIST_PREC */
    mpfr_set(t, r, MPFR_RNDN);
    mpz_t z;
    mpz_init(z);
    *x = mpfr_get_z_2exp(z, t);
    bool ok = mpz_sgn(z) > 0 && mpz_sizeinbase(z, 2) <= 64;
    if (ok) *m = (uint64_t)mpz_get_ui(z);
    mpz_clear(z);
    mpfr_clear(t);
    return ok;
}

/* r = m * 2^x exactly (r has DIST_PREC >= 64 bits). */
static void load_end(mpfr_ptr r, uint64_t m, long x) {
    mpfr_set_uj_2exp(r, m, x, MPFR_RNDN);
}

/* A proven bound on the distance from f's saturated limit to f(q), q the
 * true argument (calc_dist); known false where none is computed. */
static void saturation_distance(const char *name, mpq_srcptr q, struct calc_dist *d) {
    d->known = false;
    unsigned flags = mpfr_flags_save();
    mpfr_t up, dn, lo, hi;
    mpfr_inits2(DIST_PREC, up, dn, lo, hi, (mpfr_ptr)0);
    mpfr_set_q(up, q, MPFR_RNDA);
    mpfr_set_q(dn, q, MPFR_RNDZ);
    mpfr_abs(up, up, MPFR_RNDN);
    mpfr_abs(dn, dn, MPFR_RNDN);
    if (mpfr_cmp_ui(up, DIST_ARG_MAX) <= 0 && distance_at(name, up, MPFR_RNDD, lo) &&
        distance_at(name, dn, MPFR_RNDU, hi))
        d->known = store_end(lo, &d->lo_m, &d->lo_x) && store_end(hi, &d->hi_m, &d->hi_x);
    mpfr_clears(up, dn, lo, hi, (mpfr_ptr)0);
    mpfr_flags_restore(flags, MPFR_FLAGS_ALL);
}

/* The sign of p - q for two ends of distance bounds. */
static int end_cmp(uint64_t pm, long px, uint64_t qm, long qx) {
    mpfr_t p, q;
    mpfr_inits2(DIST_PREC, p, q, (mpfr_ptr)0);
    load_end(p, pm, px);
    load_end(q, qm, qx);
    int c = mpfr_cmp(p, q);
    mpfr_clears(p, q, (mpfr_ptr)0);
    return (c > 0) - (c < 0);
}

int calc_dist_order(const struct calc_dist *a, const struct calc_dist *b) {
    if (!a->known || !b->known) return 0;
    if (end_cmp(a->lo_m, a->lo_x, b->hi_m, b->hi_x) > 0) return 1;
    if (end_cmp(a->hi_m, a->hi_x, b->lo_m, b->lo_x) < 0) return -1;
    return 0;
}

int calc_dist_against(const struct calc_dist *a, mpq_srcptr dist) {
    if (!a->known || mpq_sgn(dist) <= 0) return 0;
    mpfr_t up, dn, end;
    mpfr_inits2(DIST_PREC, up, dn, end, (mpfr_ptr)0);
    unsigned flags = mpfr_flags_save();
    mpfr_set_q(up, dist, MPFR_RNDU);
    mpfr_set_q(dn, dist, MPFR_RNDD);
    int c = 0;
    load_end(end, a->lo_m, a->lo_x);
    if (mpfr_regular_p(up) && mpfr_cmp(end, up) > 0) c = 1; /* the true distance is larger */
    load_end(end, a->hi_m, a->hi_x);
    if (mpfr_regular_p(dn) && mpfr_cmp(end, dn) < 0) c = -1;
    mpfr_flags_restore(flags, MPFR_FLAGS_ALL);
    mpfr_clears(up, dn, end, (mpfr_ptr)0);
    return c;
}

/* y is an integer while its ulp is below 1 (0 included): the integer
 * means something there (tanh(1000) rounds to 1). From 2^prec up every
 * value of the precision is an integer and says nothing: exp(187) at 256
 * bits (2^269.8) was read as an integer beside its true value, so
 * 1/exp(187) > 0 voided the look and was null. */
static bool integer_below_ulp(mpfr_srcptr y, mpfr_prec_t prec) {
    return mpfr_integer_p(y) && (mpfr_zero_p(y) || mpfr_get_exp(y) <= (mpfr_exp_t)prec);
}

/* f's real domain, as its edges (acosh: [1, inf); asin, acos: [-1, 1];
 * atanh: (-1, 1); log1p: (-1, inf); sqrt: [0, inf); the logarithms:
 * (0, inf)): lo and hi (hi_set false: none), and whether each is in it.
 * false for a function defined on every real (or not checked here). */
struct domain {
    long lo, hi;
    bool hi_set, lo_in, hi_in;
};

static bool domain_of(const char *name, struct domain *d) {
    *d = (struct domain){0};
    if (strcmp(name, "acosh") == 0) *d = (struct domain){.lo = 1, .lo_in = true};
    else if (strcmp(name, "asin") == 0 || strcmp(name, "acos") == 0)
        *d = (struct domain){.lo = -1, .hi = 1, .hi_set = true, .lo_in = true, .hi_in = true};
    else if (strcmp(name, "atanh") == 0) *d = (struct domain){.lo = -1, .hi = 1, .hi_set = true};
    else if (strcmp(name, "log1p") == 0) *d = (struct domain){.lo = -1};
    else if (strcmp(name, "sqrt") == 0) *d = (struct domain){.lo = 0, .lo_in = true};
    else if (strncmp(name, "log", 3) == 0) *d = (struct domain){.lo = 0};
    else return false;
    return true;
}

/* Whether the look must decide nothing for f at argument a: a true value
 * outside f's real domain that rounding to the look's precision carried
 * onto an edge (acosh(1 - 10**-300) < acosh(1 - 10**-301) was true: 1 -
 * 10**-300 rounds to 1 at 256 and 384 bits, where acosh is 0, and the
 * monotone rule ordered the arguments, but neither value is real; Python
 * evaluates acosh(1.0)), or an approximation within the look's reach of an
 * edge, which may lie on either side of it. */
static bool argument_off_domain(const struct calc_ev *e, const char *name, const struct calc_val *a,
                                bool rounded) {
    struct domain d;
    if ((!a->inexact && !rounded) || !domain_of(name, &d)) return false;
    mpq_t b;
    mpq_init(b);
    bool off = false;
    for (int k = 0; k < (d.hi_set ? 2 : 1) && !off; k++) {
        mpq_set_si(b, k ? d.hi : d.lo, 1);
        int c = mpq_cmp(a->q, b);
        bool in = k ? (c < 0 || (c == 0 && d.hi_in)) : (c > 0 || (c == 0 && d.lo_in));
        off = a->inexact ? calc_within_reach(e, a->q, b) : !in;
    }
    mpq_clear(b);
    return off;
}

bool calc_inside_domain(const struct calc_ev *e, const struct calc_fdef *f, const struct calc_val *a) {
    struct domain d;
    if (!domain_of(f->name, &d)) return true;
    mpq_t b;
    mpq_init(b);
    bool inside = true;
    for (int k = 0; k < (d.hi_set ? 2 : 1) && inside; k++) {
        mpq_set_si(b, k ? d.hi : d.lo, 1);
        int c = mpq_cmp(a->q, b);
        /* held at the edge itself from the domain's side: inside
         * (asin(tanh(300)): tanh(300) < 1), however close */
        if (c == 0 && a->tiny == (k ? -1 : 1)) continue;
        inside = (k ? c < 0 : c > 0) && !calc_within_reach(e, a->q, b);
    }
    mpq_clear(b);
    return inside;
}

static int mpfr_index(const char *name);

/* The most bits a distance is carried through a function with (the
 * argument q + d must be exact: tanh(10000) is 2^-28854 from 1). */
#define THROUGH_PREC_MAX 131072

/* |f(q + s * d) - f(q)| for the end d = m * 2^x of a proven distance,
 * rounded down (low) or up into r (DIST_PREC bits); fq = f(q) exactly, dir
 * f's direction. false when it cannot be computed. */
static bool through_end(int i, mpq_srcptr q, int s, int dir, uint64_t m, long x, mpfr_srcptr fq, bool low,
                        mpfr_ptr r) {
    long qbits = (long)mpz_sizeinbase(mpq_numref(q), 2);
    long prec = qbits + 2 - x;
    if (prec < 2 * DIST_PREC) prec = 2 * DIST_PREC;
    if (x > 0 || prec > THROUGH_PREC_MAX) return false;
    mpfr_t z, y;
    mpfr_inits2((mpfr_prec_t)prec, z, y, (mpfr_ptr)0);
    mpfr_set_uj_2exp(z, m, x, MPFR_RNDN); /* exact: 64 bits */
    if (s < 0) mpfr_neg(z, z, MPFR_RNDN);
    mpfr_add_z(z, z, mpq_numref(q), MPFR_RNDN); /* exact: prec covers both ends */
    /* f(z) lies on side s * dir of f(q): rounded toward f(q) for the low
     * end, away from it for the high one */
    bool above = s * dir > 0;
    mpfr_rnd_t rnd = above == low ? MPFR_RNDD : MPFR_RNDU;
    MPFR_FUNCS[i].f1(y, z, rnd);
    mpfr_sub(y, y, fq, rnd); /* exact: y is within 2^-prec of fq's size */
    mpfr_abs(y, y, MPFR_RNDN);
    mpfr_set(r, y, low ? MPFR_RNDD : MPFR_RNDU);
    bool ok = mpfr_regular_p(r) && !mpfr_nan_p(y);
    mpfr_clears(z, y, (mpfr_ptr)0);
    return ok;
}

/* q, held beside its true value on side a->tiny at a proven distance,
 * through f (monotone, one argument, q strictly inside its domain, a
 * finite slope at q: not cbrt at 0) where f(q) is an integer MPFR gives
 * exactly: the true f-value lies beside f(q) on side tiny * direction, at
 * a distance f carries from the argument's (computed from its ends,
 * rounded outward). sqrt(tanh(300)) is 1 - 2.7e-261, held at 1 from
 * below, where the look voided itself, and sqrt(sqrt(tanh(300))) <
 * sqrt(sqrt(tanh(400))) was null. The new distance must stay far below
 * the look's reach, as a held value's does (its ulp). */
bool calc_tiny_through(struct calc_ev *e, const struct calc_fdef *f, const struct calc_val *a, mpq_t out) {
    int dir = calc_monotone(f);
    int i = f->f1 ? mpfr_index(f->name) : -1;
    if (!e->prec || !dir || i < 0 || !direct(i, 1) || !a->tiny || !a->dist.known)
        return false;
    if (mpq_sgn(a->q) == 0 && strcmp(f->name, "cbrt") == 0) return false;
    struct domain d;
    if (domain_of(f->name, &d) &&
        (mpq_cmp_si(a->q, d.lo, 1) <= 0 || (d.hi_set && mpq_cmp_si(a->q, d.hi, 1) >= 0)))
        return false;
    mpfr_t x, fq, lo, hi, reach;
    mpfr_inits2((mpfr_prec_t)e->prec, x, fq, (mpfr_ptr)0);
    mpfr_inits2(DIST_PREC, lo, hi, reach, (mpfr_ptr)0);
    unsigned flags = mpfr_flags_save();
    bool ok = mpfr_set_q(x, a->q, MPFR_RNDN) == 0 && MPFR_FUNCS[i].f1(fq, x, MPFR_RNDN) == 0 &&
              mpfr_number_p(fq) && mpfr_integer_p(fq);
    struct calc_dist nd = {.known = false};
    ok = ok && through_end(i, a->q, a->tiny, dir, a->dist.lo_m, a->dist.lo_x, fq, true, lo) &&
         through_end(i, a->q, a->tiny, dir, a->dist.hi_m, a->dist.hi_x, fq, false, hi) &&
         store_end(lo, &nd.lo_m, &nd.lo_x) && store_end(hi, &nd.hi_m, &nd.hi_x);
    if (ok) {
        /* beyond every look's reach of f(q), with a margin */
        mpfr_set_ui(reach, 1, MPFR_RNDN);
        if (mpfr_cmpabs(fq, reach) > 0) mpfr_abs(reach, fq, MPFR_RNDU);
        mpfr_mul_2si(reach, reach, -(long)e->prec, MPFR_RNDD);
        ok = mpfr_cmp(hi, reach) < 0;
    }
    if (ok) {
        mpfr_get_q(out, fq);
        nd.known = true;
        e->tiny = (signed char)(a->tiny * dir);
        e->dist = nd;
        e->unproven = true;
        e->fn_exact = false;
        e->funcs |= calc_function_bit(f);
    }
    mpfr_flags_restore(flags, MPFR_FLAGS_ALL);
    mpfr_clears(x, fq, lo, hi, reach, (mpfr_ptr)0);
    return ok;
}

void calc_dist_bounds(const struct calc_dist *d, mpq_t lo, mpq_t hi) {
    mpfr_t t;
    mpfr_init2(t, DIST_PREC);
    load_end(t, d->lo_m, d->lo_x);
    mpfr_get_q(lo, t);
    load_end(t, d->hi_m, d->hi_x);
    mpfr_get_q(hi, t);
    mpfr_clear(t);
}

/* MPFR on the exact arguments; Python's error for a NaN (domain), an exact
 * infinity such as log(0) or gamma(0) (domain) and a finite value beyond
 * the doubles (range). With e->prec (the second look, calc_internal.h) the
 * value is computed to that precision and kept whole in q; else it is
 * rounded once to the double *r. */
static int mpfr_apply(struct calc_ev *e, int i, struct calc_val *a, int n, double *r, mpq_t q) {
    /* log(x, base) is Python's log(x) / log(base): each refuses an argument
     * <= 0 (log(2, 0) is not log(2) / -inf = -0), then a base of 1 divides
     * by zero */
    if (n == 2 && MPFR_FUNCS[i].f1 == mpfr_log && (mpq_sgn(a[0].q) <= 0 || mpq_sgn(a[1].q) <= 0))
        return calc_fail(e, "validation", "math domain error");
    if (n == 2 && MPFR_FUNCS[i].f1 == mpfr_log && mpq_cmp_ui(a[1].q, 1, 1) == 0)
        return calc_fail(e, "validation", "division by zero");
    mpfr_t x[2], y;
    mpfr_prec_t prec = e->prec ? (mpfr_prec_t)e->prec : WORK_PREC;
    mpfr_inits2(prec, x[0], x[1], y, (mpfr_ptr)0);
    bool true_args = true;
    for (int k = 0; k < n; k++) {
        bool rounded = mpfr_set_q(x[k], a[k].q, MPFR_RNDN) != 0;
        true_args &= !rounded && !a[k].inexact;
        if (a[k].negzero) mpfr_neg(x[k], x[k], MPFR_RNDN); /* atan2(-0.0, -1) is -pi */
        if (e->prec && n == 1 && argument_off_domain(e, MPFR_FUNCS[i].name, &a[k], rounded)) e->close = true;
    }
    mpfr_clear_flags();
    long k;
    bool power = n == 2 && MPFR_FUNCS[i].f1 == mpfr_log && !a[0].inexact && !a[1].inexact &&
                 exact_log_power(a[0].q, a[1].q, &k);
    int t = power ? mpfr_set_si(y, k, MPFR_RNDN)
          : n == 1 ? MPFR_FUNCS[i].f1(y, x[0], MPFR_RNDN) : MPFR_FUNCS[i].f2(y, x[0], x[1], MPFR_RNDN);
    /* MPFR's ternary value is 0 exactly when y is the true value */
    bool proven = power || (true_args && direct(i, n) && t == 0);
    if (e->prec && true_args && direct(i, n)) e->fn_exact = t == 0;
    if (e->prec && power) e->fn_exact = true;
    /* y is an integer (0 included) the true value is not, within an ulp
     * of it (tanh(1000) = 1 - 2e-869): whatever follows would read it as
     * that integer, so the look decides nothing. Where the look could not
     * hold the argument exactly (10**400 at 256 bits) an integer can be the
     * truth (log(8, 2)), but not a function's saturated limit or an
     * underflow: tanh(10**400) and exp(-10**400) were "1" and "0" with
     * exact: true, and compare_threshold held exp(-10**400) > 0 false.
     * The side the true value lies on is certain when the ternary value
     * speaks of the true arguments, and for a saturated limit, which the
     * function never reaches (tanh < 1 everywhere, exp > 0): a caller that
     * can carry it (calc_val.tiny) gets that side instead. */
    if (e->prec && t != 0 && integer_below_ulp(y, prec)) {
        bool side_known = (true_args && direct(i, n)) || saturated(MPFR_FUNCS[i].name, y);
        if (side_known && e->want_tiny) {
            e->tiny = t > 0 ? -1 : 1;
            if (n == 1 && !a[0].inexact && saturated(MPFR_FUNCS[i].name, y))
                saturation_distance(MPFR_FUNCS[i].name, a[0].q, &e->dist);
        } else if (side_known || mpfr_underflow_p()) e->close = true;
    }
    if (e->prec && !proven) e->unproven = true;
    int rc = 0;
    if (mpfr_nan_p(y) || (mpfr_inf_p(y) && mpfr_divby0_p()))
        rc = calc_fail(e, "validation", "math domain error");
    else if (mpfr_inf_p(y))
        rc = calc_fail(e, "validation", "math range error");
    else if (e->prec)
        mpfr_get_q(q, y);
    else {
        *r = mpfr_get_d(y, MPFR_RNDN);
        if (!isfinite(*r)) rc = calc_fail(e, "validation", "math range error");
    }
    mpfr_clears(x[0], x[1], y, (mpfr_ptr)0);
    return rc;
}

static int mpfr_index(const char *name) {
    for (size_t i = 0; i < sizeof MPFR_FUNCS / sizeof MPFR_FUNCS[0]; i++)
        if (strcmp(MPFR_FUNCS[i].name, name) == 0) return (int)i;
    return -1;
}

/* x - y * n for the integer n = trunc(x / y) (fmod) or the nearest,
 * ties to even (remainder): exact on rationals. When an argument is an
 * approximation, a quotient that close to where n jumps voids the look. */
static void exact_remainder(struct calc_ev *e, const struct calc_val *a, bool nearest, mpq_t out) {
    mpq_t t;
    mpz_t n;
    mpq_init(t);
    mpz_init(n);
    mpq_div(t, a[0].q, a[1].q);
    if (a[0].inexact || a[1].inexact) {
        mpq_t x, half;
        mpq_inits(x, half, NULL);
        mpq_set(x, a[0].q);
        if (nearest) {
            mpq_set_ui(half, 1, 2);
            mpq_mul(half, half, a[1].q);
            mpq_sub(x, x, half);
        }
        calc_near_step(e, x, a[1].q);
        mpq_clears(x, half, NULL);
    }
    if (nearest) calc_round_half_even(n, t);
    else mpz_tdiv_q(n, mpq_numref(t), mpq_denref(t));
    mpq_set_z(t, n);
    mpq_mul(t, t, a[1].q);
    mpq_sub(out, a[0].q, t);
    mpq_clear(t);
    mpz_clear(n);
}

/* float(x) on a look: the exact value of the double nearest x, which is
 * what float() means (float(2**53 + 1) == 2**53 + 1 is false, and
 * float(0.1) - 0.1 is 5.55e-18, not 0 with exact: true). An approximated x
 * that close to a midpoint between two doubles voids the look. 1, or -1
 * when x is past the doubles (Python: OverflowError). */
static int double_of(struct calc_ev *e, const struct calc_val *x, mpq_t out) {
    double d = cc_nf_mpq_to_double(x->q);
    if (!isfinite(d)) return calc_fail(e, "validation", "math range error");
    mpq_set_d(out, d);
    if (x->inexact && mpq_cmp(out, x->q) != 0) {
        mpq_t ulp, t;
        mpq_inits(ulp, t, NULL);
        mpq_set_d(ulp, nextafter(d, mpq_cmp(x->q, out) > 0 ? INFINITY : -INFINITY));
        mpq_sub(ulp, ulp, out);
        mpq_abs(ulp, ulp);
        mpq_sub(t, x->q, out);
        mpq_abs(t, t);
        mpq_div(t, t, ulp); /* in (0, 1/2]: 1/2 at a midpoint */
        mpq_set_ui(ulp, 1, 2);
        mpq_add(t, t, ulp);
        calc_near_step(e, t, NULL);
        mpq_clears(ulp, t, NULL);
    }
    return 1;
}

/* On the second look the functions that are exact on doubles are exact on
 * the rationals they are given: fabs, copysign, fmod and remainder (in
 * doubles, fmod(10**30, 7) is 5, the remainder of the double nearest
 * 10**30; the truth is 1), and float is the double itself. 1 when done, 0 when f is not one
 * of these, -1 on a failure (Python's: a zero divisor is a domain error). */
static int exact_on_look(struct calc_ev *e, const struct calc_fdef *f, const struct calc_val *a,
                         mpq_t out) {
    bool fmod_ = strcmp(f->name, "fmod") == 0, rem = strcmp(f->name, "remainder") == 0;
    if (strcmp(f->name, "fabs") == 0) mpq_abs(out, a[0].q);
    else if (strcmp(f->name, "float") == 0) return double_of(e, &a[0], out);
    else if (strcmp(f->name, "copysign") == 0) {
        mpq_abs(out, a[0].q);
        if (mpq_sgn(a[1].q) < 0 || a[1].negzero) mpq_neg(out, out);
    } else if (fmod_ || rem) {
        if (mpq_sgn(a[1].q) == 0) return calc_fail(e, "validation", "math domain error");
        exact_remainder(e, a, rem, out);
    } else {
        return 0;
    }
    return 1;
}

/* ln(q) rounded once to a double (the b64 pass's log of one argument). */
static double log_double(mpq_srcptr q) {
    mpfr_t x;
    mpfr_init2(x, WORK_PREC);
    mpfr_set_q(x, q, MPFR_RNDN);
    mpfr_log(x, x, MPFR_RNDN);
    double d = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    return d;
}

/* The b64 pass: the functions Python composes of several double
 * operations, composed the same way (CPython's mathmodule.c): degrees(x) is
 * x * (180 / pi), radians(x) is x * (pi / 180), log(x, b) is log(x) /
 * log(b), each step rounded. 1 when done (the double in *r), 0 when f is
 * another function, -1 on a failure. */
static int python_composed(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                           double *r) {
    if (strcmp(f->name, "degrees") == 0) *r = mpq_get_d(a[0].q) * (180.0 / M_PI);
    else if (strcmp(f->name, "radians") == 0) *r = mpq_get_d(a[0].q) * (M_PI / 180.0);
    else if (strcmp(f->name, "log") == 0 && n == 2) {
        if (mpq_sgn(a[0].q) <= 0 || mpq_sgn(a[1].q) <= 0) return calc_fail(e, "validation", "math domain error");
        double den = log_double(a[1].q);
        if (den == 0) return calc_fail(e, "validation", "division by zero");
        *r = log_double(a[0].q) / den;
    } else {
        return 0;
    }
    return isfinite(*r) ? 1 : calc_fail(e, "validation", "math range error");
}

int calc_binary64(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                  mpq_t out) {
    double r = 0;
    int done = e->b64 ? python_composed(e, f, a, n, &r) : 0;
    if (done) {
        if (done > 0) mpq_set_d(out, r);
        e->funcs |= calc_function_bit(f);
        return done > 0 ? 0 : -1;
    }
    int i = mpfr_index(f->name);
    done = e->prec ? exact_on_look(e, f, a, out) : 0;
    if (done < 0) return -1;
    if (done) {
        e->fn_exact = true;
        for (int k = 0; k < n; k++) e->fn_exact &= !a[k].inexact;
        e->funcs |= calc_function_bit(f);
        return 0;
    }
    int rc = i >= 0 ? mpfr_apply(e, i, a, n, &r, out) : libm_apply(e, f, a, n, &r);
    if (i < 0 && e->prec) e->unproven = true; /* libm proves nothing */
    if (rc != 0) return -1;
    e->funcs |= calc_function_bit(f);
    /* the b64 pass keeps the double itself, not its shortest repr */
    if (e->b64) mpq_set_d(out, r);
    else if (i < 0 || !e->prec) calc_q_from_double(r, out);
    return 0;
}

int calc_pow_binary64(struct calc_ev *e, mpq_srcptr a, mpq_srcptr b, bool inexact, mpq_t out) {
    struct calc_val args[2] = {{.inexact = inexact}, {.inexact = inexact}};
    mpq_inits(args[0].q, args[1].q, NULL);
    mpq_set(args[0].q, a);
    mpq_set(args[1].q, b);
    int rc = calc_binary64(e, calc_find_function("pow"), args, 2, out);
    mpq_clears(args[0].q, args[1].q, NULL);
    return rc;
}
