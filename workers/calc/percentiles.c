/* percentiles (TOOLS.md 3.3.5): p50/p90/p95/p99 by nearest rank and by
 * linear interpolation (TOOLS.md's binary64 formula computed exactly; see
 * docs/contract.md). */
#include "workers/calc/numfmt.h"
#include "workers/calc/numlist.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <stdlib.h>

/* v[lo] + (v[hi] - v[lo]) * (idx - lo) with idx = p(n-1)/100, computed on
 * the exact values: in binary64, v[hi] - v[lo] overflows for values of
 * opposite sign near the top of the range (interpolated was null) and the
 * product carries the rounding of idx. */
static double interpolate(const mpq_t *v, size_t n, int p) {
    mpq_t idx, t, lo_v;
    mpq_inits(idx, t, lo_v, NULL);
    mpq_set_ui(idx, (unsigned long)p * (unsigned long)(n - 1), 100);
    mpq_canonicalize(idx);
    mpz_t lo;
    mpz_init(lo);
    mpz_fdiv_q(lo, mpq_numref(idx), mpq_denref(idx));
    size_t ilo = (size_t)mpz_get_ui(lo);
    size_t ihi = mpz_cmp_ui(mpq_denref(idx), 1) == 0 ? ilo : ilo + 1;
    mpq_set_z(t, lo);
    mpq_sub(idx, idx, t); /* the fraction idx - lo */
    mpq_set(lo_v, v[ilo]);
    mpq_sub(t, v[ihi], lo_v);
    mpq_mul(t, t, idx);
    mpq_add(t, t, lo_v);
    double d = cc_nf_round_keep_q(t, 6);
    mpz_clear(lo);
    mpq_clears(idx, t, lo_v, NULL);
    return d;
}

static json_t *one_percentile(const mpq_t *v, size_t n, int p) {
    size_t rank = ((size_t)p * n + 99) / 100; /* ceil(p n / 100), exactly */
    double nearest = cc_nf_mpq_to_double(v[rank ? rank - 1 : 0]);
    double interp = interpolate(v, n, p);

    json_t *o = json_object(), *rounding = json_object();
    bool ok = cc_nf_set(o, "nearest_rank", cc_nf_real(nearest));
    ok &= cc_nf_set(o, "interpolated", cc_nf_real(interp));
    ok &= cc_nf_set(rounding, "interpolated", json_integer(6));
    ok &= cc_nf_set(o, "rounding", rounding);
    return cc_nf_finish(o, ok);
}

/* v: the exact values (integers past 2^53 as given, not their doubles:
 * the doubles of 2^53 + 1 and 2^53 tie, and the order and the
 * interpolation were of the doubles). */
static json_t *build(mpq_t *v, size_t n) {
    static const int ps[] = {50, 90, 95, 99};
    static const char *const names[] = {"p50", "p90", "p95", "p99"};
    cc_numlist_sort_q(v, n);
    json_t *r = cc_ok(), *table = json_object();
    bool ok = cc_nf_set(r, "n", json_integer((json_int_t)n));
    for (int i = 0; i < 4; i++) ok &= cc_nf_set(table, names[i], one_percentile(v, n, ps[i]));
    ok &= cc_nf_set(r, "percentiles", table);
    ok &= cc_nf_set(r, "warning", n < 100 ? json_string("n < 100: p99 is just the maximum wearing a label")
                                          : json_null());
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_percentiles(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    mpq_t *v;
    size_t n;
    json_t *err;
    if (cc_numlist_read_q(args, 1, "percentiles", &v, &n, &err)) return err;
    json_t *r = build(v, n);
    cc_numlist_free_q(v, n);
    return r;
}
