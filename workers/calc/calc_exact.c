/* calc_exact (TOOLS.md 3.3.1): the closed evaluator over GMP rationals.
 *
 * Hostile input is bounded before it costs anything: the screen and the
 * parser bound the text and its nesting, every power is priced (exponent
 * size and predicted bits) before it is computed, factorial/comb/perm/shift
 * sizes are priced the same way, and binary64 functions run on doubles. So
 * no input makes this evaluator allocate more than a few megabytes. */
#include "workers/calc/calc_exact.h"

#include <fenv.h>
#include <math.h>
#include <mpfr.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_parse.h"

#define POW_EXP_LIMIT 10000
#define POW_BITS_LIMIT 50000UL
#define SHIFT_BITS_LIMIT 1000000UL
#define FORMAT_DIGITS 4300
#define EVAL_DEPTH_LIMIT 2500
#define FACTORIAL_LIMIT 1463

typedef struct cc_node node;

struct ev {
    const char *code; /* first failure wins */
    char *msg;
    uint64_t funcs;
    unsigned consts;
    int depth;
};

struct val {
    mpq_t q;
    bool is_bool;
};

static int fail(struct ev *e, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct ev *e, const char *code, const char *fmt, ...) {
    if (e->code) return -1;
    e->code = code;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&e->msg, fmt, ap) < 0) e->msg = NULL;
    va_end(ap);
    return -1;
}

static void gmp_str_free(char *s) {
    void (*gfree)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gfree);
    gfree(s, strlen(s) + 1);
}

char *cc_calc_q_str(const mpq_t q) {
    char *g = mpq_get_str(NULL, 10, q);
    char *s = g ? strdup(g) : NULL;
    if (g) gmp_str_free(g);
    return s;
}

/* A value for an error message; huge values are summarised, not printed. */
static char *show(mpq_srcptr q) {
    size_t digits = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10);
    if (digits > FORMAT_DIGITS) {
        char *s = NULL;
        if (asprintf(&s, "(~%zu digits)", digits) < 0) return NULL;
        return s;
    }
    return cc_calc_q_str(q);
}

static bool is_int(mpq_srcptr q) { return mpz_cmp_ui(mpq_denref(q), 1) == 0; }

/* ---- decimal text <-> rationals ----------------------------------------- */

/* Exact value of a decimal string such as "0.1", "1e+16" or "5e-324". */
static void q_from_decimal(const char *s, mpq_t out) {
    bool neg = *s == '-';
    if (neg || *s == '+') s++;
    mpz_t m, p;
    mpz_inits(m, p, NULL);
    long frac = 0;
    bool after_point = false;
    for (; *s && *s != 'e' && *s != 'E'; s++) {
        if (*s == '.') {
            after_point = true;
            continue;
        }
        mpz_mul_ui(m, m, 10);
        mpz_add_ui(m, m, (unsigned long)(*s - '0'));
        frac += after_point;
    }
    long exp10 = (*s ? strtol(s + 1, NULL, 10) : 0) - frac;
    mpz_ui_pow_ui(p, 10, (unsigned long)labs(exp10));
    if (exp10 >= 0) {
        mpz_mul(m, m, p);
        mpz_set_ui(p, 1);
    }
    if (neg) mpz_neg(m, m);
    mpz_set(mpq_numref(out), m);
    mpz_set(mpq_denref(out), p);
    mpq_canonicalize(out);
    mpz_clears(m, p, NULL);
}

/* A binary64 value as the exact rational of its shortest round-trip text. */
static void q_from_double(double d, mpq_t out) {
    char buf[32];
    q_from_decimal(cc_float_repr(d, buf), out);
}

/* Nearest binary64 of a rational; -1 when it overflows. */
static int q_to_double(const mpq_t q, double *out) {
    mpfr_t f;
    mpfr_init2(f, 53);
    mpfr_set_q(f, q, MPFR_RNDN);
    *out = mpfr_get_d(f, MPFR_RNDN);
    mpfr_clear(f);
    return isfinite(*out) ? 0 : -1;
}

/* ---- rounding helpers ---------------------------------------------------- */

/* out = round-half-even(num / den), den > 0. */
static void div_half_even(mpz_t out, const mpz_t num, const mpz_t den) {
    mpz_t r;
    mpz_init(r);
    mpz_fdiv_qr(out, r, num, den);
    mpz_mul_2exp(r, r, 1);
    int c = mpz_cmp(r, den);
    if (c > 0 || (c == 0 && mpz_odd_p(out))) mpz_add_ui(out, out, 1);
    mpz_clear(r);
}

static void q_round_half_even(mpz_t out, const mpq_t q) {
    div_half_even(out, mpq_numref(q), mpq_denref(q));
}

/* ---- the function table ---------------------------------------------------- */

enum fkind { F_EXACT, F_INT, F_FLOAT };

struct fdef;
typedef int (*exact_fn)(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out);

struct fdef {
    const char *name;
    enum fkind kind;
    int min_args, max_args; /* max -1: any number */
    exact_fn exact;         /* F_EXACT, F_INT */
    double (*f1)(double);
    double (*f2)(double, double);
    bool raw;               /* no libm error reporting: non-finite is reported as such */
};

