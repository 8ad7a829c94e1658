/* MPC evaluation of an AST (see sym_numeval.h). */
#include "workers/symbolic/sym_numeval.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "workers/common/expr_funcs.h"
#include "workers/symbolic/sym_cgamma.h"
#include "workers/symbolic/sym_czeta.h"
#include "workers/symbolic/sym_nmemo.h"
#include "workers/symbolic/sym_nwork.h"

#define RND MPC_RNDNN
#define RRND MPFR_RNDN
#define MAX_DEPTH 400

struct ev {
    const struct sym_point *p;
    int depth;
    mpfr_prec_t prec;
    /* N()'s evaluation (sym_numeval_strict): no noise snapping, correctly
     * rounded powers, and the exactness of each part of the value just
     * computed in xre/xim (see exactness()) */
    bool strict;
    bool xre, xim;
    /* strict: a bound on the value's error, relative to its modulus, in
     * units of 2**-prec (a running error analysis; INFINITY when unknown) */
    double err;
};

static int eval(struct ev *e, const struct cc_node *n, mpc_t out);

/* Temporaries of the evaluation. eval nests at most MAX_DEPTH deep and each
 * level holds at most two, taken and given back in stack order, so a stack
 * of them kept initialised between calls replaces an mpc_init2/mpc_clear
 * pair (four allocations) per node. Same precision, hence the same
 * roundings: every value is bit for bit what fresh temporaries give (MPFR
 * results depend on the operands and the target's precision only). The
 * worker is single-threaded. */
static mpc_t tmp_stack[2 * MAX_DEPTH + 4];
static size_t tmp_ready, tmp_top;

static mpc_ptr tmp_take(const struct ev *e) {
    if (tmp_top == tmp_ready)
        mpc_init2(tmp_stack[tmp_ready++], e->prec);
    else if (mpc_get_prec(tmp_stack[tmp_top]) != e->prec)
        mpc_set_prec(tmp_stack[tmp_top], e->prec);
    return tmp_stack[tmp_top++];
}

static void tmp_give(size_t n) { tmp_top -= n; }

static bool is_real(const mpc_t z) { return mpfr_zero_p(mpc_imagref(z)); }

/* Rounding noise: what an exact zero becomes at this precision (sin(pi) is
 * 1e-39, sqrt(2)**2 - 2 likewise). A value that small beside its operands
 * is 0: a power or root of it would otherwise turn the noise into a
 * difference the check reads as a counterexample (sin(pi)**(1/3) is 1e-13),
 * and its sign would pick a side of a branch cut (sqrt(exp(I*pi)) = -I). */
#define NOISE_BITS (SYM_NUM_BITS - 8)

static mpfr_exp_t magnitude(const mpc_t z) {
    mpfr_exp_t m = mpfr_get_emin();
    if (!mpfr_zero_p(mpc_realref(z)) && mpfr_number_p(mpc_realref(z)))
        m = mpfr_get_exp(mpc_realref(z));
    if (!mpfr_zero_p(mpc_imagref(z)) && mpfr_number_p(mpc_imagref(z)) &&
        mpfr_get_exp(mpc_imagref(z)) > m)
        m = mpfr_get_exp(mpc_imagref(z));
    return m;
}

/* out := 0 when it is noise beside scale */
static void snap_noise(mpc_t out, const mpc_t scale) {
    if (mpc_cmp_si_si(out, 0, 0) != 0 && magnitude(out) < magnitude(scale) - NOISE_BITS)
        mpc_set_ui(out, 0, RND);
}

/* a part of z that is noise beside the other part becomes 0 */
static void snap_part_noise(mpc_t z) {
    mpfr_ptr re = mpc_realref(z), im = mpc_imagref(z);
    if (mpfr_zero_p(re) || mpfr_zero_p(im) || !mpfr_number_p(re) || !mpfr_number_p(im))
        return;
    if (mpfr_get_exp(im) < mpfr_get_exp(re) - NOISE_BITS)
        mpfr_set_zero(im, 1);
    else if (mpfr_get_exp(re) < mpfr_get_exp(im) - NOISE_BITS)
        mpfr_set_zero(re, 1);
}

static bool is_finite(const mpc_t z) {
    return mpfr_number_p(mpc_realref(z)) && mpfr_number_p(mpc_imagref(z));
}

