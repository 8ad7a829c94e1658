/* Exact rounding and decimal rendering of binary64 values with GMP/MPFR. */
#include "workers/calc/numfmt.h"

#include "workers/common/tool_api.h"

#include <ctype.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

double cc_nf_mpq_to_double(const mpq_t q) {
    /* Narrow MPFR's exponent range to binary64's so that subnormals are
     * rounded once, at the right place (the MPFR manual's recipe). */
    mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    mpfr_t f;
    mpfr_init2(f, 53);
    int t = mpfr_set_q(f, q, MPFR_RNDN);
    t = mpfr_check_range(f, t, MPFR_RNDN);
    mpfr_subnormalize(f, t, MPFR_RNDN);
    double d = mpfr_get_d(f, MPFR_RNDN);
    mpfr_clear(f);
    mpfr_set_emin(old_min);
    mpfr_set_emax(old_max);
    return d;
}

void cc_nf_mpq_round(mpz_t out, const mpq_t q) {
    mpz_t r;
    mpz_init(r);
    mpz_fdiv_qr(out, r, mpq_numref(q), mpq_denref(q));
    mpz_mul_2exp(r, r, 1);
    int c = mpz_cmp(r, mpq_denref(q));
    if (c > 0 || (c == 0 && mpz_odd_p(out))) mpz_add_ui(out, out, 1);
    mpz_clear(r);
}

double cc_nf_round_dec_q(const mpq_t x, int ndigits) {
    mpq_t q, scale;
    mpz_t n;
    mpq_inits(q, scale, NULL);
    mpz_init(n);
    mpz_ui_pow_ui(mpq_numref(scale), 10, (unsigned long)ndigits);
    mpq_mul(q, x, scale);
    cc_nf_mpq_round(n, q);
    mpq_set_num(q, n);
    mpq_set_den(q, mpq_numref(scale));
    mpq_canonicalize(q);
    double d = cc_nf_mpq_to_double(q);
    mpz_clear(n);
    mpq_clears(q, scale, NULL);
    return d;
}

/* Sign of q - 10^e for q > 0. */
static int cmp_pow10(const mpq_t q, long e);

/* floor(log10(q)) for q > 0, from the bit lengths then exact comparisons. */
static long decimal_exponent(const mpq_t q) {
    long bits = (long)mpz_sizeinbase(mpq_numref(q), 2) - (long)mpz_sizeinbase(mpq_denref(q), 2);
    long e10 = (long)floor((double)bits * 0.30102999566398120);
    while (cmp_pow10(q, e10) < 0) e10--;
    while (cmp_pow10(q, e10 + 1) >= 0) e10++;
    return e10;
}

double cc_nf_round_keep_q(const mpq_t x, int ndigits) {
    if (mpq_sgn(x) == 0) return 0.0;
    mpq_t a;
    mpq_init(a);
    mpq_abs(a, x);
    long e10 = decimal_exponent(a);
    /* Below 1e-400 every rounding to 6 significant digits is far below the
     * smallest subnormal: the double nearest x is the same. */
    if (e10 < -400) {
        mpq_clear(a);
        return cc_nf_mpq_to_double(x);
    }
    /* ndigits decimals round |x| to 0 when |x| < 0.5 * 10^-ndigits, i.e.
     * from e10 < -ndigits on (a tie at 5 * 10^-(ndigits+1) goes to 0 too). */
    mpq_t half;
    mpq_init(half);
    mpq_set_ui(half, 1, 2);
    mpz_ui_pow_ui(mpq_numref(a), 10, (unsigned long)ndigits);
    mpq_set_z(a, mpq_numref(a));
    mpq_div(half, half, a); /* 0.5 * 10^-ndigits */
    mpq_abs(a, x);
    bool vanishes = mpq_cmp(a, half) <= 0;
    mpq_clears(a, half, NULL);
    if (!vanishes) return cc_nf_round_dec_q(x, ndigits);
    return cc_nf_round_dec_q(x, (int)((long)ndigits - 1 - e10)); /* ndigits significant digits */
}

double cc_nf_round_dec(double x, int ndigits) {
    if (!isfinite(x) || x == 0 || ndigits < 0) return x;
    mpq_t q;
    mpq_init(q);
    mpq_set_d(q, x);
    double d = cc_nf_round_dec_q(q, ndigits);
    mpq_clear(q);
    return d == 0 ? copysign(0.0, x) : d;
}

/* Consume a run of decimal digits; returns how many. */
static size_t digit_run(const char *s, size_t n) {
    size_t i = 0;
    while (i < n && isdigit((unsigned char)s[i])) i++;
    return i;
}

/* Exponent part after 'e': [+-]digits, bounded by CC_NF_EXP_MAX. */
static int parse_exponent(const char *s, size_t n, long *out) {
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    size_t nd = digit_run(s + i, n - i);
    if (nd == 0 || i + nd != n) return -1;
    long e = 0;
    for (size_t k = i; k < n; k++) {
        e = e * 10 + (s[k] - '0');
        if (e > CC_NF_EXP_MAX) return -2;
    }
    *out = neg ? -e : e;
    return 0;
}

