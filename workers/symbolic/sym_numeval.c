/* MPC evaluation of an AST (see sym_numeval.h). */
#include "workers/symbolic/sym_numeval.h"

#include <stdint.h>
#include <string.h>

#include "workers/common/expr_funcs.h"

#define RND MPC_RNDNN
#define RRND MPFR_RNDN
#define MAX_DEPTH 400

struct ev {
    const struct sym_point *p;
    int depth;
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

static mpc_ptr tmp_take(void) {
    if (tmp_top == tmp_ready)
        mpc_init2(tmp_stack[tmp_ready++], SYM_NUM_BITS);
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
    if (!strcmp(s, "E")) {
        mpc_set_ui(out, 1, RND);
        mpc_exp(out, out, RND);
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

/* Real-only functions of MPFR, applied to the real part of a real value. */
static int real_fn(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), const mpc_t a, mpc_t out) {
    if (!is_real(a))
        return -1;
    f(mpc_realref(out), mpc_realref(a), RRND);
    mpfr_set_zero(mpc_imagref(out), 1);
    return 0;
}

static int floor_fn(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m) { (void)m; return mpfr_floor(r, a); }
static int ceil_fn(mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m) { (void)m; return mpfr_ceil(r, a); }
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

static const struct {
    const char *name;
    cfn c;
    rfn r;
} UNARY[] = {
    {"exp", mpc_exp, NULL},     {"sin", mpc_sin, NULL},       {"cos", mpc_cos, NULL},
    {"tan", mpc_tan, NULL},     {"asin", mpc_asin, NULL},     {"acos", mpc_acos, NULL},
    {"atan", mpc_atan, NULL},   {"sinh", mpc_sinh, NULL},     {"cosh", mpc_cosh, NULL},
    {"tanh", mpc_tanh, NULL},   {"asinh", mpc_asinh, NULL},   {"acosh", mpc_acosh, NULL},
    {"atanh", mpc_atanh, NULL}, {"sqrt", mpc_sqrt, NULL},     {"conjugate", mpc_conj, NULL},
    {"floor", NULL, floor_fn},  {"ceiling", NULL, ceil_fn},   {"gamma", NULL, mpfr_gamma},
    {"factorial", NULL, fact_fn}, {"erf", NULL, mpfr_erf},    {"erfc", NULL, mpfr_erfc},
    {"zeta", NULL, mpfr_zeta},  {"Ei", NULL, mpfr_eint},      {"digamma", NULL, mpfr_digamma},
};

/* 1/f(a) for cot, sec, csc. */
static int recip(cfn f, const mpc_t a, mpc_t out) {
    f(out, a, RND);
    if (mpc_cmp_si_si(out, 0, 0) == 0)
        return -1;
    mpc_ui_div(out, 1, out, RND);
    return 0;
}

static int call_unary(const char *name, const mpc_t a, mpc_t out);

/* inverse(1/a) for acot, asec, acsc: SymPy's definitions (acot(z) =
 * atan(1/z), asec(z) = acos(1/z), acsc(z) = asin(1/z)), on SymPy's side of
 * the cuts (the division's zero parts are taken as +0, as every other
 * value here, before the cut side is chosen); undefined at 0. */
static int of_recip(const char *inverse, const mpc_t a, mpc_t out) {
    if (mpc_cmp_si_si(a, 0, 0) == 0)
        return -1;
    mpc_t r;
    mpc_init2(r, mpc_get_prec(a));
    mpc_ui_div(r, 1, a, RND);
    if (mpfr_zero_p(mpc_realref(r)))
        mpfr_set_zero(mpc_realref(r), 1);
    if (mpfr_zero_p(mpc_imagref(r)))
        mpfr_set_zero(mpc_imagref(r), 1);
    int rc = call_unary(inverse, r, out);
    mpc_clear(r);
    return rc;
}

/* W0(x) for real x >= -1/e by Halley's iteration (MPFR has no Lambert W).
 * -1 outside the real domain of the principal branch. */
static int lambert_w(const mpc_t a, mpc_t out) {
    if (!is_real(a))
        return -1;
    mpfr_t x, w, ew, f, t, u;
    mpfr_inits2(SYM_NUM_BITS, x, w, ew, f, t, u, (mpfr_ptr)0);
    mpfr_set(x, mpc_realref(a), RRND);
    mpfr_set_si(t, -1, RRND);
    mpfr_exp(t, t, RRND);
    mpfr_neg(t, t, RRND); /* -1/e */
    int rc = mpfr_cmp(x, t) < 0 ? -1 : 0;
    if (!rc) {
        mpfr_log1p(w, x, RRND); /* a start on the principal branch */
        if (mpfr_cmp_si(x, -1) < 0 || mpfr_cmp_d(x, -0.25) < 0)
            mpfr_set_d(w, -0.5, RRND);
        for (int i = 0; i < 200; i++) {
            mpfr_exp(ew, w, RRND);
            mpfr_mul(f, w, ew, RRND);
            mpfr_sub(f, f, x, RRND);       /* f = w e^w - x */
            mpfr_add_ui(t, w, 1, RRND);
            mpfr_mul(u, ew, t, RRND);       /* f' = e^w (w + 1) */
            if (mpfr_zero_p(u))
                break;
            mpfr_div(t, f, u, RRND);
            mpfr_sub(w, w, t, RRND);
            if (mpfr_zero_p(t) || mpfr_get_exp(t) < mpfr_get_exp(w) - SYM_NUM_BITS + 4)
                break;
        }
        mpfr_set(mpc_realref(out), w, RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
    }
    mpfr_clears(x, w, ew, f, t, u, (mpfr_ptr)0);
    return rc;
}

/* Every name call_unary and call_binary answer (for some argument); a
 * call of any other name, or with another number of arguments, can never
 * be evaluated. Keep in step with the two functions. */
static const char *const OTHER_UNARY[] = {"LambertW", "log", "cot", "sec", "csc", "Abs", "re",
                                          "im", "arg", "sign", "cbrt", "acot", "asec", "acsc"};
static const char *const BINARY[] = {"log", "root", "Rational", "atan2", "Min", "Max", "N", "Mod"};

static bool in_list(const char *name, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i]))
            return true;
    return false;
}

