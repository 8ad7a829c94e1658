/* Complex gamma by Stirling's series (see sym_cgamma.h). */
#include "workers/symbolic/sym_cgamma.h"

#include <math.h>
#include <stdbool.h>

#define GUARD_BITS 40
#define RND MPC_RNDNN

/* b = B_2k / d, from B_2k = (-1)^(k+1) 2 (2k)! zeta(2k) / (2 pi)^(2k)
 * (f is scratch; twopi holds 2 pi). Stirling's and digamma's series both
 * take their coefficients from it. */
static void bernoulli_over(mpfr_ptr b, mpfr_ptr f, mpfr_srcptr twopi, unsigned long k, unsigned long d) {
    mpfr_zeta_ui(b, 2 * k, MPFR_RNDN);
    mpfr_fac_ui(f, 2 * k, MPFR_RNDN);
    mpfr_mul(b, b, f, MPFR_RNDN);
    mpfr_mul_2ui(b, b, 1, MPFR_RNDN);
    mpfr_pow_ui(f, twopi, 2 * k, MPFR_RNDN);
    mpfr_div(b, b, f, MPFR_RNDN);
    mpfr_div_ui(b, b, d, MPFR_RNDN);
    if (k % 2 == 0)
        mpfr_neg(b, b, MPFR_RNDN);
}

/* ln gamma(w) for Re w large enough that Stirling's series reaches
 * 2^-prec before its terms grow (|w| >= 0.12*prec + 10):
 * (w - 1/2) ln w - w + ln(2 pi)/2 + sum B_2k / (2k (2k - 1) w^(2k - 1)),
 * B_2k = (-1)^(k+1) 2 (2k)! zeta(2k) / (2 pi)^(2k). */
static void stirling(mpc_ptr out, mpc_srcptr w, mpfr_prec_t p) {
    mpc_t t, lw, winv, wpow, term;
    mpfr_t b, f, twopi, mag, eps;
    mpc_init2(t, p);
    mpc_init2(lw, p);
    mpc_init2(winv, p);
    mpc_init2(wpow, p);
    mpc_init2(term, p);
    mpfr_inits2(p, b, f, twopi, mag, eps, (mpfr_ptr)0);
    mpc_log(lw, w, RND);
    mpfr_set_d(f, 0.5, MPFR_RNDN);
    mpc_sub_fr(t, w, f, RND);
    mpc_mul(out, t, lw, RND);
    mpc_sub(out, out, w, RND);
    mpfr_const_pi(twopi, MPFR_RNDN);
    mpfr_mul_2ui(twopi, twopi, 1, MPFR_RNDN);
    mpfr_log(f, twopi, MPFR_RNDN);
    mpfr_div_2ui(f, f, 1, MPFR_RNDN);
    mpc_add_fr(out, out, f, RND);
    mpc_ui_div(winv, 1, w, RND);
    mpc_set(wpow, winv, RND); /* w^-(2k - 1) */
    mpc_sqr(t, winv, RND);    /* w^-2 */
    mpfr_set_ui_2exp(eps, 1, -(long)p, MPFR_RNDN);
    for (unsigned long k = 1; k < 4 * (unsigned long)p; k++) {
        bernoulli_over(b, f, twopi, k, 2 * k * (2 * k - 1)); /* B_2k / (2k (2k - 1)) */
        mpc_mul_fr(term, wpow, b, RND);
        mpc_add(out, out, term, RND);
        mpc_abs(mag, term, MPFR_RNDN);
        if (mpfr_cmp(mag, eps) < 0)
            break;
        mpc_mul(wpow, wpow, t, RND);
    }
    mpc_clear(t);
    mpc_clear(lw);
    mpc_clear(winv);
    mpc_clear(wpow);
    mpc_clear(term);
    mpfr_clears(b, f, twopi, mag, eps, (mpfr_ptr)0);
}

/* How far to shift z right (z + n) so that the asymptotic series of
 * stirling() and digamma_series() reach 2^-p before their terms grow:
 * Re(z + n) >= 0.12*p + 10. */
