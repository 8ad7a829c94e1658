/* zeta and Lambert's W at complex arguments (sym_czeta.h). */
#include "workers/symbolic/sym_czeta.h"

#include <math.h>
#include <stdbool.h>

#include "workers/symbolic/sym_cgamma.h"

#define RND MPC_RNDNN
#define GUARD_BITS 32

/* t_k = n (n+k-1)! 4^k / ((n-k)! (2k)!) from t_(k-1) (t_0 = 1) */
static void borwein_term(mpfr_ptr t, unsigned long n, unsigned long k) {
    mpfr_mul_ui(t, t, 4 * (n + k - 1), MPFR_RNDN);
    mpfr_mul_ui(t, t, n - k + 1, MPFR_RNDN);
    mpfr_div_ui(t, t, 2 * k - 1, MPFR_RNDN);
    mpfr_div_ui(t, t, 2 * k, MPFR_RNDN);
}

/* Borwein's algorithm 2 for Re s >= 1/2 at precision p:
 * zeta(s) = -1/(d_n (1 - 2^(1-s))) sum_{k<n} (-1)^k (d_k - d_n)/(k+1)^s,
 * d_k = sum_{i<=k} t_i, with an error below 3 (1 + 2|t|) / ((3 + sqrt 8)^n
 * |gamma(s)| |1 - 2^(1-s)|); |gamma(s)| falls like exp(-pi |t| / 2), so n
 * grows with |t|, and the d_k (as large as 5.83^n) cancel: the work
 * precision adds 2.6 n bits. */
static int zeta_right(mpc_ptr out, mpc_srcptr s, mpfr_prec_t p) {
    double t = fabs(mpfr_get_d(mpc_imagref(s), MPFR_RNDN));
    unsigned long n =
        (unsigned long)ceil(((double)p * 0.6931 + 1.5708 * t + log(3 * (1 + 2 * t)) + 8) / 1.7627) +
        4;
    mpfr_prec_t wp = p + (mpfr_prec_t)(2.6 * (double)n) + 16;
    mpfr_t term, d, dn, diff, mag;
    mpc_t sum, pw, base, c;
    mpfr_inits2(wp, term, d, dn, diff, (mpfr_ptr)0);
    mpfr_init2(mag, 53);
    mpc_init2(sum, wp);
    mpc_init2(pw, wp);
    mpc_init2(base, wp);
    mpc_init2(c, wp);
    mpfr_set_ui(term, 1, MPFR_RNDN);
    mpfr_set_ui(dn, 1, MPFR_RNDN);
    for (unsigned long i = 1; i <= n; i++) {
        borwein_term(term, n, i);
        mpfr_add(dn, dn, term, MPFR_RNDN);
    }
    mpc_set_ui(sum, 0, RND);
    mpfr_set_ui(term, 1, MPFR_RNDN);
    mpfr_set_ui(d, 1, MPFR_RNDN);
    for (unsigned long k = 0; k < n; k++) {
        if (k > 0) {
            borwein_term(term, n, k);
            mpfr_add(d, d, term, MPFR_RNDN);
        }
        mpc_set_ui(base, k + 1, RND);
        mpc_pow(pw, base, s, RND); /* (k+1)^s */
        mpfr_sub(diff, d, dn, MPFR_RNDN);
        if (k % 2)
            mpfr_neg(diff, diff, MPFR_RNDN);
        mpc_set_fr(c, diff, RND);
        mpc_div(c, c, pw, RND);
        mpc_add(sum, sum, c, RND);
    }
    /* divided by -d_n (1 - 2^(1-s)) */
    mpc_ui_sub(c, 1, s, RND);
    mpc_set_ui(base, 2, RND);
    mpc_pow(pw, base, c, RND);
    mpc_ui_sub(pw, 1, pw, RND);
    mpc_abs(mag, pw, MPFR_RNDN);
    /* near a zero of 1 - 2^(1-s) (s = 1 + 2 pi i k / log 2) the quotient
     * loses as many bits as the divisor is small: refused beyond half */
    int rc = mpfr_zero_p(mag) || mpfr_get_exp(mag) < -(mpfr_exp_t)(p / 2) ? -1 : 0;
    if (!rc) {
        mpc_mul_fr(pw, pw, dn, RND);
        mpc_neg(pw, pw, RND);
        mpc_div(out, sum, pw, RND);
    }
    mpfr_clears(term, d, dn, diff, mag, (mpfr_ptr)0);
    mpc_clear(sum);
    mpc_clear(pw);
    mpc_clear(base);
    mpc_clear(c);
    return rc;
}

