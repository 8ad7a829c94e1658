/* The success object of a numeric calc_exact result (TOOLS.md 3.3.1):
 * value, approx, exact, differs_from_decimal, type, and for approximated
 * results the approximated list and the note. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/calc/calc_internal.h"

#include <mpfr.h>

/* The fraction digits approx keeps at most. */
#define APPROX_FRACTION 12
/* The significant digits approx is first rounded to. */
#define APPROX_SIGNIFICANT 50

/* 10**|k| multiplies num when k >= 0, den otherwise. */
static void scale_pow10(mpz_t num, mpz_t den, long k) {
    mpz_t t;
    mpz_init(t);
    mpz_ui_pow_ui(t, 10, (unsigned long)labs(k));
    if (k >= 0) mpz_mul(num, num, t);
    else mpz_mul(den, den, t);
    mpz_clear(t);
}

/* E with 10**E <= |p/q| < 10**(E+1), for p != 0: a guess from the digit
 * counts, corrected by at most a step or two. */
static long decimal_exponent(const mpz_t p, const mpz_t q) {
    long e10 = (long)mpz_sizeinbase(p, 10) - (long)mpz_sizeinbase(q, 10);
    mpz_t l, r;
    mpz_inits(l, r, NULL);
    for (;;) {
        /* compare |p| with q*10**e10 and q*10**(e10+1) */
        mpz_abs(l, p);
        mpz_set(r, q);
        scale_pow10(r, l, e10);
        if (mpz_cmp(l, r) < 0) {
            e10--;
            continue;
        }
        mpz_mul_ui(r, r, 10);
        if (mpz_cmp(l, r) < 0) break;
        e10++;
    }
    mpz_clears(l, r, NULL);
    return e10;
}

/* |q| as an integer count of 10**-APPROX_FRACTION: first rounded half-even
 * to APPROX_SIGNIFICANT significant digits, then (when that unit is finer)
 * to the fraction limit. */
static void approx_units(mpq_srcptr q, mpz_t n) {
    long e10 = decimal_exponent(mpq_numref(q), mpq_denref(q));
    long unit = e10 - (APPROX_SIGNIFICANT - 1);
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    mpz_abs(num, mpq_numref(q));
    mpz_set(den, mpq_denref(q));
    scale_pow10(num, den, -unit);
    calc_div_half_even(n, num, den);
    if (unit >= -APPROX_FRACTION) {
        scale_pow10(n, den, unit + APPROX_FRACTION);
    } else {
        mpz_set(num, n);
        mpz_set_ui(den, 1);
        scale_pow10(num, den, unit + APPROX_FRACTION);
        calc_div_half_even(n, num, den);
    }
    mpz_clears(num, den, NULL);
}

/* Places the decimal point APPROX_FRACTION digits from the right of the nd
 * digits (zero-padded so a digit stands left of the point), then drops
 * trailing zeros and a bare point; into out, which has room for nd + 16
 * bytes. Returns the text's length. */
static size_t point_into(char *out, const char *digits, size_t nd, bool negative) {
    size_t pad = nd < APPROX_FRACTION + 1 ? APPROX_FRACTION + 1 - nd : 0;
    char *o = out;
    if (negative) *o++ = '-';
    memset(o, '0', pad);
    memcpy(o + pad, digits, nd);
    size_t total = nd + pad;
    memmove(o + total - (APPROX_FRACTION - 1), o + total - APPROX_FRACTION, APPROX_FRACTION);
    o[total - APPROX_FRACTION] = '.';
    o[total + 1] = '\0';
    size_t len = (size_t)(o - out) + total + 1;
    while (out[len - 1] == '0') out[--len] = '\0';
    if (out[len - 1] == '.') out[--len] = '\0';
    return len;
}

/* point_into's text, malloc'd; NULL on OOM. */
static char *point_text(const char *digits, bool negative) {
    size_t nd = strlen(digits);
    char *out = malloc(nd + 16);
    if (out) point_into(out, digits, nd, negative);
    return out;
}

/* approx_units for num/den (both < 2**63) in 128-bit integers, as decimal
 * digits into buf. There the first rounding (to APPROX_SIGNIFICANT digits)
 * never changes the second: |q| < 10**19 puts the first rounding's unit at
 * or below 10**-31, half of which (scaled by 10**12: 5e-20) is less than
 * the distance from any fraction r/den to 1/2 other than 1/2 itself (at
 * least 1/(2 den) > 5.4e-20). So one half-even rounding to the fraction
 * limit gives the same count. */
