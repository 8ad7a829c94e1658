/* A numeric estimate of an infinite series (see sym_sumest.h). */
#include "workers/symbolic/sym_sumest.h"

#include <math.h>
#include <mpc.h>

#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_nwork.h"

#define TERMS 4000
#define TAIL 32
/* the terms' work, counted (sym_nwork.h): about 0.15 s of CPU on the
 * reference host, whatever the host; 4000 terms of a rational term cost
 * 30,000 units, of sin(n)/n**2 180,000, of gamma(1/n) 1,200,000, so only
 * terms with zeta off the integers or complex special values stop sooner */
#define WORK 1500000UL
/* fewer partial sums than this make no estimate */
#define MIN_TERMS 256

/* the averaged estimate from partial sums s[0..n) */
static double averaged(const double *s, int n) {
    double w[TAIL];
    for (int i = 0; i < TAIL; i++)
        w[i] = s[n - TAIL + i];
    for (int m = TAIL; m > 1; m--)
        for (int i = 0; i + 1 < m; i++)
            w[i] = (w[i] + w[i + 1]) / 2;
    return w[0];
}

/* The terms of a series or product: term evaluated at k = start + i by
 * our evaluator at SYM_NUM_BITS, the work counted from term_open (both
 * estimates share this set-up). */
struct term_at {
    const struct cc_node *term;
    long start;
    mpc_t kv, v;
    mpc_srcptr vals[1];
    const char *names[1];
    struct sym_point p;
};

static void term_open(struct term_at *t, const struct cc_node *term, const char *k, long start) {
    t->term = term;
    t->start = start;
    mpc_init2(t->kv, SYM_NUM_BITS);
    mpc_init2(t->v, SYM_NUM_BITS);
    t->vals[0] = t->kv;
    t->names[0] = k;
    t->p = (struct sym_point){1, t->names, t->vals};
    sym_nwork_reset();
}

/* The i-th term's value in t->v; false when it has none */
static bool term_eval(struct term_at *t, int i) {
    mpc_set_si(t->kv, t->start + i, MPC_RNDNN);
    return sym_numeval(t->term, &t->p, t->v) == 0;
}

static void term_close(struct term_at *t) {
    mpc_clear(t->kv);
    mpc_clear(t->v);
}

bool sym_sum_estimate(const struct cc_node *term, const char *k, long start, double *out,
                      double *spread) {
    static double s[TERMS];
    struct term_at t;
    mpfr_t acc;
    mpfr_init2(acc, SYM_NUM_BITS);
    mpfr_set_ui(acc, 0, MPFR_RNDN);
    bool ok = true;
    int small = 0, n = TERMS;
    /* a term costly to evaluate (zeta(1 + 1/n), a complex gamma) must not
     * make the check the slow part of the call: the work is counted, not
     * timed, so the same series gets the same number of terms on any host
     * (a CPU-time cap left it unchecked on a slow or loaded one) */
    term_open(&t, term, k, start);
    for (int i = 0; i < TERMS && ok; i++) {
        if (sym_nwork() > WORK) {
            n = i;
            break;
        }
        ok = term_eval(&t, i);
        if (ok) {
            /* a non-real term is no real series */
            double re = mpfr_get_d(mpc_realref(t.v), MPFR_RNDN);
            double im = mpfr_get_d(mpc_imagref(t.v), MPFR_RNDN);
            ok = isfinite(re) && fabs(im) <= 1e-20 * fmax(1.0, fabs(re));
            mpfr_add(acc, acc, mpc_realref(t.v), MPFR_RNDN);
            s[i] = mpfr_get_d(acc, MPFR_RNDN);
            /* 64 terms in a row below 1e-30 of the sum: a fast series
             * (geometric, factorial) has converged */
            small = fabs(re) <= 1e-30 * fabs(s[i]) ? small + 1 : 0;
            if (small >= 64 && i + 1 >= 2 * TAIL) {
                n = i + 1;
                break;
            }
        }
    }
    term_close(&t);
    mpfr_clear(acc);
    if (!ok || n < 2 * TAIL)
        return false;
    if (small >= 64) {
        *out = s[n - 1];
        *spread = 0;
        return isfinite(*out);
    }
    if (n < MIN_TERMS)
        return false;
    *out = averaged(s, n);
    *spread = fabs(*out - averaged(s, n / 2));
    return isfinite(*out);
}

bool sym_product_estimate(const struct cc_node *term, const char *k, long start, double *out,
                          double *spread) {
    struct term_at t;
    mpfr_t acc, lg;
    mpfr_init2(acc, SYM_NUM_BITS);
    mpfr_init2(lg, SYM_NUM_BITS);
    mpfr_set_ui(acc, 0, MPFR_RNDN);
    double L[4]; /* after 500, 1000, 2000 and 4000 terms */
    bool ok = true;
    term_open(&t, term, k, start);
    for (int i = 0; i < TERMS && ok; i++) {
        ok = sym_nwork() <= WORK && term_eval(&t, i) && mpfr_zero_p(mpc_imagref(t.v)) &&
             mpfr_sgn(mpc_realref(t.v)) > 0;
        if (ok) {
            mpfr_log(lg, mpc_realref(t.v), MPFR_RNDN);
            mpfr_add(acc, acc, lg, MPFR_RNDN);
            for (int j = 0; j < 4; j++)
                if (i + 1 == TERMS >> (3 - j))
                    L[j] = mpfr_get_d(acc, MPFR_RNDN);
        }
    }
    term_close(&t);
    mpfr_clear(acc);
    mpfr_clear(lg);
    if (!ok)
        return false;
    /* each step removes the next power of 1/M from the tail */
    double r1[3], r2[2];
    for (int j = 0; j < 3; j++)
        r1[j] = 2 * L[j + 1] - L[j];
    for (int j = 0; j < 2; j++)
        r2[j] = (4 * r1[j + 1] - r1[j]) / 3;
    *out = (8 * r2[1] - r2[0]) / 7;
    *spread = fabs(r2[1] - r2[0]);
    return isfinite(*out);
}