static int name_value(struct ev *e, const char *s, mpc_t out) {
    if (!strcmp(s, "pi")) {
        mpfr_const_pi(mpc_realref(out), RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    }
    if (!strcmp(s, "EulerGamma")) {
        mpfr_const_euler(mpc_realref(out), RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    }
    if (!strcmp(s, SYM_CATALAN)) {
        mpfr_const_catalan(mpc_realref(out), RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    }
    if (!strcmp(s, "E")) {
        mpfr_set_ui(mpc_realref(out), 1, RRND);
        mpfr_exp(mpc_realref(out), mpc_realref(out), RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    }
    if (!strcmp(s, "I")) {
        mpc_set_ui_ui(out, 0, 1, RND);
        return 0;
    }
    for (size_t i = 0; i < e->p->n; i++)
        if (!strcmp(e->p->names[i], s)) {
            mpc_set(out, e->p->vals[i], RND);
            return 0;
        }
    return -1; /* oo, zoo, nan, or a symbol without a value */
}

static int floor_fn(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m);
static int ceil_fn(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m);

/* The ternary of the last function value (MPC_INEX form): 0 when it is
 * exact. Functions that do not report one are taken as inexact. */
static int fn_inex;

/* Real-only functions of MPFR, applied to the real part of a real value. */
/* A real-only function was given a complex argument (gamma(1 + I)): the
 * evaluator has no value there, and neither has the CAS a reliable one. */
static bool complex_gap;

static int fact_fn(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m);

static int real_fn(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), const mpc_t a, mpc_t out) {
    if (!is_real(a) && (f == mpfr_erf || f == mpfr_erfc)) {
        /* the error functions off the real axis: their series (sym_cgamma.h) */
        fn_inex = MPC_INEX(1, 1);
        if (sym_cerf(out, a, f == mpfr_erfc) == 0)
            return 0;
        complex_gap = true;
        return -1;
    }
    if (!is_real(a) && (f == mpfr_digamma || f == mpfr_eint)) {
        /* digamma and Ei off the real axis: their series (sym_cgamma.h) */
        fn_inex = MPC_INEX(1, 1);
        if ((f == mpfr_digamma ? sym_cdigamma(out, a) : sym_cei(out, a)) == 0)
            return 0;
        complex_gap = true;
        return -1;
    }
    if (!is_real(a) && f == mpfr_zeta) {
        /* zeta off the real axis: Borwein's series (sym_czeta.h) */
        fn_inex = MPC_INEX(1, 1);
        if (sym_czeta(out, a) == 0)
            return 0;
        complex_gap = true;
        return -1;
    }
    if (!is_real(a) && (f == mpfr_gamma || f == fact_fn)) {
        /* gamma off the real axis: Stirling's series (sym_cgamma.h) */
        fn_inex = MPC_INEX(1, 1);
        if (f == mpfr_gamma)
            return sym_cgamma(out, a);
        mpc_t z;
        mpc_init2(z, mpfr_get_prec(mpc_realref(a)));
        mpc_add_ui(z, a, 1, RND);
        int rc = sym_cgamma(out, z);
        mpc_clear(z);
        return rc;
    }
    if (!is_real(a)) {
        complex_gap = true;
        return -1;
    }
    int t = f(mpc_realref(out), mpc_realref(a), RRND);
    if (t == INT_MIN) /* floor/ceiling of a value whose units are unknown */
        return -1;
    /* mpfr_floor's ternary says whether the value moved, not whether it
     * rounded: an integer part is exact */
    fn_inex = MPC_INEX(f == floor_fn || f == ceil_fn ? 0 : t, 0);
    mpfr_set_zero(mpc_imagref(out), 1);
    return 0;
}

/* An integer part is only known when the value's units digit is: a value
 * within a few bits of the precision may be off by more than 1 (floor of a
 * 128-bit (10**40 + 7)/13, Mod(10**40 + 7, 13) was 0, not 10). No value
 * then; a higher precision, or the CAS's exact arithmetic, decides. */
#define INT_PART_GUARD 8
static bool int_part_known(mpfr_srcptr a) {
    return !mpfr_regular_p(a) ||
           mpfr_get_exp(a) < (mpfr_exp_t)mpfr_get_prec(a) - INT_PART_GUARD;
}
static int floor_fn(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m) {
    (void)m;
    if (!int_part_known(a))
        return INT_MIN;
    return mpfr_floor(r, a);
}
static int ceil_fn(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m) {
    (void)m;
    if (!int_part_known(a))
        return INT_MIN;
    return mpfr_ceil(r, a);
}
static int fact_fn(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m) {
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(r));
    mpfr_add_ui(t, a, 1, m);
    int rc = mpfr_gamma(r, t, m);
    mpfr_clear(t);
    return rc;
}

typedef int (*cfn)(mpc_ptr, mpc_srcptr, mpc_rnd_t);
typedef int (*rfn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

/* Where a real function's value is real: its MPFR twin applies there. */
enum { ANY, NONNEG, UNIT, OPEN_UNIT, FROM_ONE, NO_TWIN };

/* c: the complex function; r: a real-only one (the argument's real part);
 * twin: c's MPFR twin at a real x in its domain dom (one real evaluation
 * where MPC's would do complex work: its sin of a real number computes a
 * sine and a cosine; the same correctly rounded value). */
static const struct {
    const char *name;
    cfn c;
    rfn r;
    rfn twin;
    int dom;
} UNARY[] = {
    {"exp", mpc_exp, NULL, mpfr_exp, ANY},          {"sin", mpc_sin, NULL, mpfr_sin, ANY},
    {"cos", mpc_cos, NULL, mpfr_cos, ANY},          {"tan", mpc_tan, NULL, mpfr_tan, ANY},
    {"asin", mpc_asin, NULL, mpfr_asin, UNIT},      {"acos", mpc_acos, NULL, mpfr_acos, UNIT},
    {"atan", mpc_atan, NULL, mpfr_atan, ANY},       {"sinh", mpc_sinh, NULL, mpfr_sinh, ANY},
    {"cosh", mpc_cosh, NULL, mpfr_cosh, ANY},       {"tanh", mpc_tanh, NULL, mpfr_tanh, ANY},
    {"asinh", mpc_asinh, NULL, mpfr_asinh, ANY},    {"acosh", mpc_acosh, NULL, mpfr_acosh, FROM_ONE},
    {"atanh", mpc_atanh, NULL, mpfr_atanh, OPEN_UNIT}, {"sqrt", mpc_sqrt, NULL, mpfr_sqrt, NONNEG},
    {"conjugate", mpc_conj, NULL, NULL, NO_TWIN},   {"floor", NULL, floor_fn, NULL, NO_TWIN},
    {"ceiling", NULL, ceil_fn, NULL, NO_TWIN},      {"gamma", NULL, mpfr_gamma, NULL, NO_TWIN},
    {"factorial", NULL, fact_fn, NULL, NO_TWIN},    {"erf", NULL, mpfr_erf, NULL, NO_TWIN},
    {"erfc", NULL, mpfr_erfc, NULL, NO_TWIN},       {"zeta", NULL, mpfr_zeta, NULL, NO_TWIN},
    {"Ei", NULL, mpfr_eint, NULL, NO_TWIN},         {"digamma", NULL, mpfr_digamma, NULL, NO_TWIN},
};

/* 1/f(a) for cot, sec, csc. */
static int recip(cfn f, const mpc_t a, mpc_t out) {
    f(out, a, RND);
    if (mpc_cmp_si_si(out, 0, 0) == 0)
        return -1;
    mpc_ui_div(out, 1, out, RND);
    return 0;
}

static int call_unary(const struct ev *e, const char *name, const mpc_t a, mpc_t out);

/* inverse(1/a) for acot, asec, acsc: SymPy's definitions (acot(z) =
 * atan(1/z), asec(z) = acos(1/z), acsc(z) = asin(1/z)), on SymPy's side of
 * the cuts (the division's zero parts are taken as +0, as every other
 * value here, before the cut side is chosen); undefined at 0. */
static int of_recip(const struct ev *e, const char *inverse, const mpc_t a, mpc_t out) {
    if (mpc_cmp_si_si(a, 0, 0) == 0)
        return -1;
    mpc_t r;
    mpc_init2(r, mpc_get_prec(a));
    mpc_ui_div(r, 1, a, RND);
    if (mpfr_zero_p(mpc_realref(r)))
        mpfr_set_zero(mpc_realref(r), 1);
    if (mpfr_zero_p(mpc_imagref(r)))
        mpfr_set_zero(mpc_imagref(r), 1);
    int rc = call_unary(e, inverse, r, out);
    mpc_clear(r);
    return rc;
}

/* W0(x) for real x >= -1/e by Halley's iteration (MPFR has no Lambert W).
 * -1 outside the real domain of the principal branch. */
/* W_k(a) off the real principal branch: sym_czeta.h's Newton iteration */
static int lambert_w_branch(const mpc_t a, long k, mpc_t out) {
    if (sym_clambertw(out, a, k) == 0)
        return 0;
    complex_gap = true;
    return -1;
}

static int lambert_w(const mpc_t a, mpc_t out) {
    if (!is_real(a) || mpfr_cmp_d(mpc_realref(a), -0.36787944117144233) < 0)
        return lambert_w_branch(a, 0, out);
    mpfr_t x, w, ew, f, t, u;
    mpfr_prec_t prec = mpfr_get_prec(mpc_realref(out));
    mpfr_inits2(prec, x, w, ew, f, t, u, (mpfr_ptr)0);
    mpfr_set(x, mpc_realref(a), RRND);
    mpfr_set_si(t, -1, RRND);
    mpfr_exp(t, t, RRND);
    mpfr_neg(t, t, RRND); /* -1/e */
    int rc = mpfr_cmp(x, t) < 0 ? -1 : 0;
    if (!rc) {
        if (mpfr_cmp_d(x, -0.25) < 0)
            sym_lambertw_branch_start(w, x, 1);
        else
            mpfr_log1p(w, x, RRND); /* a start on the principal branch */
        rc = -1; /* until a step is within the precision, or w solves x to it */
        for (int i = 0; i < 200 && rc; i++) {
            mpfr_exp(ew, w, RRND);
            mpfr_mul(f, w, ew, RRND);
            mpfr_sub(f, f, x, RRND);       /* f = w e^w - x */
            mpfr_add_ui(t, w, 1, RRND);
            mpfr_mul(u, ew, t, RRND);       /* f' = e^w (w + 1) */
            /* w e^w within a few units of x: w is W of a number that
             * close to x, all a rounded x can ask; at the branch point
             * the step itself is rounding noise and need not shrink */
            if (mpfr_zero_p(f) ||
                (!mpfr_zero_p(x) && mpfr_get_exp(f) < mpfr_get_exp(x) - (mpfr_exp_t)prec + 4)) {
                rc = 0;
                break;
            }
            if (mpfr_zero_p(u))
                break;
            mpfr_div(t, f, u, RRND);
            mpfr_sub(w, w, t, RRND);
            if (mpfr_zero_p(t) || mpfr_get_exp(t) < mpfr_get_exp(w) - (mpfr_exp_t)prec + 4)
                rc = 0;
        }
        if (!rc) {
            mpfr_set(mpc_realref(out), w, RRND);
            mpfr_set_zero(mpc_imagref(out), 1);
        }
    }
    mpfr_clears(x, w, ew, f, t, u, (mpfr_ptr)0);
    return rc;
}

/* Every name call_unary and call_binary answer (for some argument); a
 * call of any other name, or with another number of arguments, can never
 * be evaluated. Keep in step with the two functions. */
static const char *const OTHER_UNARY[] = {"LambertW", "log", "cot", "sec", "csc", "Abs", "re",
                                          "im", "arg", "sign", "cbrt", "acot", "asec", "acsc",
                                          "coth", "sech", "csch", "asech", "acsch", "acoth", "N"};
static const char *const BINARY[] = {"log", "root",    "Rational", "atan2",  "Min",
                                     "Max", "N",       "Mod",      "LambertW", "polylog",
                                     "besselj", "bessely"};

static bool in_list(const char *name, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i]))
            return true;
    return false;
}

/* Rewritings: the value of simplify(f) is f's (giac gives another form of
 * the same function). Evaluated as their argument, so the form giac gives
 * for them is checked against what was written: factor(x**2 - 1e-30) was
 * x**2, and algebraic_equiv called it identical to x**2. */
static const char *const SAME_VALUE[] = {"simplify", "expand", "factor", "cancel", "together", "trigsimp"};