static void small_approx_digits(uint64_t num, uint64_t den, char buf[40]) {
    unsigned __int128 t = (unsigned __int128)num * 1000000000000u; /* 10**APPROX_FRACTION */
    unsigned __int128 quo = t / den, rem = t % den;
    if (2 * rem > den || (2 * rem == den && (quo & 1))) quo++;
    char *p = buf + 39;
    *p = '\0';
    while (quo > UINT64_MAX) { /* 128-bit division only for the top digits */
        *--p = (char)('0' + (int)(quo % 10));
        quo /= 10;
    }
    uint64_t q64 = (uint64_t)quo;
    do {
        *--p = (char)('0' + (int)(q64 % 10));
        q64 /= 10;
    } while (q64);
    memmove(buf, p, (size_t)(buf + 40 - p));
}

/* The significant digits a value too small for the fixed point keeps. */
#define APPROX_TINY_DIGITS 12

/* A nonzero |q| that the fixed point would write as "0" (below 5e-13), in
 * scientific notation with APPROX_TINY_DIGITS significant digits, half-even,
 * trailing zeros dropped ("1e-20", "-3.33333333333e-13"): approx "0" for a
 * nonzero value was a confident zero beside an exact value that is not.
 * malloc'd; NULL on OOM. */
static char *tiny_text(mpq_srcptr q) {
    long e10 = decimal_exponent(mpq_numref(q), mpq_denref(q));
    mpz_t num, den, n;
    mpz_inits(num, den, n, NULL);
    mpz_abs(num, mpq_numref(q));
    mpz_set(den, mpq_denref(q));
    scale_pow10(num, den, (APPROX_TINY_DIGITS - 1) - e10);
    calc_div_half_even(n, num, den);
    mpz_ui_pow_ui(den, 10, APPROX_TINY_DIGITS);
    if (mpz_cmp(n, den) >= 0) { /* 9.99...95 rounded up to 10: 10**12 exactly */
        mpz_divexact_ui(n, n, 10);
        e10++;
    }
    char *d = mpz_get_str(NULL, 10, n);
    char *out = d ? malloc(strlen(d) + 32) : NULL;
    if (out) {
        size_t nd = strlen(d);
        while (nd > 1 && d[nd - 1] == '0') nd--;
        int k = sprintf(out, "%s%c", mpq_sgn(q) < 0 ? "-" : "", d[0]);
        if (nd > 1) k += sprintf(out + k, ".%.*s", (int)(nd - 1), d + 1);
        sprintf(out + k, "e%ld", e10);
    }
    if (d) calc_gmp_str_free(d);
    mpz_clears(num, den, n, NULL);
    return out;
}

/* Past this many bits of magnitude (about 10**-315000) tiny_text's exact
 * path does not finish in time: a look holding exp(-10**8) (2**-144269504)
 * or erfc(10000) made it build 10**43429453 several times over, 8 to 10 s of
 * CPU, and the guard killed the calc worker (resource_exhausted). */
#define APPROX_EXACT_MAX_BITS (1L << 20)

/* tiny_text's text for such a value, from a 128-bit MPFR value of q and
 * MPFR's correctly rounded 12 digits (ties to even). The two roundings
 * differ only for a q within 2**-128 of its size from a 12-digit midpoint;
 * a q with a huge binary exponent is a dyadic rational, never exactly on a
 * decimal midpoint, and an approximated value's text stands only where
 * both looks give it (looked_approx), so a misrounding there is null, not
 * wrong. NULL when MPFR's exponent range cannot hold q (or on OOM). */
static char *tiny_text_mpfr(mpq_srcptr q) {
    mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    mpfr_t x;
    mpfr_init2(x, 128);
    mpfr_set_q(x, q, MPFR_RNDN);
    char *out = NULL;
    mpfr_exp_t e;
    char *d = mpfr_regular_p(x) ? mpfr_get_str(NULL, &e, 10, APPROX_TINY_DIGITS, x, MPFR_RNDN) : NULL;
    if (d) {
        const char *digits = d + (d[0] == '-');
        size_t nd = strlen(digits);
        while (nd > 1 && digits[nd - 1] == '0') nd--;
        out = malloc(nd + 40);
        if (out) {
            int k = sprintf(out, "%s%c", mpfr_signbit(x) ? "-" : "", digits[0]);
            if (nd > 1) k += sprintf(out + k, ".%.*s", (int)(nd - 1), digits + 1);
            sprintf(out + k, "e%ld", (long)e - 1); /* MPFR's 0.ddd x 10**e */
        }
        mpfr_free_str(d);
    }
    mpfr_clear(x);
    mpfr_set_emin(old_min);
    mpfr_set_emax(old_max);
    return out;
}

