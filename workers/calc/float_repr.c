/* float_repr (TOOLS.md 3.3.12): what IEEE-754 binary64 actually stores for
 * a number: exact value, raw fields, representation error, neighbours. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TWO_POW_53 9007199254740992.0

static json_t *owned_string(char *s) {
    json_t *j = s ? json_string(s) : NULL;
    free(s);
    return j;
}

static json_t *non_finite(double x) {
    char lit[32];
    cc_float_repr(x, lit);
    json_t *r = cc_ok();
    bool ok = cc_nf_set(r, "literal", json_string(lit));
    ok &= cc_nf_set(r, "stored", json_string(lit));
    ok &= cc_nf_set(r, "bits", json_string(lit));
    ok &= cc_nf_set(r, "exact", json_true());
    ok &= cc_nf_set(r, "note", json_string("non-finite value"));
    return cc_nf_finish(r, ok);
}

/* Raw IEEE fields: bits_hex, sign, exponent, fraction_hex. */
static bool raw_fields(json_t *r, double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    char hex[24], frac[24];
    snprintf(hex, sizeof hex, "0x%016" PRIx64, bits);
    snprintf(frac, sizeof frac, "0x%013" PRIx64, bits & ((UINT64_C(1) << 52) - 1));
    bool ok = cc_nf_set(r, "bits_hex", json_string(hex));
    ok &= cc_nf_set(r, "sign", json_integer((json_int_t)(bits >> 63)));
    ok &= cc_nf_set(r, "exponent", json_integer((json_int_t)((bits >> 52) & 0x7ff)));
    ok &= cc_nf_set(r, "fraction_hex", json_string(frac));
    return ok;
}

/* "p/q" (or "p" when q is 1) of a reduced rational. */
static json_t *fraction_json(const mpq_t q) {
    size_t cap = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 4;
    char *s = malloc(cap);
    if (!s) return NULL;
    mpz_get_str(s, 10, mpq_numref(q));
    if (mpz_cmp_ui(mpq_denref(q), 1) != 0) {
        strcat(s, "/");
        mpz_get_str(s + strlen(s), 10, mpq_denref(q));
    }
    return owned_string(s);
}

/* exact, error and relative_error: the stored value against the shortest
 * literal that reads back as it. */
static bool error_fields(json_t *r, double x, const char *lit) {
    mpq_t stored, literal, err;
    mpq_inits(stored, literal, err, NULL);
    mpq_set_d(stored, x);
    bool ok = cc_nf_parse_decimal(lit, strlen(lit), literal) == 0;
    mpq_sub(err, stored, literal);
    ok &= cc_nf_set(r, "exact", json_boolean(mpq_sgn(err) == 0));
    ok &= cc_nf_set(r, "error", fraction_json(err));
    double rel = 0.0;
    if (mpq_sgn(stored) != 0) {
        mpq_div(err, err, stored);
        mpq_abs(err, err);
        rel = cc_nf_mpq_to_double(err);
    }
    ok &= cc_nf_set(r, "relative_error", cc_nf_real(rel));
    mpq_clears(stored, literal, err, NULL);
    return ok;
}

static json_t *finite_repr(double x) {
    char lit[32];
    cc_float_repr(x, lit);
    /* nextafter(+-0) already gives +-5e-324, never -0.0, as the spec pins. */
    double next = nextafter(x, INFINITY), prev = nextafter(x, -INFINITY);
    json_t *r = cc_ok();
    bool ok = cc_nf_set(r, "literal", json_string(lit));
    ok &= cc_nf_set(r, "stored", owned_string(cc_nf_double_fixed(x, 50, 40)));
    ok &= raw_fields(r, x);
    ok &= error_fields(r, x, lit);
    ok &= cc_nf_set(r, "ulp", cc_nf_real(next - x));
    ok &= cc_nf_set(r, "prev", cc_nf_real(prev));
    ok &= cc_nf_set(r, "next", cc_nf_real(next));
    ok &= cc_nf_set(r, "note", fabs(x) > TWO_POW_53
                                   ? json_string(">2^53: consecutive integers no longer distinguishable")
                                   : json_null());
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_float_repr(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    double x;
    if (cc_nf_get_number(json_object_get(args, "x"), &x)) return cc_err("validation", "x must be a number");
    return isfinite(x) ? finite_repr(x) : non_finite(x);
}