static int need_int(struct ev *e, const struct fdef *f, const struct val *a, int n, bool nonneg) {
    for (int i = 0; i < n; i++) {
        if (!is_int(a[i].q) || (nonneg && mpq_sgn(a[i].q) < 0)) {
            char *v = show(a[i].q);
            fail(e, "validation", "%s() needs %s, got %s", f->name,
                 nonneg ? "non-negative integers" : "integers", v ? v : "?");
            free(v);
            return -1;
        }
    }
    return 0;
}

static int fn_abs(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
    (void)e, (void)f, (void)n;
    mpq_abs(out, a[0].q);
    return 0;
}

static int fn_minmax(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
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

static int set_int(mpq_t out, const mpz_t z) {
    mpq_set_z(out, z);
    return 0;
}

static int fn_trunc(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
    (void)e, (void)n;
    mpz_t z;
    mpz_init(z);
    if (f->name[0] == 'f') mpz_fdiv_q(z, mpq_numref(a[0].q), mpq_denref(a[0].q));
    else if (f->name[0] == 'c') mpz_cdiv_q(z, mpq_numref(a[0].q), mpq_denref(a[0].q));
    else mpz_tdiv_q(z, mpq_numref(a[0].q), mpq_denref(a[0].q));
    set_int(out, z);
    mpz_clear(z);
    return 0;
}

static int fn_round(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
    mpz_t z;
    mpz_init(z);
    if (n == 1) {
        q_round_half_even(z, a[0].q);
        set_int(out, z);
        mpz_clear(z);
        return 0;
    }
    int rc = need_int(e, f, &a[1], 1, false);
    if (rc == 0 && (mpz_cmpabs_ui(mpq_numref(a[1].q), POW_EXP_LIMIT) > 0))
        rc = fail(e, "resource_exhausted", "round() to more than %d decimal places is not supported",
                  POW_EXP_LIMIT);
    if (rc == 0) {
        /* scale = 10**places (a rational for negative places) */
        long places = mpz_get_si(mpq_numref(a[1].q));
        mpq_t scale, t;
        mpq_inits(scale, t, NULL);
        mpz_ui_pow_ui(mpq_numref(scale), 10, (unsigned long)labs(places));
        if (places < 0) mpq_inv(scale, scale);
        mpq_mul(t, a[0].q, scale);
        q_round_half_even(z, t);
        mpq_set_z(t, z);
        mpq_div(out, t, scale);
        mpq_clears(scale, t, NULL);
    }
    mpz_clear(z);
    return rc;
}

static int over_factorial_limit(struct ev *e, const char *name, const mpz_t v) {
    if (mpz_cmp_ui(v, FACTORIAL_LIMIT) <= 0) return 0;
    mpq_t q;
    mpq_init(q);
    mpq_set_z(q, v);
    char *s = show(q);
    mpq_clear(q);
    fail(e, "resource_exhausted",
         "argument %s to %s() exceeds the limit of %d: computing it would take an unbounded "
         "amount of time and memory", s ? s : "?", name, FACTORIAL_LIMIT);
    free(s);
    return -1;
}

static int fn_factorial(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
    if (need_int(e, f, a, n, true) || over_factorial_limit(e, f->name, mpq_numref(a[0].q)))
        return -1;
    mpz_t z;
    mpz_init(z);
    mpz_fac_ui(z, mpz_get_ui(mpq_numref(a[0].q)));
    set_int(out, z);
    mpz_clear(z);
    return 0;
}

/* log2 of the falling product n (n-1) ... (n-k+1), estimated from lgamma. */
static double falling_bits(const mpz_t n, const mpz_t k) {
    double dn = mpz_get_d(n), dk = mpz_get_d(k);
    /* past double's range lgamma is useless; k * bits(n) bounds it above */
    if (mpz_sizeinbase(n, 2) > 1000) return dk * (double)mpz_sizeinbase(n, 2);
    return (lgamma(dn + 1) - lgamma(dn - dk + 1)) / log(2.0);
}

static int too_many_bits(struct ev *e, const char *what, double bits) {
    if (bits <= (double)POW_BITS_LIMIT) return 0; /* false for NaN too */
    if (!isfinite(bits))
        return fail(e, "resource_exhausted",
                    "%s would need an unbounded number of bits to represent, exceeding the limit "
                    "(%lu) for exact results", what, POW_BITS_LIMIT);
    return fail(e, "resource_exhausted",
                "%s would need ~%.0f bits to represent, exceeding the limit (%lu) for exact results",
                what, bits, POW_BITS_LIMIT);
}

static int fn_comb(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
    if (need_int(e, f, a, n, true)) return -1;
    const mpz_ptr nn = mpq_numref(a[0].q), kk = mpq_numref(a[1].q);
    mpz_t k, z;
    mpz_inits(k, z, NULL);
    int rc = 0;
    if (mpz_cmp(kk, nn) > 0) {
        mpq_set_ui(out, 0, 1);
    } else {
        mpz_sub(k, nn, kk);
        if (mpz_cmp(kk, k) < 0) mpz_set(k, kk); /* comb(n, k) = comb(n, n-k) */
        double bits = falling_bits(nn, k) - lgamma(mpz_get_d(k) + 1) / log(2.0);
        rc = too_many_bits(e, "comb()", bits);
        if (rc == 0) {
            mpz_bin_ui(z, nn, mpz_get_ui(k));
            set_int(out, z);
        }
    }
    mpz_clears(k, z, NULL);
    return rc;
}

static int fn_perm(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
    if (need_int(e, f, a, n, true)) return -1;
    if (n == 1) return fn_factorial(e, f, a, 1, out);
    const mpz_ptr nn = mpq_numref(a[0].q), kk = mpq_numref(a[1].q);
    if (mpz_cmp(kk, nn) > 0) {
        mpq_set_ui(out, 0, 1);
        return 0;
    }
    if (too_many_bits(e, "perm()", falling_bits(nn, kk))) return -1;
    mpz_t z, t;
    mpz_init_set_ui(z, 1);
    mpz_init_set(t, nn);
    for (unsigned long i = mpz_get_ui(kk); i > 0; i--) {
        mpz_mul(z, z, t);
        mpz_sub_ui(t, t, 1);
    }
    set_int(out, z);
    mpz_clears(z, t, NULL);
    return 0;
}

static int fn_gcd_lcm(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
    if (need_int(e, f, a, n, false)) return -1;
    bool lcm = f->name[0] == 'l';
    mpz_t z;
    mpz_init_set_ui(z, lcm ? 1 : 0);
    for (int i = 0; i < n; i++) {
        if (lcm) mpz_lcm(z, z, mpq_numref(a[i].q));
        else mpz_gcd(z, z, mpq_numref(a[i].q));
    }
    set_int(out, z);
    mpz_clear(z);
    return 0;
}

static int fn_isqrt(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
    if (need_int(e, f, a, n, true)) return -1;
    mpz_t z;
    mpz_init(z);
    mpz_sqrt(z, mpq_numref(a[0].q));
    set_int(out, z);
    mpz_clear(z);
    return 0;
}

static double f_degrees(double x) { return x * (180.0 / M_PI); }
static double f_radians(double x) { return x * (M_PI / 180.0); }
static double f_float(double x) { return x; }

static const struct fdef functions[] = {
    {"abs", F_EXACT, 1, 1, fn_abs, NULL, NULL, false},
    {"min", F_EXACT, 2, -1, fn_minmax, NULL, NULL, false},
    {"max", F_EXACT, 2, -1, fn_minmax, NULL, NULL, false},
    {"int", F_EXACT, 1, 1, fn_trunc, NULL, NULL, false},
    {"round", F_EXACT, 1, 2, fn_round, NULL, NULL, false},
    {"floor", F_EXACT, 1, 1, fn_trunc, NULL, NULL, false},
    {"ceil", F_EXACT, 1, 1, fn_trunc, NULL, NULL, false},
    {"trunc", F_EXACT, 1, 1, fn_trunc, NULL, NULL, false},
    {"factorial", F_INT, 1, 1, fn_factorial, NULL, NULL, false},
    {"comb", F_INT, 2, 2, fn_comb, NULL, NULL, false},
    {"perm", F_INT, 1, 2, fn_perm, NULL, NULL, false},
    {"gcd", F_INT, 0, -1, fn_gcd_lcm, NULL, NULL, false},
    {"lcm", F_INT, 0, -1, fn_gcd_lcm, NULL, NULL, false},
    {"isqrt", F_INT, 1, 1, fn_isqrt, NULL, NULL, false},
    {"sqrt", F_FLOAT, 1, 1, NULL, sqrt, NULL, false},
    {"cbrt", F_FLOAT, 1, 1, NULL, cbrt, NULL, false},
    {"exp", F_FLOAT, 1, 1, NULL, exp, NULL, false},
    {"exp2", F_FLOAT, 1, 1, NULL, exp2, NULL, false},
    {"expm1", F_FLOAT, 1, 1, NULL, expm1, NULL, false},
    {"log", F_FLOAT, 1, 2, NULL, log, NULL, false},
    {"log2", F_FLOAT, 1, 1, NULL, log2, NULL, false},
    {"log10", F_FLOAT, 1, 1, NULL, log10, NULL, false},
    {"log1p", F_FLOAT, 1, 1, NULL, log1p, NULL, false},
    {"sin", F_FLOAT, 1, 1, NULL, sin, NULL, false},
    {"cos", F_FLOAT, 1, 1, NULL, cos, NULL, false},
    {"tan", F_FLOAT, 1, 1, NULL, tan, NULL, false},
    {"asin", F_FLOAT, 1, 1, NULL, asin, NULL, false},
    {"acos", F_FLOAT, 1, 1, NULL, acos, NULL, false},
    {"atan", F_FLOAT, 1, 1, NULL, atan, NULL, false},
    {"atan2", F_FLOAT, 2, 2, NULL, NULL, atan2, false},
    {"sinh", F_FLOAT, 1, 1, NULL, sinh, NULL, false},
    {"cosh", F_FLOAT, 1, 1, NULL, cosh, NULL, false},
    {"tanh", F_FLOAT, 1, 1, NULL, tanh, NULL, false},
    {"asinh", F_FLOAT, 1, 1, NULL, asinh, NULL, false},
    {"acosh", F_FLOAT, 1, 1, NULL, acosh, NULL, false},
    {"atanh", F_FLOAT, 1, 1, NULL, atanh, NULL, false},
    {"degrees", F_FLOAT, 1, 1, NULL, f_degrees, NULL, true},
    {"radians", F_FLOAT, 1, 1, NULL, f_radians, NULL, true},
    {"hypot", F_FLOAT, 2, 2, NULL, NULL, hypot, false},
    {"pow", F_FLOAT, 2, 2, NULL, NULL, pow, false},
    {"fabs", F_FLOAT, 1, 1, NULL, fabs, NULL, true},
    {"fmod", F_FLOAT, 2, 2, NULL, NULL, fmod, false},
    {"copysign", F_FLOAT, 2, 2, NULL, NULL, copysign, true},
    {"remainder", F_FLOAT, 2, 2, NULL, NULL, remainder, false},
    {"erf", F_FLOAT, 1, 1, NULL, erf, NULL, false},
    {"erfc", F_FLOAT, 1, 1, NULL, erfc, NULL, false},
    {"gamma", F_FLOAT, 1, 1, NULL, tgamma, NULL, false},
    {"lgamma", F_FLOAT, 1, 1, NULL, lgamma, NULL, false},
    {"float", F_FLOAT, 1, 1, NULL, f_float, NULL, true},
};
#define NFUNCS (sizeof functions / sizeof functions[0])
_Static_assert(sizeof functions / sizeof functions[0] <= 64, "funcs bitmask is 64 bits");

static const struct fdef *find_function(const char *name) {
    for (size_t i = 0; i < NFUNCS; i++)
        if (strcmp(functions[i].name, name) == 0) return &functions[i];
    return NULL;
}

/* ---- binary64 evaluation --------------------------------------------------- */

/* Apply f in binary64 with Python's math-module error rules; out receives the
 * exact rational of the result's shortest repr. */
static int call_binary64(struct ev *e, const struct fdef *f, struct val *a, int n, mpq_t out) {
    double x[2] = {0, 0};
    for (int i = 0; i < n; i++)
        if (q_to_double(a[i].q, &x[i]) != 0) return fail(e, "validation", "math range error");
    feclearexcept(FE_ALL_EXCEPT);
    double r;
    if (f->f1 == log && n == 2) {
        double den = log(x[1]);
        r = log(x[0]);
        if (den == 0 && !fetestexcept(FE_INVALID | FE_DIVBYZERO))
            return fail(e, "validation", "division by zero");
        r /= den;
    } else {
        r = f->f1 ? f->f1(x[0]) : f->f2(x[0], x[1]);
    }
    int flags = fetestexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW);
    if (!f->raw) {
        if (isnan(r) || (flags & FE_INVALID)) return fail(e, "validation", "math domain error");
        if (isinf(r) && (flags & FE_DIVBYZERO)) return fail(e, "validation", "math domain error");
        if (isinf(r) && (flags & FE_OVERFLOW)) return fail(e, "validation", "math range error");
    }
    if (!isfinite(r)) return fail(e, "validation", "%s produced non-finite result", f->name);
    e->funcs |= 1ull << (f - functions);
    q_from_double(r, out);
    return 0;
}

