/* sym_numeval_never: the numeric cross-checks skip an expression it calls
 * unevaluable, so it must never call one that some point could evaluate.
 * Checked for every function of the symbolic dialect at 1, 2 and 3
 * arguments and for the operators and constants the evaluator refuses,
 * against sym_numeval itself at real and complex points. And the integer
 * powers by squaring against MPC's correctly rounded mpc_pow_si. */
#include <mpc.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/common/expr_funcs.h"
#include "workers/common/expr_arena.h"
#include "workers/common/expr_parse.h"
#include "workers/symbolic/sym_numcheck.h"
#include "workers/symbolic/sym_numeval.h"


static int never_count, checked;

/* never(text) implies: sym_numeval fails at every one of many points. */
static void never_means_never(const char *text) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error err = {0};
    struct cc_node *n = cc_expr_screen_parse(a, text, strlen(text), CC_DIALECT_SYMBOLIC, &err);
    if (!n) {
        cc_arena_free(a);
        return;
    }
    checked++;
    if (sym_numeval_never(n)) {
        never_count++;
        const char *names[8];
        size_t k = 0;
        sym_numeval_symbols(n, names, &k, 8);
        mpc_t vals[8], out;
        mpc_srcptr cv[8];
        for (size_t i = 0; i < k; i++) {
            mpc_init2(vals[i], SYM_NUM_BITS);
            cv[i] = vals[i];
        }
        mpc_init2(out, SYM_NUM_BITS);
        static const double pts[][2] = {{0.5, 0}, {2, 0}, {-1.5, 0}, {3, 0}, {0.25, 1}, {-2, -3}, {1, 0}};
        for (size_t p = 0; p < sizeof pts / sizeof *pts; p++) {
            for (size_t i = 0; i < k; i++)
                mpc_set_d_d(vals[i], pts[p][0] + (double)i, pts[p][1], MPC_RNDNN);
            struct sym_point pt = {k, names, cv};
            int rc = sym_numeval(n, &pt, out);
            if (rc == 0)
                fprintf(stderr, "never() but evaluable: %s at %g%+gi\n", text, pts[p][0], pts[p][1]);
            CHECK(rc < 0);
        }
        for (size_t i = 0; i < k; i++)
            mpc_clear(vals[i]);
        mpc_clear(out);
    }
    cc_arena_free(a);
}

static void every_function_and_arity(void) {
    char text[128];
    for (const char *const *f = cc_expr_function_names(); *f; f++) {
        static const char *const args[] = {"x", "x, 2", "x, y", "x, y, 3", "x**2 + 1", "1/3"};
        for (size_t k = 0; k < sizeof args / sizeof *args; k++) {
            snprintf(text, sizeof text, "%s(%s)", *f, args[k]);
            never_means_never(text);
            snprintf(text, sizeof text, "x + 2*%s(%s)", *f, args[k]);
            never_means_never(text);
        }
    }
    static const char *const others[] = {
        "x + oo", "zoo*x", "nan", "x // 2", "x % 3", "x & 1", "x | 1", "~x", "not x", "x < 1",
        "x and y", "sin + 1", "E**x", "pi*I", "(x, y)", "[x, 1]", "x**y", "x!", "-x", "+x",
        "x**-3", "2**x", "True",
    };
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        never_means_never(others[i]);
    /* the claim above is only worth something if both answers occur */
    CHECK(never_count > 50);
    CHECK(never_count < checked - 50);
}

static void skipped_check_reports_no_points(void) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error err = {0};
    const char *ta = "diff(x**5 - 3*x**2 + 7, x)", *tb = "5*x**4 - 6*x";
    struct cc_node *na = cc_expr_screen_parse(a, ta, strlen(ta), CC_DIALECT_SYMBOLIC, &err);
    struct cc_node *nb = cc_expr_screen_parse(a, tb, strlen(tb), CC_DIALECT_SYMBOLIC, &err);
    CHECK(na && nb);
    struct sym_domains d = {0, NULL, NULL, CC_DOM_COMPLEX};
    struct sym_num_verdict v;
    sym_numcheck(na, nb, &d, 12, &v);
    CHECK_INTEQ(v.points, 0);
    CHECK_INTEQ(v.mismatches, 0);
    sym_numcheck(nb, nb, &d, 12, &v);
    CHECK_INTEQ(v.points, 12);
    CHECK_INTEQ(v.mismatches, 0);
    cc_arena_free(a);
}

/* (x**k) by squaring agrees with MPC's correctly rounded power to far
 * below the cross-check's tolerance. */
static void integer_powers_match_mpc(void) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error err = {0};
    const char *names[1] = {"x"};
    mpc_t x, got, want, diff;
    mpc_init2(x, SYM_NUM_BITS);
    mpc_init2(got, SYM_NUM_BITS);
    mpc_init2(want, SYM_NUM_BITS);
    mpc_init2(diff, SYM_NUM_BITS);
    mpc_srcptr cv[1] = {x};
    struct sym_point pt = {1, names, cv};
    mpfr_t m, s;
    mpfr_inits2(SYM_NUM_BITS, m, s, (mpfr_ptr)0);
    static const long ks[] = {2, 3, 5, 7, 12, 31, 64, 127, -1, -2, -7, -127};
    static const double pts[][2] = {{1.125, 0}, {-0.75, 2.5}, {3, -4}, {-1, 0}, {0.001, 0.002}};
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
        char text[32];
        snprintf(text, sizeof text, "x**(%ld)", ks[i]);
        struct cc_node *n = cc_expr_screen_parse(a, text, strlen(text), CC_DIALECT_SYMBOLIC, &err);
        CHECK(n != NULL);
        for (size_t p = 0; n && p < sizeof pts / sizeof *pts; p++) {
            mpc_set_d_d(x, pts[p][0], pts[p][1], MPC_RNDNN);
            if (sym_numeval(n, &pt, got) < 0)
                continue; /* an overflow to infinity: refused alike */
            mpc_pow_si(want, x, ks[i], MPC_RNDNN);
            mpc_sub(diff, got, want, MPC_RNDNN);
            mpc_abs(m, diff, MPFR_RNDN);
            mpc_abs(s, want, MPFR_RNDN);
            mpfr_mul_2si(s, s, -(SYM_NUM_BITS - 8), MPFR_RNDN); /* 2**8 ulps of the result */
            CHECK(mpfr_cmp(m, s) <= 0);
        }
    }
    mpfr_clears(m, s, (mpfr_ptr)0);
    mpc_clear(x);
    mpc_clear(got);
    mpc_clear(want);
    mpc_clear(diff);
    cc_arena_free(a);
}

int main(void) {
    RUN(every_function_and_arity);
    RUN(skipped_check_reports_no_points);
    RUN(integer_powers_match_mpc);
    return check_summary("sym_numeval_never");
}
