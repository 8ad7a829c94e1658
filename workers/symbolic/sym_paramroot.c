/* Roots holding parameters, checked at sample parameter values (see
 * sym_paramroot.h). */
#include "workers/symbolic/sym_paramroot.h"

#include <mpc.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "workers/common/expr_parse.h"
#include "workers/symbolic/sym_numeval.h"

#define MAX_PARAMS 6
/* The sample values of every parameter, one point per row: positive
 * reals first (where CAS solvers' tacit assumptions hold), then negative
 * and complex ones. Each parameter gets a shifted value so two
 * parameters are not equal at a point. */
static const double SAMPLES[][2] = {{0.7, 0},  {1.9, 0},   {-1, 0},   {-0.6, 0.3},
                                    {0.4, 1.1}, {-1.3, -0.5}, {2.3, -1.7}, {-2.1, 0},
                                    {0.5, 3.7}};
#define NSAMPLES (sizeof SAMPLES / sizeof *SAMPLES)
#define REL_TOL 1e-20

/* lhs - rhs at p (var's value included) is 0 to REL_TOL: 1; not: 0; no
 * value: -1 */
static int holds(const struct cc_node *lhs, const struct cc_node *rhs, const struct sym_point *p) {
    mpc_t l, r;
    mpc_init2(l, SYM_NUM_BITS);
    mpc_init2(r, SYM_NUM_BITS);
    int v = -1;
    if (sym_numeval(lhs, p, l) == 0 &&
        (rhs ? sym_numeval(rhs, p, r) == 0 : (mpc_set_ui(r, 0, MPC_RNDNN), true))) {
        mpfr_t d, s;
        mpfr_inits2(SYM_NUM_BITS, d, s, (mpfr_ptr)0);
        mpc_abs(s, r, MPFR_RNDN);
        if (mpfr_cmp_ui(s, 1) < 0)
            mpfr_set_ui(s, 1, MPFR_RNDN);
        mpfr_mul_d(s, s, REL_TOL, MPFR_RNDN);
        mpc_sub(l, l, r, MPC_RNDNN);
        mpc_abs(d, l, MPFR_RNDN);
        v = mpfr_cmp(d, s) <= 0;
        mpfr_clears(d, s, (mpfr_ptr)0);
    }
    mpc_clear(l);
    mpc_clear(r);
    return v;
}

static void write_witness(char *w, size_t cap, const char **names, size_t n, mpc_t *vals) {
    size_t at = 0;
    w[0] = '\0';
    for (size_t i = 0; i < n && at < cap; i++) {
        double re = mpfr_get_d(mpc_realref(vals[i]), MPFR_RNDN);
        double im = mpfr_get_d(mpc_imagref(vals[i]), MPFR_RNDN);
        int k = im == 0 ? snprintf(w + at, cap - at, "%s%s = %g", i ? ", " : "", names[i], re)
                        : snprintf(w + at, cap - at, "%s%s = %g %c %g*I", i ? ", " : "", names[i],
                                   re, im < 0 ? '-' : '+', im < 0 ? -im : im);
        if (k < 0)
            break;
        at += (size_t)k;
    }
}

enum sym_pr_verdict sym_param_root(const struct cc_node *lhs, const struct cc_node *rhs,
                                   const char *var, const char *root_text, char *witness,
                                   size_t cap) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error ee = {0};
    struct cc_node *root =
        a ? cc_expr_screen_parse(a, root_text, strlen(root_text), CC_DIALECT_SYMBOLIC, &ee) : NULL;
    if (!root) {
        cc_arena_free(a);
        return SYM_PR_UNCHECKED;
    }
    /* the parameters: the symbols of the equation and of the root but var */
    const char *all[MAX_PARAMS + 2];
    size_t nall = 0;
    sym_numeval_symbols(lhs, all, &nall, MAX_PARAMS + 1);
    if (rhs)
        sym_numeval_symbols(rhs, all, &nall, MAX_PARAMS + 1);
    sym_numeval_symbols(root, all, &nall, MAX_PARAMS + 1);
    const char *names[MAX_PARAMS + 1];
    size_t n = 0;
    bool self = false;
    for (size_t i = 0; i < nall; i++)
        if (strcmp(all[i], var))
            names[n++] = all[i];
    /* giac's root x (every value solves) holds var itself: it is checked
     * at sample values of var like a parameter (log(x**2) = 2*log(x) was
     * answered ["x"], false at x = -1) */
    const char *own[MAX_PARAMS + 2];
    size_t nown = 0;
    sym_numeval_symbols(root, own, &nown, MAX_PARAMS + 1);
    for (size_t i = 0; i < nown; i++)
        self = self || !strcmp(own[i], var);
    if (self && n < MAX_PARAMS + 1)
        names[n++] = var;
    if (n == 0 || n > MAX_PARAMS) {
        cc_arena_free(a);
        return SYM_PR_UNCHECKED;
    }
    mpc_t vals[MAX_PARAMS + 1];
    mpc_srcptr ptrs[MAX_PARAMS + 1];
    for (size_t i = 0; i <= n; i++) {
        mpc_init2(vals[i], SYM_NUM_BITS);
        ptrs[i] = vals[i];
    }
    int good = 0, bad = 0;
    for (size_t s = 0; s < NSAMPLES; s++) {
        for (size_t i = 0; i < n; i++) /* shifted per parameter: a != b */
            mpc_set_d_d(vals[i], SAMPLES[s][0] * (1 + 0.37 * (double)i),
                        SAMPLES[s][1] + 0.11 * (double)i * (SAMPLES[s][1] != 0), MPC_RNDNN);
        struct sym_point params = {n, names, ptrs};
        if (sym_numeval(root, &params, vals[n]) != 0)
            continue;
        names[n] = var;
        struct sym_point p = {n + 1, names, ptrs};
        int h = holds(lhs, rhs, &p);
        if (h == 1) {
            good++;
        } else if (h == 0) {
            if (!bad)
                write_witness(witness, cap, names, n, vals);
            bad++;
        }
    }
    for (size_t i = 0; i <= n; i++)
        mpc_clear(vals[i]);
    cc_arena_free(a);
    if (!good && !bad)
        return SYM_PR_UNCHECKED;
    return !bad ? SYM_PR_HOLDS : !good ? SYM_PR_FAILS : SYM_PR_SOME;
}