static unsigned long series_shift(mpc_srcptr z, mpfr_prec_t p) {
    double need = 0.12 * (double)p + 10;
    double re = mpfr_get_d(mpc_realref(z), MPFR_RNDN);
    return re < need ? (unsigned long)ceil(need - re) : 0;
}

/* gamma(z) for Re z >= 1/2 at precision p */
static int gamma_right(mpc_ptr out, mpc_srcptr z, mpfr_prec_t p) {
    unsigned long n = series_shift(z, p);
    mpc_t w, prod;
    mpc_init2(w, p);
    mpc_init2(prod, p);
    mpc_add_ui(w, z, n, RND);
    stirling(out, w, p);
    mpc_exp(out, out, RND);
    mpc_set_ui(prod, 1, RND);
    for (unsigned long j = 0; j < n; j++) { /* gamma(z) = gamma(z + n) / (z (z + 1) ... (z + n - 1)) */
        mpc_add_ui(w, z, j, RND);
        mpc_mul(prod, prod, w, RND);
    }
    int rc = mpc_cmp_si_si(prod, 0, 0) == 0 ? -1 : 0;
    if (!rc)
        mpc_div(out, out, prod, RND);
    mpc_clear(w);
    mpc_clear(prod);
    return rc;
}

int sym_cgamma(mpc_ptr out, mpc_srcptr z) {
    mpfr_prec_t p = mpfr_get_prec(mpc_realref(out)) + GUARD_BITS;
    mpc_t v;
    mpc_init2(v, p);
    int rc;
    if (mpfr_cmp_d(mpc_realref(z), 0.5) >= 0) {
        rc = gamma_right(v, z, p);
    } else { /* gamma(z) = pi / (sin(pi z) gamma(1 - z)) */
        mpc_t s, g, zr;
        mpc_init2(s, p);
        mpc_init2(g, p);
        mpc_init2(zr, p);
        mpc_ui_sub(zr, 1, z, RND);
        rc = gamma_right(g, zr, p); /* out and z must differ: z is read after out is set */
        mpc_clear(zr);
        mpfr_t pi;
        mpfr_init2(pi, p);
        mpfr_const_pi(pi, MPFR_RNDN);
        mpc_mul_fr(s, z, pi, RND);
        mpc_sin(s, s, RND);
        mpc_mul(s, s, g, RND);
        if (!rc && mpc_cmp_si_si(s, 0, 0) != 0) {
            mpc_set_fr(v, pi, RND);
            mpc_div(v, v, s, RND);
        } else {
            rc = -1;
        }
        mpfr_clear(pi);
        mpc_clear(s);
        mpc_clear(g);
    }
    bool finite = mpfr_number_p(mpc_realref(v)) && mpfr_number_p(mpc_imagref(v));
    if (!rc && finite)
        mpc_set(out, v, RND);
    mpc_clear(v);
    return !rc && finite ? 0 : -1;
}

#define ERF_MAX_ABS 12

/* erf(z) = 2/sqrt(pi) * sum (-1)^n z^(2n+1) / (n! (2n+1)); the terms grow
 * to about exp(|z|^2) before they fall, so the sum is taken with that many
 * more bits */
