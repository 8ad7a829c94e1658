/* Numeric cross-check of two expressions (see sym_numcheck.h). */
#include "workers/symbolic/sym_numcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_profile.h"

static void compare(const struct cc_node *a, const struct cc_node *b, const struct sym_domains *d,
                    int tries, enum sym_numcheck_stop stop, struct sym_num_verdict *out);

#define MAX_SYMS 32
#define NICE 16
#define MIXED_REAL 4
/* 128-bit arithmetic carries ~38 digits; cancellation in a legitimate
 * identity costs some of them, a false one differs in the leading digits. */
#define REL_TOL_EXP (-25)

/* xorshift64*: deterministic, so a verdict is reproducible. */
static unsigned long long next(unsigned long long *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static long range(unsigned long long *s, long lo, long hi) {
    return lo + (long)(next(s) % (unsigned long long)(hi - lo + 1));
}

/* Point k of domain d: simple values first, then p/8 (+ q/8 I). */
static void sample(enum cc_num_dom d, int k, unsigned long long *s, mpc_t out) {
    /* in eighths. -1, -2 and I sit on or next to the usual branch cuts;
     * -1 + 4I and 2 - 5I lie outside the strip |Im z| < pi where
     * log(exp(z)) = z. Then both real and both imaginary half-axes, at a
     * small and a large modulus: an identity that fails only on a cut
     * (log(1/(-x)) = -log(-x) fails for x > 0 alone) or only near 0
     * (atan(tan(1/x)) = 1/x) has no other witness, and random points almost
     * never land on a line. The negative reals -1/4 and -5/2 are not
     * integers: ((3*x)**(-1))**x = (3*x)**(-x) holds at every integer. */
    static const int nice_re[] = {-8, -16, 0, 8, 24, -8, 16, -24, 0, 8, 2, 28, 0, 0, -2, -20};
    static const int nice_im[] = {0, 0, 8, 8, -8, 32, -40, 16, -16, 0, 0, 0, -2, 24, 0, 0};
    long re = 0, im = 0;
    switch (d) {
    case CC_DOM_INTEGER: re = k < 3 ? (long[]){-1, -2, 3}[k] * 8 : range(s, -7, 7) * 8; break;
    /* (redsym10) the positive reals start at 1/8 and 17/4: holds_for
     * claimed "x > 0" for 1/acos(cos(1/x)) = x, false wherever 1/x > pi
     * (x = 0.15), which random eighths in [1/8, 17/4] seldom reached */
    case CC_DOM_POSITIVE: re = k < 2 ? (long[]){1, 34}[k] : range(s, 1, 34); break;
    case CC_DOM_NONNEG: re = k < 2 ? (long[]){0, 1}[k] : range(s, 1, 34); break;
    case CC_DOM_REAL: re = k < 4 ? (long[]){-8, -16, 16, 1}[k] : range(s, -34, 34); break;
    case CC_DOM_COMPLEX:
        if (k < NICE) {
            re = nice_re[k];
            im = nice_im[k];
        } else {
            re = range(s, -48, 48);
            im = range(s, -48, 48);
        }
        break;
    }
    mpc_set_si_si(out, re, im, MPC_RNDNN);
    mpc_div_ui(out, out, 8, MPC_RNDNN);
}

/* Points past the usual ones, for two or more symbols: every symbol real,
 * of mixed signs, so that a product or sum of them is a negative real. An
 * identity that fails only there (acosh(z)**2 = log(z + sqrt(z**2 -
 * 1))**2 holds off the real line below -1) had no witness among the
 * others: simplify rewrote acosh(x*y)**2 so, and the check agreed. */
static void mixed_real(enum cc_num_dom d, int i, unsigned long long *s, mpc_t out) {
    static const int eighths[] = {-16, 12, -20, 24, 10, -12};
    if (d != CC_DOM_COMPLEX && d != CC_DOM_REAL) {
        sample(d, NICE + i, s, out);
        return;
    }
    mpc_set_si_si(out, eighths[i % (int)(sizeof eighths / sizeof *eighths)], 0, MPC_RNDNN);
    mpc_div_ui(out, out, 8, MPC_RNDNN);
}

static enum cc_num_dom domain_of(const struct sym_domains *d, const char *name) {
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->names[i], name))
            return d->doms[i];
    return d->dflt;
}

static void print_c(char *buf, size_t cap, const mpc_t z) {
    double re = mpfr_get_d(mpc_realref(z), MPFR_RNDN), im = mpfr_get_d(mpc_imagref(z), MPFR_RNDN);
    if (im == 0)
        snprintf(buf, cap, "%.12g", re);
    else if (re == 0)
        snprintf(buf, cap, "%.12g*I", im);
    else
        snprintf(buf, cap, "%.12g %c %.12g*I", re, im < 0 ? '-' : '+', im < 0 ? -im : im);
}

