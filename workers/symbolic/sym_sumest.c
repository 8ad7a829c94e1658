/* A numeric estimate of an infinite series (see sym_sumest.h). */
#include "workers/symbolic/sym_sumest.h"

#include <math.h>
#include <mpc.h>
#include <time.h>

#include "workers/symbolic/sym_numeval.h"

#define TERMS 4000
#define TAIL 32

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

bool sym_sum_estimate(const struct cc_node *term, const char *k, long start, double *out,
                      double *spread) {
    static double s[TERMS];
    mpc_t kv, v;
    mpc_init2(kv, SYM_NUM_BITS);
    mpc_init2(v, SYM_NUM_BITS);
    mpc_srcptr vals[1] = {kv};
    const char *names[1] = {k};
    struct sym_point p = {1, names, vals};
    mpfr_t acc;
    mpfr_init2(acc, SYM_NUM_BITS);
    mpfr_set_ui(acc, 0, MPFR_RNDN);
    bool ok = true;
    int small = 0, n = TERMS;
    /* a term costly to evaluate (zeta(n), a deep composition) must not
     * make the check the slow part of the call: 0.25 s of CPU at most */
    clock_t t0 = clock();
    for (int i = 0; i < TERMS && ok; i++) {
        if ((i & 63) == 63 && (double)(clock() - t0) > 0.25 * CLOCKS_PER_SEC) {
            ok = false;
            break;
        }
        mpc_set_si(kv, start + i, MPC_RNDNN);
        ok = sym_numeval(term, &p, v) == 0;
        if (ok) {
            /* a non-real term is no real series */
            double re = mpfr_get_d(mpc_realref(v), MPFR_RNDN);
            double im = mpfr_get_d(mpc_imagref(v), MPFR_RNDN);
            ok = isfinite(re) && fabs(im) <= 1e-20 * fmax(1.0, fabs(re));
            mpfr_add(acc, acc, mpc_realref(v), MPFR_RNDN);
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
    mpc_clear(kv);
    mpc_clear(v);
    mpfr_clear(acc);
    if (!ok)
        return false;
    if (n < TERMS) {
        *out = s[n - 1];
        *spread = 0;
        return isfinite(*out);
    }
    *out = averaged(s, TERMS);
    *spread = fabs(*out - averaged(s, TERMS / 2));
    return isfinite(*out);
}
