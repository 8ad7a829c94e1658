/* sym_nmemo: a remembered function value must be bit for bit the value
 * computed, or a verdict would depend on the requests before it. Every
 * function the evaluator knows, at one and two arguments and as a power,
 * at the numeric check's kind of points (the branch-cut witnesses, real,
 * imaginary and complex eighths), evaluated with the memo off, then on
 * (filling it) and on again (reading it): the three values must have the
 * same bits, and the second pass must be answered from the memo (a memo
 * that never answers would pass the first half and measure nothing). */
#include <mpc.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/common/expr_arena.h"
#include "workers/common/expr_parse.h"
#include "workers/symbolic/sym_nmemo.h"
#include "workers/symbolic/sym_numeval.h"

static bool same_bits(mpc_srcptr x, mpc_srcptr y) {
    mpfr_srcptr p[2] = {mpc_realref(x), mpc_imagref(x)}, q[2] = {mpc_realref(y), mpc_imagref(y)};
    for (int i = 0; i < 2; i++) {
        if (mpfr_signbit(p[i]) != mpfr_signbit(q[i]))
            return false;
        if (mpfr_nan_p(p[i]) || mpfr_nan_p(q[i])) {
            if (!(mpfr_nan_p(p[i]) && mpfr_nan_p(q[i])))
                return false;
        } else if (!mpfr_equal_p(p[i], q[i])) {
            return false;
        }
    }
    return true;
}

static const int POINTS[][2] = {{-8, 0}, {-16, 0}, {0, 8},  {8, 8},   {24, -8}, {-8, 32},
                                {16, -40}, {0, -16}, {2, 0}, {28, 0},  {0, -4},  {-2, 0},
                                {-20, 0}, {5, 3},   {-7, -11}, {13, 0}, {0, 0},   {1, 0}};
#define NPOINTS (sizeof POINTS / sizeof *POINTS)

static int evaluated;

/* text at every point (x at point k, y at point k + 3), three ways */
static void memo_matches_computation(const char *text) {
    struct cc_arena *ar = cc_arena_new();
    struct cc_expr_error err = {0};
    struct cc_node *n = cc_expr_screen_parse(ar, text, strlen(text), CC_DIALECT_SYMBOLIC, &err);
    CHECK(n != NULL);
    if (!n) {
        cc_arena_free(ar);
        return;
    }
    const char *names[2] = {"x", "y"};
    mpc_t vals[2], v0, v1, v2;
    mpc_srcptr cv[2] = {vals[0], vals[1]};
    for (int i = 0; i < 2; i++)
        mpc_init2(vals[i], SYM_NUM_BITS);
    mpc_init2(v0, SYM_NUM_BITS);
    mpc_init2(v1, SYM_NUM_BITS);
    mpc_init2(v2, SYM_NUM_BITS);
    struct sym_point p = {2, names, cv};
    for (size_t k = 0; k < NPOINTS; k++) {
        for (int i = 0; i < 2; i++) {
            const int *pt = POINTS[(k + 3 * (size_t)i) % NPOINTS];
            mpc_set_si_si(vals[i], pt[0], pt[1], MPC_RNDNN);
            mpc_div_ui(vals[i], vals[i], 8, MPC_RNDNN);
        }
        sym_nmemo_enable(false);
        int r0 = sym_numeval(n, &p, v0);
        sym_nmemo_enable(true);
        int r1 = sym_numeval(n, &p, v1);
        unsigned long l0, h0, l1, h1;
        sym_nmemo_stats(&l0, &h0);
        int r2 = sym_numeval(n, &p, v2);
        sym_nmemo_stats(&l1, &h1);
        CHECK_INTEQ(r0, r1);
        CHECK_INTEQ(r0, r2);
        /* the third evaluation found every call it made in the memo */
        if (h1 - h0 != l1 - l0)
            fprintf(stderr, "memo missed %lu of %lu calls of %s at point %zu\n", l1 - l0 - (h1 - h0), l1 - l0, text, k);
        CHECK(h1 - h0 == l1 - l0);
        if (r0 == 0) {
            evaluated++;
            bool same = same_bits(v0, v1) && same_bits(v0, v2);
            if (!same)
                fprintf(stderr, "memo changed %s at point %zu\n", text, k);
            CHECK(same);
        }
    }
    for (int i = 0; i < 2; i++)
        mpc_clear(vals[i]);
    mpc_clear(v0);
    mpc_clear(v1);
    mpc_clear(v2);
    cc_arena_free(ar);
}