/* ---- evaluation ------------------------------------------------------------- */

static int eval(struct ev *e, const node *n, struct val *out);

static int eval_args(struct ev *e, const node *n, struct val *a) {
    for (uint32_t i = 0; i < n->nchild; i++)
        if (eval(e, n->child[i], &a[i]) != 0) return -1;
    return 0;
}

static int eval_call(struct ev *e, const node *n, mpq_t out) {
    const struct fdef *f = n->v.name[0] ? find_function(n->v.name) : NULL;
    if (!f) return fail(e, "validation", "only whitelisted math functions are callable");
    int argc = (int)n->nchild;
    if (argc < f->min_args || (f->max_args >= 0 && argc > f->max_args)) {
        if (f->max_args < 0)
            return fail(e, "validation", "%s() takes at least %d arguments (%d given)", f->name,
                        f->min_args, argc);
        if (f->min_args == f->max_args)
            return fail(e, "validation", "%s() takes %d argument%s (%d given)", f->name,
                        f->min_args, f->min_args == 1 ? "" : "s", argc);
        return fail(e, "validation", "%s() takes %d to %d arguments (%d given)", f->name,
                    f->min_args, f->max_args, argc);
    }
    struct val *a = calloc(argc ? (size_t)argc : 1, sizeof *a);
    if (!a) return fail(e, "resource_exhausted", "expression exhausted the memory ceiling");
    for (int i = 0; i < argc; i++) mpq_init(a[i].q);
    int rc = eval_args(e, n, a);
    if (rc == 0) rc = f->kind == F_FLOAT ? call_binary64(e, f, a, argc, out)
                                         : f->exact(e, f, a, argc, out);
    for (int i = 0; i < argc; i++) mpq_clear(a[i].q);
    free(a);
    return rc;
}

