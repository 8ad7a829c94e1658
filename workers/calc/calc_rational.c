/* Rational helpers of calc_exact: failure recording, values in messages,
 * and conversions between rationals, decimal text and binary64. */
#include <math.h>
#include <mpfr.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "workers/calc/calc_internal.h"
#include "workers/calc/numfmt.h"

int calc_fail(struct calc_ev *e, const char *code, const char *fmt, ...) {
    if (e->code) return -1;
    e->code = code;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&e->msg, fmt, ap) < 0) e->msg = NULL;
    va_end(ap);
    return -1;
}

void calc_gmp_str_free(char *s) {
    void (*gfree)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gfree);
    gfree(s, strlen(s) + 1);
}

/* Decimal digits of v, right-aligned before end; returns where they start. */
static char *u64_digits(uint64_t v, char *end) {
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

size_t calc_small_q_text(int64_t n, uint64_t d, char buf[CALC_SMALL_Q_TEXT]) {
    char tmp[CALC_SMALL_Q_TEXT], *end = tmp + sizeof tmp, *p = end;
    if (d != 1) {
        p = u64_digits(d, p);
        *--p = '/';
    }
    p = u64_digits(n < 0 ? 0 - (uint64_t)n : (uint64_t)n, p);
    if (n < 0) *--p = '-';
    size_t len = (size_t)(end - p);
    memcpy(buf, p, len);
    buf[len] = '\0';
    return len;
}

/* mpq_get_str's text for a value whose parts fit in 64 bits, without
 * GMP's allocation and radix conversion; NULL when they do not fit. */
static char *small_q_str(const mpq_t q) {
    if (!mpz_fits_slong_p(mpq_numref(q)) || !mpz_fits_ulong_p(mpq_denref(q))) return NULL;
    char buf[CALC_SMALL_Q_TEXT];
    size_t len = calc_small_q_text(mpz_get_si(mpq_numref(q)), mpz_get_ui(mpq_denref(q)), buf);
    return strndup(buf, len);
}

char *cc_calc_q_str(const mpq_t q) {
    if (mpz_sizeinbase(mpq_numref(q), 2) < 64 && mpz_sizeinbase(mpq_denref(q), 2) < 64) return small_q_str(q);
    char *g = mpq_get_str(NULL, 10, q);
    char *s = g ? strdup(g) : NULL;
    if (g) calc_gmp_str_free(g);
    return s;
}

/* Huge values are summarised, not printed: a message stays small. */
char *calc_show(mpq_srcptr q) {
    size_t digits = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10);
    if (digits > CALC_FORMAT_DIGITS) {
        char *s = NULL;
        if (asprintf(&s, "(~%zu digits)", digits) < 0) return NULL;
        return s;
    }
    return cc_calc_q_str(q);
}

bool calc_is_int(mpq_srcptr q) { return mpz_cmp_ui(mpq_denref(q), 1) == 0; }

/* Exact value of a decimal string such as "0.1", "1e+16" or "5e-324":
 * mantissa digits m and the power of ten they are scaled by. */
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

void calc_q_from_double(double d, mpq_t out) {
    char buf[32];
    q_from_decimal(cc_float_repr(d, buf), out);
}

int calc_q_to_double(mpq_srcptr q, double *out) {
    mpfr_t f;
    mpfr_init2(f, 53);
    mpfr_set_q(f, q, MPFR_RNDN);
    *out = mpfr_get_d(f, MPFR_RNDN);
    mpfr_clear(f);
    return isfinite(*out) ? 0 : -1;
}

void calc_div_half_even(mpz_t out, const mpz_t num, const mpz_t den) {
    mpz_t r;
    mpz_init(r);
    mpz_fdiv_qr(out, r, num, den);
    mpz_mul_2exp(r, r, 1);
    int c = mpz_cmp(r, den);
    if (c > 0 || (c == 0 && mpz_odd_p(out))) mpz_add_ui(out, out, 1);
    mpz_clear(r);
}

