/* The binary64 functions of calc_exact: arguments rounded to doubles, libm
 * applied, and failures reported the way Python's math module reports them
 * (TOOLS.md 3.3.1). The result enters exact arithmetic as the rational of
 * its shortest repr, and the function is recorded as approximated. */
#include <fenv.h>
#include <math.h>
#include <stddef.h>

#include "workers/calc/calc_internal.h"

/* log(x, base) = log(x) / log(base); Python refuses a base of 1 with a
 * division by zero. */
static int log_with_base(struct calc_ev *e, const double x[2], double *r) {
    double den = log(x[1]);
    *r = log(x[0]);
    if (den == 0 && !fetestexcept(FE_INVALID | FE_DIVBYZERO))
        return calc_fail(e, "validation", "division by zero");
    *r /= den;
    return 0;
}

/* Python's errors from the floating-point flags of one call. */
static int check_result(struct calc_ev *e, const struct calc_fdef *f, double r) {
    int flags = fetestexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW);
    if (!f->raw) {
        if (isnan(r) || (flags & FE_INVALID)) return calc_fail(e, "validation", "math domain error");
        if (isinf(r) && (flags & FE_DIVBYZERO))
            return calc_fail(e, "validation", "math domain error");
        if (isinf(r) && (flags & FE_OVERFLOW)) return calc_fail(e, "validation", "math range error");
    }
    if (!isfinite(r))
        return calc_fail(e, "validation", "%s produced non-finite result", f->name);
    return 0;
}

int calc_binary64(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                  mpq_t out) {
    double x[2] = {0, 0};
    for (int i = 0; i < n; i++)
        if (calc_q_to_double(a[i].q, &x[i]) != 0)
            return calc_fail(e, "validation", "math range error");
    feclearexcept(FE_ALL_EXCEPT);
    double r;
    if (f->f1 == log && n == 2) {
        if (log_with_base(e, x, &r) != 0) return -1;
    } else {
        r = f->f1 ? f->f1(x[0]) : f->f2(x[0], x[1]);
    }
    if (check_result(e, f, r) != 0) return -1;
    e->funcs |= calc_function_bit(f);
    calc_q_from_double(r, out);
    return 0;
}

int calc_pow_binary64(struct calc_ev *e, mpq_srcptr a, mpq_srcptr b, mpq_t out) {
    struct calc_val args[2];
    mpq_inits(args[0].q, args[1].q, NULL);
    mpq_set(args[0].q, a);
    mpq_set(args[1].q, b);
    int rc = calc_binary64(e, calc_find_function("pow"), args, 2, out);
    mpq_clears(args[0].q, args[1].q, NULL);
    return rc;
}