/* v = zeta(1 - r) turned into zeta(s), s = 1 - r, by the functional
 * equation zeta(s) = 2^s pi^(s-1) sin(pi s / 2) gamma(1 - s) zeta(1 - s). */
static int reflect(mpc_ptr v, mpc_srcptr s, mpc_srcptr r, mpfr_prec_t p) {
    mpc_t g, f, b;
    mpfr_t pi;
    mpc_init2(g, p);
    mpc_init2(f, p);
    mpc_init2(b, p);
    mpfr_init2(pi, p);
    int rc = sym_cgamma(g, r);
    if (!rc) {
        mpc_mul(v, v, g, RND);
        mpfr_const_pi(pi, MPFR_RNDN);
        mpc_mul_fr(f, s, pi, RND);
        mpc_div_2ui(f, f, 1, RND);
        mpc_sin(f, f, RND);
        mpc_mul(v, v, f, RND);
        mpc_set_ui(b, 2, RND);
        mpc_pow(f, b, s, RND);
        mpc_mul(v, v, f, RND);
        mpc_sub_ui(f, s, 1, RND);
        mpc_set_fr(b, pi, RND);
        mpc_pow(f, b, f, RND);
        mpc_mul(v, v, f, RND);
    }
    mpc_clear(g);
    mpc_clear(f);
    mpc_clear(b);
    mpfr_clear(pi);
    return rc;
}

int sym_czeta(mpc_ptr out, mpc_srcptr s) {
    mpfr_prec_t p = mpfr_get_prec(mpc_realref(out)) + GUARD_BITS;
    if (mpfr_cmp_d(mpc_imagref(s), 1000) > 0 || mpfr_cmp_d(mpc_imagref(s), -1000) < 0)
        return -1;
    if (mpfr_cmp_ui(mpc_realref(s), 1) == 0 && mpfr_zero_p(mpc_imagref(s)))
        return -1;
    mpc_t v, r;
    mpc_init2(v, p);
    mpc_init2(r, p);
    int rc;
    if (mpfr_cmp_d(mpc_realref(s), 0.5) >= 0) {
        rc = zeta_right(v, s, p);
    } else {
        mpc_ui_sub(r, 1, s, RND);
        rc = zeta_right(v, r, p);
        if (!rc)
            rc = reflect(v, s, r, p);
    }
    if (!rc)
        mpc_set(out, v, RND);
    mpc_clear(v);
    mpc_clear(r);
    return rc;
}

/* true when |1 + z| < 1/2, where log(1 + z) is no start (-oo at z = -1) */
static bool one_plus_small(mpc_srcptr z) {
    mpc_t t;
    mpfr_t m;
    mpc_init2(t, 53);
    mpfr_init2(m, 53);
    mpc_add_ui(t, z, 1, RND);
    mpc_abs(m, t, MPFR_RNDN);
    bool small = mpfr_cmp_d(m, 0.5) < 0;
    mpc_clear(t);
    mpfr_clear(m);
    return small;
}

/* L - log L, L = log z + 2 pi i k: W_k's asymptotic start, far from the
 * branch point. */
static void w_start_asymptotic(mpc_ptr w, mpc_srcptr z, long k, mpfr_prec_t p) {
    mpc_t l;
    mpfr_t twopik;
    mpc_init2(l, p);
    mpfr_init2(twopik, p);
    mpc_log(l, z, RND);
    mpfr_const_pi(twopik, MPFR_RNDN);
    mpfr_mul_si(twopik, twopik, 2 * k, MPFR_RNDN);
    mpfr_add(mpc_imagref(l), mpc_imagref(l), twopik, MPFR_RNDN);
    mpc_log(w, l, RND);
    mpc_sub(w, l, w, RND);
    mpfr_clear(twopik);
    mpc_clear(l);
}

/* The starting point of Newton's iteration for W_k(z): the branch point's
 * series near -1/e and log(1 + z) near 0 on branch 0, else the asymptotic
 * L - log L. */