size_t calc_small_approx_text(uint64_t num, uint64_t den, bool negative,
                              char buf[CALC_SMALL_APPROX_TEXT]) {
    _Static_assert(APPROX_FRACTION == 12, "small_approx_digits scales by 10**12");
    _Static_assert(CALC_SMALL_APPROX_TEXT >= 40 + 16, "room for point_into");
    if (num == 0) {
        memcpy(buf, "0", 2);
        return 1;
    }
    char small[40];
    small_approx_digits(num, den, small);
    if (strcmp(small, "0") == 0) { /* a nonzero value below 5e-13 */
        mpq_t q;
        mpq_init(q);
        mpz_set_ui(mpq_numref(q), num);
        mpz_set_ui(mpq_denref(q), den);
        if (negative) mpq_neg(q, q);
        char *t = tiny_text(q);
        mpq_clear(q);
        size_t len = t ? strlen(t) : 0;
        if (t && len < CALC_SMALL_APPROX_TEXT) memcpy(buf, t, len + 1);
        else len = 0, buf[0] = '\0';
        free(t);
        return len;
    }
    return point_into(buf, small, strlen(small), negative);
}

char *cc_calc_approx_str(const mpq_t q) {
    if (mpq_sgn(q) == 0) return strdup("0");
    if (mpz_sizeinbase(mpq_numref(q), 2) <= 63 && mpz_sizeinbase(mpq_denref(q), 2) <= 63) {
        char small[CALC_SMALL_APPROX_TEXT];
        /* mpz_get_ui reads the absolute value */
        calc_small_approx_text(mpz_get_ui(mpq_numref(q)), mpz_get_ui(mpq_denref(q)), mpq_sgn(q) < 0, small);
        return strdup(small);
    }
    long bits = (long)mpz_sizeinbase(mpq_numref(q), 2) - (long)mpz_sizeinbase(mpq_denref(q), 2);
    if (bits < -APPROX_EXACT_MAX_BITS) return tiny_text_mpfr(q);
    mpz_t n;
    mpz_init(n);
    approx_units(q, n);
    if (mpz_sgn(n) == 0) {
        mpz_clear(n);
        return tiny_text(q);
    }
    char *digits = mpz_get_str(NULL, 10, n);
    char *out = digits ? point_text(digits, mpq_sgn(q) < 0 && mpz_sgn(n) != 0) : NULL;
    if (digits) calc_gmp_str_free(digits);
    mpz_clear(n);
    return out;
}

static const char *const const_names[] = {"pi", "e", "tau"};

static int by_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names behind the approximation, each list sorted: the binary64
 * functions (none for an integral result) and the constants. */
struct approx_names {
    const char *fn[64], *cs[3];
    size_t nf, nc;
};

static void collect_names(const struct cc_calc_outcome *o, bool integral,
                          struct approx_names *n) {
    n->nf = n->nc = 0;
    for (unsigned i = 0; i < 64 && !integral; i++)
        if ((o->funcs & (1ull << i)) && calc_function_name(i)) n->fn[n->nf++] = calc_function_name(i);
    for (size_t i = 0; i < 3; i++)
        if (o->consts & (1u << i)) n->cs[n->nc++] = const_names[i];
    qsort(n->fn, n->nf, sizeof n->fn[0], by_name);
    qsort(n->cs, n->nc, sizeof n->cs[0], by_name);
}

/* The note names the constants when there are any, else the functions. */
static char *approximation_note(const struct approx_names *n) {
    const char *const *names = n->nc ? n->cs : n->fn;
    size_t count = n->nc ? n->nc : n->nf;
    char joined[512] = "";
    for (size_t i = 0; i < count; i++) {
        size_t used = strlen(joined);
        snprintf(joined + used, sizeof joined - used, "%s%s", i ? ", " : "", names[i]);
    }
    char *note = NULL;
    int rc = n->nc ? asprintf(&note, "%s is irrational; the value used is the exact rational "
                                     "form of its binary64 approximation, so this result is NOT "
                                     "exact", joined)
                   : asprintf(&note, "%s has no exact rational form; the value shown is the "
                                     "exact rational of a binary64 approximation, so this result "
                                     "is NOT exact", joined);
    return rc >= 0 ? note : NULL;
}

/* approximated list and note (3.3.1), for a non-exact result, and
 * approx_checked: whether approx is the true value to the digits shown
 * (looked_approx) rather than the binary64 value's. */