static int eval_literal(struct ev *e, const node *n, mpq_t out) {
    if (n->kind == CC_N_INT) {
        mpq_set_z(out, n->v.z);
        return 0;
    }
    if (n->flags & CC_NF_IMAG) return fail(e, "validation", "unsupported literal %s", n->v.f.text);
    if (!isfinite(n->v.f.d))
        return fail(e, "validation", "decimal literal %s is outside the binary64 range",
                    n->v.f.text);
    q_from_double(n->v.f.d, out);
    return 0;
}

static int eval_name(struct ev *e, const node *n, mpq_t out) {
    static const char *const names[] = {"pi", "e", "tau"};
    static const double values[] = {M_PI, M_E, 2 * M_PI};
    for (int i = 0; i < 3; i++)
        if (strcmp(n->v.name, names[i]) == 0) {
            mpq_set_d(out, values[i]); /* the double's exact value */
            e->consts |= 1u << i;
            return 0;
        }
    return fail(e, "validation", "unknown name '%.200s'", n->v.name);
}

static int eval_unary(struct ev *e, const node *n, struct val *out) {
    if (n->op == CC_OP_NOT) return fail(e, "validation", "unsupported unary op");
    if (n->op == CC_OP_FACT) return fail(e, "validation", "unsupported syntax: factorial '!'");
    if (eval(e, n->child[0], out) != 0) return -1;
    out->is_bool = false;
    if (n->op == CC_OP_NEG) {
        mpq_neg(out->q, out->q);
    } else if (n->op == CC_OP_INVERT) {
        /* ~x = -(trunc(x)) - 1 */
        mpz_t z;
        mpz_init(z);
        mpz_tdiv_q(z, mpq_numref(out->q), mpq_denref(out->q));
        mpz_com(z, z);
        mpq_set_z(out->q, z);
        mpz_clear(z);
    }
    return 0;
}