static void w_start(mpc_ptr w, mpc_srcptr z, long k, mpfr_prec_t p) {
    mpc_t l;
    mpfr_t m, e;
    mpc_init2(l, p);
    mpfr_init2(m, 53);
    mpfr_init2(e, p);
    mpc_abs(m, z, MPFR_RNDN);
    mpfr_set_ui(e, 1, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpc_mul_fr(l, z, e, RND);
    mpc_add_ui(l, l, 1, RND); /* 1 + e z, 0 at the branch point -1/e */
    mpfr_t near;
    mpfr_init2(near, 53);
    mpc_abs(near, l, MPFR_RNDN);
    bool at_branch_point = k == 0 && mpfr_cmp_d(near, 0.6) < 0;
    mpfr_clear(near);
    if (at_branch_point) { /* W = -1 + q - q^2/3 ..., q = sqrt(2 (1 + e z)) */
        mpc_mul_2ui(l, l, 1, RND);
        mpc_sqrt(w, l, RND);
        mpc_sub_ui(w, w, 1, RND);
    } else if (k == 0 && mpfr_cmp_d(m, 3) < 0 && !one_plus_small(z)) {
        mpc_add_ui(w, z, 1, RND); /* log(1 + z) near the origin */
        mpc_log(w, w, RND);
    } else {
        w_start_asymptotic(w, z, k, p);
    }
    mpfr_clears(m, e, (mpfr_ptr)0);
    mpc_clear(l);
}

/* Newton's iteration on w e^w = z from w; 0 when it settles. */
static int w_newton(mpc_ptr w, mpc_srcptr z, mpfr_prec_t p) {
    mpc_t ew, f, df;
    mpfr_t a, b;
    mpc_init2(ew, p);
    mpc_init2(f, p);
    mpc_init2(df, p);
    mpfr_inits2(p, a, b, (mpfr_ptr)0);
    int rc = -1;
    mpfr_exp_t zp = (mpfr_exp_t)mpfr_get_prec(mpc_realref(z));
    for (int i = 0; i < 400 && rc; i++) {
        mpc_exp(ew, w, RND);
        mpc_mul(f, w, ew, RND);
        mpc_sub(f, f, z, RND);
        mpc_add_ui(df, w, 1, RND);
        mpc_mul(df, df, ew, RND);
        /* w e^w within a few units of z at z's own precision: W of a
         * number that close to z (at the branch point -1/e the step is
         * rounding noise and need not shrink) */
        mpc_abs(a, f, MPFR_RNDN);
        mpc_abs(b, z, MPFR_RNDN);
        if (mpfr_zero_p(a) || (!mpfr_zero_p(b) && mpfr_get_exp(a) < mpfr_get_exp(b) - zp + 4)) {
            rc = 0;
            break;
        }
        if (mpc_cmp_si_si(df, 0, 0) == 0)
            break;
        mpc_div(f, f, df, RND);
        mpc_sub(w, w, f, RND);
        mpc_abs(a, f, MPFR_RNDN);
        mpc_abs(b, w, MPFR_RNDN);
        if (mpfr_zero_p(a) ||
            (!mpfr_zero_p(b) && mpfr_get_exp(a) < mpfr_get_exp(b) - (mpfr_exp_t)p + 4))
            rc = 0;
    }
    mpc_clear(ew);
    mpc_clear(f);
    mpc_clear(df);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return rc;
}

/* true when w + log w - log z is 2 pi i k (to 1e-6: the branches are
 * 2 pi apart) */
static bool on_branch(mpc_srcptr w, mpc_srcptr z, long k, mpfr_prec_t p) {
    mpc_t t, l;
    mpc_init2(t, p);
    mpc_init2(l, p);
    mpc_log(t, w, RND);
    mpc_add(t, t, w, RND);
    mpc_log(l, z, RND);
    mpc_sub(t, t, l, RND);
    double re = mpfr_get_d(mpc_realref(t), MPFR_RNDN);
    double im = mpfr_get_d(mpc_imagref(t), MPFR_RNDN);
    mpc_clear(t);
    mpc_clear(l);
    return fabs(re) < 1e-6 && fabs(im - 2 * M_PI * (double)k) < 1e-6;
}

void sym_lambertw_branch_start(mpfr_ptr w, mpfr_srcptr x, int s) {
    mpfr_t q, t;
    mpfr_inits2(mpfr_get_prec(w), q, t, (mpfr_ptr)0);
    mpfr_set_ui(q, 1, MPFR_RNDN);
    mpfr_exp(q, q, MPFR_RNDN);
    mpfr_mul(q, q, x, MPFR_RNDN);
    mpfr_add_ui(q, q, 1, MPFR_RNDN);
    if (mpfr_sgn(q) < 0) /* x rounded past -1/e */
        mpfr_set_zero(q, 1);
    mpfr_mul_2ui(q, q, 1, MPFR_RNDN);
    mpfr_sqrt(q, q, MPFR_RNDN);
    /* Horner: -1 + q (s + q (-1/3 + q s 11/72)) */
    mpfr_mul_si(t, q, 11 * s, MPFR_RNDN);
    mpfr_div_ui(t, t, 72, MPFR_RNDN);
    mpfr_set_ui(w, 1, MPFR_RNDN);
    mpfr_div_ui(w, w, 3, MPFR_RNDN);
    mpfr_sub(t, t, w, MPFR_RNDN);
    mpfr_mul(t, t, q, MPFR_RNDN);
    mpfr_add_si(t, t, s, MPFR_RNDN);
    mpfr_mul(t, t, q, MPFR_RNDN);
    mpfr_sub_ui(w, t, 1, MPFR_RNDN);
    mpfr_clears(q, t, (mpfr_ptr)0);
}

/* The start for the real branch -1 on (-1/e, 0): log(-z) - log(-log(-z)),
 * kept below -1; the branch-point series where that is closer to -1. */
static void w_start_real_minus1(mpc_ptr w, mpc_srcptr z, mpfr_prec_t p) {
    if (mpfr_cmp_d(mpc_realref(z), -0.25) < 0) {
        mpc_set_ui(w, 0, RND);
        sym_lambertw_branch_start(mpc_realref(w), mpc_realref(z), -1);
        return;
    }
    mpfr_t u, v;
    mpfr_inits2(p, u, v, (mpfr_ptr)0);
    mpfr_neg(u, mpc_realref(z), MPFR_RNDN);
    mpfr_log(u, u, MPFR_RNDN);
    mpfr_neg(v, u, MPFR_RNDN);
    mpfr_log(v, v, MPFR_RNDN);
    mpfr_sub(u, u, v, MPFR_RNDN);
    if (mpfr_cmp_si(u, -1) >= 0)
        mpfr_set_d(u, -1.5, MPFR_RNDN);
    mpc_set_fr(w, u, RND);
    mpfr_clears(u, v, (mpfr_ptr)0);
}

int sym_clambertw(mpc_ptr out, mpc_srcptr z, long k) {
    mpfr_prec_t p = mpfr_get_prec(mpc_realref(out)) + GUARD_BITS;
    if (mpc_cmp_si_si(z, 0, 0) == 0) {
        if (k != 0)
            return -1;
        mpc_set_ui(out, 0, RND);
        return 0;
    }
    bool real_minus1 = k == -1 && mpfr_zero_p(mpc_imagref(z)) && mpfr_sgn(mpc_realref(z)) < 0 &&
                       mpfr_cmp_d(mpc_realref(z), -0.36787944117144233) > 0;
    mpc_t w;
    mpc_init2(w, p);
    if (real_minus1)
        w_start_real_minus1(w, z, p);
    else
        w_start(w, z, k, p);
    int rc = w_newton(w, z, p);
    if (!rc && real_minus1)
        rc = fabs(mpfr_get_d(mpc_imagref(w), MPFR_RNDN)) < 1e-20 && mpfr_cmp_si(mpc_realref(w), -1) <= 0
                 ? 0
                 : -1;
    else if (!rc)
        rc = on_branch(w, z, k, p) ? 0 : -1;
    /* log(1 + z), the start near the origin, sits on its own cut where
     * 1 + z is negative: from log(-0.57) = -0.56 + pi i the iteration for
     * W_0(-pi/2) settled on W_-1's root, -pi i/2, and the call was refused.
     * The asymptotic start is tried before giving up. */
    if (rc && !real_minus1) {
        w_start_asymptotic(w, z, k, p);
        rc = w_newton(w, z, p) == 0 && on_branch(w, z, k, p) ? 0 : -1;
    }
    if (!rc) {
        if (real_minus1)
            mpfr_set_zero(mpc_imagref(w), 1);
        mpc_set(out, w, RND);
    }
    mpc_clear(w);
    return rc;
}
