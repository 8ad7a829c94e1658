/* The functions calc_exact can call: the exact ones over rationals and
 * integers (priced before they are computed, so no argument makes them
 * unbounded), and the table that names every function, exact or binary64. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/calc/calc_internal.h"

/* What to pass an integer function instead of a float. */
const char calc_float_remedy[] =
    "pass an integer: 2, not 2.0 or 4/2 (a / b is a float even when it divides evenly; a // b, "
    "int(x) and round(x) are integers)";

/* A float argument, even an integral one (2.0, 4/2, sqrt(16)): Python's
 * math.factorial, comb, perm, gcd, lcm, isqrt and round's ndigits raise
 * TypeError for it, and calc_exact follows Python (factorial(2.0) was 2). */
int calc_refuse_float(struct calc_ev *e, const char *what, const struct calc_val *v) {
    if (!v->isfloat) return 0;
    char *s = calc_show(v->q);
    e->remedy = calc_float_remedy;
    calc_fail(e, "validation",
              "%s needs an integer, got a float (%s): 'float' object cannot be interpreted as an "
              "integer, as in Python", what, s ? s : "?");
    free(s);
    return -1;
}

/* Refuses the call unless all n arguments are integers, not floats
 * (non-negative ones when nonneg). */
static int need_int(struct calc_ev *e, const struct calc_fdef *f, const struct calc_val *a, int n,
                    bool nonneg) {
    char what[32];
    snprintf(what, sizeof what, "%s()", f->name);
    for (int i = 0; i < n; i++)
        if (calc_refuse_float(e, what, &a[i])) return -1;
    for (int i = 0; i < n; i++) {
        if (!calc_is_int(a[i].q) || (nonneg && mpq_sgn(a[i].q) < 0)) {
            char *v = calc_show(a[i].q);
            calc_fail(e, "validation", "%s() needs %s, got %s", f->name,
                      nonneg ? "non-negative integers" : "integers", v ? v : "?");
            free(v);
            return -1;
        }
    }
    return 0;
}

/* out = z; returns 0 so integer functions can end with it. */
static int set_int(mpq_t out, mpz_t z) {
    mpq_set_z(out, z);
    mpz_clear(z);
    return 0;
}

static int fn_abs(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                  mpq_t out) {
    (void)e, (void)f, (void)n;
    mpq_abs(out, a[0].q);
    return 0;
}

static int fn_minmax(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                     mpq_t out) {
    (void)e;
    bool want_max = f->name[1] == 'a';
    int best = 0;
    for (int i = 1; i < n; i++) {
        int c = mpq_cmp(a[i].q, a[best].q);
        if (want_max ? c > 0 : c < 0) best = i;
    }
    mpq_set(out, a[best].q);
    return 0;
}

/* int, trunc (toward zero), floor and ceil, told apart by the name. */
static int fn_trunc(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                    mpq_t out) {
    (void)n;
    calc_near_step(e, a[0].q, NULL);
    mpz_t z;
    mpz_init(z);
    if (f->name[0] == 'f') mpz_fdiv_q(z, mpq_numref(a[0].q), mpq_denref(a[0].q));
    else if (f->name[0] == 'c') mpz_cdiv_q(z, mpq_numref(a[0].q), mpq_denref(a[0].q));
    else mpz_tdiv_q(z, mpq_numref(a[0].q), mpq_denref(a[0].q));
    return set_int(out, z);
}

/* round(x, places): half-even at 10**-places, places possibly negative. */
static void round_to_places(mpq_srcptr x, long places, mpq_t out) {
    mpq_t scale, t;
    mpz_t z;
    mpq_inits(scale, t, NULL);
    mpz_init(z);
    mpz_ui_pow_ui(mpq_numref(scale), 10, (unsigned long)labs(places));
    if (places < 0) mpq_inv(scale, scale);
    mpq_mul(t, x, scale);
    calc_round_half_even(z, t);
    mpq_set_z(t, z);
    mpq_div(out, t, scale);
    mpq_clears(scale, t, NULL);
    mpz_clear(z);
}