/* Power rules of 3.3.1, all checked before anything is computed. */
static int eval_pow(struct ev *e, const mpq_t a, const mpq_t b, mpq_t out) {
    mpq_t mag;
    mpq_init(mag);
    mpq_abs(mag, b);
    bool too_big = mpq_cmp_ui(mag, POW_EXP_LIMIT, 1) > 0;
    mpq_clear(mag);
    if (too_big) {
        char *s = show(b);
        fail(e, "resource_exhausted",
             "exponent %s exceeds the limit (%d) for exact exponentiation", s ? s : "?",
             POW_EXP_LIMIT);
        free(s);
        return -1;
    }
    if (is_int(b)) {
        long k = mpz_get_si(mpq_numref(b));
        if (mpq_sgn(a) == 0) {
            if (k < 0) return fail(e, "validation", "division by zero");
            mpq_set_ui(out, k == 0 ? 1 : 0, 1);
            return 0;
        }
        size_t bl = mpz_sizeinbase(mpq_numref(a), 2), dl = mpz_sizeinbase(mpq_denref(a), 2);
        unsigned long bits = (unsigned long)(bl > dl ? bl : dl) * (unsigned long)labs(k);
        if (bits > POW_BITS_LIMIT) {
            char *sa = show(a), *sb = show(b);
            fail(e, "resource_exhausted",
                 "%s**%s would need ~%lu bits to represent, exceeding the limit (%lu) for exact "
                 "exponentiation", sa ? sa : "?", sb ? sb : "?", bits, POW_BITS_LIMIT);
            free(sa);
            free(sb);
            return -1;
        }
        mpz_pow_ui(mpq_numref(out), mpq_numref(a), (unsigned long)labs(k));
        mpz_pow_ui(mpq_denref(out), mpq_denref(a), (unsigned long)labs(k));
        mpq_canonicalize(out);
        if (k < 0) mpq_inv(out, out);
        return 0;
    }
    if (mpq_sgn(a) < 0)
        return fail(e, "validation", "negative base with a non-integer exponent has no real value");
    if (mpq_sgn(a) == 0 && mpq_sgn(b) < 0) return fail(e, "validation", "division by zero");
    struct val args[2];
    mpq_inits(args[0].q, args[1].q, NULL);
    mpq_set(args[0].q, a);
    mpq_set(args[1].q, b);
    int rc = call_binary64(e, find_function("pow"), args, 2, out);
    mpq_clears(args[0].q, args[1].q, NULL);
    return rc;
}

static const char *op_text(enum cc_op op) {
    switch (op) {
    case CC_OP_BITAND: return "&";
    case CC_OP_BITOR: return "|";
    case CC_OP_BITXOR: return "^";
    case CC_OP_LSHIFT: return "<<";
    case CC_OP_RSHIFT: return ">>";
    default: return "?";
    }
}

