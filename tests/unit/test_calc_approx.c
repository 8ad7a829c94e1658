/* calc_exact's approx text (cc_calc_approx_str) against an independent
 * oracle of its definition (TOOLS.md 3.3.1): |q| rounded half-even to 50
 * significant digits, then to 12 fraction digits (with the calculator's
 * half-even division, the one primitive the two share). Values whose parts fit
 * in 63 bits take a 128-bit fast path; ties and near-ties around it are
 * where a shortcut would go wrong, so they are tested most. */
#include <gmp.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/calc/calc_internal.h"


/* num/den = |q| * 10**shift as a fraction */
static void scaled(mpq_srcptr q, long shift, mpz_t num, mpz_t den) {
    mpz_t p;
    mpz_init(p);
    mpz_abs(num, mpq_numref(q));
    mpz_set(den, mpq_denref(q));
    mpz_ui_pow_ui(p, 10, (unsigned long)labs(shift));
    if (shift >= 0) mpz_mul(num, num, p);
    else mpz_mul(den, den, p);
    mpz_clear(p);
}

/* A nonzero value the fixed point writes as 0 (below 5e-13): 12
 * significant digits in scientific notation, by MPFR's printf at 1024 bits
 * (far past any double rounding), trailing zeros dropped. */
static char *tiny_oracle(mpq_srcptr q) {
    mpfr_t f;
    mpfr_init2(f, 1024);
    mpfr_set_q(f, q, MPFR_RNDN);
    char buf[128];
    mpfr_snprintf(buf, sizeof buf, "%.11RNe", f);
    mpfr_clear(f);
    char *e = strchr(buf, 'e'), *m = e;
    while (m[-1] == '0') m--;
    if (m[-1] == '.') m--;
    long ex = strtol(e + 1, NULL, 10);
    sprintf(m, "e%ld", ex);
    return strdup(buf);
}

static char *oracle(mpq_srcptr q) {
    if (mpq_sgn(q) == 0) return strdup("0");
    /* E with 10**E <= |q| < 10**(E+1), by plain search */
    long e = 0;
    mpz_t num, den, r1, r2, p;
    mpz_inits(num, den, r1, r2, p, NULL);
    for (;;) {
        scaled(q, -e, num, den); /* |q| / 10**e */
        if (mpz_cmp(num, den) < 0) e--;
        else {
            mpz_mul_ui(den, den, 10);
            if (mpz_cmp(num, den) >= 0) e++;
            else break;
        }
    }
    long unit = e - 49;
    scaled(q, -unit, num, den);
    calc_div_half_even(r1, num, den); /* |q| ~ r1 * 10**unit */
    if (unit + 12 >= 0) {
        mpz_ui_pow_ui(p, 10, (unsigned long)(unit + 12));
        mpz_mul(r2, r1, p);
    } else {
        mpz_ui_pow_ui(p, 10, (unsigned long)-(unit + 12));
        calc_div_half_even(r2, r1, p);
    }
    char *d = mpz_get_str(NULL, 10, r2);
    size_t nd = strlen(d);
    char *out = malloc(nd + 20);
    char *o = out;
    if (mpq_sgn(q) < 0 && mpz_sgn(r2) != 0) *o++ = '-';
    if (nd <= 12) {
        o += sprintf(o, "0.%0*d%s", (int)(12 - nd), 0, d);
        if (nd == 12) { /* "%0*d" with width 0 still prints a 0 */
            o = out + (mpq_sgn(q) < 0 && mpz_sgn(r2) != 0);
            o += sprintf(o, "0.%s", d);
        }
    } else {
        o += sprintf(o, "%.*s.%s", (int)(nd - 12), d, d + nd - 12);
    }
    size_t len = strlen(out);
    while (out[len - 1] == '0') out[--len] = '\0';
    if (out[len - 1] == '.') out[--len] = '\0';
    void (*gfree)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gfree);
    gfree(d, nd + 1);
    mpz_clears(num, den, r1, r2, p, NULL);
    if (strcmp(out, "0") == 0) {
        free(out);
        return tiny_oracle(q);
    }
    return out;
}

static int mismatches;