void calc_round_half_even(mpz_t out, mpq_srcptr q) {
    calc_div_half_even(out, mpq_numref(q), mpq_denref(q));
}

/* The second look trusts 40 bits fewer than it carries: enough for the
 * error of a few hundred operations, far above anything binary64 sees. */
static bool within_reach(const struct calc_ev *e, mpq_srcptr d, mpq_srcptr scale) {
    mpq_t lhs, rhs;
    mpq_inits(lhs, rhs, NULL);
    mpq_abs(lhs, d);
    mpq_abs(rhs, scale);
    if (mpq_cmp_ui(rhs, 1, 1) < 0) mpq_set_ui(rhs, 1, 1);
    mpq_mul_2exp(lhs, lhs, e->prec - 40);
    bool near = mpq_cmp(lhs, rhs) <= 0;
    mpq_clears(lhs, rhs, NULL);
    return near;
}

void calc_near_step(struct calc_ev *e, mpq_srcptr x, mpq_srcptr unit) {
    if (e->prec == 0 || e->close) return;
    mpq_t r, d;
    mpz_t z;
    mpq_inits(r, d, NULL);
    mpz_init(z);
    if (unit) mpq_div(r, x, unit);
    else mpq_set(r, x);
    calc_round_half_even(z, r);
    mpq_set_z(d, z);
    mpq_sub(d, r, d);
    if (within_reach(e, d, r)) e->close = true;
    mpq_clears(r, d, NULL);
    mpz_clear(z);
}

/* d = a - b; the larger magnitude into scale. */
static void difference_and_scale(mpq_srcptr a, mpq_srcptr b, mpq_t d, mpq_t scale) {
    mpq_t other;
    mpq_init(other);
    mpq_sub(d, a, b);
    mpq_abs(scale, a);
    mpq_abs(other, b);
    if (mpq_cmp(other, scale) > 0) mpq_swap(scale, other);
    mpq_clear(other);
}

bool calc_within_reach(const struct calc_ev *e, mpq_srcptr a, mpq_srcptr b) {
    mpq_t d, scale;
    mpq_inits(d, scale, NULL);
    difference_and_scale(a, b, d, scale);
    bool near = within_reach(e, d, scale);
    mpq_clears(d, scale, NULL);
    return near;
}

/* A new comparison record of e, or NULL when there is no room (the look
 * is then void). */
static struct calc_cmp *cmp_entry(struct calc_ev *e) {
    if (e->ncmp == CALC_CMP_MAX) {
        e->close = true;
        return NULL;
    }
    struct calc_cmp *c = &e->cmp[e->ncmp++];
    mpq_init(c->d);
    c->near = c->rule = false;
    c->sign = 0;
    return c;
}

void calc_near_equal(struct calc_ev *e, mpq_srcptr a, mpq_srcptr b) {
    if (e->prec == 0 || e->close) return;
    struct calc_cmp *c = cmp_entry(e);
    if (!c) return;
    mpq_t scale;
    mpq_init(scale);
    difference_and_scale(a, b, c->d, scale);
    c->sign = (signed char)mpq_sgn(c->d);
    /* too close for this look alone: what the other look finds decides */
    c->near = within_reach(e, c->d, scale);
    mpq_clear(scale);
}

void calc_cmp_rule(struct calc_ev *e, int sign) {
    if (e->prec == 0 || e->close) return;
    struct calc_cmp *c = cmp_entry(e);
    if (!c) return;
    c->rule = true;
    c->sign = (signed char)sign;
}

void calc_near_truncate(struct calc_ev *e, int ncmp) {
    while (e->ncmp > ncmp) mpq_clear(e->cmp[--e->ncmp].d);
}

void calc_near_clear(struct calc_ev *e) { calc_near_truncate(e, 0); }

int calc_b64_round(struct calc_ev *e, mpq_t q) {
    double d = cc_nf_mpq_to_double(q);
    if (!isfinite(d)) return calc_fail(e, "validation", "binary64 overflow");
    mpq_set_d(q, d);
    return 0;
}
