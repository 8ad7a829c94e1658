/* The numeric check of a derivative (see sym_derivcheck.h). */
#include "workers/symbolic/sym_derivcheck.h"

#include <stdio.h>

#include "workers/symbolic/sym_numeval.h"

/* Off the real axis (where the principal branch cuts of log, sqrt and the
 * inverse functions of a plain argument lie), in all four quadrants. */
static const double POINTS[][2] = {{0.7, 1.3}, {-1.6, 0.45}, {2.3, -0.8}, {-0.35, -1.9},
                                   {1.15, 0.25}, {-2.6, 1.7}};

/* f at var = z into out (0), or -1 */
static int value_at(const struct cc_node *f, const char *var, const mpc_t z, mpc_t out) {
    const char *names[1] = {var};
    mpc_srcptr vals[1] = {z};
    struct sym_point p = {1, names, vals};
    return sym_numeval(f, &p, out);
}

/* (f(z + h) - f(z - h)) / 2h into out: error about h**2 (1e-24) from the
 * truncation and 1e-38/h (1e-26) from the rounding at 128 bits */
static int central_difference(const struct cc_node *f, const char *var, const mpc_t z, mpc_t out) {
    mpc_t zp, zm, fp, fm;
    mpc_init2(zp, SYM_NUM_BITS);
    mpc_init2(zm, SYM_NUM_BITS);
    mpc_init2(fp, SYM_NUM_BITS);
    mpc_init2(fm, SYM_NUM_BITS);
    mpfr_t h;
    mpfr_init2(h, SYM_NUM_BITS);
    mpfr_set_str(h, "1e-12", 10, MPFR_RNDN);
    mpc_add_fr(zp, z, h, MPC_RNDNN);
    mpc_sub_fr(zm, z, h, MPC_RNDNN);
    int rc = -1;
    if (value_at(f, var, zp, fp) == 0 && value_at(f, var, zm, fm) == 0) {
        mpc_sub(out, fp, fm, MPC_RNDNN);
        mpfr_mul_ui(h, h, 2, MPFR_RNDN);
        mpc_div_fr(out, out, h, MPC_RNDNN);
        rc = 0;
    }
    mpfr_clear(h);
    mpc_clear(zp);
    mpc_clear(zm);
    mpc_clear(fp);
    mpc_clear(fm);
    return rc;
}

bool sym_derivative_mismatch(const struct cc_node *f, const char *var, const struct cc_node *d,
                             char *witness, size_t cap) {
    mpc_t z, want, got;
    mpc_init2(z, SYM_NUM_BITS);
    mpc_init2(want, SYM_NUM_BITS);
    mpc_init2(got, SYM_NUM_BITS);
    bool differ = false;
    for (size_t i = 0; i < sizeof POINTS / sizeof *POINTS && !differ; i++) {
        mpc_set_d_d(z, POINTS[i][0], POINTS[i][1], MPC_RNDNN);
        if (central_difference(f, var, z, want) < 0 || value_at(d, var, z, got) < 0)
            continue;
        /* the difference quotient is good to ~1e-20 of the function's
         * scale; a real-only formula is off by O(1) */
        if (sym_far_apart(got, want, 1e-12)) {
            differ = true;
            snprintf(witness, cap, "%s = %g%+g*I", var, POINTS[i][0], POINTS[i][1]);
        }
    }
    mpc_clear(z);
    mpc_clear(want);
    mpc_clear(got);
    return differ;
}
