/* collision_probability (TOOLS.md 3.3.6, amended in docs/contract.md): the
 * exact chance that `items` uniformly random `bits`-bit values are not all
 * distinct, p = 1 - prod_{i<n} (1 - i/N) with N = 2^bits, correctly rounded
 * to binary64.
 *
 * The spec's 1 - exp(-n^2 / 2N) is an approximation, and in binary64 a bad
 * one: it answers 0.0 for 10 hashes of 128 bits (the truth is 1.3e-37),
 * 0.63 for two 1-bit hashes (exactly 1/2), 0.89 for three (certain, by
 * pigeonhole), and loses half its digits for small p. Here ln q (q = 1 - p)
 * is computed exactly enough that the final rounding is the only one:
 *   - n > N: p = 1 (pigeonhole);
 *   - b * n <= 8192: the exact rational (every tie is there);
 *   - n much smaller than N (m = n - 1 < N / 2^20): the series
 *     ln q = -sum_k S_k(m) / (k N^k), S_k(m) = 1^k + ... + m^k, whose first
 *     four terms are exact rationals and whose tail is below 2^-80 of it;
 *   - otherwise (then N < 2^51): ln q = lnGamma(N+1) - lnGamma(N-m) - n ln N
 *     in 256-bit MPFR;
 * and p = -expm1(ln q). */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <mpfr.h>

#define WORK_PREC 256

/* n > 2^b, decided from bit lengths so a huge b never builds 2^b. */
static bool more_than_buckets(const mpz_t n, unsigned long b) {
    size_t len = mpz_sizeinbase(n, 2);
    if (len != b + 1) return len > b + 1;
    return mpz_scan1(n, 0) != b; /* n has bit b set; it exceeds 2^b unless it is 2^b */
}

/* lnq = -(S1/N + S2/(2N^2) + S3/(3N^3) + S4/(4N^4)), m = n - 1; only the
 * first term when m < N / 2^60 (the others are below 2^-60 of it), so a
 * huge n never builds its fifth power. */
static void lnq_series(const mpz_t m, unsigned long b, mpfr_t lnq) {
    unsigned long terms = mpz_sizeinbase(m, 2) + 60 <= b ? 1 : 4;
    mpz_t m1, s1, s2, s3, s4, t;
    mpz_inits(m1, s1, s2, s3, s4, t, NULL);
    mpz_add_ui(m1, m, 1);
    mpz_mul(s1, m, m1);
    mpz_tdiv_q_2exp(s1, s1, 1); /* m(m+1)/2 */
    mpz_mul_2exp(t, m, 1);
    mpz_add_ui(t, t, 1);        /* 2m+1 */
    mpz_mul(s2, s1, t);
    mpz_divexact_ui(s2, s2, 3); /* m(m+1)(2m+1)/6 */
    mpz_mul(s3, s1, s1);        /* (m(m+1)/2)^2 */
    mpz_mul(s4, m, m1);
    mpz_mul_ui(s4, s4, 3);
    mpz_sub_ui(s4, s4, 1);      /* 3m^2 + 3m - 1 */
    mpz_mul(s4, s4, s2);
    mpz_divexact_ui(s4, s4, 5); /* m(m+1)(2m+1)(3m^2+3m-1)/30 */
    mpq_t sum, term;
    mpq_inits(sum, term, NULL);
    const mpz_srcptr s[4] = {s1, s2, s3, s4};
    for (unsigned long k = 1; k <= terms; k++) {
        mpq_set_z(term, s[k - 1]);
        mpz_mul_ui(mpq_denref(term), mpq_denref(term), k);
        mpq_canonicalize(term);
        mpq_div_2exp(term, term, k * b);
        mpq_add(sum, sum, term);
    }
    mpfr_set_q(lnq, sum, MPFR_RNDN);
    mpfr_neg(lnq, lnq, MPFR_RNDN);
    mpq_clears(sum, term, NULL);
    mpz_clears(m1, s1, s2, s3, s4, t, NULL);
}