static void add_approximation(json_t *r, const struct cc_calc_outcome *o, bool integral, bool looked) {
    struct approx_names n;
    collect_names(o, integral, &n);
    json_t *list = json_array();
    for (size_t i = 0; i < n.nf; i++) json_array_append_new(list, json_string(n.fn[i]));
    for (size_t i = 0; i < n.nc; i++) json_array_append_new(list, json_string(n.cs[i]));
    json_object_set_new(r, "approximated", list);
    json_object_set_new(r, "approx_checked", json_boolean(looked));
    char *note = approximation_note(&n);
    if (note) json_object_set_new(r, "note", json_string(note));
    free(note);
}

/* approx of an approximated value: the true value's text, where the two
 * looks (256 and 384 bits) give one text; NULL otherwise. The double's
 * digits past its precision are not the true value's: exp(log(111404)) is
 * 111404.00000000006 as a double and 111404 in truth, exp(50) the double
 * 5184705528587072045056 and in truth 5184705528587072464087.45... A
 * value held beside an integer (tiny) is left to the double. */
static char *looked_approx(const struct cc_calc_outcome *o) {
    if (!o->looked || !o->look[0].ok || !o->look[1].ok || o->look[0].tiny || o->look[1].tiny)
        return NULL;
    char *a = cc_calc_approx_str(o->look[0].q), *b = cc_calc_approx_str(o->look[1].q);
    bool same = a && b && strcmp(a, b) == 0;
    free(b);
    if (same) return a;
    free(a);
    return NULL;
}

/* The bits of its size within which both looks must hold the double for
 * its text to stand as approx unchecked: its leading digits (about 12)
 * are then the true value's, only those past them are not. */
#define DOUBLE_CONFIRM_BITS 40

/* Where the looks give no one text (approx_checked false): whether the
 * double is still the true value to its leading digits, both looks valid
 * and within 2^-DOUBLE_CONFIRM_BITS of its size from it (tanh(300), held
 * at 1 from below, is 1 to 261 digits). Else its digits may all be wrong
 * (exp(100) - exp(50)*exp(50) is the double 6.3e27 and the true 0, sin(pi)
 * 1.2e-16 against 0) and approx is null. A value held beside 0 (an
 * underflow) is not confirmed: its size is not known. */
static bool double_confirmed(const struct cc_calc_outcome *o) {
    if (!o->looked || !o->look[0].ok || !o->look[1].ok) return false;
    bool ok = true;
    mpq_t d, s;
    mpq_inits(d, s, NULL);
    for (int k = 0; k < CC_CALC_LOOKS && ok; k++) {
        if (o->look[k].tiny && mpq_sgn(o->look[k].q) == 0) ok = false;
        mpq_sub(d, o->q, o->look[k].q);
        mpq_abs(d, d);
        mpq_abs(s, o->look[k].q);
        mpq_mul_2exp(d, d, DOUBLE_CONFIRM_BITS);
        ok = ok && mpq_cmp(d, s) <= 0;
    }
    mpq_clears(d, s, NULL);
    return ok;
}

json_t *calc_render_number(const struct cc_calc_outcome *o) {
    /* An integer from binary64 functions is exact only when the second looks
     * find the true value to be that integer (sqrt(16), log(8, 2)); exp(50)
     * and sqrt(2)*10**16 are integers only as doubles. */
    bool integral = calc_is_int(o->q) && (o->funcs == 0 || cc_calc_check_value(o, o->q) == CC_CALC_SAME);
    bool exact = o->consts == 0 && (o->funcs == 0 || integral); /* cc_calc_value_exact's rule */
    char *looked = exact ? NULL : looked_approx(o);
    /* unchecked and unconfirmed: no digits to give (approx null) */
    bool none = !exact && !looked && !double_confirmed(o);
    char *value = cc_calc_q_str(o->q), *approx = looked ? looked : cc_calc_approx_str(o->q);
    if (!value || !approx) {
        free(value);
        free(approx);
        return cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    }
    json_t *r = cc_ok();
    /* Every call builds this object: the keys are literals and both texts
     * are digits, '-', '/' and '.' (GMP's and ours), so the UTF-8 checks
     * of json_object_set_new and json_string are skipped. */
    json_object_set_new_nocheck(r, "value", json_string_nocheck(value));
    json_object_set_new_nocheck(r, "approx", none ? json_null() : json_string_nocheck(approx));
    json_object_set_new_nocheck(r, "exact", json_boolean(exact));
    json_object_set_new_nocheck(r, "differs_from_decimal", json_boolean(none || strcmp(value, approx) != 0));
    json_object_set_new_nocheck(r, "type", json_string_nocheck("rational"));
    if (!exact) add_approximation(r, o, integral, looked != NULL);
    free(value);
    free(approx);
    return r;
}