static void note_witness(struct sym_num_verdict *out, const char **names, mpc_t *vals, size_t n,
                         const mpc_t va, const mpc_t vb) {
    size_t used = 0;
    out->witness[0] = '\0';
    for (size_t i = 0; i < n && used < sizeof out->witness; i++) {
        char v[64];
        print_c(v, sizeof v, vals[i]);
        used += (size_t)snprintf(out->witness + used, sizeof out->witness - used, "%s%s = %s",
                                 i ? ", " : "", names[i], v);
    }
    print_c(out->va, sizeof out->va, va);
    print_c(out->vb, sizeof out->vb, vb);
}

/* |va - vb| > 10^REL_TOL_EXP * max(1, |va|, |vb|)? The temporaries and
 * the tolerance are made once and kept (the worker is single-threaded):
 * the same precision and roundings as fresh ones, so the same verdicts. */
/* The tolerance's exponent: REL_TOL_EXP, or a float's while
 * sym_numcheck_float_tolerance is on. */
static int tol_exp = REL_TOL_EXP;

void sym_numcheck_float_tolerance(bool on) { tol_exp = on ? SYM_NC_FLOAT_TOL_EXP : REL_TOL_EXP; }

static bool differ(const mpc_t va, const mpc_t vb) {
    static mpc_t d;
    static mpfr_t m, s, t, tol;
    static bool ready;
    static int made_for;
    if (!ready) {
        mpc_init2(d, SYM_NUM_BITS);
        mpfr_inits2(SYM_NUM_BITS, m, s, t, tol, (mpfr_ptr)0);
        ready = true;
        made_for = 0;
    }
    if (made_for != tol_exp) {
        mpfr_set_si(tol, 10, MPFR_RNDN);
        mpfr_pow_si(tol, tol, tol_exp, MPFR_RNDN);
        made_for = tol_exp;
    }
    mpc_sub(d, va, vb, MPC_RNDNN);
    mpc_abs(m, d, MPFR_RNDN);
    /* the bound is max(1, |va|, |vb|) * tol rounded, never below tol
     * (rounding is monotone): a difference within tol is within the bound,
     * and the two moduli need not be computed (an agreeing point, the
     * common case; two of its three square roots) */
    if (mpfr_cmp(m, tol) <= 0)
        return false;
    mpfr_set_ui(s, 1, MPFR_RNDN);
    mpc_abs(t, va, MPFR_RNDN);
    mpfr_max(s, s, t, MPFR_RNDN);
    mpc_abs(t, vb, MPFR_RNDN);
    mpfr_max(s, s, t, MPFR_RNDN);
    mpfr_mul(s, s, tol, MPFR_RNDN);
    return mpfr_cmp(m, s) > 0;
}

/* A difference at SYM_NUM_BITS that is not rounding noise: noise shrinks
 * as the bits grow, a true difference keeps its size. A true identity with
 * large cancelling terms loses digits at 128 bits (cosh(x*y)**2 -
 * sinh(x*y)**2 at x*y = 18 + 13*I, terms of 1e15, was 1 to 22 digits, not
 * the 25 asked) and was called not identical, with a counterexample where
 * both sides printed 1. Re-evaluated at 512 bits, noise falls by far more
 * than 2^200; a difference of any size (x**(1/2) against x**0.5 +
 * 10**-25, at the tolerance itself) stays. A point that cannot be
 * evaluated there keeps the difference. */
static bool still_differ(const struct cc_node *a, const struct cc_node *b, const struct sym_point *p,
                         const mpc_t va, const mpc_t vb) {
    mpc_t x, y, d;
    mpfr_t lo, hi;
    mpfr_prec_t bits = 4 * SYM_NUM_BITS;
    mpc_init2(x, bits);
    mpc_init2(y, bits);
    mpc_init2(d, bits);
    mpfr_inits2(bits, lo, hi, (mpfr_ptr)0);
    bool differs = true;
    if (sym_numeval_at(a, p, x) == 0 &&
        (b ? sym_numeval_at(b, p, y) == 0 : (mpc_set_ui(y, 0, MPC_RNDNN), true))) {
        mpc_sub(d, va, vb, MPC_RNDNN);
        mpc_abs(lo, d, MPFR_RNDN);
        mpc_sub(d, x, y, MPC_RNDNN);
        mpc_abs(hi, d, MPFR_RNDN);
        differs = !mpfr_number_p(hi) || !mpfr_number_p(lo) ||
                  (!mpfr_zero_p(hi) && mpfr_get_exp(hi) >= mpfr_get_exp(lo) - 200);
    }
    mpc_clear(x);
    mpc_clear(y);
    mpc_clear(d);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return differs;
}