static bool same_value_call(const char *name, uint32_t nargs) {
    return nargs == 1 && in_list(name, SAME_VALUE, sizeof SAME_VALUE / sizeof *SAME_VALUE);
}

const struct cc_node *sym_numeval_value_of(const struct cc_node *n) {
    while (n->kind == CC_N_CALL && same_value_call(cc_expr_canonical_function(n->v.name), n->nchild))
        n = n->child[0];
    return n;
}

static bool known_call(const char *name, uint32_t nargs) {
    if (same_value_call(name, nargs))
        return true;
    if (nargs == 2)
        return in_list(name, BINARY, sizeof BINARY / sizeof *BINARY);
    if (nargs != 1)
        return false;
    for (size_t i = 0; i < sizeof UNARY / sizeof *UNARY; i++)
        if (!strcmp(UNARY[i].name, name))
            return true;
    return in_list(name, OTHER_UNARY, sizeof OTHER_UNARY / sizeof *OTHER_UNARY);
}

/* An inverse function's value on its branch cut as SymPy and mpmath define
 * it (their log formulas: asin(2) = pi/2 - I*log(2 + sqrt(3)), atanh(7/2)
 * has imaginary part -pi/2, asinh(-2*I) real part -log(2 + sqrt(3))). MPC
 * picks the side of the cut by the sign of the zero part, and every value
 * here has +0 parts, which is SymPy's side except on these four rays: there
 * the zero part becomes -0. */
static void sympy_cut_side(const char *name, mpc_t a) {
    mpfr_ptr re = mpc_realref(a), im = mpc_imagref(a);
    if ((!strcmp(name, "asin") || !strcmp(name, "acos") || !strcmp(name, "atanh")) &&
        mpfr_zero_p(im) && mpfr_cmp_si(re, 1) > 0)
        mpfr_set_zero(im, -1);
    if ((!strcmp(name, "asinh") || !strcmp(name, "atan")) && mpfr_zero_p(re) &&
        mpfr_cmp_si(im, -1) < 0)
        mpfr_set_zero(re, -1);
}

/* The MPFR twin (UNARY's twin column) of a complex function at a real x
 * where its value is real, or NULL. log, which UNARY does not hold (it is
 * binary too), is real for x > 0. */
static rfn real_twin(const char *name, mpfr_srcptr x) {
    if (!strcmp(name, "log"))
        return mpfr_sgn(x) > 0 ? mpfr_log : NULL;
    for (size_t i = 0; i < sizeof UNARY / sizeof *UNARY; i++) {
        if (strcmp(UNARY[i].name, name))
            continue;
        switch (UNARY[i].dom) {
        case ANY: return UNARY[i].twin;
        case NONNEG: return mpfr_sgn(x) >= 0 ? UNARY[i].twin : NULL;
        case UNIT: return mpfr_cmpabs_ui(x, 1) <= 0 ? UNARY[i].twin : NULL;
        case OPEN_UNIT: return mpfr_cmpabs_ui(x, 1) < 0 ? UNARY[i].twin : NULL;
        case FROM_ONE: return mpfr_cmp_ui(x, 1) >= 0 ? UNARY[i].twin : NULL;
        default: return NULL;
        }
    }
    return NULL;
}

static bool vanishes_off_zero(const char *name) {
    return !strcmp(name, "sin") || !strcmp(name, "cos") || !strcmp(name, "tan") ||
           !strcmp(name, "sinh") || !strcmp(name, "cosh") || !strcmp(name, "tanh");
}