/* round jumps where x / unit is an integer and a half. */
static void near_half_step(struct calc_ev *e, mpq_srcptr x, mpq_srcptr unit) {
    mpq_t t, half;
    mpq_inits(t, half, NULL);
    mpq_set_ui(half, 1, 2);
    if (unit) mpq_mul(half, half, unit);
    mpq_sub(t, x, half);
    calc_near_step(e, t, unit);
    mpq_clears(t, half, NULL);
}

static int fn_round(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                    mpq_t out) {
    if (n == 1) {
        near_half_step(e, a[0].q, NULL);
        mpz_t z;
        mpz_init(z);
        calc_round_half_even(z, a[0].q);
        return set_int(out, z);
    }
    if (need_int(e, f, &a[1], 1, false)) return -1;
    if (mpz_cmpabs_ui(mpq_numref(a[1].q), CALC_POW_EXP_LIMIT) > 0)
        return calc_fail(e, "resource_exhausted",
                         "round() to more than %d decimal places is not supported",
                         CALC_POW_EXP_LIMIT);
    long places = mpz_get_si(mpq_numref(a[1].q));
    if (e->prec) {
        mpq_t unit;
        mpq_init(unit);
        mpz_ui_pow_ui(mpq_numref(unit), 10, (unsigned long)labs(places));
        if (places > 0) mpq_inv(unit, unit);
        near_half_step(e, a[0].q, unit);
        mpq_clear(unit);
    }
    round_to_places(a[0].q, places, out);
    return 0;
}

static int over_factorial_limit(struct calc_ev *e, const char *name, mpq_srcptr v) {
    if (mpz_cmp_ui(mpq_numref(v), CALC_FACTORIAL_LIMIT) <= 0) return 0;
    char *s = calc_show(v);
    calc_fail(e, "resource_exhausted",
              "argument %s to %s() exceeds the limit of %d: computing it would take an unbounded "
              "amount of time and memory", s ? s : "?", name, CALC_FACTORIAL_LIMIT);
    free(s);
    return -1;
}

static int fn_factorial(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                        mpq_t out) {
    if (need_int(e, f, a, n, true) || over_factorial_limit(e, f->name, a[0].q)) return -1;
    mpz_t z;
    mpz_init(z);
    mpz_fac_ui(z, mpz_get_ui(mpq_numref(a[0].q)));
    return set_int(out, z);
}

/* log2 of the falling product n (n-1) ... (n-k+1), estimated from lgamma. */
static double falling_bits(const mpz_t n, const mpz_t k) {
    double dn = mpz_get_d(n), dk = mpz_get_d(k);
    /* past double's range lgamma is useless; k * bits(n) bounds it above */
    if (mpz_sizeinbase(n, 2) > 1000) return dk * (double)mpz_sizeinbase(n, 2);
    return (lgamma(dn + 1) - lgamma(dn - dk + 1)) / log(2.0);
}

static int too_many_bits(struct calc_ev *e, const char *what, double bits) {
    if (bits <= (double)CALC_POW_BITS_LIMIT) return 0; /* false for NaN too */
    if (!isfinite(bits))
        return calc_fail(e, "resource_exhausted",
                         "%s would need an unbounded number of bits to represent, exceeding the "
                         "limit (%lu) for exact results", what, CALC_POW_BITS_LIMIT);
    return calc_fail(e, "resource_exhausted",
                     "%s would need ~%.0f bits to represent, exceeding the limit (%lu) for exact "
                     "results", what, bits, CALC_POW_BITS_LIMIT);
}

/* comb and perm of k > n are 0; both need non-negative integers. 1 when
 * that settles the call (out set, or a failure recorded in rc). */
static int trivial_choice(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                          mpq_t out, int *rc) {
    *rc = need_int(e, f, a, n, true);
    if (*rc != 0) return 1;
    if (n < 2 || mpz_cmp(mpq_numref(a[1].q), mpq_numref(a[0].q)) <= 0) return 0;
    mpq_set_ui(out, 0, 1);
    return 1;
}