static void test_memo_values_bit_identical(void) {
    static const char *const unary[] = {
        "exp", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
        "acosh", "atanh", "sqrt", "conjugate", "floor", "ceiling", "gamma", "factorial", "erf",
        "erfc", "zeta", "Ei", "digamma", "LambertW", "log", "cot", "sec", "csc", "Abs", "re",
        "im", "arg", "sign", "cbrt", "acot", "asec", "acsc", "N"};
    char buf[128];
    for (size_t i = 0; i < sizeof unary / sizeof *unary; i++) {
        snprintf(buf, sizeof buf, "%s(x) - %s(y)", unary[i], unary[i]);
        memo_matches_computation(buf);
        snprintf(buf, sizeof buf, "%s(2*x + 1) + %s(x*y)", unary[i], unary[i]);
        memo_matches_computation(buf);
    }
    /* the same argument under two names, two bases, swapped arguments: a
     * memo keyed on too little answers one with the other's value */
    static const char *const mixed[] = {
        "sin(x) + cos(x)", "log(x, 2) - log(x, 3)", "atan2(x, y) - atan2(y, x)",
        "root(x, 3) + root(x, 2)", "Min(x, y) - Max(x, y)", "Mod(x, y) + Mod(y, x)",
        "x**y - y**x", "x**(1/3) + x**(1/2) + x**(-1/3)", "Rational(x, y) + log(x, y)",
        "exp(sin(x))*cos(exp(y)) - sqrt(log(x*y))", "sin(x)**2 + cos(x)**2"};
    for (size_t i = 0; i < sizeof mixed / sizeof *mixed; i++)
        memo_matches_computation(mixed[i]);
    /* enough evaluations happened for the comparison to mean something */
    CHECK(evaluated > 500);
}

/* Far more distinct arguments than the memo has slots: collisions
 * overwrite, and every value read back is still the one computed. */
static void test_memo_collisions_keep_values(void) {
    mpc_t x, v0, v1;
    mpc_init2(x, SYM_NUM_BITS);
    mpc_init2(v0, SYM_NUM_BITS);
    mpc_init2(v1, SYM_NUM_BITS);
    struct cc_arena *ar = cc_arena_new();
    struct cc_expr_error err = {0};
    struct cc_node *n = cc_expr_screen_parse(ar, "sin(x) + exp(x/3)", 17, CC_DIALECT_SYMBOLIC, &err);
    CHECK(n != NULL);
    const char *names[1] = {"x"};
    mpc_srcptr cv[1] = {x};
    struct sym_point p = {1, names, cv};
    int bad = 0;
    for (int round = 0; round < 2 && n; round++)
        for (long k = 0; k < 20000; k++) {
            mpc_set_si_si(x, k % 401 - 200, k / 401 - 25, MPC_RNDNN);
            mpc_div_ui(x, x, 16, MPC_RNDNN);
            sym_nmemo_enable(false);
            int r0 = sym_numeval(n, &p, v0);
            sym_nmemo_enable(true);
            int r1 = sym_numeval(n, &p, v1);
            bad += r0 != r1 || (r0 == 0 && !same_bits(v0, v1));
        }
    CHECK_INTEQ(bad, 0);
    mpc_clear(x);
    mpc_clear(v0);
    mpc_clear(v1);
    cc_arena_free(ar);
}

int main(void) {
    RUN(test_memo_values_bit_identical);
    RUN(test_memo_collisions_keep_values);
    return check_summary("sym_nmemo");
}