void sym_numcheck_until(const struct cc_node *a, const struct cc_node *b,
                        const struct sym_domains *d, int tries, enum sym_numcheck_stop stop,
                        struct sym_num_verdict *out) {
    enum sym_phase prev = sym_prof_enter(SYM_PH_NUMERIC);
    compare(a, b, d, tries, stop, out);
    sym_prof_leave(prev);
}

void sym_numcheck(const struct cc_node *a, const struct cc_node *b, const struct sym_domains *d,
                  int tries, struct sym_num_verdict *out) {
    sym_numcheck_until(a, b, d, tries, SYM_NC_ALL, out);
}

/* a and b are the same tree (what the evaluator reads of them): their
 * values are then the same at every point, bit for bit. */
static bool same_tree(const struct cc_node *a, const struct cc_node *b) {
    if (a->kind != b->kind || a->op != b->op || a->flags != b->flags || a->nchild != b->nchild)
        return false;
    switch (a->kind) {
    case CC_N_INT:
        if (mpz_cmp(a->v.z, b->v.z) != 0)
            return false;
        break;
    case CC_N_FLOAT:
        if (a->v.f.d != b->v.f.d || strcmp(a->v.f.text, b->v.f.text) != 0)
            return false;
        break;
    case CC_N_BOOL:
        if (a->v.b != b->v.b)
            return false;
        break;
    case CC_N_NAME:
    case CC_N_CALL:
        if (strcmp(a->v.name, b->v.name) != 0)
            return false;
        break;
    case CC_N_COMPARE:
        for (uint32_t i = 0; i + 1 < a->nchild; i++)
            if (a->cmp_ops[i] != b->cmp_ops[i])
                return false;
        break;
    default: break;
    }
    for (uint32_t i = 0; i < a->nchild; i++)
        if (!same_tree(a->child[i], b->child[i]))
            return false;
    return true;
}

/* Point k of a check of `tries` points: symbol j takes the simple value
 * k + j, so both x = y = -1 and x = -1, y = -2 occur among the first
 * points; past `tries`, the mixed real ones. */
static void set_point(const struct sym_domains *d, const char *const *names, size_t n, int k, int tries,
                      unsigned long long *seed, mpc_t *vals) {
    for (size_t j = 0; j < n; j++)
        if (k >= tries)
            mixed_real(domain_of(d, names[j]), k - tries + (int)j, seed, vals[j]);
        else
            sample(domain_of(d, names[j]), k < NICE ? (k + (k ? (int)j : 0)) % NICE : k, seed, vals[j]);
}

static bool stop_now(enum sym_numcheck_stop stop, const struct sym_num_verdict *v) {
    return (stop != SYM_NC_ALL && v->mismatches > 0) ||
           (stop == SYM_NC_DISAGREEMENT && v->a_only > 0);
}

static void compare(const struct cc_node *a, const struct cc_node *b, const struct sym_domains *d,
                    int tries, enum sym_numcheck_stop stop, struct sym_num_verdict *out) {
    memset(out, 0, sizeof *out);
    /* no point could evaluate: the verdict is "no points", without trying */
    if (sym_numeval_never(a) || (b && sym_numeval_never(b)))
        return;
    const char *names[MAX_SYMS];
    size_t n = 0;
    sym_numeval_symbols(a, names, &n, MAX_SYMS);
    if (b)
        sym_numeval_symbols(b, names, &n, MAX_SYMS);
    mpc_t vals[MAX_SYMS], va, vb;
    mpc_srcptr cvals[MAX_SYMS];
    for (size_t i = 0; i < n; i++) {
        mpc_init2(vals[i], SYM_NUM_BITS);
        cvals[i] = vals[i];
    }
    mpc_init2(va, SYM_NUM_BITS);
    mpc_init2(vb, SYM_NUM_BITS);
    struct sym_point p = {n, names, cvals};
    unsigned long long seed = 0x9E3779B97F4A7C15ULL;
    int want = n ? tries : 1;
    if (n >= 2 && tries >= NICE)
        want += MIXED_REAL;
    /* giac often prints the input back as written: b need not be evaluated */
    bool same = b && same_tree(a, b);
    for (int k = 0; k < want && !stop_now(stop, out); k++) {
        out->tried = k + 1;
        set_point(d, names, n, k, tries, &seed, vals);
        if (sym_numeval(a, &p, va) < 0)
            continue;
        if (same) {
            out->points++;
            continue;
        }
        if (b ? sym_numeval(b, &p, vb) < 0 : (mpc_set_ui(vb, 0, MPC_RNDNN), 0)) {
            if (out->a_only++ == 0 && out->mismatches == 0) {
                mpc_set_nan(vb);
                note_witness(out, names, vals, n, va, vb);
            }
            continue;
        }
        out->points++;
        if (differ(va, vb) && still_differ(a, b, &p, va, vb) && out->mismatches++ == 0)
            note_witness(out, names, vals, n, va, vb);
    }
    for (size_t i = 0; i < n; i++)
        mpc_clear(vals[i]);
    mpc_clear(va);
    mpc_clear(vb);
}