int sym_cerf(mpc_ptr out, mpc_srcptr z, int complement) {
    mpfr_t m;
    mpfr_init2(m, 64);
    mpc_abs(m, z, MPFR_RNDU);
    double az = mpfr_get_d(m, MPFR_RNDU);
    mpfr_clear(m);
    if (!(az <= ERF_MAX_ABS))
        return -1;
    mpfr_prec_t p = mpfr_get_prec(mpc_realref(out)) + GUARD_BITS + (mpfr_prec_t)(1.45 * az * az);
    mpc_t sum, term, z2, t;
    mpc_init2(sum, p);
    mpc_init2(term, p);
    mpc_init2(z2, p);
    mpc_init2(t, p);
    mpc_sqr(z2, z, RND);
    mpc_set(term, z, RND); /* (-1)^n z^(2n+1) / n! */
    mpc_set(sum, z, RND);
    mpfr_t eps, mag;
    mpfr_inits2(p, eps, mag, (mpfr_ptr)0);
    mpfr_set_ui_2exp(eps, 1, -(long)p, MPFR_RNDN);
    for (unsigned long n = 1; n < 100000; n++) {
        mpc_mul(term, term, z2, RND);
        mpc_div_ui(term, term, n, RND);
        mpc_neg(term, term, RND);
        mpc_div_ui(t, term, 2 * n + 1, RND);
        mpc_add(sum, sum, t, RND);
        mpc_abs(mag, t, MPFR_RNDN);
        if ((double)n > az * az && mpfr_cmp(mag, eps) < 0)
            break;
    }
    mpfr_const_pi(mag, MPFR_RNDN);
    mpfr_sqrt(mag, mag, MPFR_RNDN);
    mpc_div_fr(sum, sum, mag, RND);
    mpc_mul_2ui(sum, sum, 1, RND);
    if (complement)
        mpc_ui_sub(sum, 1, sum, RND);
    mpc_set(out, sum, RND);
    mpfr_clears(eps, mag, (mpfr_ptr)0);
    mpc_clear(sum);
    mpc_clear(term);
    mpc_clear(z2);
    mpc_clear(t);
    return 0;
}

/* digamma(w) for Re w large enough for its asymptotic series (as
 * stirling's): ln w - 1/(2w) - sum B_2k / (2k w^(2k)). */
static void digamma_series(mpc_ptr out, mpc_srcptr w, mpfr_prec_t p) {
    mpc_t t, winv2, wpow, term;
    mpfr_t b, f, twopi, mag, eps;
    mpc_init2(t, p);
    mpc_init2(winv2, p);
    mpc_init2(wpow, p);
    mpc_init2(term, p);
    mpfr_inits2(p, b, f, twopi, mag, eps, (mpfr_ptr)0);
    mpc_log(out, w, RND);
    mpc_ui_div(t, 1, w, RND);
    mpc_div_2ui(term, t, 1, RND);
    mpc_sub(out, out, term, RND);
    mpc_sqr(winv2, t, RND);
    mpc_set(wpow, winv2, RND); /* w^-2k */
    mpfr_const_pi(twopi, MPFR_RNDN);
    mpfr_mul_2ui(twopi, twopi, 1, MPFR_RNDN);
    mpfr_set_ui_2exp(eps, 1, -(long)p, MPFR_RNDN);
    for (unsigned long k = 1; k < 4 * (unsigned long)p; k++) {
        bernoulli_over(b, f, twopi, k, 2 * k); /* B_2k / (2k) */
        mpc_mul_fr(term, wpow, b, RND);
        mpc_sub(out, out, term, RND);
        mpc_abs(mag, term, MPFR_RNDN);
        if (mpfr_cmp(mag, eps) < 0)
            break;
        mpc_mul(wpow, wpow, winv2, RND);
    }
    mpc_clear(t);
    mpc_clear(winv2);
    mpc_clear(wpow);
    mpc_clear(term);
    mpfr_clears(b, f, twopi, mag, eps, (mpfr_ptr)0);
}

/* digamma(z) for Re z >= 1/2: digamma(z + n) - sum 1/(z + j), j < n */
static int digamma_right(mpc_ptr out, mpc_srcptr z, mpfr_prec_t p) {
    unsigned long n = series_shift(z, p);
    mpc_t w, t;
    mpc_init2(w, p);
    mpc_init2(t, p);
    mpc_add_ui(w, z, n, RND);
    digamma_series(out, w, p);
    int rc = 0;
    for (unsigned long j = 0; j < n && !rc; j++) {
        mpc_add_ui(w, z, j, RND);
        if (mpc_cmp_si_si(w, 0, 0) == 0) {
            rc = -1;
            break;
        }
        mpc_ui_div(t, 1, w, RND);
        mpc_sub(out, out, t, RND);
    }
    mpc_clear(w);
    mpc_clear(t);
    return rc;
}