static int fn_comb(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                   mpq_t out) {
    int rc;
    if (trivial_choice(e, f, a, n, out, &rc)) return rc;
    const mpz_ptr nn = mpq_numref(a[0].q), kk = mpq_numref(a[1].q);
    mpz_t k, z;
    mpz_inits(k, z, NULL);
    mpz_sub(k, nn, kk);
    if (mpz_cmp(kk, k) < 0) mpz_set(k, kk); /* comb(n, k) = comb(n, n-k) */
    double bits = falling_bits(nn, k) - lgamma(mpz_get_d(k) + 1) / log(2.0);
    rc = too_many_bits(e, "comb()", bits);
    if (rc == 0) mpz_bin_ui(z, nn, mpz_get_ui(k));
    if (rc == 0) mpq_set_z(out, z);
    mpz_clears(k, z, NULL);
    return rc;
}

static int fn_perm(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                   mpq_t out) {
    int rc;
    if (trivial_choice(e, f, a, n, out, &rc)) return rc;
    if (n == 1) return fn_factorial(e, f, a, 1, out);
    const mpz_ptr nn = mpq_numref(a[0].q), kk = mpq_numref(a[1].q);
    if (too_many_bits(e, "perm()", falling_bits(nn, kk))) return -1;
    mpz_t z, t;
    mpz_init_set_ui(z, 1);
    mpz_init_set(t, nn);
    for (unsigned long i = mpz_get_ui(kk); i > 0; i--) {
        mpz_mul(z, z, t);
        mpz_sub_ui(t, t, 1);
    }
    mpz_clear(t);
    return set_int(out, z);
}

static int fn_gcd_lcm(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                      mpq_t out) {
    if (need_int(e, f, a, n, false)) return -1;
    bool lcm = f->name[0] == 'l';
    mpz_t z;
    mpz_init_set_ui(z, lcm ? 1 : 0);
    for (int i = 0; i < n; i++) {
        if (lcm) mpz_lcm(z, z, mpq_numref(a[i].q));
        else mpz_gcd(z, z, mpq_numref(a[i].q));
    }
    return set_int(out, z);
}

/* xor(a, b, ...): bitwise XOR of integers (the spelling of Python's '^',
 * which calc_exact refuses as ambiguous). */
static int fn_xor(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                  mpq_t out) {
    if (need_int(e, f, a, n, false)) return -1;
    mpz_t z;
    mpz_init(z);
    for (int i = 0; i < n; i++) mpz_xor(z, z, mpq_numref(a[i].q));
    return set_int(out, z);
}

static int fn_isqrt(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                    mpq_t out) {
    if (need_int(e, f, a, n, true)) return -1;
    mpz_t z;
    mpz_init(z);
    mpz_sqrt(z, mpq_numref(a[0].q));
    return set_int(out, z);
}

/* pow(a, b, m): Python's three-argument pow, a**b mod m over integers,
 * with the sign of m as Python's % has it; a negative b takes the inverse
 * of a mod m first (Python 3.8). Its cost is about bits(b) squarings of
 * numbers of bits(m) bits, priced before anything is computed. */
#define CALC_POWMOD_WORK_LIMIT (1UL << 26)