/* |a - b| at p with out's precision into gap; false when either side
 * cannot be evaluated there. */
static bool gap_at(const struct cc_node *a, const struct cc_node *b, const struct sym_point *p, mpc_t va,
                   mpc_t vb, mpfr_t gap) {
    if (sym_numeval_at(a, p, va) < 0 || sym_numeval_at(b, p, vb) < 0)
        return false;
    mpc_sub(va, va, vb, MPC_RNDNN);
    mpc_abs(gap, va, MPFR_RNDN);
    return mpfr_number_p(gap);
}

int sym_numcheck_hidden_gap(const struct cc_node *a, const struct cc_node *b, const struct sym_domains *d,
                            int tries, struct sym_num_verdict *out) {
    const mpfr_prec_t lo_bits = 2 * SYM_NUM_BITS, hi_bits = 4 * SYM_NUM_BITS;
    const char *names[MAX_SYMS];
    size_t n = 0;
    memset(out, 0, sizeof *out);
    sym_numeval_symbols(a, names, &n, MAX_SYMS);
    sym_numeval_symbols(b, names, &n, MAX_SYMS);
    mpc_t vals[MAX_SYMS], la, lb, ha, hb;
    mpc_srcptr cvals[MAX_SYMS];
    mpfr_t lo, hi;
    for (size_t i = 0; i < n; i++) {
        mpc_init2(vals[i], SYM_NUM_BITS); /* the points of the 128-bit check, exactly */
        cvals[i] = vals[i];
    }
    mpc_init2(la, lo_bits);
    mpc_init2(lb, lo_bits);
    mpc_init2(ha, hi_bits);
    mpc_init2(hb, hi_bits);
    mpfr_init2(lo, lo_bits);
    mpfr_init2(hi, hi_bits);
    struct sym_point p = {n, names, cvals};
    unsigned long long seed = 0x9E3779B97F4A7C15ULL;
    for (int k = 0; k < (n ? tries : 1) && out->mismatches == 0; k++) {
        out->tried = k + 1;
        set_point(d, names, n, k, tries, &seed, vals);
        if (!gap_at(a, b, &p, la, lb, lo) || !gap_at(a, b, &p, ha, hb, hi))
            continue;
        out->points++;
        /* rounding noise falls some 2^256 from 256 to 512 bits; a true
         * difference keeps its size (within 2^8: the 256-bit one is a
         * rounded value of it) */
        if (mpfr_zero_p(lo) || mpfr_zero_p(hi) || mpfr_get_exp(hi) < mpfr_get_exp(lo) - 8)
            continue;
        out->mismatches = 1;
        sym_numeval_at(a, &p, la);
        sym_numeval_at(b, &p, lb);
        note_witness(out, names, vals, n, la, lb);
        mpfr_snprintf(out->gap, sizeof out->gap, "%.6Rg", hi);
        /* lo is free now: the larger value's size there, then the share */
        mpfr_t other;
        mpfr_init2(other, lo_bits);
        mpc_abs(lo, la, MPFR_RNDN);
        mpc_abs(other, lb, MPFR_RNDN);
        mpfr_max(lo, lo, other, MPFR_RNDN);
        mpfr_div(lo, hi, lo, MPFR_RNDN);
        out->gap_share = mpfr_get_d(lo, MPFR_RNDN);
        mpfr_clear(other);
    }
    for (size_t i = 0; i < n; i++)
        mpc_clear(vals[i]);
    mpc_clear(la);
    mpc_clear(lb);
    mpc_clear(ha);
    mpc_clear(hb);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    return out->mismatches;
}

char *sym_numcheck_describe(const struct cc_node *a, const struct cc_node *b,
                            const struct sym_domains *d, enum cc_num_dom dom) {
    static const char *const prefix[] = {"complex ", "real ", "", "", "integer "};
    static const char *const suffix[] = {"", "", " > 0", " >= 0", ""};
    const char *names[MAX_SYMS];
    size_t n = 0, used = 0, cap = 512;
    sym_numeval_symbols(a, names, &n, MAX_SYMS);
    if (b)
        sym_numeval_symbols(b, names, &n, MAX_SYMS);
    char *out = malloc(cap);
    int count = 0;
    for (size_t i = 0; out && i < n && used < cap; i++) {
        bool stated = false;
        for (size_t j = 0; j < d->n; j++)
            stated |= !strcmp(d->names[j], names[i]);
        if (stated)
            continue;
        used += (size_t)snprintf(out + used, cap - used, "%s%s%s%s", count ? ", " : "",
                                 count ? "" : prefix[dom], names[i], suffix[dom]);
        count++;
    }
    if (out && count == 0) {
        free(out);
        out = NULL;
    }
    return out;
}