static int eval_shift(struct ev *e, enum cc_op op, const mpz_t a, const mpz_t b, mpz_t out) {
    if (mpz_sgn(b) < 0) {
        char *s = mpz_get_str(NULL, 10, b);
        fail(e, "validation", "negative shift count %s", s ? s : "?");
        if (s) gmp_str_free(s);
        return -1;
    }
    if (op == CC_OP_RSHIFT) {
        if (!mpz_fits_ulong_p(b)) mpz_set_si(out, mpz_sgn(a) < 0 ? -1 : 0);
        else mpz_fdiv_q_2exp(out, a, mpz_get_ui(b));
        return 0;
    }
    if (mpz_sgn(a) == 0) {
        mpz_set_ui(out, 0);
        return 0;
    }
    if (!mpz_fits_ulong_p(b) || mpz_get_ui(b) > SHIFT_BITS_LIMIT)
        return fail(e, "resource_exhausted",
                    "a left shift by more than %lu bits exceeds the limit for exact results",
                    SHIFT_BITS_LIMIT);
    mpz_mul_2exp(out, a, mpz_get_ui(b));
    return 0;
}

static int eval_bitwise(struct ev *e, enum cc_op op, const mpq_t a, const mpq_t b, mpq_t out) {
    for (int side = 0; side < 2; side++) {
        const mpq_ptr v = (mpq_ptr)(side ? b : a);
        if (!is_int(v)) {
            char *s = show(v);
            fail(e, "validation", "bitwise %s needs integers; %s operand is %s", op_text(op),
                 side ? "right" : "left", s ? s : "?");
            free(s);
            return -1;
        }
    }
    mpz_t z;
    mpz_init(z);
    int rc = 0;
    const mpz_ptr x = (mpz_ptr)mpq_numref(a), y = (mpz_ptr)mpq_numref(b);
    switch (op) {
    case CC_OP_BITAND: mpz_and(z, x, y); break;
    case CC_OP_BITOR: mpz_ior(z, x, y); break;
    case CC_OP_BITXOR: mpz_xor(z, x, y); break;
    default: rc = eval_shift(e, op, x, y, z); break;
    }
    if (rc == 0) mpq_set_z(out, z);
    mpz_clear(z);
    return rc;
}

static int eval_arith(struct ev *e, enum cc_op op, const mpq_t a, const mpq_t b, mpq_t out) {
    switch (op) {
    case CC_OP_ADD: mpq_add(out, a, b); return 0;
    case CC_OP_SUB: mpq_sub(out, a, b); return 0;
    case CC_OP_MUL: mpq_mul(out, a, b); return 0;
    case CC_OP_POW: return eval_pow(e, a, b, out);
    default: break;
    }
    if (mpq_sgn(b) == 0) return fail(e, "validation", "division by zero");
    if (op == CC_OP_DIV) {
        mpq_div(out, a, b);
        return 0;
    }
    /* floor(a/b), and a - b*floor(a/b) for % */
    mpq_t t;
    mpz_t fl;
    mpq_init(t);
    mpz_init(fl);
    mpq_div(t, a, b);
    mpz_fdiv_q(fl, mpq_numref(t), mpq_denref(t));
    mpq_set_z(t, fl);
    if (op == CC_OP_FLOORDIV) {
        mpq_set(out, t);
    } else {
        mpq_mul(t, t, b);
        mpq_sub(out, a, t);
    }
    mpq_clear(t);
    mpz_clear(fl);
    return 0;
}

static int eval_binary(struct ev *e, const node *n, struct val *out) {
    if (n->op == CC_OP_AND || n->op == CC_OP_OR)
        return fail(e, "validation", "unsupported syntax: BoolOp");
    struct val r;
    mpq_init(r.q);
    r.is_bool = false;
    int rc = eval(e, n->child[0], out);
    if (rc == 0) rc = eval(e, n->child[1], &r);
    if (rc == 0) {
        out->is_bool = false;
        if (n->op >= CC_OP_BITAND && n->op <= CC_OP_RSHIFT)
            rc = eval_bitwise(e, n->op, out->q, r.q, out->q);
        else
            rc = eval_arith(e, n->op, out->q, r.q, out->q);
    }
    mpq_clear(r.q);
    return rc;
}

static int eval_compare(struct ev *e, const node *n, struct val *out) {
    if (n->nchild != 2) return fail(e, "validation", "chained comparisons not supported");
    struct val r;
    mpq_init(r.q);
    int rc = eval(e, n->child[0], out);
    if (rc == 0) rc = eval(e, n->child[1], &r);
    if (rc == 0) {
        int c = mpq_cmp(out->q, r.q);
        bool t = false;
        switch (n->cmp_ops[0]) {
        case CC_OP_EQ: t = c == 0; break;
        case CC_OP_NE: t = c != 0; break;
        case CC_OP_LT: t = c < 0; break;
        case CC_OP_LE: t = c <= 0; break;
        case CC_OP_GT: t = c > 0; break;
        case CC_OP_GE: t = c >= 0; break;
        default: rc = fail(e, "internal", "unknown comparison operator"); break;
        }
        /* A comparison used as a number is 0 or 1, as in Python. */
        mpq_set_ui(out->q, t, 1);
        out->is_bool = true;
    }
    mpq_clear(r.q);
    return rc;
}

