/* Numeric refutation of a finite limit at +-oo (sym_limcheck.h). */
#include "workers/symbolic/sym_limcheck.h"

#include <math.h>

#include "workers/symbolic/sym_numeval.h"

#define POINTS 4

bool sym_limit_grows(const struct cc_node *e, const char *var, int sgn, long *decimal_exp) {
    static const unsigned long exps[POINTS] = {2, 4, 8, 16};
    mpc_t x, v;
    mpfr_t mag[POINTS], ratio;
    mpc_init2(x, SYM_NUM_BITS);
    mpc_init2(v, SYM_NUM_BITS);
    mpfr_init2(ratio, 53);
    for (int i = 0; i < POINTS; i++)
        mpfr_init2(mag[i], 53);
    const char *names[1] = {var};
    mpc_srcptr vals[1] = {x};
    struct sym_point p = {1, names, vals};
    bool grows = true;
    for (int i = 0; i < POINTS && grows; i++) {
        mpfr_ui_pow_ui(mpc_realref(x), 10, exps[i], MPFR_RNDN);
        if (sgn < 0)
            mpfr_neg(mpc_realref(x), mpc_realref(x), MPFR_RNDN);
        mpfr_set_zero(mpc_imagref(x), 1);
        if (sym_numeval(e, &p, v) != 0) {
            grows = false;
            break;
        }
        mpc_abs(mag[i], v, MPFR_RNDN);
        if (i > 0) { /* |f| at least 10 times the previous point's */
            mpfr_div(ratio, mag[i], mag[i - 1], MPFR_RNDN);
            grows = !mpfr_zero_p(mag[i - 1]) && mpfr_cmp_ui(ratio, 10) >= 0;
        }
        if (i >= POINTS - 2)
            grows = grows && mpfr_cmp_d(mag[i], 1e30) > 0;
    }
    if (grows) {
        mpfr_log10(ratio, mag[POINTS - 1], MPFR_RNDN);
        *decimal_exp = mpfr_get_si(ratio, MPFR_RNDD);
    }
    mpc_clear(x);
    mpc_clear(v);
    mpfr_clear(ratio);
    for (int i = 0; i < POINTS; i++)
        mpfr_clear(mag[i]);
    return grows;
}