static int call_unary(const struct ev *e, const char *name, const mpc_t a, mpc_t out) {
    fn_inex = MPC_INEX(1, 1);
    if (!strcmp(name, "LambertW"))
        return lambert_w(a, out);
    if (!strcmp(name, "N")) { /* N(e) nested in a larger expression: e's value */
        fn_inex = mpc_set(out, a, RND);
        return 0;
    }
    if (!is_real(a) && (!strcmp(name, "floor") || !strcmp(name, "ceiling"))) {
        /* part by part, as SymPy: floor(3/2 + 5*I/2) = 1 + 2*I */
        bool up = name[0] == 'c';
        if (!int_part_known(mpc_realref(a)) || !int_part_known(mpc_imagref(a)))
            return -1;
        (up ? mpfr_ceil : mpfr_floor)(mpc_realref(out), mpc_realref(a));
        (up ? mpfr_ceil : mpfr_floor)(mpc_imagref(out), mpc_imagref(a));
        fn_inex = 0;
        return 0;
    }
    rfn twin = is_real(a) ? real_twin(name, mpc_realref(a)) : NULL;
    if (twin) {
        fn_inex = MPC_INEX(twin(mpc_realref(out), mpc_realref(a), RRND), 0);
        mpfr_set_zero(mpc_imagref(out), 1);
        if (!e->strict && vanishes_off_zero(name))
            snap_noise(out, a);
        return 0;
    }
    for (size_t i = 0; i < sizeof UNARY / sizeof *UNARY; i++)
        if (!strcmp(UNARY[i].name, name)) {
            if (UNARY[i].c) {
                mpc_t side;
                mpc_init2(side, mpc_get_prec(a));
                mpc_set(side, a, RND);
                sympy_cut_side(name, side);
                fn_inex = UNARY[i].c(out, side, RND);
                mpc_clear(side);
                /* the trigonometric and hyperbolic functions vanish at
                 * non-zero points: sin(pi) is 0, not 1e-39 */
                if (!e->strict && vanishes_off_zero(name))
                    snap_noise(out, a);
                return 0;
            }
            return real_fn(UNARY[i].r, a, out);
        }
    if (!strcmp(name, "conjugate") || !strcmp(name, "re") || !strcmp(name, "im"))
        fn_inex = 0; /* a copy */
    if (!strcmp(name, "log")) {
        if (mpc_cmp_si_si(a, 0, 0) == 0)
            return -1;
        fn_inex = mpc_log(out, a, RND);
        return 0;
    }
    if (!strcmp(name, "cot")) return recip(mpc_tan, a, out);
    if (!strcmp(name, "sec")) return recip(mpc_cos, a, out);
    if (!strcmp(name, "csc")) return recip(mpc_sin, a, out);
    if (!strcmp(name, "acot")) return of_recip(e, "atan", a, out);
    if (!strcmp(name, "asec")) return of_recip(e, "acos", a, out);
    if (!strcmp(name, "acsc")) return of_recip(e, "asin", a, out);
    if (!strcmp(name, "acoth")) return of_recip(e, "atanh", a, out);
    if (!strcmp(name, "coth")) return recip(mpc_tanh, a, out);
    if (!strcmp(name, "sech")) return recip(mpc_cosh, a, out);
    if (!strcmp(name, "csch")) return recip(mpc_sinh, a, out);
    if (!strcmp(name, "asech")) return of_recip(e, "acosh", a, out);
    if (!strcmp(name, "acsch")) return of_recip(e, "asinh", a, out);
    if (!strcmp(name, "Abs")) {
        mpc_abs(mpc_realref(out), a, RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    }
    if (!strcmp(name, "re") || !strcmp(name, "im")) {
        mpfr_set(mpc_realref(out), name[0] == 'r' ? mpc_realref(a) : mpc_imagref(a), RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    }
    if (!strcmp(name, "arg")) {
        mpc_arg(mpc_realref(out), a, RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    }
    if (!strcmp(name, "sign")) { /* z/|z|, 0 at 0 */
        if (mpc_cmp_si_si(a, 0, 0) == 0) {
            mpc_set_ui(out, 0, RND);
            return 0;
        }
        mpfr_t m;
        mpfr_init2(m, mpfr_get_prec(mpc_realref(out)));
        mpc_abs(m, a, RRND);
        mpc_div_fr(out, a, m, RND);
        mpfr_clear(m);
        return 0;
    }
    if (!strcmp(name, "cbrt")) { /* the real root of a real number (see sp_cbrt) */
        if (is_real(a)) {
            mpfr_cbrt(mpc_realref(out), mpc_realref(a), RRND);
            mpfr_set_zero(mpc_imagref(out), 1);
        } else {
            mpc_t t;
            mpc_init2(t, mpfr_get_prec(mpc_realref(out)));
            mpc_set_ui(t, 1, RND);
            mpc_div_ui(t, t, 3, RND);
            mpc_pow(out, a, t, RND);
            mpc_clear(t);
        }
        return 0;
    }
    return -1;
}

/* The order of polylog(s, z), besselj(n, z), bessely(n, z) as a small
 * integer, or false */
static bool small_order(const mpc_t a, long *k) {
    if (!is_real(a) || !mpfr_integer_p(mpc_realref(a)) || mpfr_cmpabs_ui(mpc_realref(a), 1000) > 0)
        return false;
    *k = mpfr_get_si(mpc_realref(a), RRND);
    return true;
}

/* Li_k(x) for an integer k >= 3 and a real x: zeta(k) at 1, -(1 -
 * 2^(1-k)) zeta(k) at -1, the series sum x^j / j^k for |x| < 1 while its
 * work is bounded (below); 32 guard bits cover the roundings of the
 * terms. Elsewhere, and past 1, no value (-1). N(polylog(3, 1/2)) was
 * refused: MPFR has Li_2 only. */
static int polylog_real(long k, mpfr_srcptr x, mpfr_ptr r) {
    mpfr_prec_t p = mpfr_get_prec(r) + 32;
    if (mpfr_cmpabs_ui(x, 1) == 0) {
        mpfr_t z, f;
        mpfr_inits2(p, z, f, (mpfr_ptr)0);
        mpfr_zeta_ui(z, (unsigned long)k, RRND);
        if (mpfr_sgn(x) < 0) { /* eta(k) = (1 - 2^(1-k)) zeta(k) */
            mpfr_set_ui_2exp(f, 1, 1 - k, RRND);
            mpfr_ui_sub(f, 1, f, RRND);
            mpfr_mul(z, z, f, RRND);
            mpfr_neg(z, z, RRND);
        }
        mpfr_set(r, z, RRND);
        mpfr_clears(z, f, (mpfr_ptr)0);
        return 0;
    }
    /* the work is terms times precision: past 2^24 (20,000 terms at
     * 128 bits, 4,000 at 4,096), no value rather than seconds of CPU
     * (N of a difference that is exactly 0 doubles the precision to its
     * limit) */
    double ax = fabs(mpfr_get_d(x, RRND));
    if (ax > 1 || (double)p * (double)p * 0.6931 / -log(ax) > 16777216.0)
        return -1;
    mpfr_t sum, pw, t, jk;
    mpfr_inits2(p, sum, pw, t, jk, (mpfr_ptr)0);
    mpfr_set_zero(sum, 1);
    mpfr_set(pw, x, RRND);
    for (unsigned long j = 1; !mpfr_zero_p(pw); j++) {
        mpfr_set_ui(jk, j, RRND);
        mpfr_pow_ui(jk, jk, (unsigned long)k, RRND);
        mpfr_div(t, pw, jk, RRND);
        mpfr_add(sum, sum, t, RRND);
        if (mpfr_zero_p(t) || mpfr_get_exp(t) < mpfr_get_exp(sum) - (mpfr_exp_t)p)
            break;
        mpfr_mul(pw, pw, x, RRND);
    }
    mpfr_set(r, sum, RRND);
    mpfr_clears(sum, pw, t, jk, (mpfr_ptr)0);
    return 0;
}

/* The special functions of two arguments MPFR evaluates, correctly
 * rounded, where their value is real (N(polylog(2, 1/3), 30) was refused,
 * N(besselj(0, 1), 30) gave giac's 15 digits): polylog(2, z) for real z <=
 * 1 (mpfr_li2; Li2 is complex past 1), besselj(n, x) for an integer n and
 * a real x (mpfr_jn), bessely(n, x) for x > 0 (mpfr_yn). Elsewhere no
 * value of ours (-1). */
static int special_binary(const char *name, const mpc_t a, const mpc_t b, mpc_t out) {
    long k;
    if (!small_order(a, &k) || !is_real(b))
        return -1;
    mpfr_srcptr x = mpc_realref(b);
    mpfr_ptr r = mpc_realref(out);
    int inex;
    if (!strcmp(name, "polylog")) {
        if (k >= 3 && k <= 1000) {
            if (polylog_real(k, x, r) < 0)
                return -1;
            mpfr_set_zero(mpc_imagref(out), 1);
            fn_inex = MPC_INEX(!mpfr_zero_p(x), 0); /* Li_k(0) = 0 exactly */
            return 0;
        }
        if (k != 2 || mpfr_cmp_ui(x, 1) > 0)
            return -1;
        inex = mpfr_li2(r, x, RRND);
    } else if (!strcmp(name, "besselj")) {
        inex = mpfr_jn(r, k, x, RRND);
    } else {
        if (mpfr_sgn(x) <= 0)
            return -1;
        inex = mpfr_yn(r, k, x, RRND);
    }
    mpfr_set_zero(mpc_imagref(out), 1);
    fn_inex = MPC_INEX(inex, 0);
    return mpfr_number_p(r) ? 0 : -1;
}

static int call_binary(const char *name, const mpc_t a, const mpc_t b, mpc_t out) {
    fn_inex = MPC_INEX(1, 1);
    if (!strcmp(name, "log")) { /* log(a, base) */
        mpc_t t;
        mpc_init2(t, mpfr_get_prec(mpc_realref(out)));
        mpc_log(out, a, RND);
        mpc_log(t, b, RND);
        int rc = mpc_cmp_si_si(t, 0, 0) == 0 ? -1 : 0;
        if (!rc)
            mpc_div(out, out, t, RND);
        mpc_clear(t);
        return rc;
    }
    if (!strcmp(name, "root")) {
        mpc_t t;
        mpc_init2(t, mpfr_get_prec(mpc_realref(out)));
        mpc_ui_div(t, 1, b, RND);
        mpc_pow(out, a, t, RND);
        mpc_clear(t);
        return 0;
    }
    if (!strcmp(name, "Rational")) {
        fn_inex = mpc_div(out, a, b, RND);
        return 0;
    }
    if (!strcmp(name, "atan2") && is_real(a) && is_real(b)) {
        mpfr_atan2(mpc_realref(out), mpc_realref(a), mpc_realref(b), RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    }
    if ((!strcmp(name, "Min") || !strcmp(name, "Max")) && is_real(a) && is_real(b)) {
        int c = mpfr_cmp(mpc_realref(a), mpc_realref(b));
        mpc_set(out, (c < 0) == (name[1] == 'i') ? a : b, RND);
        return 0;
    }
    if (!strcmp(name, "N")) {
        fn_inex = mpc_set(out, a, RND);
        return 0;
    }
    if (!strcmp(name, "LambertW")) { /* LambertW(a, k): branch k, an integer */
        if (!is_real(b) || !mpfr_integer_p(mpc_realref(b)) ||
            !mpfr_fits_slong_p(mpc_realref(b), RRND))
            return -1;
        long k = mpfr_get_si(mpc_realref(b), RRND);
        if (k == 0 && is_real(a))
            return lambert_w(a, out);
        return lambert_w_branch(a, k, out);
    }
    if (!strcmp(name, "polylog") || !strcmp(name, "besselj") || !strcmp(name, "bessely"))
        return special_binary(name, a, b, out);
    if (!strcmp(name, "Mod") && is_real(a) && is_real(b) && !mpfr_zero_p(mpc_realref(b))) {
        mpfr_t q; /* a - b*floor(a/b), the sign of b as SymPy's Mod */
        mpfr_init2(q, mpfr_get_prec(mpc_realref(out)));
        mpfr_div(q, mpc_realref(a), mpc_realref(b), RRND);
        if (!int_part_known(q)) {
            mpfr_clear(q);
            return -1;
        }
        mpfr_floor(q, q);
        mpfr_mul(q, q, mpc_realref(b), RRND);
        mpfr_sub(mpc_realref(out), mpc_realref(a), q, RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        mpfr_clear(q);
        return 0;
    }
    return -1;
}

/* Exactness of the parts of a value and its error bound (strict mode). */
struct exact {
    bool re, im;
    double err;
};

/* log2 of an upper (hi) and a lower (lo) bound on |z|; -INFINITY for 0 */
static double lmag_lo(const mpc_t z) {
    double best = -INFINITY;
    for (int i = 0; i < 2; i++) {
        mpfr_srcptr x = i ? mpc_imagref(z) : mpc_realref(z);
        if (mpfr_zero_p(x) || !mpfr_number_p(x))
            continue;
        long ex;
        double m = mpfr_get_d_2exp(&ex, x, MPFR_RNDN);
        double l = log2(fabs(m)) + (double)ex;
        if (l > best)
            best = l;
    }
    return best - 0.01;
}

static double lmag_hi(const mpc_t z) { return lmag_lo(z) + 0.52; /* |z| <= sqrt(2) max part */ }

/* Error bound of a + b from the operands' (the absolute errors add,
 * relative to |a + b|: cancellation shows as a large bound), plus its
 * rounding. */
static double sum_err(const mpc_t a, double ea, const mpc_t b, double eb, const mpc_t s) {
    if (mpc_cmp_si_si(s, 0, 0) == 0)
        return ea == 0 && eb == 0 ? 0 : INFINITY;
    double lo = lmag_lo(s), t = 2;
    if (ea > 0)
        t += ea * exp2(lmag_hi(a) - lo);
    if (eb > 0)
        t += eb * exp2(lmag_hi(b) - lo);
    return t;
}

/* a part known to be exactly zero */
static bool zx(mpfr_srcptr x, bool exact) { return exact && mpfr_zero_p(x); }

/* An inexact part equal to 0 or +-1: a function's special point, where a
 * rounded argument gives an exact-looking value (log(1) = 0, acos(1) = 0)
 * that the true argument need not */
static bool special_point(mpfr_srcptr x, bool exact) {
    return !exact && (mpfr_zero_p(x) || mpfr_cmpabs_ui(x, 1) == 0);
}

static bool odd_fn(const char *name) {
    static const char *const odd[] = {"sin", "tan", "sinh", "tanh", "asin", "atan", "asinh",
                                      "atanh", "sign", "cbrt", "conjugate", "erf"};
    return in_list(name, odd, sizeof odd / sizeof *odd);
}

/* Error bound of f(a) (of f(a, b)) from its argument's: a correctly
 * rounded function of an exact argument is within one unit; of an
 * inexact one by its condition number where it is simple (sqrt halves
 * the error, exp multiplies it by |a|, log divides it by |log a|, a copy
 * keeps it); unknown elsewhere (sin near a zero, LambertW by iteration). */
static double fn_err(const char *name, const mpc_t a, double ea, double eb, const mpc_t out) {
    static const char *const copies[] = {"conjugate", "Abs", "N"};
    static const char *const rounded[] = {
        "exp", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
        "acosh", "atanh", "sqrt", "log", "gamma", "erf", "erfc", "zeta", "Ei", "digamma",
        "floor", "ceiling", "arg", "polylog", "besselj", "bessely"};
    if (in_list(name, copies, sizeof copies / sizeof *copies) && eb == 0)
        return ea + 2;
    if ((!strcmp(name, "re") || !strcmp(name, "im")) && ea > 0) /* a part of a */
        return mpc_cmp_si_si(out, 0, 0) ? ea * exp2(lmag_hi(a) - lmag_lo(out)) + 1 : INFINITY;
    bool complex_gamma = (!strcmp(name, "gamma") || !strcmp(name, "factorial") ||
                          !strcmp(name, "erf") || !strcmp(name, "erfc") ||
                          !strcmp(name, "digamma") || !strcmp(name, "Ei")) &&
                         !mpfr_zero_p(mpc_imagref(a));
    if (complex_gamma) /* series without a bound of ours: N's loop compares rounds */
        return INFINITY;
    if (ea == 0 && eb == 0)
        return in_list(name, rounded, sizeof rounded / sizeof *rounded) ? 2
               : (!strcmp(name, "cot") || !strcmp(name, "sec") || !strcmp(name, "csc")) ? 3
                                                                                     : INFINITY;
    if (eb != 0 || !isfinite(ea))
        return INFINITY;
    if (!strcmp(name, "sqrt"))
        return ea / 2 + 2;
    if (!strcmp(name, "exp"))
        return ea * exp2(lmag_hi(a)) + 2;
    if (!strcmp(name, "log") && mpc_cmp_si_si(out, 0, 0) != 0)
        return ea * exp2(-lmag_lo(out)) + 2;
    return INFINITY;
}

/* The exactness of f(a) or f(a, b) in e->xre/xim: a part is exact when
 * every part of the arguments is and the function rounded nothing, or when
 * it is a structural zero: a real function of real arguments (the
 * imaginary part is 0 near them too: sqrt(2), exp(1)), the purely
 * imaginary value of one at a negative real (sqrt(-2), acos(2)), an odd
 * function of an imaginary number (sin(2*I)), an even one's real value
 * there (cos(2*I)). A zero part that is none of these (a cancellation,
 * log of a rounded 1) is not exact: N's loop raises the precision or asks
 * the CAS. */
static void fn_exactness(struct ev *e, const char *name, const mpc_t a, struct exact xa,
                         const mpc_t b, struct exact xb, const mpc_t out) {
    bool all = xa.re && xa.im && xb.re && xb.im;
    e->xre = all && !MPC_INEX_RE(fn_inex);
    e->xim = all && !MPC_INEX_IM(fn_inex);
    bool zre = mpfr_zero_p(mpc_realref(out)), zim = mpfr_zero_p(mpc_imagref(out));
    bool real_args = zx(mpc_imagref(a), xa.im) && !special_point(mpc_realref(a), xa.re) &&
                     (!b || (zx(mpc_imagref(b), xb.im) && !special_point(mpc_realref(b), xb.re)));
    if (real_args || !strcmp(name, "Abs") || !strcmp(name, "arg") || !strcmp(name, "re") ||
        !strcmp(name, "im")) {
        e->xim |= zim;
        e->xre |= zre && !zim;
    }
    if (!strcmp(name, "re"))
        e->xre = xa.re;
    if (!strcmp(name, "im"))
        e->xre = xa.im;
    if (!strcmp(name, "conjugate"))
        e->xre = xa.re, e->xim = xa.im;
    if (!b && zx(mpc_realref(a), xa.re) && !special_point(mpc_imagref(a), xa.im)) {
        if (odd_fn(name))
            e->xre |= zre;
        if (!strcmp(name, "cos") || !strcmp(name, "cosh"))
            e->xim |= zim;
    }
    e->err = fn_err(name, a, xa.err, b ? xb.err : 0, out);
    if (e->xre && e->xim)
        e->err = 0;
}

/* An operand that came out exactly 0 without being exact (exp(100) + 2 -
 * exp(100) below 150 bits): its error is unknown (relative to 0), and two
 * rounds agreeing on 1 + 0 proved nothing (1 + N(exp(100) + 2 - exp(100))
 * was 1.0, not 3). No value at this precision: the loop raises it. The
 * value as a whole is N's loop's to settle (noise, or the CAS's zero). */
static bool unknown_zero(const struct ev *e, const mpc_t v, struct exact x) {
    return e->strict && !(x.re && x.im) && mpc_cmp_si_si(v, 0, 0) == 0;
}

/* true when part x of a rounded value, within bound of the true one,
 * may lie on the other side of an integer */
static bool near_integer(mpfr_srcptr x, double bound) {
    if (!mpfr_number_p(x))
        return true;
    mpfr_t f, c;
    mpfr_inits2(mpfr_get_prec(x) + 8, f, c, (mpfr_ptr)0);
    mpfr_floor(f, x);
    mpfr_ceil(c, x);
    mpfr_sub(f, x, f, MPFR_RNDD);
    mpfr_sub(c, c, x, MPFR_RNDD);
    bool near = mpfr_cmp_d(f, bound) <= 0 || mpfr_cmp_d(c, bound) <= 0;
    mpfr_clears(f, c, (mpfr_ptr)0);
    return near;
}

/* An upper bound on the absolute error of a, whose relative bound is err
 * (units of 2**-prec); INFINITY when unknown. */
static double abs_err(const mpc_t a, struct exact x) {
    if (x.re && x.im)
        return 0;
    if (!isfinite(x.err))
        return INFINITY;
    return (x.err + 1) * exp2(lmag_hi(a) - (double)mpc_get_prec(a));
}

/* Min and Max pick one argument, and sign jumps at 0: with an argument
 * that is not exact but bounded, the choice is known only when the error
 * bounds keep the two values apart (the value away from 0); with no bound
 * the loop compares rounds as before. Max(exp(1e-20) - 1 -
 * 1e-20, 1e-70) was 1e-70: rounds that could not yet see 5e-41 picked
 * 1e-70 twice and the loop took that for settled. The result keeps the
 * chosen argument's exactness and bound (sign's is exact). */
static bool choice_resolved(struct ev *e, const char *name, const mpc_t a, struct exact xa,
                            const mpc_t b, struct exact xb, const mpc_t out) {
    if (!strcmp(name, "sign")) {
        if (xa.re && xa.im)
            return true;
        double ea = abs_err(a, xa);
        if (!isfinite(ea)) /* no bound: N's loop compares rounds, as before */
            return true;
        if (mpc_cmp_si_si(a, 0, 0) == 0 || exp2(lmag_lo(a)) <= ea)
            return false;
        e->xre = e->xim = true;
        e->err = 0;
        return true;
    }
    if (!b || (strcmp(name, "Min") && strcmp(name, "Max")))
        return true;
    if (xa.re && xa.im && xb.re && xb.im)
        return true;
    double gap = abs_err(a, xa) + abs_err(b, xb);
    if (!isfinite(gap)) /* no bound (sin(sqrt(2.0))): the loop compares rounds */
        return true;
    mpc_t d;
    mpc_init2(d, mpc_get_prec(a) + 8);
    mpc_sub(d, a, b, RND);
    bool apart = mpc_cmp_si_si(d, 0, 0) != 0 && exp2(lmag_lo(d)) > gap;
    mpc_clear(d);
    if (!apart)
        return false;
    /* out is a copy of the argument equal to it */
    bool took_a = mpc_cmp(out, a) == 0;
    struct exact x = took_a ? xa : xb;
    e->xre = x.re;
    e->xim = x.im;
    e->err = x.err;
    return true;
}

/* floor, ceiling and Mod jump at integers: of an argument that is not
 * exact they are known only when its error bound keeps it off the jump
 * (floor(1 - 10**-50) at 64 bits is floor(1.0) = 1, and two rounds agreed
 * on it: N answered 1.0, not 0). false: no value at this precision (the
 * loop raises it, then the CAS answers). Of an argument that is off the
 * jump, floor and ceiling are exact integers. Min, Max and sign are
 * settled first (choice_resolved). */
static bool jump_resolved(struct ev *e, const char *name, const mpc_t a, struct exact xa,
                          const mpc_t b, struct exact xb, const mpc_t out) {
    if (!choice_resolved(e, name, a, xa, b, xb, out))
        return false;
    bool mod = !strcmp(name, "Mod");
    if (!mod && strcmp(name, "floor") && strcmp(name, "ceiling"))
        return true;
    bool exact = xa.re && xa.im && (!mod || (xb.re && xb.im));
    if (exact)
        return true;
    double err = mod ? xa.err + xb.err + 4 : xa.err;
    if (!isfinite(err))
        return false;
    mpc_t q;
    mpc_init2(q, mpc_get_prec(a));
    if (mod)
        mpc_div(q, a, b, RND);
    else
        mpc_set(q, a, RND);
    double bound = (err + 1) * exp2(lmag_hi(q) - (double)mpc_get_prec(a));
    bool near = near_integer(mpc_realref(q), bound) ||
                (!mpfr_zero_p(mpc_imagref(q)) && near_integer(mpc_imagref(q), bound));
    mpc_clear(q);
    if (near)
        return false;
    if (!mod) {
        e->xre = e->xim = true;
        e->err = 0;
    }
    return true;
}

/* Part x of a rounded value sits within a few ulps of an integer it is
 * not: the true value may lie on either side of the jump. */
static bool near_jump(mpfr_srcptr x) {
    if (!mpfr_regular_p(x) || mpfr_integer_p(x))
        return false;
    mpfr_t d;
    mpfr_init2(d, mpfr_get_prec(x) + 8);
    mpfr_rint(d, x, MPFR_RNDN);
    mpfr_sub(d, x, d, MPFR_RNDN);
    long e = mpfr_get_exp(x) > 1 ? (long)mpfr_get_exp(x) : 1;
    bool near = mpfr_zero_p(d) || mpfr_get_exp(d) <= e - (long)mpfr_get_prec(x) + 24;
    mpfr_clear(d);
    return near;
}

/* The numeric checks' floor, ceiling and Mod (N's strict mode bounds
 * errors instead, jump_resolved): of an argument a rounding away from an
 * integer the value is unknown, and the point is not used. floor(sin(x)**2
 * + cos(x)**2) at 128 bits was 0 at some points, and algebraic_equiv
 * answered identical: false against 1, with that point as a counterexample;
 * floor(exp(log(x))) against floor(x) likewise (an imaginary part of
 * 1e-39 floored to -I). */
static bool jump_unsure(const char *name, const mpc_t a, const mpc_t b) {
    /* sign and arg jump at 0: a value below half the precision is, at a
     * sample point, the rounding left of a true 0 (sign(sin(x)**2 +
     * cos(x)**2 - 1) was 1 at x = -1 + 4*I, and identical: false against 0) */
    if (!strcmp(name, "sign") || !strcmp(name, "arg"))
        return mpc_cmp_si_si(a, 0, 0) != 0 && magnitude(a) < -(mpfr_exp_t)(mpc_get_prec(a) / 2);
    if (!strcmp(name, "floor") || !strcmp(name, "ceiling"))
        return near_jump(mpc_realref(a)) || near_jump(mpc_imagref(a));
    if (strcmp(name, "Mod") || !b || mpc_cmp_si_si(b, 0, 0) == 0)
        return false;
    mpc_t q;
    mpc_init2(q, mpc_get_prec(a));
    mpc_div(q, a, b, RND);
    bool unsure = near_jump(mpc_realref(q)) || near_jump(mpc_imagref(q));
    mpc_clear(q);
    return unsure;
}

static int eval_call(struct ev *e, const struct cc_node *n, mpc_t out) {
    const char *name = cc_expr_canonical_function(n->v.name);
    if (same_value_call(name, n->nchild))
        return eval(e, n->child[0], out);
    if (n->nchild < 1 || n->nchild > 2)
        return -1;
    mpc_ptr a = tmp_take(e), b = tmp_take(e);
    int rc = eval(e, n->child[0], a);
    struct exact xa = {e->xre, e->xim, e->err}, xb = {true, true, 0};
    if (!rc && n->nchild == 2) {
        rc = eval(e, n->child[1], b);
        xb = (struct exact){e->xre, e->xim, e->err};
    }
    if (!rc && (unknown_zero(e, a, xa) || (n->nchild == 2 && unknown_zero(e, b, xb))))
        rc = -1;
    if (!rc && !e->strict && jump_unsure(name, a, n->nchild == 2 ? b : NULL))
        rc = -1;
    if (!rc) {
        sym_nwork_call(name, a); /* before the memo: charged as computed */
        /* a remembered value is the very value computed (sym_nmemo.h); N's
         * strict mode reads each call's rounding flags and computes all */
        mpc_srcptr b2 = n->nchild == 2 ? b : NULL;
        if (e->strict || !sym_nmemo_get(name, a, b2, out, &rc)) {
            rc = n->nchild == 1 ? call_unary(e, name, a, out) : call_binary(name, a, b, out);
            if (!e->strict)
                sym_nmemo_put(name, a, b2, out, rc);
        }
    }
    if (!rc && e->strict) {
        fn_exactness(e, name, a, xa, n->nchild == 2 ? b : NULL, xb, out);
        if (!jump_resolved(e, name, a, xa, n->nchild == 2 ? b : NULL, xb, out))
            rc = -1;
    }
    tmp_give(2);
    return rc;
}

/* a**k for a small integer k by squaring, with 32 guard bits (at most
 * 2*7 roundings, so the result is within an ulp or two of MPC's correctly
 * rounded mpc_pow_si, far below the cross-check's 10**-25 tolerance, at a
 * fraction of its cost: mpc_pow_si runs a Ziv loop even for x**2). */
static void small_pow(const mpc_t a, long k, mpc_t out) {
    static mpc_t acc, base; /* kept between calls (see tmp_stack) */
    static bool ready;
    /* out's precision plus the guard: a re-check at 512 bits squared at
     * 160 and kept the 128-bit noise it was to see shrink */
    mpfr_prec_t want = mpfr_get_prec(mpc_realref(out)) + 32;
    if (!ready) {
        mpc_init2(acc, want);
        mpc_init2(base, want);
        ready = true;
    } else if (mpfr_get_prec(mpc_realref(acc)) != want) {
        mpc_set_prec(acc, want);
        mpc_set_prec(base, want);
    }
    mpc_set(base, a, RND);
    mpc_set_ui(acc, 1, RND);
    for (unsigned long e = (unsigned long)(k < 0 ? -k : k); e; e >>= 1) {
        if (e & 1)
            mpc_mul(acc, acc, base, RND);
        if (e > 1)
            mpc_sqr(base, base, RND);
    }
    if (k < 0)
        mpc_ui_div(out, 1, acc, RND);
    else
        mpc_set(out, acc, RND);
}

/* a**b; in strict mode with its exactness (see fn_exactness): an exact
 * integer power of a real or imaginary number has structural zero parts,
 * and so has a real power of a positive real. */
static int eval_pow(struct ev *e, const mpc_t a, struct exact xa, const mpc_t b, struct exact xb,
                    mpc_t out) {
    if (mpc_cmp_si_si(a, 0, 0) == 0) {
        if (!is_real(b) || mpfr_sgn(mpc_realref(b)) <= 0)
            return -1; /* 0**0 and 0**-1 are left to the CAS */
        mpc_set_ui(out, 0, RND);
        e->xre = e->xim = xa.re && xa.im;
        e->err = e->xre ? 0 : INFINITY;
        return 0;
    }
    int inex = MPC_INEX(1, 1);
    bool structural = false;
    /* an integer exponent is exact repeated multiplication, no branch */
    if (is_real(b) && mpfr_integer_p(mpc_realref(b)) && mpfr_fits_slong_p(mpc_realref(b), RRND)) {
        long k = mpfr_get_si(mpc_realref(b), RRND);
        if (!e->strict && k >= -127 && k <= 127)
            small_pow(a, k, out);
        else
            inex = mpc_pow_si(out, a, k, RND);
        structural = xb.re && xb.im &&
                     (zx(mpc_imagref(a), xa.im) || zx(mpc_realref(a), xa.re));
    } else {
        sym_nwork_pow();
        int rc = 0; /* mpc_pow returns no failure: rc stays 0 */
        if (e->strict || !sym_nmemo_get("**", a, b, out, &rc)) {
            inex = mpc_pow(out, a, b, RND);
            if (!e->strict)
                sym_nmemo_put("**", a, b, out, 0);
        }
        structural = zx(mpc_imagref(a), xa.im) && mpfr_sgn(mpc_realref(a)) > 0 &&
                     zx(mpc_imagref(b), xb.im);
    }
    bool all = xa.re && xa.im && xb.re && xb.im;
    e->xre = (all && !MPC_INEX_RE(inex)) || (structural && mpfr_zero_p(mpc_realref(out)));
    e->xim = (all && !MPC_INEX_IM(inex)) || (structural && mpfr_zero_p(mpc_imagref(out)));
    /* (a(1 + da))**(b(1 + db)) = a**b (1 + b da + b log(a) db): |b| ea +
     * |b| |log a| eb, |log a| <= |ln|a|| + pi; +2 for the rounding */
    double lb = lmag_hi(b), la = lmag_hi(a);
    double log_a = fabs(la) * 0.6931471805599453 + 3.1415926535897932 + 1;
    double t = 2;
    if (xa.err > 0)
        t += exp2(lb) * xa.err;
    if (xb.err > 0)
        t += exp2(lb) * log_a * xb.err;
    e->err = e->xre && e->xim ? 0 : t;
    return 0;
}

/* Exactness of a + b, a - b, a * b and a / b (strict mode): a part is
 * exact when MPC rounded nothing and every term it sums is exact, a term
 * with an exact zero factor being exactly zero (the imaginary part of a
 * product of reals, of a real over a real). A zero that cancelled from
 * inexact terms is not exact. */
static void arith_exactness(struct ev *e, enum cc_op op, const mpc_t a, struct exact xa,
                            const mpc_t b, struct exact xb, int inex, const mpc_t out) {
    mpfr_srcptr ar = mpc_realref(a), ai = mpc_imagref(a), br = mpc_realref(b),
                bi = mpc_imagref(b);
    bool re, im;
    switch (op) {
    case CC_OP_ADD:
    case CC_OP_SUB:
        re = xa.re && xb.re;
        im = xa.im && xb.im;
        break;
    case CC_OP_MUL: /* re = ar*br - ai*bi, im = ar*bi + ai*br */
        re = (zx(ar, xa.re) || zx(br, xb.re) || (xa.re && xb.re)) &&
             (zx(ai, xa.im) || zx(bi, xb.im) || (xa.im && xb.im));
        im = (zx(ar, xa.re) || zx(bi, xb.im) || (xa.re && xb.im)) &&
             (zx(ai, xa.im) || zx(br, xb.re) || (xa.im && xb.re));
        break;
    default: /* CC_OP_DIV */
        if (zx(bi, xb.im)) { /* (ar + ai*I)/br */
            re = zx(ar, xa.re) || (xa.re && xb.re);
            im = zx(ai, xa.im) || (xa.im && xb.re);
        } else if (zx(br, xb.re)) { /* (ai - ar*I)/bi */
            re = zx(ai, xa.im) || (xa.im && xb.im);
            im = zx(ar, xa.re) || (xa.re && xb.im);
        } else {
            re = im = xa.re && xa.im && xb.re && xb.im;
        }
    }
    e->xre = re && !MPC_INEX_RE(inex);
    e->xim = im && !MPC_INEX_IM(inex);
    if (e->xre && e->xim)
        e->err = 0;
    else if (op == CC_OP_ADD || op == CC_OP_SUB)
        e->err = sum_err(a, xa.err, b, xb.err, out);
    else /* relative errors of a product or quotient add; +2 for the rounding */
        e->err = xa.err + xb.err + 2;
}

static int eval_binary(struct ev *e, const struct cc_node *n, mpc_t out) {
    mpc_ptr a = tmp_take(e), b = tmp_take(e);
    int rc = eval(e, n->child[0], a);
    struct exact xa = {e->xre, e->xim, e->err}, xb = {true, true, 0};
    if (!rc) {
        rc = eval(e, n->child[1], b);
        xb = (struct exact){e->xre, e->xim, e->err};
    }
    if (!rc && (unknown_zero(e, a, xa) || unknown_zero(e, b, xb)))
        rc = -1;
    int inex = 0;
    if (!rc) {
        switch (n->op) {
        case CC_OP_ADD:
            inex = mpc_add(out, a, b, RND);
            if (!e->strict)
                snap_noise(out, magnitude(a) > magnitude(b) ? a : b);
            break;
        case CC_OP_SUB:
            inex = mpc_sub(out, a, b, RND);
            if (!e->strict)
                snap_noise(out, magnitude(a) > magnitude(b) ? a : b);
            break;
        case CC_OP_MUL: inex = mpc_mul(out, a, b, RND); break;
        case CC_OP_DIV:
            if (mpc_cmp_si_si(b, 0, 0) == 0)
                rc = -1;
            else
                inex = mpc_div(out, a, b, RND);
            break;
        case CC_OP_POW:
        case CC_OP_BITXOR: rc = eval_pow(e, a, xa, b, xb, out); break;
        default: rc = -1; /* //, %, logic: left to the CAS */
        }
    }
    if (!rc && e->strict && n->op != CC_OP_POW && n->op != CC_OP_BITXOR)
        arith_exactness(e, n->op, a, xa, b, xb, inex, out);
    tmp_give(2);
    return rc;
}

int sym_literal_digits(const char *text) {
    int digits = 0;
    bool leading = true;
    for (const char *p = text; *p && *p != 'e' && *p != 'E'; p++) {
        if (*p < '0' || *p > '9' || (*p == '0' && leading))
            continue;
        leading = false;
        digits++;
    }
    return digits;
}

bool sym_literal_clean(const char *text, char *buf, size_t cap) {
    size_t k = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '_')
            continue;
        if (k + 1 >= cap)
            return false;
        buf[k++] = *p;
    }
    buf[k] = '\0';
    return true;
}

/* A literal as written: the double when it has no more digits than a
 * double holds (what the CAS is given too), else its decimal. */
static int literal_value(struct ev *e, const struct cc_node *n, mpc_t out) {
    char buf[512];
    e->xim = true;
    if (sym_literal_digits(n->v.f.text) <= SYM_LITERAL_DOUBLE_DIGITS ||
        !sym_literal_clean(n->v.f.text, buf, sizeof buf)) {
        e->xre = mpc_set_d(out, n->v.f.d, RND) == 0;
        e->err = e->xre ? 0 : 1;
        return 0;
    }
    e->xre = mpfr_set_str(mpc_realref(out), buf, 10, RRND) == 0;
    e->err = e->xre ? 0 : 1;
    mpfr_set_zero(mpc_imagref(out), 1);
    return 0;
}

static int eval_node(struct ev *e, const struct cc_node *n, mpc_t out) {
    switch (n->kind) {
    case CC_N_INT:
        e->xre = mpfr_set_z(mpc_realref(out), n->v.z, RRND) == 0;
        e->xim = true;
        e->err = e->xre ? 0 : 1;
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    case CC_N_FLOAT: return literal_value(e, n, out);
    case CC_N_NAME:
        /* pi and E are rounded, I is exact; a symbol's value is the
         * caller's (the cross-checks, which do not ask) */
        e->xre = !strcmp(n->v.name, "I");
        e->xim = true;
        e->err = e->xre ? 0 : 1; /* pi and E correctly rounded */
        return name_value(e, n->v.name, out);
    case CC_N_CALL: return eval_call(e, n, out);
    case CC_N_BINARY: return eval_binary(e, n, out);
    case CC_N_UNARY:
        if (n->op == CC_OP_POS || n->op == CC_OP_NEG) {
            int rc = eval(e, n->child[0], out);
            if (!rc && n->op == CC_OP_NEG)
                mpc_neg(out, out, RND);
            return rc;
        }
        if (n->op == CC_OP_FACT) {
            mpc_ptr a = tmp_take(e);
            int rc = eval(e, n->child[0], a);
            struct exact xa = {e->xre, e->xim, e->err};
            if (!rc) {
                sym_nwork_call("factorial", a);
                rc = call_unary(e, "factorial", a, out);
            }
            if (!rc && e->strict)
                fn_exactness(e, "factorial", a, xa, NULL, (struct exact){true, true, 0}, out);
            tmp_give(1);
            return rc;
        }
        return -1;
    default: return -1;
    }
}

static int eval(struct ev *e, const struct cc_node *n, mpc_t out) {
    if (++e->depth > MAX_DEPTH)
        return -1;
    sym_nwork_node();
    int rc = eval_node(e, n, out);
    e->depth--;
    /* A zero part is +0: MPC keeps signed zeros (1/(-1) = -1 - 0i), and
     * sqrt(-1 - 0i) = -i would take the branch below the cut, where the
     * mathematical principal value (SymPy's, mpmath's) is i. */
    if (rc == 0 && !e->strict) /* N's loop tells noise from value */
        snap_part_noise(out);
    if (rc == 0 && mpfr_zero_p(mpc_imagref(out)))
        mpfr_set_zero(mpc_imagref(out), 1);
    if (rc == 0 && mpfr_zero_p(mpc_realref(out)))
        mpfr_set_zero(mpc_realref(out), 1);
    return rc == 0 && is_finite(out) ? 0 : -1;
}

int sym_numeval(const struct cc_node *n, const struct sym_point *p, mpc_t out) {
    struct ev e = {.p = p, .prec = SYM_NUM_BITS};
    return eval(&e, n, out);
}

int sym_numeval_at(const struct cc_node *n, const struct sym_point *p, mpc_t out) {
    struct ev e = {.p = p, .prec = mpfr_get_prec(mpc_realref(out))};
    return eval(&e, n, out);
}

int sym_numeval_strict(const struct cc_node *n, mpc_t out, struct sym_strict *info) {
    static const struct sym_point none = {0, NULL, NULL};
    struct ev e = {.p = &none, .prec = mpfr_get_prec(mpc_realref(out)), .strict = true};
    complex_gap = false;
    int rc = eval(&e, n, out);
    *info = (struct sym_strict){e.xre, e.xim, complex_gap, e.err};
    return rc;
}

bool sym_numeval_never(const struct cc_node *n) {
    switch (n->kind) {
    case CC_N_INT:
    case CC_N_FLOAT: return false;
    case CC_N_NAME:
        /* name_value: pi, E and I, or a symbol (sym_numeval_symbols gives
         * every other name that is neither a constant nor a function a
         * value); oo, zoo, nan and bare function names have none */
        if (!strcmp(n->v.name, "pi") || !strcmp(n->v.name, "E") || !strcmp(n->v.name, "I") ||
            !strcmp(n->v.name, "EulerGamma") || !strcmp(n->v.name, SYM_CATALAN))
            return false;
        return cc_expr_is_constant(n->v.name) || cc_expr_is_function(n->v.name);
    case CC_N_CALL:
        if (!known_call(cc_expr_canonical_function(n->v.name), n->nchild))
            return true;
        break;
    case CC_N_BINARY:
        if (n->op != CC_OP_ADD && n->op != CC_OP_SUB && n->op != CC_OP_MUL && n->op != CC_OP_DIV &&
            n->op != CC_OP_POW && n->op != CC_OP_BITXOR)
            return true;
        break;
    case CC_N_UNARY:
        if (n->op != CC_OP_POS && n->op != CC_OP_NEG && n->op != CC_OP_FACT)
            return true;
        break;
    default: return true;
    }
    /* every evaluation of a node evaluates its children and fails with any */
    for (uint32_t i = 0; i < n->nchild; i++)
        if (sym_numeval_never(n->child[i]))
            return true;
    return false;
}

bool sym_numeval_branch_free(const struct cc_node *n) {
    static const char *const entire[] = {"exp", "sin", "cos", "tan", "cot", "sec", "csc",
                                         "sinh", "cosh", "tanh"};
    switch (n->kind) {
    case CC_N_INT:
    case CC_N_NAME: return true;
    case CC_N_FLOAT: return false; /* rounding: left to the check */
    case CC_N_UNARY:
        if (n->op != CC_OP_NEG && n->op != CC_OP_POS)
            return false;
        break;
    case CC_N_BINARY:
        if (n->op == CC_OP_POW || n->op == CC_OP_BITXOR) {
            if (n->child[1]->kind != CC_N_INT &&
                !(n->child[1]->kind == CC_N_UNARY && n->child[1]->op == CC_OP_NEG &&
                  n->child[1]->child[0]->kind == CC_N_INT))
                return false;
        } else if (n->op != CC_OP_ADD && n->op != CC_OP_SUB && n->op != CC_OP_MUL &&
                   n->op != CC_OP_DIV) {
            return false;
        }
        break;
    case CC_N_CALL: {
        const char *name = cc_expr_canonical_function(n->v.name);
        bool ok = false;
        for (size_t i = 0; i < sizeof entire / sizeof *entire; i++)
            ok |= !strcmp(name, entire[i]);
        if (!ok)
            return false;
        break;
    }
    default: return false;
    }
    for (uint32_t i = 0; i < n->nchild; i++)
        if (!sym_numeval_branch_free(n->child[i]))
            return false;
    return true;
}

void sym_numeval_symbols(const struct cc_node *n, const char **names, size_t *count, size_t cap) {
    if (n->kind == CC_N_NAME && !strcmp(n->v.name, SYM_CATALAN))
        return; /* a constant here, a symbol to the CAS (sym_numeval.h) */
    if (n->kind == CC_N_NAME && !cc_expr_is_constant(n->v.name) &&
        !cc_expr_is_function(n->v.name)) {
        for (size_t i = 0; i < *count; i++)
            if (!strcmp(names[i], n->v.name))
                return;
        if (*count < cap)
            names[(*count)++] = n->v.name;
        return;
    }
    for (uint32_t i = 0; i < n->nchild; i++)
        sym_numeval_symbols(n->child[i], names, count, cap);
}

/* |a - b| > tol * max(1, |a|) */
bool sym_far_apart(const mpc_t a, const mpc_t b, double tol) {
    mpc_t d;
    mpfr_t m, s;
    mpc_init2(d, SYM_NUM_BITS);
    mpfr_inits2(SYM_NUM_BITS, m, s, (mpfr_ptr)0);
    mpc_sub(d, a, b, MPC_RNDNN);
    mpc_abs(m, d, MPFR_RNDN);
    mpc_abs(s, a, MPFR_RNDN);
    if (mpfr_cmp_ui(s, 1) < 0)
        mpfr_set_ui(s, 1, MPFR_RNDN);
    mpfr_mul_d(s, s, tol, MPFR_RNDN);
    bool r = mpfr_cmp(m, s) > 0;
    mpc_clear(d);
    mpfr_clears(m, s, (mpfr_ptr)0);
    return r;
}