static int eval_node(struct ev *e, const node *n, struct val *out) {
    out->is_bool = false;
    switch (n->kind) {
    case CC_N_INT:
    case CC_N_FLOAT: return eval_literal(e, n, out->q);
    case CC_N_BOOL:
        return fail(e, "validation", "unsupported literal %s", n->v.b ? "True" : "False");
    case CC_N_NAME: return eval_name(e, n, out->q);
    case CC_N_UNARY: return eval_unary(e, n, out);
    case CC_N_BINARY: return eval_binary(e, n, out);
    case CC_N_COMPARE: return eval_compare(e, n, out);
    case CC_N_CALL: return eval_call(e, n, out->q);
    case CC_N_TUPLE: return fail(e, "validation", "unsupported syntax: Tuple");
    }
    return fail(e, "internal", "unknown expression node");
}

static int eval(struct ev *e, const node *n, struct val *out) {
    if (++e->depth > EVAL_DEPTH_LIMIT)
        return fail(e, "resource_exhausted", "expression too deeply nested");
    int rc = eval_node(e, n, out);
    e->depth--;
    return rc;
}

/* ---- pipeline --------------------------------------------------------------- */

void cc_calc_outcome_init(struct cc_calc_outcome *o) {
    memset(o, 0, sizeof *o);
    mpq_init(o->q);
}

void cc_calc_outcome_clear(struct cc_calc_outcome *o) {
    free(o->message);
    o->message = NULL;
    mpq_clear(o->q);
}

static void set_failure(struct cc_calc_outcome *o, const char *code, const char *msg) {
    o->ok = false;
    o->code = code;
    free(o->message);
    o->message = strdup(msg ? msg : "expression exhausted the memory ceiling");
}

/* |x| >= 10**4300 means more than 4300 decimal digits. */
static bool too_large_to_format(const mpq_t q) {
    if (mpz_sizeinbase(mpq_numref(q), 10) <= FORMAT_DIGITS &&
        mpz_sizeinbase(mpq_denref(q), 10) <= FORMAT_DIGITS)
        return false;
    mpz_t lim;
    mpz_init(lim);
    mpz_ui_pow_ui(lim, 10, FORMAT_DIGITS);
    bool big = mpz_cmpabs(mpq_numref(q), lim) >= 0 || mpz_cmp(mpq_denref(q), lim) >= 0;
    mpz_clear(lim);
    return big;
}

void cc_calc_evaluate(const char *src, size_t len, struct cc_calc_outcome *o) {
    struct cc_expr_error err = {0};
    if (cc_expr_screen(src, len, &err) != 0) {
        set_failure(o, err.code, err.message);
        return;
    }
    struct cc_arena *a = cc_arena_new();
    if (!a) {
        set_failure(o, "resource_exhausted", NULL);
        return;
    }
    const node *root = cc_expr_parse(a, src, len, CC_DIALECT_PYTHON, &err);
    if (!root) {
        set_failure(o, err.code, err.message);
        cc_arena_free(a);
        return;
    }
    struct ev e = {0};
    struct val v;
    mpq_init(v.q);
    v.is_bool = false;
    if (eval(&e, root, &v) != 0) {
        set_failure(o, e.code, e.msg);
    } else if (v.is_bool) {
        o->ok = true;
        o->is_bool = true;
        o->truth = mpq_sgn(v.q) != 0;
    } else if (too_large_to_format(v.q)) {
        set_failure(o, "resource_exhausted", "result too large to format");
    } else {
        o->ok = true;
        mpq_set(o->q, v.q);
        o->funcs = e.funcs;
        o->consts = e.consts;
    }
    free(e.msg);
    mpq_clear(v.q);
    cc_arena_free(a);
}

/* ---- rendering ------------------------------------------------------------------ */

/* E with 10**E <= |p/q| < 10**(E+1), for p != 0. */
static long decimal_exponent(const mpz_t p, const mpz_t q) {
    long e10 = (long)mpz_sizeinbase(p, 10) - (long)mpz_sizeinbase(q, 10);
    mpz_t l, r, t;
    mpz_inits(l, r, t, NULL);
    for (;;) {
        /* compare |p| with q*10**e10 and q*10**(e10+1) */
        mpz_abs(l, p);
        mpz_set(r, q);
        mpz_ui_pow_ui(t, 10, (unsigned long)labs(e10));
        if (e10 >= 0) mpz_mul(r, r, t);
        else mpz_mul(l, l, t);
        if (mpz_cmp(l, r) < 0) {
            e10--;
            continue;
        }
        mpz_mul_ui(r, r, 10);
        if (mpz_cmp(l, r) >= 0) {
            e10++;
            continue;
        }
        break;
    }
    mpz_clears(l, r, t, NULL);
    return e10;
}