static void agrees(mpq_srcptr q) {
    char *got = cc_calc_approx_str(q), *want = oracle(q);
    bool ok = got && want && strcmp(got, want) == 0;
    if (!ok && mismatches++ < 10) {
        char *t = mpq_get_str(NULL, 10, q);
        fprintf(stderr, "approx of %s: got %s, want %s\n", t, got ? got : "(null)", want);
        free(t);
    }
    CHECK(ok);
    free(got);
    free(want);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd64(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* a random integer of 1..bits bits into z */
static void rnd_mpz(mpz_t z, unsigned bits) {
    mpz_set_ui(z, 0);
    for (unsigned b = 0; b < bits; b += 64) {
        mpz_mul_2exp(z, z, 64);
        mpz_add_ui(z, z, rnd64());
    }
    mpz_fdiv_r_2exp(z, z, 1 + (unsigned)(rnd64() % bits));
}

static void random_values(void) {
    mpq_t q;
    mpq_init(q);
    static const unsigned sizes[] = {8, 20, 40, 62, 63, 64, 70, 130};
    for (int i = 0; i < 40000; i++) {
        rnd_mpz(mpq_numref(q), sizes[rnd64() % 8]);
        rnd_mpz(mpq_denref(q), sizes[rnd64() % 8]);
        if (mpz_sgn(mpq_denref(q)) == 0) mpz_set_ui(mpq_denref(q), 1);
        if (rnd64() & 1) mpz_neg(mpq_numref(q), mpq_numref(q));
        mpq_canonicalize(q);
        agrees(q);
    }
    mpq_clear(q);
}

/* Exact ties at the 12th fraction digit, and values a hair either side. */
static void ties_and_near_ties(void) {
    mpq_t q, eps;
    mpq_inits(q, eps, NULL);
    for (int i = 0; i < 20000; i++) {
        /* (2k+1) / (2 * 10**12) */
        mpz_set_ui(mpq_numref(q), 2 * (rnd64() % 100000000000000ull) + 1);
        mpz_set_ui(mpq_denref(q), 2000000000000ull);
        mpq_canonicalize(q);
        if (i & 1) mpq_neg(q, q);
        agrees(q);
        /* +- 1/d for d near 2**63 and near 2**40 */
        mpz_set_ui(mpq_numref(eps), 1);
        mpz_set_ui(mpq_denref(eps), (i & 2 ? (1ull << 63) - 1 - rnd64() % 1000 : (1ull << 40) + rnd64() % 1000));
        mpq_canonicalize(eps);
        mpq_t s;
        mpq_init(s);
        mpq_add(s, q, eps);
        agrees(s);
        mpq_sub(s, q, eps);
        agrees(s);
        mpq_clear(s);
    }
    /* n/d just around x.5e-12 with d < 2**63: (k*d + d/2 +- 1) / (d * 10**12) style */
    for (int i = 0; i < 20000; i++) {
        uint64_t d = (rnd64() % ((1ull << 62) - 3)) + 3;
        if (!(d & 1)) d++;
        uint64_t k = rnd64() % 7;
        /* num = (k*d*2 + d +- 1) / 2 * ... kept below 2**63: value = (k + 1/2 +- 1/(2d)) / 10**12 */
        mpz_set_ui(mpq_numref(q), k);
        mpz_mul_ui(mpq_numref(q), mpq_numref(q), 2 * d);
        mpz_add_ui(mpq_numref(q), mpq_numref(q), d);
        if (i & 1) mpz_add_ui(mpq_numref(q), mpq_numref(q), 1);
        else mpz_sub_ui(mpq_numref(q), mpq_numref(q), 1);
        mpz_set_ui(mpq_denref(q), 2 * d);
        mpz_mul_ui(mpq_denref(q), mpq_denref(q), 1000000000000ull);
        mpq_canonicalize(q);
        agrees(q);
    }
    mpq_clears(q, eps, NULL);
}

static void known_values(void) {
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, 106, 7);
    char *s = cc_calc_approx_str(q);
    CHECK_STREQ(s, "15.142857142857");
    free(s);
    mpq_set_si(q, -1, 3);
    s = cc_calc_approx_str(q);
    CHECK_STREQ(s, "-0.333333333333");
    free(s);
    mpq_set_si(q, 1, 2000000000000);
    s = cc_calc_approx_str(q); /* a tie the fixed point rounds to 0: written in full */
    CHECK_STREQ(s, "5e-13");
    free(s);
    mpq_set_si(q, 3, 2000000000000);
    s = cc_calc_approx_str(q); /* 1.5e-12: up to the even 2e-12 */
    CHECK_STREQ(s, "0.000000000002");
    free(s);
    mpq_clear(q);
}

/* approx "0" for a nonzero value (1/10**20 had value "1/100000000000000000000"
 * and approx "0"): a value below the 12 fraction digits keeps 12 significant
 * ones, on the 63-bit path and the GMP one alike. */
static void approx_zero_for_nonzero_value(void) {
    static const struct {
        const char *q, *want;
    } cases[] = {
        {"1/100000000000000000000", "1e-20"},
        {"-1/10000000000000", "-1e-13"},
        {"1/3000000000000", "3.33333333333e-13"},
        {"-2/3000000000000000", "-6.66666666667e-16"},
        {"1/10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
         "1e-94"},
        {"999999999999999/1000000000000000000000000000", "0.000000000001"},
        {"4999999999999/10000000000000000000000000", "5e-13"},
        {"99999999999995/1000000000000000000000000000", "1e-13"},
    };
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mpq_set_str(q, cases[i].q, 10);
        char *s = cc_calc_approx_str(q);
        CHECK_STREQ(s, cases[i].want);
        free(s);
    }
    mpq_clear(q);
}

int main(void) {
    RUN(known_values);
    RUN(approx_zero_for_nonzero_value);
    RUN(random_values);
    RUN(ties_and_near_ties);
    return check_summary("calc_approx");
}
