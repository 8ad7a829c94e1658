/* calc_stats (TOOLS.md 3.3.4): mean, median, sample stdev and CV of a list,
 * all computed from the exact values so the last digit is right. */
#include "workers/calc/numfmt.h"
#include "workers/calc/numlist.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <math.h>
#include <stdlib.h>

/* Correctly rounded sqrt(q) for q >= 0: an integer square root with a
 * round-to-odd sticky bit carries enough information for the single final
 * rounding to binary64 to be exact. */
static double sqrt_rational(const mpq_t q) {
    if (mpq_sgn(q) == 0) return 0.0;
    mpz_t a, s, rem;
    mpz_inits(a, s, rem, NULL);
    /* Pick k so that q * 4^k has about 2*64 bits in its integer part. */
    long bits = (long)mpz_sizeinbase(mpq_numref(q), 2) - (long)mpz_sizeinbase(mpq_denref(q), 2);
    long k = (128 - bits) / 2 + 1;
    if (k >= 0) {
        mpz_mul_2exp(a, mpq_numref(q), (mp_bitcnt_t)(2 * k));
        mpz_fdiv_qr(a, rem, a, mpq_denref(q));
    } else {
        mpz_mul_2exp(rem, mpq_denref(q), (mp_bitcnt_t)(-2 * k));
        mpz_fdiv_qr(a, rem, mpq_numref(q), rem);
    }
    bool inexact = mpz_sgn(rem) != 0;
    mpz_sqrtrem(s, rem, a);
    if (inexact || mpz_sgn(rem) != 0) mpz_setbit(s, 0);
    mpq_t r;
    mpq_init(r);
    mpq_set_z(r, s);
    if (k >= 0)
        mpq_div_2exp(r, r, (mp_bitcnt_t)k);
    else
        mpq_mul_2exp(r, r, (mp_bitcnt_t)-k);
    double d = cc_nf_mpq_to_double(r);
    mpq_clear(r);
    mpz_clears(a, s, rem, NULL);
    return d;
}

/* The exact figures: the mean m and the sample variance ss. */
struct moments {
    mpq_t m, ss;
};

static void moments(mpq_t *v, size_t n, struct moments *o) {
    mpq_t x;
    mpq_init(x);
    mpq_inits(o->m, o->ss, NULL);
    for (size_t i = 0; i < n; i++) mpq_add(o->m, o->m, v[i]);
    mpq_set_ui(x, (unsigned long)n, 1);
    mpq_div(o->m, o->m, x);
    for (size_t i = 0; i < n; i++) {
        mpq_sub(x, v[i], o->m);
        mpq_mul(x, x, x);
        mpq_add(o->ss, o->ss, x);
    }
    mpq_set_ui(x, (unsigned long)(n - 1), 1);
    mpq_div(o->ss, o->ss, x);
    mpq_clear(x);
}

/* cv = sqrt(ss) / m, correctly rounded from the exact figures (sign of
 * m): dividing the rounded stdev by the rounded mean was wrong in its
 * first digit for subnormal values ([5e-324, 5e-324, 1e-323]: 1.0, the
 * truth 0.433), and a mean that rounds to 0 is not a zero mean. */
static double exact_cv(const struct moments *o) {
    mpq_t r;
    mpq_init(r);
    mpq_mul(r, o->m, o->m);
    mpq_div(r, o->ss, r);
    double cv = sqrt_rational(r);
    mpq_clear(r);
    return mpq_sgn(o->m) < 0 ? -cv : cv;
}

/* |cv| <= 0.2 on the exact figures: ss / m^2 <= 1/25, m != 0. The double
 * cv against 0.2 decided a knife edge by its rounding: [4e20, 5e20,
 * 6e20 + 1] has cv 0.2 + 2e-22, which rounds to the double 0.2 (itself
 * above 1/5) and read "within noise budget". */
static bool cv_within_budget(const struct moments *o) {
    mpq_t lhs, rhs;
    mpq_inits(lhs, rhs, NULL);
    mpq_set_ui(lhs, 25, 1);
    mpq_mul(lhs, lhs, o->ss);
    mpq_mul(rhs, o->m, o->m);
    bool within = mpq_cmp(lhs, rhs) <= 0;
    mpq_clears(lhs, rhs, NULL);
    return within;
}

/* The mean of the two middle values is taken exactly: (a + b) / 2 in
 * doubles overflows for two values near the top of the range. */
static double median(mpq_t *v, size_t n) {
    cc_numlist_sort_q(v, n);
    if (n % 2) return cc_nf_mpq_to_double(v[n / 2]);
    mpq_t a;
    mpq_init(a);
    mpq_add(a, v[n / 2 - 1], v[n / 2]);
    mpq_div_2exp(a, a, 1);
    double m = cc_nf_mpq_to_double(a);
    mpq_clear(a);
    return m;
}

/* v: the exact values (integers past 2^53 as given, not their doubles). */
static json_t *build(mpq_t *v, size_t n) {
    struct moments mo;
    moments(v, n, &mo);
    double mean = cc_nf_mpq_to_double(mo.m), stdev = sqrt_rational(mo.ss);
    double med = median(v, n);
    json_t *r = cc_ok();
    bool ok = cc_nf_set(r, "n", json_integer((json_int_t)n));
    ok &= cc_nf_set(r, "mean", cc_nf_real(mean));
    ok &= cc_nf_set(r, "median", cc_nf_real(med));
    ok &= cc_nf_set(r, "stdev", cc_nf_real(stdev));
    const char *note;
    if (mpq_sgn(mo.m) == 0) {
        ok &= cc_nf_set(r, "cv", json_null());
        note = "CV undefined: the mean is 0, so relative variation has no meaning";
    } else {
        double cv = exact_cv(&mo);
        ok &= cc_nf_set(r, "cv", cc_nf_real(cv));
        /* The size of the spread, whatever the sign of the mean: cv keeps
         * the mean's sign (TOOLS.md), but a CV of -1.4 is noise, not a
         * budget met. An infinite cv (a mean near 0) is noise too. */
        note = cv_within_budget(&mo) ? "within noise budget" : "run-to-run noise swamps the effect (CV > 0.2)";
    }
    ok &= cc_nf_set(r, "cv_note", json_string(note));
    mpq_clears(mo.m, mo.ss, NULL);
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_calc_stats(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    mpq_t *v;
    size_t n;
    json_t *err;
    if (cc_numlist_read_q(args, 2, "stats", &v, &n, &err)) return err;
    json_t *r = build(v, n);
    cc_numlist_free_q(v, n);
    return r;
}
