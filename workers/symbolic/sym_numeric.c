/* mpmath-compatible decimal formatting on top of MPFR. */
#include "workers/symbolic/sym_numeric.h"

#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enough bits that 15 or 12 correctly rounded digits of the input decimal
 * are exact (the inputs carry about 30 digits). */
#define WORK_PREC 256

/* Places the dps digits of digs (value 0.d1d2... * 10^exp10) per the
 * fixed/scientific rule. digs has no sign. Returns a malloc'd string. */
static char *place_digits(const char *digs, long e, int dps, bool neg, bool strip) {
    size_t len = strlen(digs);
    char *d = strndup(digs, len);
    if (!d)
        return NULL;
    if (strip)
        while (len > 1 && d[len - 1] == '0')
            d[--len] = '\0';
    char *out = NULL;
    int rc;
    const char *sg = neg ? "-" : "";
    if (e > -5 && e < dps) {
        if (e >= 0) {
            size_t ip = (size_t)e + 1;
            char *ipart = malloc(ip + 1);
            if (!ipart) {
                free(d);
                return NULL;
            }
            for (size_t i = 0; i < ip; i++)
                ipart[i] = i < len ? d[i] : '0';
            ipart[ip] = '\0';
            const char *frac = len > ip ? d + ip : "";
            /* mpmath keeps "123." unstripped, adds a 0 when stripping */
            rc = asprintf(&out, "%s%s.%s%s", sg, ipart, frac,
                          (strip && !*frac) ? "0" : "");
            free(ipart);
        } else {
            rc = asprintf(&out, "%s0.%0*d%s", sg, (int)(-e - 1), 0, d);
            if (rc >= 0 && e == -1) { /* "%0*d" with width 0 still prints "0" */
                free(out);
                rc = asprintf(&out, "%s0.%s", sg, d);
            }
        }
    } else {
        rc = asprintf(&out, "%s%c.%s%se%s%ld", sg, d[0], d + 1,
                      len == 1 ? "0" : "", e >= 0 ? "+" : "", e);
    }
    free(d);
    return rc < 0 ? NULL : out;
}

static char *fmt_mpfr(mpfr_t x, int dps, bool strip) {
    if (mpfr_zero_p(x))
        return strdup(mpfr_signbit(x) ? "-0.0" : "0.0");
    mpfr_exp_t ex;
    char *s = mpfr_get_str(NULL, &ex, 10, (size_t)dps, x, MPFR_RNDN);
    if (!s)
        return NULL;
    bool neg = s[0] == '-';
    char *r = place_digits(s + (neg ? 1 : 0), (long)ex - 1, dps, neg, strip);
    mpfr_free_str(s);
    return r;
}

char *sym_fmt_double(double d, int dps, bool strip) {
    mpfr_t x;
    mpfr_init2(x, 53);
    mpfr_set_d(x, d, MPFR_RNDN);
    char *r = mpfr_number_p(x) ? fmt_mpfr(x, dps, strip) : NULL;
    mpfr_clear(x);
    return r;
}

char *sym_integer_value(const mpz_t n) {
    if (mpz_sgn(n) == 0)
        return strdup("0");
    mpfr_t x;
    mpfr_init2(x, WORK_PREC);
    mpfr_set_z(x, n, MPFR_RNDN); /* exact: callers keep n below 2**132 */
    char *r = fmt_mpfr(x, 12, false);
    mpfr_clear(x);
    return r;
}

char *sym_fmt_decimal(const char *dec, int dps, bool strip) {
    mpfr_t x;
    mpfr_prec_t need = (mpfr_prec_t)(dps * 3.33) + 32;
    mpfr_init2(x, need > WORK_PREC ? need : WORK_PREC);
    char *r = NULL;
    if (mpfr_set_str(x, dec, 10, MPFR_RNDN) == 0 && mpfr_number_p(x))
        r = fmt_mpfr(x, dps, strip);
    mpfr_clear(x);
    return r;
}

static bool decimal_is_zero(const char *dec) {
    mpfr_t x;
    mpfr_init2(x, WORK_PREC);
    bool z = mpfr_set_str(x, dec, 10, MPFR_RNDN) == 0 && mpfr_zero_p(x);
    mpfr_clear(x);
    return z;
}

char *sym_numeric_value(const char *re, const char *im, bool exact_zero) {
    if (exact_zero)
        return strdup("0");
    if (!im || decimal_is_zero(im))
        return sym_fmt_decimal(re, 12, false);
    char *ims = sym_fmt_decimal(im, 12, true);
    if (!ims)
        return NULL;
    char *out = NULL;
    int rc;
    if (decimal_is_zero(re)) {
        rc = asprintf(&out, "%s*I", ims);
    } else {
        char *res = sym_fmt_decimal(re, 12, true);
        if (!res) {
            free(ims);
            return NULL;
        }
        bool neg = ims[0] == '-';
        rc = asprintf(&out, "%s %c %s*I", res, neg ? '-' : '+', ims + (neg ? 1 : 0));
        free(res);
    }
    free(ims);
    return rc < 0 ? NULL : out;
}