int sym_cdigamma(mpc_ptr out, mpc_srcptr z) {
    mpfr_prec_t p = mpfr_get_prec(mpc_realref(out)) + GUARD_BITS;
    mpc_t v;
    mpc_init2(v, p);
    int rc;
    if (mpfr_cmp_d(mpc_realref(z), 0.5) >= 0) {
        rc = digamma_right(v, z, p);
    } else { /* digamma(z) = digamma(1 - z) - pi cot(pi z) */
        mpc_t zr, c, s;
        mpc_init2(zr, p);
        mpc_init2(c, p);
        mpc_init2(s, p);
        mpc_ui_sub(zr, 1, z, RND);
        rc = digamma_right(v, zr, p);
        mpfr_t pi;
        mpfr_init2(pi, p);
        mpfr_const_pi(pi, MPFR_RNDN);
        mpc_mul_fr(zr, z, pi, RND);
        mpc_sin_cos(s, c, zr, RND, RND);
        if (!rc && mpc_cmp_si_si(s, 0, 0) != 0) {
            mpc_div(c, c, s, RND);
            mpc_mul_fr(c, c, pi, RND);
            mpc_sub(v, v, c, RND);
        } else {
            rc = -1;
        }
        mpfr_clear(pi);
        mpc_clear(zr);
        mpc_clear(c);
        mpc_clear(s);
    }
    bool finite = mpfr_number_p(mpc_realref(v)) && mpfr_number_p(mpc_imagref(v));
    if (!rc && finite)
        mpc_set(out, v, RND);
    mpc_clear(v);
    return !rc && finite ? 0 : -1;
}

#define EI_MAX_ABS 60

/* Ei(z) = EulerGamma + ln z + sum z^k / (k k!) (mpmath's and SymPy's
 * branch: the cut of ln z on the negative axis); the terms grow to about
 * exp(|z|) before they fall, so the sum gets 1.45*|z| more bits */
int sym_cei(mpc_ptr out, mpc_srcptr z) {
    mpfr_t m;
    mpfr_init2(m, 64);
    mpc_abs(m, z, MPFR_RNDU);
    double az = mpfr_get_d(m, MPFR_RNDU);
    mpfr_clear(m);
    if (!(az <= EI_MAX_ABS) || mpc_cmp_si_si(z, 0, 0) == 0)
        return -1;
    mpfr_prec_t p = mpfr_get_prec(mpc_realref(out)) + GUARD_BITS + (mpfr_prec_t)(1.45 * az);
    mpc_t sum, term, t;
    mpc_init2(sum, p);
    mpc_init2(term, p);
    mpc_init2(t, p);
    mpfr_t eps, mag;
    mpfr_inits2(p, eps, mag, (mpfr_ptr)0);
    mpfr_set_ui_2exp(eps, 1, -(long)p, MPFR_RNDN);
    mpc_set_ui(sum, 0, RND);
    mpc_set_ui(term, 1, RND); /* z^k / k! */
    for (unsigned long k = 1; k < 100000; k++) {
        mpc_mul(term, term, z, RND);
        mpc_div_ui(term, term, k, RND);
        mpc_div_ui(t, term, k, RND);
        mpc_add(sum, sum, t, RND);
        mpc_abs(mag, t, MPFR_RNDN);
        if ((double)k > az && mpfr_cmp(mag, eps) < 0)
            break;
    }
    mpc_log(t, z, RND);
    mpc_add(sum, sum, t, RND);
    mpfr_const_euler(mag, MPFR_RNDN);
    mpc_add_fr(sum, sum, mag, RND);
    mpc_set(out, sum, RND);
    mpfr_clears(eps, mag, (mpfr_ptr)0);
    mpc_clear(sum);
    mpc_clear(term);
    mpc_clear(t);
    return 0;
}