static bool known_call(const char *name, uint32_t nargs) {
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

static int call_unary(const char *name, const mpc_t a, mpc_t out) {
    if (!strcmp(name, "LambertW"))
        return lambert_w(a, out);
    for (size_t i = 0; i < sizeof UNARY / sizeof *UNARY; i++)
        if (!strcmp(UNARY[i].name, name)) {
            if (UNARY[i].c) {
                mpc_t side;
                mpc_init2(side, mpc_get_prec(a));
                mpc_set(side, a, RND);
                sympy_cut_side(name, side);
                UNARY[i].c(out, side, RND);
                mpc_clear(side);
                /* the trigonometric and hyperbolic functions vanish at
                 * non-zero points: sin(pi) is 0, not 1e-39 */
                if (!strcmp(name, "sin") || !strcmp(name, "cos") || !strcmp(name, "tan") ||
                    !strcmp(name, "sinh") || !strcmp(name, "cosh") || !strcmp(name, "tanh"))
                    snap_noise(out, a);
                return 0;
            }
            return real_fn(UNARY[i].r, a, out);
        }
    if (!strcmp(name, "log")) {
        if (mpc_cmp_si_si(a, 0, 0) == 0)
            return -1;
        mpc_log(out, a, RND);
        return 0;
    }
    if (!strcmp(name, "cot")) return recip(mpc_tan, a, out);
    if (!strcmp(name, "sec")) return recip(mpc_cos, a, out);
    if (!strcmp(name, "csc")) return recip(mpc_sin, a, out);
    if (!strcmp(name, "acot")) return of_recip("atan", a, out);
    if (!strcmp(name, "asec")) return of_recip("acos", a, out);
    if (!strcmp(name, "acsc")) return of_recip("asin", a, out);
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
        mpfr_init2(m, SYM_NUM_BITS);
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
            mpc_init2(t, SYM_NUM_BITS);
            mpc_set_ui(t, 1, RND);
            mpc_div_ui(t, t, 3, RND);
            mpc_pow(out, a, t, RND);
            mpc_clear(t);
        }
        return 0;
    }
    return -1;
}

