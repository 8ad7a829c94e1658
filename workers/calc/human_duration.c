/* human_duration (TOOLS.md 3.3.8): seconds as "1d 1h 1m 1s" plus the share
 * of a day and of 30 days. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TWO_POW_53 9007199254740992.0

/* Sub-second part of u microseconds (u < 10^6): "<n>ms" (3 decimals, zeros
 * stripped), "<n>us", or "". */
static void subsecond(long u, char *out, size_t cap) {
    out[0] = '\0';
    if (u >= 1000) {
        /* u/1000 to 3 decimals is exactly u's digits with a point inserted. */
        int n = snprintf(out, cap, "%ld.%03ld", u / 1000, u % 1000);
        while (n > 0 && out[n - 1] == '0') out[--n] = '\0';
        if (n > 0 && out[n - 1] == '.') out[--n] = '\0';
        snprintf(out + n, cap - (size_t)n, "ms");
    } else if (u > 0) {
        snprintf(out, cap, "%ldus", u);
    }
}

/* frac * 10^6 (0 <= frac < 1) rounded half-even, decided on the exact
 * product: the double product can land on a tie the true one is not on
 * (0.0009995 is 999.49999...us, its double product 999.5 rounded to 1000,
 * "1ms"; 0.6779715 gave "677.972ms" for 677971.4999...us). fma gives the
 * product's rounding error exactly, and only a tie of the double product
 * can hide which side the true product lies on. */
static long exact_microseconds(double frac) {
    double p = frac * 1000000;
    double err = fma(frac, 1000000, -p);
    double lo = floor(p);
    if (p - lo == 0.5 && err != 0) return (long)(err > 0 ? lo + 1 : lo);
    return (long)nearbyint(p);
}

/* Day/hour/minute/second walk for s < 2^53 (so trunc(s) fits int64). */
static void breakdown(double s, char *out, size_t cap) {
    static const struct { int64_t size; char unit; } units[] = {
        {86400, 'd'}, {3600, 'h'}, {60, 'm'}, {1, 's'}};
    double whole = trunc(s);
    /* microseconds rounded ties-to-even; a fraction that rounds up to a whole
     * second carries into the seconds (59.9999999 is "1m", not "59s 1000ms") */
    long us = exact_microseconds(s - whole); /* s - whole is exact */
    int64_t rem = (int64_t)whole;
    if (us >= 1000000) {
        rem += 1;
        us -= 1000000;
    }
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < 4; i++) {
        if (rem < units[i].size && units[i].unit != 's') continue;
        int64_t q = rem / units[i].size;
        rem %= units[i].size;
        int n = snprintf(out + len, cap - len, "%s%lld%c", len ? " " : "", (long long)q, units[i].unit);
        if (n < 0 || (size_t)n >= cap - len) return; /* cannot happen below 2^53; never overrun */
        len += (size_t)n;
    }
    char sub[48];
    subsecond(us, sub, sizeof sub);
    if (!sub[0] && s > 0 && strcmp(out, "0s") == 0) {
        /* a nonzero duration below half a microsecond is not "0s" */
        snprintf(out, cap, "<1us");
        return;
    }
    if (!sub[0]) return;
    if (strcmp(out, "0s") == 0)
        snprintf(out, cap, "%s", sub);
    else
        snprintf(out + len, cap - len, " %s", sub);
}

/* round(s / div, 6), decided on the exact quotient (a tie of the decimal
 * is a tie of the true value, not of a double near it). */
static double share_of(double s, unsigned long div) {
    mpq_t q;
    mpq_init(q);
    mpq_set_d(q, s);
    mpz_mul_ui(mpq_denref(q), mpq_denref(q), div);
    mpq_canonicalize(q);
    double d = cc_nf_round_keep_q(q, 6);
    mpq_clear(q);
    return d;
}

static json_t *build(double s) {
    char human[512];
    if (s >= TWO_POW_53)
        snprintf(human, sizeof human,
                 "~%.6es (too large for an exact day/hour breakdown: a float64 carries ~15-17 "
                 "significant digits and this value needs more; per_day/per_30d below carry the "
                 "same limit)",
                 s);
    else
        breakdown(s, human, sizeof human);
    json_t *r = cc_ok(), *rounding = json_object();
    bool ok = cc_nf_set(r, "seconds", json_real(s));
    ok &= cc_nf_set(r, "human", json_string(human));
    ok &= cc_nf_set(r, "per_day", cc_nf_real(share_of(s, 86400)));
    ok &= cc_nf_set(r, "per_30d", cc_nf_real(share_of(s, 2592000)));
    ok &= cc_nf_set(rounding, "per_day", json_integer(6));
    ok &= cc_nf_set(rounding, "per_30d", json_integer(6));
    ok &= cc_nf_set(r, "rounding", rounding);
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_human_duration(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    double s;
    char buf[32];
    if (cc_nf_get_number(json_object_get(args, "seconds"), &s))
        return cc_err("validation", "seconds must be a number");
    if (!isfinite(s)) return cc_err("validation", "seconds = %s is not finite", cc_float_repr(s, buf));
    if (s < 0) return cc_err("validation", "negative duration");
    return build(s + 0.0); /* -0.0 + 0.0 is +0.0: zero reads as 0.0 */
}