static int fn_pow_modular(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                          mpq_t out) {
    if (need_int(e, f, a, n, false)) return -1;
    mpz_srcptr base = mpq_numref(a[0].q), ex = mpq_numref(a[1].q), m = mpq_numref(a[2].q);
    if (mpz_sgn(m) == 0) return calc_fail(e, "validation", "pow() 3rd argument cannot be 0");
    double work = (double)mpz_sizeinbase(ex, 2) * (double)mpz_sizeinbase(m, 2);
    if (mpz_sizeinbase(m, 2) > CALC_POW_BITS_LIMIT || work > (double)CALC_POWMOD_WORK_LIMIT)
        return calc_fail(e, "resource_exhausted",
                         "pow(a, b, m) with a %zu-bit exponent and a %zu-bit modulus exceeds the "
                         "limit for exact results (bits(b) * bits(m) <= %lu, bits(m) <= %lu)",
                         mpz_sizeinbase(ex, 2), mpz_sizeinbase(m, 2), CALC_POWMOD_WORK_LIMIT,
                         CALC_POW_BITS_LIMIT);
    mpz_t am, z;
    mpz_inits(am, z, NULL);
    mpz_abs(am, m);
    int rc = 0;
    if (mpz_sgn(ex) < 0 && mpz_invert(z, base, am) == 0)
        rc = calc_fail(e, "validation", "base is not invertible for the given modulus");
    else if (mpz_sgn(ex) < 0) {
        mpz_neg(am, ex); /* am is free again once z holds the inverse */
        mpz_powm(z, z, am, m);
    } else mpz_powm(z, base, ex, m);
    if (rc == 0 && mpz_sgn(m) < 0 && mpz_sgn(z) != 0) mpz_add(z, z, m); /* 81 % -5 == -4 */
    if (rc == 0) mpq_set_z(out, z);
    mpz_clears(am, z, NULL);
    return rc;
}

static const struct calc_fdef pow_modular = {"pow", CALC_F_INT, 3, 3, fn_pow_modular, NULL, NULL,
                                              false};

static double f_degrees(double x) { return x * (180.0 / M_PI); }
static double f_radians(double x) { return x * (M_PI / 180.0); }
static double f_float(double x) { return x; }

#define EXACT(name, lo, hi, fn) {name, CALC_F_EXACT, lo, hi, fn, NULL, NULL, false}
#define INTEGER(name, lo, hi, fn) {name, CALC_F_INT, lo, hi, fn, NULL, NULL, false}
#define FLOAT1(name, fn, raw) {name, CALC_F_FLOAT, 1, 1, NULL, fn, NULL, raw}
#define FLOAT2(name, fn, raw) {name, CALC_F_FLOAT, 2, 2, NULL, NULL, fn, raw}

/* In strcmp order, for bsearch; the index is the bit in calc_ev.funcs. */
static const struct calc_fdef functions[] = {
    EXACT("abs", 1, 1, fn_abs),        FLOAT1("acos", acos, false),
    FLOAT1("acosh", acosh, false),     FLOAT1("asin", asin, false),
    FLOAT1("asinh", asinh, false),     FLOAT1("atan", atan, false),
    FLOAT2("atan2", atan2, false),     FLOAT1("atanh", atanh, false),
    FLOAT1("cbrt", cbrt, false),       EXACT("ceil", 1, 1, fn_trunc),
    INTEGER("comb", 2, 2, fn_comb),    FLOAT2("copysign", copysign, true),
    FLOAT1("cos", cos, false),         FLOAT1("cosh", cosh, false),
    FLOAT1("degrees", f_degrees, true), FLOAT1("erf", erf, false),
    FLOAT1("erfc", erfc, false),       FLOAT1("exp", exp, false),
    FLOAT1("exp2", exp2, false),       FLOAT1("expm1", expm1, false),
    FLOAT1("fabs", fabs, true),        INTEGER("factorial", 1, 1, fn_factorial),
    FLOAT1("float", f_float, true),    EXACT("floor", 1, 1, fn_trunc),
    FLOAT2("fmod", fmod, false),       FLOAT1("gamma", tgamma, false),
    INTEGER("gcd", 0, -1, fn_gcd_lcm), FLOAT2("hypot", hypot, false),
    EXACT("int", 1, 1, fn_trunc),      INTEGER("isqrt", 1, 1, fn_isqrt),
    INTEGER("lcm", 0, -1, fn_gcd_lcm), FLOAT1("lgamma", lgamma, false),
    /* log takes an optional base (see calc_binary64.c) */
    {"log", CALC_F_FLOAT, 1, 2, NULL, log, NULL, false},
    FLOAT1("log10", log10, false),     FLOAT1("log1p", log1p, false),
    FLOAT1("log2", log2, false),       EXACT("max", 2, -1, fn_minmax),
    EXACT("min", 2, -1, fn_minmax),    INTEGER("perm", 1, 2, fn_perm),
    /* pow of three arguments is calc_find_call's pow_modular */
    {"pow", CALC_F_FLOAT, 2, 3, NULL, NULL, pow, false}, FLOAT1("radians", f_radians, true),
    FLOAT2("remainder", remainder, false), EXACT("round", 1, 2, fn_round),
    FLOAT1("sin", sin, false),         FLOAT1("sinh", sinh, false),
    FLOAT1("sqrt", sqrt, false),       FLOAT1("tan", tan, false),
    FLOAT1("tanh", tanh, false),       EXACT("trunc", 1, 1, fn_trunc),
    INTEGER("xor", 2, -1, fn_xor),
};
#define NFUNCS (sizeof functions / sizeof functions[0])
_Static_assert(NFUNCS <= 64, "funcs bitmask is 64 bits");