/* lnq = lnGamma(N+1) - lnGamma(N+1-n) - n ln N, for N < 2^64. */
static void lnq_gamma(const mpz_t n, unsigned long b, mpfr_t lnq) {
    mpfr_t bigN, a, c;
    mpfr_inits2(WORK_PREC, bigN, a, c, (mpfr_ptr)0);
    mpfr_set_ui_2exp(bigN, 1, (mpfr_exp_t)b, MPFR_RNDN);
    mpfr_add_ui(a, bigN, 1, MPFR_RNDN);
    mpfr_lngamma(lnq, a, MPFR_RNDN);
    mpfr_sub_z(a, a, n, MPFR_RNDN);
    mpfr_lngamma(c, a, MPFR_RNDN);
    mpfr_sub(lnq, lnq, c, MPFR_RNDN);
    mpfr_log(c, bigN, MPFR_RNDN);
    mpfr_mul_z(c, c, n, MPFR_RNDN);
    mpfr_sub(lnq, lnq, c, MPFR_RNDN);
    mpfr_clears(bigN, a, c, (mpfr_ptr)0);
}

/* Largest b * n for which p is computed as the exact rational: every p
 * that is a tie (of binary64, or of the six decimals of percent) is there.
 * p = j / 2^K with j odd and K = b(n-1) - v2((n-1)!); a binary64 tie needs
 * 54 significant bits above 2^-1022 or its last bit at 2^-1075, so
 * K <= 1076, and a percent tie needs K = 9; K >= (b-1)(n-1) then bounds
 * b*n well inside 8192. A 256-bit p misrounds a tie about half the time:
 * (3, 53) is 3*2^-53 - 2^-105, half an ulp below 3*2^-53, and rounded
 * down; (3, 5) is 94/1024, percent 9.1796875, and gave 9.179687. */
#define EXACT_BITS 8192UL

/* pq = 1 - N(N-1)...(N-n+1) / N^n exactly, for n <= N = 2^b. */
static void p_exact(unsigned long n, unsigned long b, mpq_t pq) {
    mpz_t bigN, term;
    mpz_inits(bigN, term, NULL);
    mpz_setbit(bigN, b);
    mpz_set_ui(mpq_numref(pq), 1);
    for (unsigned long i = 0; i < n; i++) {
        mpz_sub_ui(term, bigN, i);
        mpz_mul(mpq_numref(pq), mpq_numref(pq), term);
    }
    mpz_set_ui(mpq_denref(pq), 1);
    mpz_mul_2exp(mpq_denref(pq), mpq_denref(pq), b * n);
    mpq_canonicalize(pq);
    mpz_sub(mpq_numref(pq), mpq_denref(pq), mpq_numref(pq)); /* 1 - q */
    mpz_clears(bigN, term, NULL);
}

/* p to 256 bits into pq (0 and 1 exactly where they are exact); *tiny
 * when p is nonzero but below 2^-1100, where it is not computed (then
 * *lx, when known, is log2 of about p, else LONG_MIN). */
