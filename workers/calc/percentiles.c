/* percentiles (TOOLS.md 3.3.5): p50/p90/p95/p99 by nearest rank and by
 * linear interpolation, in binary64 exactly as the spec writes it. */
#include "workers/calc/numfmt.h"
#include "workers/calc/numlist.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <math.h>
#include <stdlib.h>

static json_t *one_percentile(const double *v, size_t n, int p) {
    double frac = (double)p / 100;
    double rank = fmax(1.0, ceil(frac * (double)n));
    double nearest = v[(size_t)rank - 1];
    double idx = frac * (double)(n - 1);
    double lo = floor(idx), hi = ceil(idx);
    double vlo = v[(size_t)lo], vhi = v[(size_t)hi];
    double interp = cc_nf_round_dec(vlo + (vhi - vlo) * (idx - lo), 6);

    json_t *o = json_object(), *rounding = json_object();
    bool ok = cc_nf_set(o, "nearest_rank", cc_nf_real(nearest));
    ok &= cc_nf_set(o, "interpolated", cc_nf_real(interp));
    ok &= cc_nf_set(rounding, "interpolated", json_integer(6));
    ok &= cc_nf_set(o, "rounding", rounding);
    return cc_nf_finish(o, ok);
}

static json_t *build(double *v, size_t n) {
    static const int ps[] = {50, 90, 95, 99};
    static const char *const names[] = {"p50", "p90", "p95", "p99"};
    cc_numlist_sort(v, n);
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
    double *v;
    size_t n;
    json_t *err;
    if (cc_numlist_read(args, 1, "percentiles", &v, &n, &err)) return err;
    json_t *r = build(v, n);
    free(v);
    return r;
}