static int by_name(const void *key, const void *entry) {
    return strcmp(key, ((const struct calc_fdef *)entry)->name);
}

const struct calc_fdef *calc_find_function(const char *name) {
    return bsearch(name, functions, NFUNCS, sizeof functions[0], by_name);
}

const struct calc_fdef *calc_find_call(const char *name, int argc) {
    if (argc == 3 && strcmp(name, "pow") == 0) return &pow_modular;
    return calc_find_function(name);
}

const char *calc_function_name(unsigned i) { return i < NFUNCS ? functions[i].name : NULL; }

uint64_t calc_function_bit(const struct calc_fdef *f) { return 1ull << (f - functions); }

int calc_monotone(const struct calc_fdef *f) {
    /* over the reals, or the interval the function is defined on (an
     * argument outside it failed before any comparison): strictly, so
     * unequal arguments give unequal values */
    static const char *const increasing[] = {
        "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "degrees", "erf", "exp", "exp2",
        "expm1", "log", "log10", "log1p", "log2", "radians", "sinh", "sqrt", "tanh"};
    static const char *const decreasing[] = {"acos", "erfc"};
    if (f->kind != CALC_F_FLOAT) return 0;
    for (size_t i = 0; i < sizeof increasing / sizeof increasing[0]; i++)
        if (strcmp(f->name, increasing[i]) == 0) return 1;
    for (size_t i = 0; i < sizeof decreasing / sizeof decreasing[0]; i++)
        if (strcmp(f->name, decreasing[i]) == 0) return -1;
    return 0;
}

bool calc_monotone_total(const struct calc_fdef *f) {
    static const char *const total[] = {"asinh", "atan", "cbrt", "degrees", "erf", "erfc",
                                        "exp", "exp2", "expm1", "radians", "sinh", "tanh"};
    if (calc_monotone(f) == 0) return false;
    for (size_t i = 0; i < sizeof total / sizeof total[0]; i++)
        if (strcmp(f->name, total[i]) == 0) return true;
    return false;
}

/* Python's TypeError wording for a wrong number of arguments. */
static int wrong_arity(struct calc_ev *e, const struct calc_fdef *f, int argc) {
    if (f->max_args < 0)
        return calc_fail(e, "validation", "%s() takes at least %d arguments (%d given)", f->name,
                         f->min_args, argc);
    if (f->min_args == f->max_args)
        return calc_fail(e, "validation", "%s() takes %d argument%s (%d given)", f->name,
                         f->min_args, f->min_args == 1 ? "" : "s", argc);
    return calc_fail(e, "validation", "%s() takes %d to %d arguments (%d given)", f->name,
                     f->min_args, f->max_args, argc);
}

int calc_check_arity(struct calc_ev *e, const struct calc_fdef *f, int argc) {
    if (argc < f->min_args || (f->max_args >= 0 && argc > f->max_args))
        return wrong_arity(e, f, argc);
    return 0;
}

bool calc_is_step(const struct calc_fdef *f) {
    return f->exact == fn_trunc || f->exact == fn_round;
}

int calc_apply(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int argc,
               mpq_t out) {
    if (f->kind == CALC_F_FLOAT) return calc_binary64(e, f, a, argc, out);
    return f->exact(e, f, a, argc, out);
}