static int call_binary(const char *name, const mpc_t a, const mpc_t b, mpc_t out) {
    if (!strcmp(name, "log")) { /* log(a, base) */
        mpc_t t;
        mpc_init2(t, SYM_NUM_BITS);
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
        mpc_init2(t, SYM_NUM_BITS);
        mpc_ui_div(t, 1, b, RND);
        mpc_pow(out, a, t, RND);
        mpc_clear(t);
        return 0;
    }
    if (!strcmp(name, "Rational")) {
        mpc_div(out, a, b, RND);
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
        mpc_set(out, a, RND);
        return 0;
    }
    if (!strcmp(name, "Mod") && is_real(a) && is_real(b) && !mpfr_zero_p(mpc_realref(b))) {
        mpfr_t q; /* a - b*floor(a/b), the sign of b as SymPy's Mod */
        mpfr_init2(q, SYM_NUM_BITS);
        mpfr_div(q, mpc_realref(a), mpc_realref(b), RRND);
        mpfr_floor(q, q);
        mpfr_mul(q, q, mpc_realref(b), RRND);
        mpfr_sub(mpc_realref(out), mpc_realref(a), q, RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        mpfr_clear(q);
        return 0;
    }
    return -1;
}

static int eval_call(struct ev *e, const struct cc_node *n, mpc_t out) {
    const char *name = cc_expr_canonical_function(n->v.name);
    if (n->nchild < 1 || n->nchild > 2)
        return -1;
    mpc_ptr a = tmp_take(), b = tmp_take();
    int rc = eval(e, n->child[0], a);
    if (!rc && n->nchild == 2)
        rc = eval(e, n->child[1], b);
    if (!rc)
        rc = n->nchild == 1 ? call_unary(name, a, out) : call_binary(name, a, b, out);
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
    if (!ready) {
        mpc_init2(acc, SYM_NUM_BITS + 32);
        mpc_init2(base, SYM_NUM_BITS + 32);
        ready = true;
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

static int eval_pow(const mpc_t a, const mpc_t b, mpc_t out) {
    if (mpc_cmp_si_si(a, 0, 0) == 0) {
        if (!is_real(b) || mpfr_sgn(mpc_realref(b)) <= 0)
            return -1; /* 0**0 and 0**-1 are left to the CAS */
        mpc_set_ui(out, 0, RND);
        return 0;
    }
    /* an integer exponent is exact repeated multiplication, no branch */
    if (is_real(b) && mpfr_integer_p(mpc_realref(b)) && mpfr_fits_slong_p(mpc_realref(b), RRND)) {
        long k = mpfr_get_si(mpc_realref(b), RRND);
        if (k >= -127 && k <= 127)
            small_pow(a, k, out);
        else
            mpc_pow_si(out, a, k, RND);
        return 0;
    }
    mpc_pow(out, a, b, RND);
    return 0;
}

static int eval_binary(struct ev *e, const struct cc_node *n, mpc_t out) {
    mpc_ptr a = tmp_take(), b = tmp_take();
    int rc = eval(e, n->child[0], a);
    if (!rc)
        rc = eval(e, n->child[1], b);
    if (!rc) {
        switch (n->op) {
        case CC_OP_ADD:
            mpc_add(out, a, b, RND);
            snap_noise(out, magnitude(a) > magnitude(b) ? a : b);
            break;
        case CC_OP_SUB:
            mpc_sub(out, a, b, RND);
            snap_noise(out, magnitude(a) > magnitude(b) ? a : b);
            break;
        case CC_OP_MUL: mpc_mul(out, a, b, RND); break;
        case CC_OP_DIV:
            if (mpc_cmp_si_si(b, 0, 0) == 0)
                rc = -1;
            else
                mpc_div(out, a, b, RND);
            break;
        case CC_OP_POW:
        case CC_OP_BITXOR: rc = eval_pow(a, b, out); break;
        default: rc = -1; /* //, %, logic: left to the CAS */
        }
    }
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
static int literal_value(const struct cc_node *n, mpc_t out) {
    char buf[512];
    if (sym_literal_digits(n->v.f.text) <= SYM_LITERAL_DOUBLE_DIGITS ||
        !sym_literal_clean(n->v.f.text, buf, sizeof buf)) {
        mpc_set_d(out, n->v.f.d, RND);
        return 0;
    }
    mpfr_set_str(mpc_realref(out), buf, 10, RRND);
    mpfr_set_zero(mpc_imagref(out), 1);
    return 0;
}

static int eval_node(struct ev *e, const struct cc_node *n, mpc_t out) {
    switch (n->kind) {
    case CC_N_INT:
        mpfr_set_z(mpc_realref(out), n->v.z, RRND);
        mpfr_set_zero(mpc_imagref(out), 1);
        return 0;
    case CC_N_FLOAT: return literal_value(n, out);
    case CC_N_NAME: return name_value(e, n->v.name, out);
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
            mpc_ptr a = tmp_take();
            int rc = eval(e, n->child[0], a);
            if (!rc)
                rc = call_unary("factorial", a, out);
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
    int rc = eval_node(e, n, out);
    e->depth--;
    /* A zero part is +0: MPC keeps signed zeros (1/(-1) = -1 - 0i), and
     * sqrt(-1 - 0i) = -i would take the branch below the cut, where the
     * mathematical principal value (SymPy's, mpmath's) is i. */
    if (rc == 0)
        snap_part_noise(out);
    if (rc == 0 && mpfr_zero_p(mpc_imagref(out)))
        mpfr_set_zero(mpc_imagref(out), 1);
    if (rc == 0 && mpfr_zero_p(mpc_realref(out)))
        mpfr_set_zero(mpc_realref(out), 1);
    return rc == 0 && is_finite(out) ? 0 : -1;
}

int sym_numeval(const struct cc_node *n, const struct sym_point *p, mpc_t out) {
    struct ev e = {p, 0};
    return eval(&e, n, out);
}

bool sym_numeval_never(const struct cc_node *n) {
    switch (n->kind) {
    case CC_N_INT:
    case CC_N_FLOAT: return false;
    case CC_N_NAME:
        /* name_value: pi, E and I, or a symbol (sym_numeval_symbols gives
         * every other name that is neither a constant nor a function a
         * value); oo, zoo, nan and bare function names have none */
        if (!strcmp(n->v.name, "pi") || !strcmp(n->v.name, "E") || !strcmp(n->v.name, "I"))
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