int cc_nf_parse_decimal(const char *s, size_t n, mpq_t out) {
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    size_t int_start = i, int_len = digit_run(s + i, n - i);
    i += int_len;
    size_t frac_start = i, frac_len = 0;
    if (i < n && s[i] == '.') {
        frac_start = ++i;
        frac_len = digit_run(s + i, n - i);
        i += frac_len;
    }
    if (int_len + frac_len == 0) return -1;
    long exp10 = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int rc = parse_exponent(s + i + 1, n - i - 1, &exp10);
        if (rc) return rc;
        i = n;
    }
    if (i != n) return -1;

    /* mantissa digits without the point, then scale by 10^(exp - frac). */
    char *digits = malloc(int_len + frac_len + 1);
    if (!digits) return -1;
    memcpy(digits, s + int_start, int_len);
    memcpy(digits + int_len, s + frac_start, frac_len);
    digits[int_len + frac_len] = '\0';
    mpz_t m, p;
    mpz_inits(m, p, NULL);
    mpz_set_str(m, digits, 10);
    free(digits);
    long shift = exp10 - (long)frac_len;
    mpz_ui_pow_ui(p, 10, (unsigned long)labs(shift));
    if (shift >= 0) {
        mpz_mul(m, m, p);
        mpq_set_z(out, m);
    } else {
        mpq_set_num(out, m);
        mpq_set_den(out, p);
        mpq_canonicalize(out);
    }
    if (neg) mpq_neg(out, out);
    mpz_clears(m, p, NULL);
    return 0;
}

/* Digits of u in base, in memory from malloc (not GMP's allocator) so that
 * callers can free() it. */
static char *mpz_str(const mpz_t u, int base) {
    char *buf = malloc(mpz_sizeinbase(u, base) + 2);
    if (buf) mpz_get_str(buf, base, u);
    return buf;
}

/* Sign of q - 10^e for q > 0. */
static int cmp_pow10(const mpq_t q, long e) {
    mpq_t p;
    mpq_init(p);
    mpz_ui_pow_ui(mpq_numref(p), 10, (unsigned long)labs(e));
    if (e < 0) mpq_inv(p, p);
    int c = mpq_cmp(q, p);
    mpq_clear(p);
    return c;
}

/* out = round_half_even(q * 10^k). */
static void round_scaled(mpz_t out, const mpq_t q, long k) {
    mpq_t t, p;
    mpq_inits(t, p, NULL);
    mpz_ui_pow_ui(mpq_numref(p), 10, (unsigned long)labs(k));
    if (k < 0) mpq_inv(p, p);
    mpq_mul(t, q, p);
    cc_nf_mpq_round(out, t);
    mpq_clears(t, p, NULL);
}

/* Render m * 10^-frac as fixed point with trailing zeros stripped. */
static char *fixed_from_scaled(const mpz_t m, int frac, bool neg) {
    if (mpz_sgn(m) == 0) return strdup("0");
    char *digits = mpz_str(m, 10);
    if (!digits) return NULL;
    size_t nd = strlen(digits), width = nd > (size_t)frac ? nd : (size_t)frac + 1;
    char *out = malloc(width + 3);
    if (!out) {
        free(digits);
        return NULL;
    }
    char *o = out;
    if (neg) *o++ = '-';
    size_t pad = width - nd, int_len = width - (size_t)frac;
    for (size_t i = 0; i < width; i++) {
        if (i == int_len) *o++ = '.';
        *o++ = i < pad ? '0' : digits[i - pad];
    }
    *o = '\0';
    free(digits);
    if (frac > 0) {
        while (o[-1] == '0') *--o = '\0';
        if (o[-1] == '.') *--o = '\0';
    }
    return out;
}

char *cc_nf_double_fixed(double x, int sig, int frac) {
    if (!isfinite(x) || sig < 1 || frac < 0) return NULL;
    if (x == 0) return strdup("0");
    mpq_t q;
    mpz_t n;
    mpq_init(q);
    mpz_init(n);
    mpq_set_d(q, fabs(x));
    int e2;
    frexp(x, &e2);
    long e10 = (long)floor((e2 - 1) * 0.30102999566398120);
    while (cmp_pow10(q, e10) < 0) e10--;
    while (cmp_pow10(q, e10 + 1) >= 0) e10++;
    /* First rounding: sig significant digits, i.e. n * 10^(e10 - sig + 1). */
    long k = sig - 1 - e10;
    round_scaled(n, q, k);
    /* Second rounding: to frac fractional digits, from the rounded value. */
    mpq_set_z(q, n);
    round_scaled(n, q, (long)frac - k);
    char *s = fixed_from_scaled(n, frac, x < 0);
    mpz_clear(n);
    mpq_clear(q);
    return s;
}

char *cc_nf_mpz_padded(const mpz_t u, int base, size_t width) {
    char *digits = mpz_str(u, base);
    if (!digits) return NULL;
    size_t nd = strlen(digits);
    if (nd >= width) return digits;
    char *out = malloc(width + 1);
    if (out) {
        memset(out, '0', width - nd);
        memcpy(out + width - nd, digits, nd + 1);
    }
    free(digits);
    return out;
}

json_t *cc_nf_real(double d) {
    return isfinite(d) ? json_real(d) : json_null();
}

bool cc_nf_set(json_t *obj, const char *key, json_t *val) {
    if (!obj || !val) {
        json_decref(val);
        return false;
    }
    return json_object_set_new(obj, key, val) == 0;
}

json_t *cc_nf_finish(json_t *obj, bool ok) {
    if (ok) return obj;
    json_decref(obj);
    return NULL;
}

int cc_nf_get_number(const json_t *j, double *out) {
    if (!j || json_is_boolean(j) || json_is_null(j)) return -1;
    return cc_json_get_double(j, out);
}