static void probability(const mpz_t n, const mpz_t bits, mpq_t pq, bool *tiny, long *lx) {
    *tiny = false;
    *lx = LONG_MIN;
    mpq_set_ui(pq, 0, 1);
    if (mpz_cmp_ui(n, 2) < 0) return;
    /* bits past 2^32 can only meet items far below the buckets: p < 2^-1075. */
    if (!mpz_fits_ulong_p(bits) || mpz_cmp_ui(bits, 1ul << 32) > 0) {
        *tiny = true;
        return;
    }
    unsigned long b = mpz_get_ui(bits);
    if (more_than_buckets(n, b)) {
        mpq_set_ui(pq, 1, 1);
        return;
    }
    if (mpz_cmp_ui(n, EXACT_BITS / b) <= 0) {
        p_exact(mpz_get_ui(n), b, pq);
        return;
    }
    mpz_t m;
    mpz_init(m);
    mpz_sub_ui(m, n, 1);
    /* x = n(n-1)/2N ~ 2^(bitlen(m(m+1)/2) - b): past 2^8, q < e^-256 and p
     * is 1 to far more than any double; below 2^-1100, p is not computed. */
    long lm = (long)mpz_sizeinbase(m, 2);
    *lx = 2 * lm - 1 - (long)b;
    if (*lx > 8) {
        mpq_set_ui(pq, 1, 1);
    } else if (*lx < -1100) {
        *tiny = true;
    } else {
        mpfr_t lnq;
        mpfr_init2(lnq, WORK_PREC);
        if (lm + 20 <= (long)b) lnq_series(m, b, lnq);
        else lnq_gamma(n, b, lnq);
        mpfr_expm1(lnq, lnq, MPFR_RNDN);
        mpfr_neg(lnq, lnq, MPFR_RNDN);
        mpfr_get_q(pq, lnq);
        mpfr_clear(lnq);
    }
    mpz_clear(m);
}

static json_t *build(const mpz_t n, const mpz_t bits) {
    json_t *r = cc_ok();
    bool ok, tiny;
    long lx;
    mpq_t pq;
    mpq_init(pq);
    probability(n, bits, pq, &tiny, &lx);
    double p = cc_nf_mpq_to_double(pq);
    if (mpz_cmp_ui(n, 2) < 0) {
        ok = cc_nf_set(r, "probability", json_real(p));
        ok &= cc_nf_set(r, "items", cc_json_mpz(n));
        ok &= cc_nf_set(r, "bits", cc_json_mpz(bits));
    } else {
        /* percent from the 256-bit p, not from its double: a subnormal p
         * (below 2.2e-308) carries too few bits for 6 significant digits */
        mpq_t pct;
        mpq_init(pct);
        mpz_mul_ui(mpq_numref(pq), mpq_numref(pq), 100);
        mpq_canonicalize(pq);
        mpq_set(pct, pq);
        json_t *rounding = json_object();
        ok = cc_nf_set(r, "items", cc_json_mpz(n));
        ok &= cc_nf_set(r, "bits", cc_json_mpz(bits));
        ok &= cc_nf_set(r, "probability", cc_nf_real(p));
        ok &= cc_nf_set(r, "percent", cc_nf_real(cc_nf_round_keep_q(pct, 6)));
        ok &= cc_nf_set(rounding, "percent", json_integer(6));
        ok &= cc_nf_set(r, "rounding", rounding);
        if (p == 0) {
            /* a nonzero chance no double holds: say so, never a bare 0.0 */
            char note[200];
            /* 100 p may still be a double (2^-1075 is 2.47e-322 percent) */
            const char *zeros = json_real_value(json_object_get(r, "percent")) == 0
                                    ? "probability and percent are 0.0 only as doubles"
                                    : "probability is 0.0 only as a double";
            if (tiny && lx != LONG_MIN)
                snprintf(note, sizeof note, "the probability is about 2^%ld, below the smallest double "
                                            "(5e-324): %s", lx, zeros);
            else
                snprintf(note, sizeof note, "the probability is nonzero but below the smallest double "
                                            "(5e-324): %s", zeros);
            ok &= cc_nf_set(r, "note", json_string(note));
        }
        mpq_clear(pct);
    }
    mpq_clear(pq);
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_collision_probability(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    mpz_t n, bits;
    mpz_inits(n, bits, NULL);
    json_t *r;
    if (cc_json_get_int_exact(json_object_get(args, "items"), n) ||
        cc_json_get_int_exact(json_object_get(args, "bits"), bits))
        r = cc_err("validation", "items and bits must be integers");
    else if (mpz_sgn(n) < 0 || mpz_cmp_ui(bits, 1) < 0)
        r = cc_err("validation", "items >= 0 and bits >= 1");
    else
        r = build(n, bits);
    mpz_clears(n, bits, NULL);
    return r;
}
