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

/* What the caller wrote, when the transport kept it: an integer, or a
 * numeral sent as a string (big integers arrive that way too). A JSON
 * fraction reaches the worker as a double already, its text gone, so there
 * the double is all there is to compare with. */
struct given {
    bool known;          /* value holds the caller's number exactly */
    bool nonzero;        /* it is not zero (known, or read off its digits) */
    char text[48];       /* how to name it in a note (cut if long) */
    mpq_t value;
};

static void given_read(const json_t *j, struct given *g) {
    mpq_init(g->value);
    g->known = g->nonzero = false;
    g->text[0] = '\0';
    char digits[32];
    const char *t;
    size_t n;
    if (json_is_integer(j)) {
        n = (size_t)snprintf(digits, sizeof digits, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
        t = digits;
    } else if (json_is_string(j)) {
        t = json_string_value(j);
        n = json_string_length(j);
        if (cc_json_is_bigint(j)) t += CC_BIGINT_PREFIX_LEN, n -= CC_BIGINT_PREFIX_LEN;
    } else {
        return;
    }
    snprintf(g->text, sizeof g->text, "%.*s%s", n > 40 ? 40 : (int)n, t, n > 40 ? "..." : "");
    g->known = cc_nf_parse_decimal(t, n, g->value) == 0;
    if (g->known) {
        g->nonzero = mpq_sgn(g->value) != 0;
    } else {
        /* An exponent beyond the parser's range still says whether the
         * number is zero: any nonzero digit before it. */
        size_t mant = strcspn(t, "eE");
        g->nonzero = strcspn(t, "123456789") < (mant < n ? mant : n);
    }
}

/* +-inf: a finite number the caller wrote overflowed (not exact); an
 * infinity that arrived as such is itself (TOOLS.md 3.3.12). */
static json_t *non_finite(double x, const struct given *g) {
    char lit[32];
    cc_float_repr(x, lit);
    bool overflowed = isinf(x) && g->nonzero;
    json_t *r = cc_ok();
    bool ok = cc_nf_set(r, "literal", json_string(lit));
    ok &= cc_nf_set(r, "stored", json_string(lit));
    ok &= cc_nf_set(r, "bits", json_string(lit));
    ok &= cc_nf_set(r, "exact", json_boolean(!overflowed));
    if (overflowed) {
        ok &= cc_nf_set(r, "input", json_string(g->text));
        ok &= cc_nf_set(r, "note", json_sprintf("%s overflows binary64 (the largest finite double is "
                                                            "1.7976931348623157e+308): it is stored as %s",
                                                            g->text, lit));
    } else {
        ok &= cc_nf_set(r, "note", json_string("non-finite value"));
    }
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
 * literal that reads back as it (TOOLS.md 3.3.12), unless the caller wrote
 * a different number: then against that, so 9007199254740993 and 1e-400
 * are not "exact". *differs says which. */
static bool error_fields(json_t *r, double x, const char *lit, const struct given *g, bool *differs) {
    mpq_t stored, literal, err;
    mpq_inits(stored, literal, err, NULL);
    mpq_set_d(stored, x);
    bool ok = cc_nf_parse_decimal(lit, strlen(lit), literal) == 0;
    *differs = g->known && mpq_cmp(g->value, literal) != 0;
    if (*differs) mpq_set(literal, g->value);
    mpq_sub(err, stored, literal);
    ok &= cc_nf_set(r, "exact", json_boolean(mpq_sgn(err) == 0));
    ok &= cc_nf_set(r, "error", fraction_json(err));
    double rel = 0.0;
    if (mpq_sgn(stored) != 0) {
        mpq_div(err, err, stored);
        mpq_abs(err, err);
        rel = cc_nf_mpq_to_double(err);
    } else if (mpq_sgn(literal) != 0) {
        rel = 1.0; /* underflow: all of the value is lost */
    }
    ok &= cc_nf_set(r, "relative_error", cc_nf_real(rel));
    mpq_clears(stored, literal, err, NULL);
    return ok;
}

/* A nonzero number whose exponent is past what we read exactly became 0:
 * not exact, and no fraction could show its error. */
static bool lost_fields(json_t *r) {
    bool ok = cc_nf_set(r, "exact", json_false());
    ok &= cc_nf_set(r, "error", json_null());
    ok &= cc_nf_set(r, "relative_error", cc_nf_real(1.0));
    return ok;
}

/* null, the spec's >2^53 note, and a number that is not a double named. */
static json_t *note_json(double x, const char *lit, const struct given *g, bool differs) {
    const char *big = fabs(x) > TWO_POW_53 ? ">2^53: consecutive integers no longer distinguishable" : NULL;
    if (!differs) return big ? json_string(big) : json_null();
    if (x == 0)
        return json_sprintf("%s is below the smallest subnormal double (5e-324): it is stored as 0",
                                       g->text);
    return json_sprintf("%s is not a binary64 value: the nearest double, %s, is stored%s%s", g->text,
                                   lit, big ? "; " : "", big ? big : "");
}

/* TOOLS.md writes stored in fixed point with 40 fractional digits, which
 * showed 5e-324 as "0" and the double nearest 1e-40 (9.99...929e-41) as
 * 0.000...1: a nonzero value printed as zero, an inexact one as a round
 * decimal. Where the fixed form keeps fewer than 17 significant digits and
 * is not the stored value, it is written instead with 50 significant
 * digits in scientific notation (trailing zeros dropped). */
static char *stored_text(double x) {
    char *fixed = cc_nf_double_fixed(x, 50, 40);
    if (!fixed || x == 0) return fixed;
    size_t sig = 0;
    bool lead = true;
    for (const char *p = fixed; *p; p++) {
        if (*p < '0' || *p > '9') continue;
        if (*p != '0') lead = false;
        sig += !lead;
    }
    if (sig >= 17) return fixed;
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    mpq_set_d(a, x);
    bool exact = cc_nf_parse_decimal(fixed, strlen(fixed), b) == 0 && mpq_equal(a, b);
    mpq_clears(a, b, NULL);
    if (exact) return fixed;
    char buf[80];
    snprintf(buf, sizeof buf, "%.49e", x); /* glibc prints the exact digits, correctly rounded */
    char *e = strchr(buf, 'e');
    if (!e) return fixed;
    char *m = e;
    while (m > buf && m[-1] == '0') m--;
    if (m > buf && m[-1] == '.') m--;
    memmove(m, e, strlen(e) + 1);
    free(fixed);
    return strdup(buf);
}

static json_t *finite_repr(double x, const struct given *g) {
    char lit[32];
    cc_float_repr(x, lit);
    /* nextafter(+-0) already gives +-5e-324, never -0.0, as the spec pins. */
    double next = nextafter(x, INFINITY), prev = nextafter(x, -INFINITY);
    bool differs = false;
    json_t *r = cc_ok();
    bool ok = cc_nf_set(r, "literal", json_string(lit));
    ok &= cc_nf_set(r, "stored", owned_string(stored_text(x)));
    ok &= raw_fields(r, x);
    if (x == 0 && !g->known && g->nonzero) {
        ok &= lost_fields(r);
        differs = true;
    } else {
        ok &= error_fields(r, x, lit, g, &differs);
    }
    if (differs) ok &= cc_nf_set(r, "input", json_string(g->text));
    ok &= cc_nf_set(r, "ulp", cc_nf_real(next - x));
    ok &= cc_nf_set(r, "prev", cc_nf_real(prev));
    ok &= cc_nf_set(r, "next", cc_nf_real(next));
    ok &= cc_nf_set(r, "note", note_json(x, lit, g, differs));
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_float_repr(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    double x;
    json_t *arg = json_object_get(args, "x");
    if (cc_nf_get_number(arg, &x)) return cc_err("validation", "x must be a number");
    struct given g;
    given_read(arg, &g);
    json_t *r = isfinite(x) ? finite_repr(x, &g) : non_finite(x, &g);
    mpq_clear(g.value);
    return r;
}
