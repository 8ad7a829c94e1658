/* percentage (TOOLS.md 3.3.3): exact share part/total and its percentage. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char BAD_NUMBER[] = "part and total must be numbers";

/* A rational literal: integer, decimal with exponent, or p/q, with optional
 * surrounding whitespace. Returns 0, -1 (not a literal / zero denominator),
 * -2 (exponent too large to build exactly). */
static int parse_rational(const char *s, size_t n, mpq_t out) {
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (memchr(s, '\0', n)) return -1;
    const char *slash = memchr(s, '/', n);
    if (!slash) return cc_nf_parse_decimal(s, n, out);

    /* p/q: an optionally signed integer over an unsigned one. */
    size_t pn = (size_t)(slash - s), qn = n - pn - 1;
    const char *q = slash + 1;
    size_t start = pn && (s[0] == '+' || s[0] == '-');
    if (pn == start || qn == 0) return -1;
    for (size_t i = start; i < pn; i++)
        if (!isdigit((unsigned char)s[i])) return -1;
    for (size_t i = 0; i < qn; i++)
        if (!isdigit((unsigned char)q[i])) return -1;
    char *tmp = strndup(s, n);
    if (!tmp) return -1;
    tmp[pn] = '\0';
    mpz_set_str(mpq_numref(out), tmp + (tmp[0] == '+'), 10);
    mpz_set_str(mpq_denref(out), tmp + pn + 1, 10);
    free(tmp);
    if (mpz_sgn(mpq_denref(out)) == 0) {
        mpq_set_ui(out, 0, 1); /* keep out a valid rational for mpq_clear */
        return -1;
    }
    mpq_canonicalize(out);
    return 0;
}

/* Read one argument; a JSON number is accepted through its decimal text. */
static int read_arg(const json_t *j, mpq_t out) {
    if (json_is_string(j) && !cc_json_is_bigint(j))
        return parse_rational(json_string_value(j), json_string_length(j), out);
    if (json_is_integer(j) || cc_json_is_bigint(j)) {
        mpz_t z;
        mpz_init(z);
        int rc = cc_json_get_mpz(j, z);
        mpq_set_z(out, z);
        mpz_clear(z);
        return rc;
    }
    if (json_is_real(j)) {
        char buf[32];
        cc_float_repr(json_real_value(j), buf);
        return cc_nf_parse_decimal(buf, strlen(buf), out);
    }
    return -1;
}

static json_t *rational_json(const mpq_t q, bool always_fraction) {
    char *s = malloc(mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3);
    if (!s) return NULL;
    mpz_get_str(s, 10, mpq_numref(q));
    if (always_fraction || mpz_cmp_ui(mpq_denref(q), 1) != 0) {
        strcat(s, "/");
        mpz_get_str(s + strlen(s), 10, mpq_denref(q));
    }
    json_t *j = json_string(s);
    free(s);
    return j;
}

/* A nonzero percentage no double holds: its size as a power of two, for
 * the note (the share above is exact; only the double is missing). */
static json_t *out_of_range_note(const mpq_t pct, double percent) {
    long bits = (long)mpz_sizeinbase(mpq_numref(pct), 2) - (long)mpz_sizeinbase(mpq_denref(pct), 2);
    char *s = NULL;
    if (asprintf(&s, "percent = share x 100 is about %s2^%ld, %s: percent is null (the share is exact)",
                 mpq_sgn(pct) < 0 ? "-" : "", bits,
                 percent == 0 ? "nonzero but below the smallest double (5e-324)"
                              : "beyond the largest double (1.7976931348623157e+308)") < 0)
        return NULL;
    json_t *j = json_string(s);
    free(s);
    return j;
}

static json_t *build(const mpq_t part, const mpq_t total) {
    mpq_t share, pct;
    mpq_inits(share, pct, NULL);
    mpq_div(share, part, total);
    mpq_set_ui(pct, 100, 1);
    mpq_mul(pct, pct, share);
    double percent = cc_nf_round_keep_q(pct, 6);

    json_t *r = cc_ok(), *rounding = json_object();
    bool ok = cc_nf_set(r, "part", rational_json(part, false));
    ok &= cc_nf_set(r, "total", rational_json(total, false));
    ok &= cc_nf_set(r, "share", rational_json(share, true));
    /* A nonzero share whose percentage underflows binary64 answered
     * percent 0.0 (or -0.0), a confident zero; one that overflows was a
     * bare null. Both are null with a note saying why. */
    bool lost = mpq_sgn(pct) != 0 && (percent == 0 || !isfinite(percent));
    ok &= cc_nf_set(r, "percent", lost ? json_null() : cc_nf_real(percent));
    ok &= cc_nf_set(rounding, "percent", json_integer(6));
    ok &= cc_nf_set(r, "rounding", rounding);
    if (lost) ok &= cc_nf_set(r, "note", out_of_range_note(pct, percent));
    mpq_clears(share, pct, NULL);
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_percentage(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    mpq_t part, total;
    mpq_inits(part, total, NULL);
    int rp = read_arg(json_object_get(args, "part"), part);
    int rt = read_arg(json_object_get(args, "total"), total);
    json_t *r;
    if (rp == -2 || rt == -2)
        r = cc_err("validation", "%s (exponent beyond +-%ld is not accepted)", BAD_NUMBER, CC_NF_EXP_MAX);
    else if (rp || rt)
        r = cc_err("validation", "%s", BAD_NUMBER);
    else if (mpq_sgn(total) == 0)
        r = cc_err("validation", "total is zero");
    else
        r = build(part, total);
    mpq_clears(part, total, NULL);
    return r;
}