char *cc_calc_approx_str(const mpq_t q) {
    if (mpq_sgn(q) == 0) return strdup("0");
    const mpz_ptr p = (mpz_ptr)mpq_numref(q), d = (mpz_ptr)mpq_denref(q);
    long e10 = decimal_exponent(p, d);
    /* N = round(|q| * 10**(49-E)): 50 significant digits, unit 10**(E-49). */
    mpz_t num, den, t, n;
    mpz_inits(num, den, t, n, NULL);
    mpz_abs(num, p);
    mpz_set(den, d);
    long k = 49 - e10;
    mpz_ui_pow_ui(t, 10, (unsigned long)labs(k));
    if (k >= 0) mpz_mul(num, num, t);
    else mpz_mul(den, den, t);
    div_half_even(n, num, den);
    /* Now to a multiple of 10**-12: M = N * 10**(unit+12), rounded when the
     * unit is finer than 10**-12. */
    long unit = e10 - 49;
    if (unit >= -12) {
        mpz_ui_pow_ui(t, 10, (unsigned long)(unit + 12));
        mpz_mul(n, n, t);
    } else {
        mpz_ui_pow_ui(t, 10, (unsigned long)(-12 - unit));
        mpz_set(num, n);
        div_half_even(n, num, t);
    }
    char *digits = mpz_get_str(NULL, 10, n);
    char *out = NULL;
    if (digits) {
        size_t nd = strlen(digits);
        /* at least 13 digits so the point has something on its left */
        size_t pad = nd < 13 ? 13 - nd : 0;
        out = malloc(nd + pad + 3);
        if (out) {
            char *o = out;
            if (mpq_sgn(q) < 0 && mpz_sgn(n) != 0) *o++ = '-';
            memset(o, '0', pad);
            memcpy(o + pad, digits, nd);
            size_t total = nd + pad;
            memmove(o + total - 11, o + total - 12, 12);
            o[total - 12] = '.';
            o[total + 1] = '\0';
            size_t L = strlen(out);
            while (out[L - 1] == '0') out[--L] = '\0';
            if (out[L - 1] == '.') out[--L] = '\0';
        }
        gmp_str_free(digits);
    }
    mpz_clears(num, den, t, n, NULL);
    return out;
}

/* ---- the tool --------------------------------------------------------------------- */

static const char *const const_names[] = {"pi", "e", "tau"};

static int by_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* approximated list and note (3.3.1), for a non-exact result. */
static void add_approximation(json_t *r, const struct cc_calc_outcome *o, bool integral) {
    const char *fn[NFUNCS], *cs[3];
    size_t nf = 0, nc = 0;
    for (size_t i = 0; i < NFUNCS && !integral; i++)
        if (o->funcs & (1ull << i)) fn[nf++] = functions[i].name;
    for (size_t i = 0; i < 3; i++)
        if (o->consts & (1u << i)) cs[nc++] = const_names[i];
    qsort(fn, nf, sizeof *fn, by_name);
    qsort(cs, nc, sizeof *cs, by_name);
    json_t *list = json_array();
    char joined[512] = "";
    for (size_t i = 0; i < nf; i++) json_array_append_new(list, json_string(fn[i]));
    for (size_t i = 0; i < nc; i++) json_array_append_new(list, json_string(cs[i]));
    const char **names = nc ? cs : fn;
    size_t count = nc ? nc : nf;
    for (size_t i = 0; i < count; i++) {
        size_t used = strlen(joined);
        snprintf(joined + used, sizeof joined - used, "%s%s", i ? ", " : "", names[i]);
    }
    json_object_set_new(r, "approximated", list);
    char *note = NULL;
    int rc = nc ? asprintf(&note, "%s is irrational; the value used is the exact rational form of "
                                  "its binary64 approximation, so this result is NOT exact", joined)
                : asprintf(&note, "%s has no exact rational form; the value shown is the exact "
                                  "rational of a binary64 approximation, so this result is NOT "
                                  "exact", joined);
    if (rc >= 0) {
        json_object_set_new(r, "note", json_string(note));
        free(note);
    }
}

static json_t *render_number(const struct cc_calc_outcome *o) {
    char *value = cc_calc_q_str(o->q), *approx = cc_calc_approx_str(o->q);
    if (!value || !approx) {
        free(value);
        free(approx);
        return cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    }
    bool integral = is_int(o->q);
    bool exact = o->consts == 0 && (o->funcs == 0 || integral);
    json_t *r = cc_ok();
    json_object_set_new(r, "value", json_string(value));
    json_object_set_new(r, "approx", json_string(approx));
    json_object_set_new(r, "exact", json_boolean(exact));
    json_object_set_new(r, "differs_from_decimal", json_boolean(strcmp(value, approx) != 0));
    json_object_set_new(r, "type", json_string("rational"));
    if (!exact) add_approximation(r, o, integral);
    free(value);
    free(approx);
    return r;
}

json_t *cc_calc_exact(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *j = json_object_get(args, "expr");
    if (!json_is_string(j)) return cc_err("validation", "expr must be a string");
    struct cc_calc_outcome o;
    cc_calc_outcome_init(&o);
    cc_calc_evaluate(json_string_value(j), json_string_length(j), &o);
    json_t *r;
    if (!o.ok) {
        r = cc_err(o.code, "%s", o.message ? o.message : "evaluation failed");
    } else if (o.is_bool) {
        r = cc_ok();
        json_object_set_new(r, "value", json_boolean(o.truth));
        json_object_set_new(r, "type", json_string("bool"));
    } else {
        r = render_number(&o);
    }
    cc_calc_outcome_clear(&o);
    return r;
}
