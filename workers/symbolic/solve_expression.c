/* solve_expression (TOOLS.md 3.3.16, extended by issue 12): roots of one
 * equation over C, each checked numerically against the equation as the
 * user wrote it (a root the numbers refute is dropped, never reported);
 * exact forms preferred to floats; every solution of a periodic equation in
 * general_solution. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_abs_real.h"
#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_ineq.h"
#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_magnitude.h"
#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_paramroot.h"
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_profile.h"
#include "workers/symbolic/sym_tools.h"
#include "workers/symbolic/sym_written.h"

/* The two sides of "a = b" (split at the first '=' when there is no "=="),
 * or of "a = 0" (rhs->g NULL). */
struct sides {
    struct sym_expr lhs, rhs;
};

/* The first '=' of an equation "a = b": not one of "==", "<=", ">=", "!="
 * (x**2 >= 4 was split into "x**2 >" and "4", a parse error, and x**2 != 4
 * into "x**2 !" = "4", read as x**(2!) = 4: the roots -2 and 2 answered an
 * inequation). NULL when there is none. */
static const char *equals_sign(const char *text) {
    if (strstr(text, "=="))
        return NULL;
    for (const char *p = strchr(text, '='); p; p = strchr(p + 1, '='))
        if (p == text || !strchr("<>!", p[-1]))
            return p;
    return NULL;
}

static int parse_sides(const char *text, struct sides *s, json_t **err) {
    const char *eq = equals_sign(text);
    memset(s, 0, sizeof *s);
    if (sym_input_expr(text, eq ? (size_t)(eq - text) : strlen(text), "", &s->lhs, err) < 0)
        return -1;
    if (eq && sym_input_expr(eq + 1, strlen(eq + 1), "", &s->rhs, err) < 0) {
        sym_expr_free(&s->lhs);
        return -1;
    }
    return 0;
}

/* "Eq(<lhs>, <rhs>)" as a new JSON string. */
static json_t *equation(cc_gexpr *lhs, cc_gexpr *rhs, json_t **err) {
    struct cc_sym_err se = {0};
    struct sym_node *l = cc_giac_tree(lhs, &se);
    struct sym_node *r = l ? (rhs ? cc_giac_tree(rhs, &se) : sym_int(0)) : NULL;
    if (!r) {
        sym_free(l);
        *err = sym_err_json(&se, "");
        return NULL;
    }
    struct sym_node *e = sym_rel(SYM_EQ, l, r);
    char *s = e ? sym_print(e) : NULL;
    sym_free(e);
    json_t *j = s ? json_string(s) : NULL;
    free(s);
    if (!j)
        *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    return j;
}

/* -1: the root does not satisfy the equation numerically; 1: it does; 0:
 * the check could not be made (a function the evaluator lacks). */
static int check_root_numeric(const struct sides *s, const char *var, cc_gexpr *root, double tol);

static int check_root(const struct sides *s, const char *var, cc_gexpr *root, double tol) {
    enum sym_phase prev = sym_prof_enter(SYM_PH_NUMERIC);
    int r = check_root_numeric(s, var, root, tol);
    sym_prof_leave(prev);
    return r;
}

/* lhs - rhs at var = x into out (and |rhs| into scale), at out's
 * precision; 0, or -1 when the evaluator cannot compute it there. */
static int residual(const struct sides *s, const char *var, const mpc_t x, mpc_t out,
                    mpfr_t scale) {
    mpc_srcptr vals[1] = {x};
    const char *names[1] = {var};
    struct sym_point p = {1, names, vals};
    mpc_t r;
    mpc_init2(r, mpfr_get_prec(mpc_realref(out)));
    int rc = sym_numeval_at(s->lhs.root, &p, out) == 0 &&
                     (s->rhs.root ? sym_numeval_at(s->rhs.root, &p, r) == 0
                                  : (mpc_set_ui(r, 0, MPC_RNDNN), 1))
                 ? 0
                 : -1;
    if (rc == 0) {
        mpc_sub(out, out, r, MPC_RNDNN);
        mpc_abs(scale, r, MPFR_RNDN);
    }
    mpc_clear(r);
    return rc;
}

/* out = max(1, |x|) * factor */
static void unit_scaled(mpfr_t out, const mpc_t x, double factor) {
    mpc_abs(out, x, MPFR_RNDN);
    if (mpfr_cmp_ui(out, 1) < 0)
        mpfr_set_ui(out, 1, MPFR_RNDN);
    mpfr_mul_d(out, out, factor, MPFR_RNDN);
}

/* f'(x) by central differences at SYM_NUM_BITS, h = max(1, |x|) * rel.
 * 0, or -1 when the evaluator cannot compute f there. */
static int derivative(const struct sides *s, const char *var, const mpc_t x, double rel,
                      mpc_t out) {
    mpc_t xh, fm;
    mpfr_t h, scale;
    mpc_init2(xh, SYM_NUM_BITS);
    mpc_init2(fm, SYM_NUM_BITS);
    mpfr_inits2(SYM_NUM_BITS, h, scale, (mpfr_ptr)0);
    unit_scaled(h, x, rel);
    mpc_add_fr(xh, x, h, MPC_RNDNN);
    int rc = residual(s, var, xh, out, scale);
    mpc_sub_fr(xh, x, h, MPC_RNDNN);
    if (rc == 0)
        rc = residual(s, var, xh, fm, scale);
    if (rc == 0) {
        mpc_sub(out, out, fm, MPC_RNDNN);
        mpc_div_fr(out, out, h, MPC_RNDNN);
        mpc_div_ui(out, out, 2, MPC_RNDNN);
    }
    mpc_clear(xh);
    mpc_clear(fm);
    mpfr_clears(h, scale, (mpfr_ptr)0);
    return rc;
}

/* A float root must also be where a Newton step from it stays: |f/f'| at
 * most 1e-6 of max(1, |x|). A flat function passes the residual test far
 * from its root (cos(x) - 1 + x**2/2 is 3e-15 at x = 5e-4, the numeric
 * solver's spurious roots around the quadruple root 0); a real root given
 * to 15 digits moves by ~1e-15. f' with h = 1e-15 of max(1, |x|). */
static bool newton_stays(const struct sides *s, const char *var, const mpc_t x, const mpc_t fx) {
    if (mpc_cmp_si_si(fx, 0, 0) == 0)
        return true;
    mpc_t fp;
    mpfr_t step, room;
    mpc_init2(fp, SYM_NUM_BITS);
    mpfr_inits2(SYM_NUM_BITS, step, room, (mpfr_ptr)0);
    bool ok = true; /* a derivative the evaluator cannot take proves nothing */
    if (derivative(s, var, x, 1e-15, fp) == 0) {
        mpc_abs(step, fp, MPFR_RNDN);
        if (mpfr_zero_p(step)) {
            ok = false;
        } else {
            mpc_abs(room, fx, MPFR_RNDN);
            mpfr_div(step, room, step, MPFR_RNDN);
            unit_scaled(room, x, 1e-6);
            ok = mpfr_cmp(step, room) <= 0;
        }
    }
    mpc_clear(fp);
    mpfr_clears(step, room, (mpfr_ptr)0);
    return ok;
}

/* The value of a numeric CAS root, at SYM_NUM_BITS into x; false when it
 * is not a number. */
static bool root_value(cc_gexpr *root, mpc_t x) {
    char *re = NULL, *im = NULL;
    struct cc_sym_err se = {0};
    if (!cc_giac_is_number(root) || cc_giac_approx(root, 50, &re, &im, &se) < 0)
        return false;
    mpfr_set_str(mpc_realref(x), re, 10, MPFR_RNDN);
    mpfr_set_str(mpc_imagref(x), im, 10, MPFR_RNDN);
    free(re);
    free(im);
    return true;
}

/* Newton's iteration on x until a step is below 2^-90 of |x|; false when
 * it does not settle within 100 steps (a multiple root converges only
 * linearly) or the evaluator fails. */
static bool newton_settles(const struct sides *s, const char *var, mpc_t x) {
    mpc_t f, d;
    mpfr_t scale, step, size;
    mpc_init2(f, SYM_NUM_BITS);
    mpc_init2(d, SYM_NUM_BITS);
    mpfr_inits2(SYM_NUM_BITS, scale, step, size, (mpfr_ptr)0);
    bool settled = false;
    for (int k = 0; k < 100 && !settled; k++) {
        if (residual(s, var, x, f, scale) < 0 || derivative(s, var, x, 0x1p-64, d) < 0 ||
            mpc_cmp_si_si(d, 0, 0) == 0)
            break;
        mpc_div(f, f, d, MPC_RNDNN);
        mpc_sub(x, x, f, MPC_RNDNN);
        mpc_abs(step, f, MPFR_RNDN);
        mpc_abs(size, x, MPFR_RNDN);
        mpfr_mul_2si(size, size, -90, MPFR_RNDN);
        settled = mpfr_cmp(step, size) <= 0;
    }
    mpc_clear(f);
    mpc_clear(d);
    mpfr_clears(scale, step, size, (mpfr_ptr)0);
    return settled;
}

/* x printed as the CAS prints a float root (15 significant digits): the
 * decimals read back through our input and printed (malloc'd), or NULL. A
 * root the solver gave as real stays real. */
static char *printed_value(const mpc_t x, bool real) {
    char *text = NULL;
    int n = real || mpfr_zero_p(mpc_imagref(x))
                ? mpfr_asprintf(&text, "%.15Rg", mpc_realref(x))
                : mpfr_asprintf(&text, "(%.15Rg) + (%.15Rg)*I", mpc_realref(x), mpc_imagref(x));
    if (n < 0)
        return NULL;
    struct sym_expr c;
    json_t *err = NULL;
    char *out = NULL;
    if (sym_input_expr(text, strlen(text), "", &c, &err) == 0) {
        out = sym_print_str(c.g, &err);
        sym_expr_free(&c);
    }
    json_decref(err);
    mpfr_free_str(text);
    return out;
}

/* A float root polished by Newton's iteration at SYM_NUM_BITS and printed
 * (malloc'd), or NULL to keep the solver's. The numeric solver stops where
 * |f| is small, which on a flat stretch is far from the root (sin(x) =
 * x + 10**-30 gave -2.23e-8; the root is -1.82e-10), so its 15 digits can
 * all be wrong. The polished root must stay within 1e-6 of max(1, |x|) of
 * the solver's (the same root, not a neighbour). */
static char *polished(const struct sides *s, const char *var, cc_gexpr *root) {
    char *out = NULL;
    mpc_t x, x0;
    mpfr_t moved, room;
    mpc_init2(x, SYM_NUM_BITS);
    mpc_init2(x0, SYM_NUM_BITS);
    mpfr_inits2(SYM_NUM_BITS, moved, room, (mpfr_ptr)0);
    if (root_value(root, x)) {
        mpc_set(x0, x, MPC_RNDNN);
        bool real = mpfr_zero_p(mpc_imagref(x));
        if (newton_settles(s, var, x)) {
            unit_scaled(room, x0, 1e-6);
            mpc_sub(x0, x, x0, MPC_RNDNN);
            mpc_abs(moved, x0, MPFR_RNDN);
            if (mpfr_cmp(moved, room) <= 0)
                out = printed_value(x, real);
        }
    }
    mpc_clear(x);
    mpc_clear(x0);
    mpfr_clears(moved, room, (mpfr_ptr)0);
    return out;
}

/* The scale a residual is measured against. An equation with floats is
 * solved by giac with its zero test, which calls a float below its epsilon
 * 0: x**2 - 1e-40 = 0 was answered 0, 0, and (x - 1e-20)**2 = 0 with 0,
 * their residuals passing a test against 1. Where the equation holds a
 * float the scale is the sides' size before cancellation (sym_magnitude), so
 * a root must cancel what it claims to; else max(1, |rhs|). */
static void residual_scale(const struct sides *s, const char *var, const mpc_t x, mpfr_t scale) {
    const struct cc_node *rhs = s->rhs.root;
    if (cc_node_any(s->lhs.root, cc_node_is_float) || (rhs && cc_node_any(rhs, cc_node_is_float))) {
        mpc_srcptr vals[1] = {x};
        const char *names[1] = {var};
        struct sym_point p = {1, names, vals};
        mpfr_t l, r;
        mpfr_inits2(SYM_NUM_BITS, l, r, (mpfr_ptr)0);
        mpfr_set_zero(r, 1);
        bool ok = sym_magnitude(s->lhs.root, &p, l) && (!rhs || sym_magnitude(rhs, &p, r));
        if (ok)
            mpfr_max(scale, l, r, MPFR_RNDN);
        mpfr_clears(l, r, (mpfr_ptr)0);
        if (ok)
            return;
    }
    mpfr_t one;
    mpfr_init2(one, 2);
    mpfr_set_ui(one, 1, MPFR_RNDN);
    mpfr_max(scale, scale, one, MPFR_RNDN);
    mpfr_clear(one);
}

static int check_root_numeric(const struct sides *s, const char *var, cc_gexpr *root, double tol) {
    mpc_t x, l;
    mpc_init2(x, SYM_NUM_BITS);
    mpc_init2(l, SYM_NUM_BITS);
    int verdict = 0;
    mpfr_t d, scale, t;
    mpfr_inits2(SYM_NUM_BITS, d, scale, t, (mpfr_ptr)0);
    if (root_value(root, x) && residual(s, var, x, l, scale) == 0) {
        mpc_abs(d, l, MPFR_RNDN);
        residual_scale(s, var, x, scale);
        mpfr_mul_d(scale, scale, tol, MPFR_RNDN);
        verdict = mpfr_cmp(d, scale) <= 0 ? 1 : -1;
        if (verdict > 0 && tol > 1e-12 && !newton_stays(s, var, x, l))
            verdict = -1;
    }
    mpfr_clears(d, scale, t, (mpfr_ptr)0);
    mpc_clear(x);
    mpc_clear(l);
    return verdict;
}

/* The rational p/q (q <= 12) within 1e-9 of v, written into buf; false when
 * there is none. */
static bool near_rational(double v, char *buf, size_t cap) {
    for (long q = 1; q <= 12; q++) {
        double p = nearbyint(v * (double)q);
        if (fabs(v - p / (double)q) <= 1e-9 * fmax(1.0, fabs(v)) && fabs(p) < 1e15) {
            snprintf(buf, cap, q == 1 ? "(%.0f)" : "(%.0f/%ld)", p, q);
            return true;
        }
    }
    return false;
}

/* A float root within 1e-9 of a small rational (real and imaginary parts)
 * that satisfies the equation exactly to 1e-25: its exact form, printed
 * (malloc'd), else NULL. The numeric solver gives 2.35e-12 for sin(x) = x,
 * whose root is 0. */
static char *exact_near(const struct sides *s, const char *var, cc_gexpr *root) {
    char *re = NULL, *im = NULL, text[128];
    struct cc_sym_err se = {0};
    if (cc_giac_approx(root, 30, &re, &im, &se) < 0)
        return NULL;
    char a[48], b[48];
    bool ok = near_rational(strtod(re, NULL), a, sizeof a) &&
              near_rational(strtod(im, NULL), b, sizeof b);
    free(re);
    free(im);
    if (!ok)
        return NULL;
    snprintf(text, sizeof text, "%s + %s*I", a, b);
    struct sym_expr c;
    json_t *err = NULL;
    char *out = NULL;
    if (sym_input_expr(text, strlen(text), "", &c, &err) == 0) {
        if (check_root(s, var, c.g, 1e-25) == 1)
            out = sym_print_str(c.g, &err);
        sym_expr_free(&c);
    }
    json_decref(err);
    return out;
}

/* The printed roots of sol that the numbers do not refute (a float root at
 * a small rational that is an exact root replaced by it when snap); *dropped
 * counts the others, *floats whether a kept root printed as a float. */
/* A root that holds parameters (ok == 0: the evaluator cannot value it
 * alone), checked at sample parameter values: -1 when it fails at every
 * one (not a root), 0 otherwise; one that holds at some and fails at
 * others goes into conditional with a failing assignment (sqrt(x) = a has
 * the root a**2 only where Re(a) > 0: it fails at a = -1). */
static int parameter_check(const struct sides *s, const char *var, const char *text,
                           json_t *conditional) {
    char witness[160];
    switch (sym_param_root(s->lhs.root, s->rhs.root, var, text, witness, sizeof witness)) {
    case SYM_PR_FAILS: return -1;
    case SYM_PR_SOME:
        if (conditional)
            json_array_append_new(conditional, json_pack("{s:s, s:s}", "solution", text,
                                                         "fails_at", witness));
        return 0;
    default: return 0;
    }
}

/* A root that is an infinity or undefined (zoo, oo, nan, as a whole name
 * anywhere in it) is no solution: giac solved 1000**x = 10**(3*x + 1) by
 * logarithms, 3*log(10)*x = (3*x + 1)*log(10) without seeing that x
 * cancels, and divided by the zero coefficient (x = zoo). */
static bool non_finite_root(const char *t) {
    static const char *const names[] = {"zoo", "oo", "nan", "undef"};
    for (const char *p = t; *p;) {
        if (!isalpha((unsigned char)*p) && *p != '_') {
            p++;
            continue;
        }
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            if (strlen(names[i]) == (size_t)(q - p) && strncmp(p, names[i], (size_t)(q - p)) == 0)
                return true;
        p = q;
    }
    return false;
}

static json_t *kept_roots(const struct sides *s, const char *var, cc_gexpr *sol, bool snap,
                          int *dropped, bool *floats, json_t *conditional, json_t **err) {
    json_t *arr = json_array();
    *dropped = 0;
    *floats = false;
    for (long i = 0; arr && i < cc_giac_len(sol); i++) {
        struct cc_sym_err se = {0};
        cc_gexpr *it = cc_giac_item(sol, (size_t)i, &se);
        json_t *j = it ? sym_print_json(it, err) : NULL;
        if (!it)
            *err = sym_err_json(&se, "");
        if (j && strstr(json_string_value(j), "rootof")) {
            /* giac's algebraic-number form has no spelling in our language:
             * the root is reported by its value */
            json_decref(j);
            j = sym_print_json_as(it, true, err);
        }
        /* a float root carries ~15 digits; an exact one is checked to 1e-20 */
        bool approx = j && strchr(json_string_value(j), '.');
        int ok = !j ? 0 : non_finite_root(json_string_value(j)) ? -1
                        : check_root(s, var, it, approx ? 1e-9 : 1e-20);
        if (j && ok == 0 && !approx)
            ok = parameter_check(s, var, json_string_value(j), conditional);
        char *exact = snap && approx && ok > 0 ? exact_near(s, var, it) : NULL;
        char *better = approx && ok > 0 && !exact ? polished(s, var, it) : NULL;
        cc_gexpr_free(it);
        if (!j) {
            free(exact);
            free(better);
            json_decref(arr);
            return NULL;
        }
        if (ok < 0) {
            (*dropped)++;
            json_decref(j);
            free(exact);
            free(better);
            continue;
        }
        if (exact) {
            json_decref(j);
            j = json_string(exact);
            approx = false;
            free(exact);
        }
        if (better) {
            json_decref(j);
            j = json_string(better);
            free(better);
        }
        /* a float, or a root the printer cannot spell (giac's rootof), is
         * not the exact answer the real solver is asked for */
        *floats |= approx || strstr(json_string_value(j), "rootof") != NULL;
        json_array_append_new(arr, j);
    }
    return arr;
}

/* true when a root is listed twice: giac's roots of a float equation it
 * read with its zero test (x**3 - 1e-30*x gave 0, 0, 0). */
static bool repeats(const json_t *arr) {
    for (size_t i = 0; i < json_array_size(arr); i++)
        for (size_t j = i + 1; j < json_array_size(arr); j++)
            if (json_equal(json_array_get(arr, i), json_array_get(arr, j)))
                return true;
    return false;
}

/* A float equation whose roots failed the check or repeated: solved again
 * with its floats read exactly (CC_G_SOLVE_EXACTED). Those roots replace
 * arr when every one of them passes and they are more; else arr stands. */
static json_t *exacted_roots(const struct sides *s, const char *var, cc_gexpr *ev[2], json_t *arr,
                             int *dropped, bool *floats, const json_t *conditional) {
    struct cc_sym_err se = {0};
    cc_gexpr *sol = cc_giac_apply(CC_G_SOLVE_EXACTED, ev, 2, &se);
    if (!sol)
        return arr;
    int d2 = 0;
    bool f2 = false;
    json_t *cond2 = json_array();
    json_t *err2 = NULL;
    json_t *again = kept_roots(s, var, sol, false, &d2, &f2, cond2, &err2);
    cc_gexpr_free(sol);
    json_decref(err2);
    if (again && d2 == 0 && !repeats(again) && json_array_size(again) >= json_array_size(arr) &&
        json_array_size(cond2) == json_array_size(conditional)) {
        json_decref(arr);
        json_decref(cond2);
        *dropped = 0;
        *floats = f2;
        return again;
    }
    json_decref(again);
    json_decref(cond2);
    return arr;
}

#define DENSE_ROOTS 20   /* this many float roots or more: check the gaps between them */
#define GAP_SAMPLES 12

/* |lhs - rhs| at var = x (re, im) evaluated at bits; -1 when either side
 * has no value there. */
static int gap_at(const struct sides *s, const char *var, double re, double im, mpfr_prec_t bits,
                  mpfr_t gap) {
    mpc_t at, d;
    mpfr_t scale;
    mpc_init2(at, bits);
    mpc_init2(d, bits);
    mpfr_init2(scale, bits);
    mpc_set_d_d(at, re, im, MPC_RNDNN);
    int rc = residual(s, var, at, d, scale);
    if (rc == 0) {
        mpc_abs(gap, d, MPFR_RNDN);
        rc = mpfr_number_p(gap) ? 0 : -1;
    }
    mpc_clear(at);
    mpc_clear(d);
    mpfr_clear(scale);
    return rc;
}

/* Whether lhs = rhs holds at x = re + im*I: the gap is 0, or shrinks with
 * the precision as rounding does (at 128 bits 1e-38 for sqrt(x**2) - x,
 * at 320 bits 1e-96), where a true difference stays (exp(-x**2) = 0 at
 * x = 10 is 1e-44 at any precision). */
static bool holds_at(const struct sides *s, const char *var, double re, double im) {
    mpfr_t lo, hi;
    mpfr_init2(lo, 64);
    mpfr_init2(hi, 64);
    bool holds = false;
    if (gap_at(s, var, re, im, 128, lo) == 0 && gap_at(s, var, re, im, 320, hi) == 0) {
        if (mpfr_zero_p(hi)) {
            holds = true;
        } else {
            mpfr_mul_2si(lo, lo, -100, MPFR_RNDN);
            holds = mpfr_cmp(hi, lo) < 0;
        }
    }
    mpfr_clear(lo);
    mpfr_clear(hi);
    return holds;
}

/* asin(sin(x)) = x holds on all of [-pi/2, pi/2]; giac's numeric solver
 * answered 3,793 float "roots" there, listed as the solutions. Many float
 * roots whose gaps are roots too (at nine in ten of the sampled midpoints)
 * are a continuum, not a list: the refusal names their span. NULL when
 * the roots stand. */
static json_t *continuum(const struct sides *s, const char *var, const json_t *arr) {
    size_t n = json_array_size(arr);
    if (n < DENSE_ROOTS)
        return NULL;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        const char *t = json_string_value(json_array_get(arr, i));
        char *end = NULL;
        v[i] = t ? strtod(t, &end) : NAN;
        if (!t || *end || !isfinite(v[i])) { /* a complex or exact root: a list */
            free(v);
            return NULL;
        }
    }
    int sampled = 0, inside = 0;
    double lo = v[0], hi = v[0];
    for (size_t i = 0; i < n; i++) {
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
    }
    for (int k = 0; k < GAP_SAMPLES; k++) {
        size_t i = (size_t)k * (n - 1) / GAP_SAMPLES;
        if (v[i] == v[i + 1])
            continue;
        sampled++;
        inside += holds_at(s, var, (v[i] + v[i + 1]) / 2, 0);
    }
    free(v);
    if (sampled < GAP_SAMPLES / 2 || inside * 10 < sampled * 9)
        return NULL;
    json_t *e = cc_err("validation",
                       "the equation holds on whole intervals, not at isolated points: the CAS's "
                       "numeric solver found %zu roots between %.6g and %.6g, and the points between "
                       "them satisfy it too (%d of %d sampled), so no list of roots is given",
                       n, lo, hi, inside, sampled);
    json_object_set_new(e, "remedy", json_string("solve_expression lists isolated roots: check the "
                                                 "identity with algebraic_equiv, or restate the "
                                                 "equation where it is not one"));
    return e;
}

/* A listed root's value (a number, no symbol), or false. */
static bool listed_value(const char *text, mpc_t v) {
    return text && sym_text_value(text, v) && mpfr_number_p(mpc_realref(v)) && mpfr_number_p(mpc_imagref(v));
}

/* Whether re + im*I is one of the n values (to 1e-9 of its size). */
static bool among(const mpc_t *vals, size_t n, double re, double im) {
    double mag = fmax(1, hypot(re, im));
    for (size_t i = 0; i < n; i++) {
        double dr = mpfr_get_d(mpc_realref(vals[i]), MPFR_RNDN) - re;
        double di = mpfr_get_d(mpc_imagref(vals[i]), MPFR_RNDN) - im;
        if (hypot(dr, di) <= 1e-9 * mag)
            return true;
    }
    return false;
}

static const double PROBES[][2] = {
    {-3, 0}, {-2, 0}, {-1, 0}, {0, 0}, {1, 0}, {2, 0}, {3, 0}, {0.5, 0}, {2.5, 0}, {-1.5, 0},
    {0.7236, 0}, {1.3318, 0}, {3.9087, 0}, {-0.6124, 0}, {-2.8713, 0}, {7.25, 0}, {0.6, 0.8},
    {-1.2, 0.3},
};

/* abs(x) - x answered [0], floor(x) - x [0], ceiling(x) - floor(x) []:
 * each holds at points no listed root covers (every x >= 0, every
 * integer), and the list read as the whole solution set. The equation is
 * tried at sample points (integers, halves, others, two complex); one it
 * holds at that is no listed root refutes the list. NULL when none does,
 * or a root (or the equation) has no value to compare. */
static json_t *incomplete(const struct sides *s, const char *var, const json_t *arr) {
    size_t n = json_array_size(arr);
    mpc_t *vals = calloc(n ? n : 1, sizeof *vals);
    if (!vals)
        return NULL;
    size_t have = 0;
    for (; have < n; have++) {
        mpc_init2(vals[have], SYM_NUM_BITS);
        if (!listed_value(json_string_value(json_array_get(arr, have)), vals[have])) {
            mpc_clear(vals[have]);
            break;
        }
    }
    char seen[160] = "";
    int extra = 0, tried = 0;
    size_t at = 0;
    for (size_t i = 0; have == n && i < sizeof PROBES / sizeof *PROBES; i++) {
        double re = PROBES[i][0], im = PROBES[i][1];
        if (among((const mpc_t *)vals, n, re, im))
            continue;
        tried++;
        if (!holds_at(s, var, re, im))
            continue;
        if (extra++ < 2 && at < sizeof seen) {
            int w = im == 0 ? snprintf(seen + at, sizeof seen - at, "%s%g", at ? ", " : "", re)
                            : snprintf(seen + at, sizeof seen - at, "%s%g + %g*I", at ? ", " : "", re, im);
            if (w > 0)
                at += (size_t)w;
        }
    }
    bool all = have == n;
    for (size_t i = 0; i < have; i++)
        mpc_clear(vals[i]);
    free(vals);
    if (!all || extra == 0)
        return NULL;
    json_t *e = cc_err("validation",
                       "the equation also holds at %s = %s (%d of the %d sample points that are no "
                       "root found hold), which the solver's %zu root(s) do not include: its solution "
                       "set is more than a list (an interval, a half-line or infinitely many points), "
                       "so no list is given", var, seen, extra, tried, n);
    json_object_set_new(e, "remedy", json_string("solve_expression lists isolated roots: restate the "
                                                 "equation (the cases of an Abs, floor or Max written "
                                                 "out), or check where it holds with algebraic_equiv"));
    return e;
}

/* The solutions of e = 0, complex first; when the complex solver answers
 * with floats for an exact equation, giac's real solver often has the exact
 * form (LambertW(1) for x*exp(x) = 1), and that is preferred. */
static json_t *roots(const struct sides *s, const char *var, cc_gexpr *ev[2], json_t *out,
                     json_t **err) {
    struct cc_sym_err se = {0};
    cc_gexpr *sol = cc_giac_apply(CC_G_SOLVE, ev, 2, &se);
    if (!sol) {
        *err = sym_err_json(&se, "");
        return NULL;
    }
    int dropped = 0;
    bool floats = false;
    /* a float input asks for float roots: only an exact equation's are
     * snapped. A float is a node of the tree, not a '.' of the text: 1e-30
     * has none, and x**3 - 1e-30*x went to the exact real solver below,
     * whose 0 replaced the roots -1e-15, 0, 1e-15. */
    bool float_eq = cc_node_any(s->lhs.root, cc_node_is_float) ||
                    (s->rhs.root && cc_node_any(s->rhs.root, cc_node_is_float));
    bool snap = !float_eq;
    json_t *conditional = json_array();
    json_t *arr = kept_roots(s, var, sol, snap, &dropped, &floats, conditional, err);
    cc_gexpr_free(sol);
    if (arr && float_eq && (dropped > 0 || repeats(arr) || json_array_size(arr) == 0))
        arr = exacted_roots(s, var, ev, arr, &dropped, &floats, conditional);
    if (arr && floats && !float_eq) {
        cc_gexpr *rs = cc_giac_apply(CC_G_SOLVE_REAL, ev, 2, &se);
        int d2 = 0;
        bool f2 = true;
        json_t *cond2 = json_array();
        json_t *exact = rs ? kept_roots(s, var, rs, snap, &d2, &f2, cond2, err) : NULL;
        cc_gexpr_free(rs);
        if (exact && !f2 && json_array_size(exact) > 0) {
            json_decref(arr);
            arr = exact;
            dropped = d2;
            json_decref(conditional);
            conditional = json_incref(cond2);
            json_object_set_new(out, "note",
                                json_string("exact real solutions; the complex solver gave only "
                                            "floating-point values"));
        } else if (!*err && (*err = continuum(s, var, arr))) {
            json_decref(exact);
            json_decref(cond2);
            json_decref(conditional);
            json_decref(arr);
            return NULL;
        } else {
            json_decref(exact);
            /* The floats stand: say so, an exact equation's roots read as
             * values would otherwise pass for exact ones. */
            json_object_set_new(out, "approximate", json_true());
            json_object_set_new(out, "note",
                                json_string("numeric roots: no closed form was found, so each root "
                                            "is a value to about 15 significant digits, checked "
                                            "against the equation"));
        }
        json_decref(cond2);
    }
    if (arr && json_array_size(conditional) > 0) {
        json_object_set_new(out, "conditional_solutions", json_incref(conditional));
        json_object_set_new(out, "conditions_note",
                            json_string("each solution holding a parameter was checked at sample "
                                        "parameter values (positive, negative, complex); those "
                                        "listed hold only for some values: at fails_at the "
                                        "equation is not satisfied"));
    }
    json_decref(conditional);
    if (arr && dropped)
        json_object_set_new(out, "dropped",
                            json_pack("{s:i, s:s}", "count", dropped, "reason",
                                      "candidate roots from the solver that do not satisfy the "
                                      "equation numerically"));
    return arr;
}

/* A power whose exponent is not a plain number (2**x, E**(2*x)): periodic
 * in the imaginary direction. */
static bool variable_exponent(const char *text) {
    for (const char *p = strstr(text, "**"); p; p = strstr(p + 2, "**")) {
        const char *q = p + 2;
        while (*q == ' ' || *q == '-')
            q++;
        if (*q == '(') { /* a parenthesised exponent: any name in it (2**(2*x) = 16) */
            int depth = 0;
            for (; *q; q++) {
                depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
                if (isalpha((unsigned char)*q))
                    return true;
                if (depth == 0)
                    break;
            }
            continue;
        }
        if (*q && !(*q >= '0' && *q <= '9') && *q != '.')
            return true;
    }
    return false;
}

/* Only trigonometric and exponential equations have periodic solution
 * families worth a second solve (the general solver costs as much as the
 * first): exp(2*x) = 7 holds for log(7)/2 + I*pi*k, and every exponential
 * and hyperbolic function (sinh, cosh, tanh contain "sin", "cos", "tan") is
 * periodic with an imaginary period. */
static bool periodic_looking(const char *text) {
    static const char *const names[] = {"sin", "cos", "tan", "cot", "sec", "csc", "exp"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strstr(text, names[i]))
            return true;
    return variable_exponent(text);
}

/* Called after roots() has solved ev with giac (CC_G_SOLVE_GENERAL_AFTER
 * then spares giac's second solve of an equation without trigonometric
 * functions; locked against the full path by fastpath.py). */
static void add_general(json_t *out, cc_gexpr *ev[2]) {
    struct cc_sym_err se = {0};
    free(cc_giac_take_family_note());
    cc_gexpr *gs = cc_giac_apply(sym_fast_enabled() ? CC_G_SOLVE_GENERAL_AFTER : CC_G_SOLVE_GENERAL,
                                 ev, 2, &se);
    json_t *err = NULL;
    json_t *arr = gs && cc_giac_len(gs) > 0 ? sym_print_list(gs, &err) : NULL;
    cc_gexpr_free(gs);
    json_decref(err);
    if (!arr)
        return;
    /* giac's algebraic-number form has no spelling in our language (the
     * cube roots of 10000 in 10**(3*x) = 10000): no family is better than
     * an unreadable one */
    for (size_t i = 0; i < json_array_size(arr); i++)
        if (strstr(json_string_value(json_array_get(arr, i)), "rootof")) {
            json_decref(arr);
            return;
        }
    json_object_set_new(out, "general_solution", arr);
    char *excl = cc_giac_take_family_note();
    json_object_set_new(out, "general_solution_note",
                        excl ? json_sprintf("k (and k2, ...) stand for any integer, except where a family is "
                                            "undefined: %s", excl)
                             : json_string("k (and k2, ...) stand for any integer"));
    free(excl);
}


/* giac's principal root of a periodic equation can be no number (tan(1/x)
 * = 0: 1/x = 0; cos(x)/x = 1/x: x = 0), and solutions was [] beside a
 * general_solution whose members solve it: an agent read "no solution".
 * An empty list is filled with the families' members at k = -1 and 1 that
 * solve the equation, and solutions_note says where they come from. */
static void fill_from_families(json_t *out, json_t *arr) {
    char *samples = cc_giac_take_family_samples();
    if (!samples || json_array_size(arr) > 0 || !json_object_get(out, "general_solution")) {
        free(samples);
        return;
    }
    char *save = NULL;
    for (char *t = strtok_r(samples, "\n", &save); t; t = strtok_r(NULL, "\n", &save)) {
        bool seen = false;
        for (size_t i = 0; i < json_array_size(arr) && !seen; i++)
            seen = !strcmp(json_string_value(json_array_get(arr, i)), t);
        if (!seen)
            json_array_append_new(arr, json_string(t));
    }
    free(samples);
    json_object_set_new(out, "solutions_note",
                        json_string("the solver's principal roots are undefined here; these are the "
                                    "general solution's members at k = -1 and k = 1"));
}

/* ---- inequalities (redsym7) ------------------------------------------------------------ */

#define MAX_INEQ_ROOTS 32
#define MAX_INEQ_REGIONS 64

/* The real roots of lhs = rhs of an inequality (numbers only: a root holding
 * a parameter has no value), their values in vals and printed forms in
 * texts (malloc'd); the count. Solver failure gives none. */
static size_t ineq_roots(const struct cc_node *ineq, cc_gexpr *var, mpfr_t *vals, char **texts) {
    struct cc_sym_err se = {0};
    cc_gexpr *l = cc_giac_from_ast(ineq->child[0], &se);
    cc_gexpr *r = l ? cc_giac_from_ast(ineq->child[1], &se) : NULL;
    cc_gexpr *lr[2] = {l, r};
    cc_gexpr *d = r ? cc_giac_apply(CC_G_SUB, lr, 2, &se) : NULL;
    cc_gexpr *ev[2] = {d, var};
    cc_gexpr *sol = d ? cc_giac_apply(CC_G_SOLVE, ev, 2, &se) : NULL;
    size_t n = 0;
    mpc_t x;
    mpc_init2(x, SYM_NUM_BITS);
    for (long i = 0; sol && i < cc_giac_len(sol) && n < MAX_INEQ_ROOTS; i++) {
        cc_gexpr *it = cc_giac_item(sol, (size_t)i, &se);
        if (it && root_value(it, x) && mpfr_zero_p(mpc_imagref(x))) {
            json_t *err = NULL;
            texts[n] = sym_print_str(it, &err);
            json_decref(err);
            if (texts[n] && !strstr(texts[n], "rootof"))
                mpfr_set(vals[n++], mpc_realref(x), MPFR_RNDN);
            else
                free(texts[n]);
        }
        cc_gexpr_free(it);
    }
    mpc_clear(x);
    cc_gexpr_free(sol);
    cc_gexpr_free(d);
    cc_gexpr_free(l);
    cc_gexpr_free(r);
    return n;
}

/* giac's printed value of the built inequality: 1 True, 0 False, -1 other */
static int built_bool(cc_gexpr *g) {
    json_t *err = NULL;
    char *t = sym_print_str(g, &err);
    json_decref(err);
    int b = !t ? -1 : strcmp(t, "True") == 0 ? 1 : strcmp(t, "False") == 0 ? 0 : -1;
    free(t);
    return b;
}

/* A region printed into arr and, as sym_ineq_check reads it, into chk[*n]. */
static bool add_region(json_t *arr, char **chk, size_t *n, const char *printed, char *check) {
    if (!check || *n >= MAX_INEQ_REGIONS || json_array_append_new(arr, json_string(printed)) < 0) {
        free(check);
        return false;
    }
    chk[(*n)++] = check;
    return true;
}

/* The set from the roots of lhs = rhs when giac decided the inequality as
 * it built it (every_x: it called it True; the != of an inequation too):
 * every x but the roots for a strict inequality, every x for a non-strict
 * one; when giac called it False, no x for a strict one and the roots
 * themselves (Eq(x, r)) for a non-strict one. The check that follows
 * refutes a claim that fails elsewhere. */
static json_t *regions_from_roots(const char *name, bool every_x, bool strict, mpfr_t *vals,
                                  char **texts, size_t n, char **chk, size_t *nchk) {
    json_t *arr = json_array();
    size_t idx[MAX_INEQ_ROOTS];
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    for (size_t i = 1; i < n; i++) /* by value */
        for (size_t j = i; j > 0 && mpfr_cmp(vals[idx[j - 1]], vals[idx[j]]) > 0; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    char buf[1024], *c = NULL;
    bool ok = arr != NULL;
    if (ok && every_x && (!strict || n == 0)) {
        ok = add_region(arr, chk, nchk, "True", strdup("True"));
    } else if (ok && every_x) {
        for (size_t k = 0; k <= n && ok; k++) {
            const char *lo = k ? texts[idx[k - 1]] : NULL, *hi = k < n ? texts[idx[k]] : NULL;
            if (k && k < n && mpfr_equal_p(vals[idx[k - 1]], vals[idx[k]]))
                continue;
            int w = !lo  ? snprintf(buf, sizeof buf, "%s < %s", name, hi)
                    : !hi ? snprintf(buf, sizeof buf, "%s > %s", name, lo)
                          : snprintf(buf, sizeof buf, "And(%s > %s, %s < %s)", name, lo, name, hi);
            int w2 = !lo  ? asprintf(&c, "(%s) < (%s)", name, hi)
                     : !hi ? asprintf(&c, "(%s) > (%s)", name, lo)
                           : asprintf(&c, "((%s) > (%s)) & ((%s) < (%s))", name, lo, name, hi);
            ok = w > 0 && (size_t)w < sizeof buf && w2 > 0 && add_region(arr, chk, nchk, buf, c);
        }
    } else if (ok && !strict) {
        for (size_t k = 0; k < n && ok; k++) {
            int w = snprintf(buf, sizeof buf, "Eq(%s, %s)", name, texts[idx[k]]);
            int w2 = asprintf(&c, "(%s) == (%s)", name, texts[idx[k]]);
            ok = w > 0 && (size_t)w < sizeof buf && w2 > 0 && add_region(arr, chk, nchk, buf, c);
        }
    }
    if (!ok) {
        json_decref(arr);
        return NULL;
    }
    return arr;
}

/* giac's solution set of the inequality, printed (a list of regions), with
 * each region's check text in chk (NULL for one sym_ineq_check cannot
 * read: giac's bare "x" for an empty set) */
static json_t *cas_regions(cc_gexpr *g, cc_gexpr *var, const char *name, char **chk, size_t *nchk,
                           json_t **err) {
    struct cc_sym_err se = {0};
    cc_gexpr *ev[2] = {g, var};
    cc_gexpr *sol = cc_giac_apply(CC_G_SOLVE, ev, 2, &se);
    if (!sol) {
        *err = sym_err_json(&se, "");
        return NULL;
    }
    json_t *arr = json_array();
    for (long i = 0; arr && i < cc_giac_len(sol); i++) {
        cc_gexpr *it = cc_giac_item(sol, (size_t)i, &se);
        json_t *j = it ? sym_print_json(it, err) : NULL;
        struct sym_node *tree = it ? cc_giac_tree(it, &se) : NULL;
        if (j && it && cc_giac_same(it, var)) {
            /* giac's bare "x": every x (exp(x) >= x), or none (x**2 < 0,
             * caught before as False); "True" is claimed, and checked */
            json_decref(j);
            cc_gexpr_free(it);
            sym_free(tree);
            json_array_append_new(arr, json_string("True"));
            if (*nchk < MAX_INEQ_REGIONS)
                chk[(*nchk)++] = strdup("True");
            continue;
        }
        if (j && it && cc_giac_is_number(it)) {
            /* an isolated point of a non-strict inequality (giac: "-2" in
             * ["-2", "x >= 0"] for (x + 2)**2*x >= 0) is Eq(x, -2) */
            char *pt = NULL, *c = NULL;
            if (asprintf(&pt, "Eq(%s, %s)", name, json_string_value(j)) > 0 &&
                asprintf(&c, "(%s) == (%s)", name, json_string_value(j)) > 0) {
                json_decref(j);
                j = json_string(pt);
                cc_gexpr_free(it);
                sym_free(tree);
                free(pt);
                json_array_append_new(arr, j);
                if (*nchk < MAX_INEQ_REGIONS)
                    chk[(*nchk)++] = c;
                else
                    free(c);
                continue;
            }
            free(pt);
            free(c);
        }
        cc_gexpr_free(it);
        if (!j) {
            sym_free(tree);
            json_decref(arr);
            arr = NULL;
            if (!*err)
                *err = sym_err_json(&se, "");
            break;
        }
        json_array_append_new(arr, j);
        if (*nchk < MAX_INEQ_REGIONS)
            chk[(*nchk)++] = tree ? sym_ineq_region_text(tree) : NULL;
        sym_free(tree);
    }
    cc_gexpr_free(sol);
    return arr;
}

static json_t *solve_inequality(const struct sides *s, cc_gexpr *var, const char *name,
                                const char *text) {
    const struct cc_node *ineq = s->lhs.root;
    bool strict = sym_ineq_strict(ineq), ne = ineq->cmp_ops[0] == CC_OP_NE;
    static mpfr_t vals[MAX_INEQ_ROOTS];
    static bool inited;
    if (!inited) {
        for (size_t i = 0; i < MAX_INEQ_ROOTS; i++)
            mpfr_init2(vals[i], SYM_NUM_BITS);
        inited = true;
    }
    char *texts[MAX_INEQ_ROOTS];
    size_t nr = ineq_roots(ineq, var, vals, texts);
    int decided = built_bool(s->lhs.g);
    json_t *err = NULL;
    json_t *arr;
    char *chk[MAX_INEQ_REGIONS];
    size_t nchk = 0;
    if (ne && periodic_looking(text)) {
        arr = NULL; /* the roots found are some of infinitely many */
        err = cc_err("validation", "an inequation (!=) with a periodic function holds everywhere but "
                                   "at infinitely many points: solve the equation instead (its "
                                   "general_solution lists the excluded points)");
    } else if (decided >= 0 || ne) {
        arr = regions_from_roots(name, ne || decided == 1, strict, vals, texts, nr, chk, &nchk);
    } else {
        arr = cas_regions(s->lhs.g, var, name, chk, &nchk, &err);
        if (!arr && periodic_looking(text)) {
            /* sin(x) > 1/2 was giac's "Unable to find numeric values
             * solving equation ... assume(x>-pi && x<pi)", a message about
             * its own syntax */
            json_decref(err);
            err = cc_err("validation",
                         "the CAS could not solve this inequality (with a periodic function it "
                         "holds on infinitely many intervals, which are not listed): solve the "
                         "equation lhs = rhs instead (its general_solution gives every bound) and "
                         "test one point between consecutive bounds");
        }
    }
    for (size_t i = 0; i < nr; i++)
        free(texts[i]);
    bool readable = arr && nchk == json_array_size(arr);
    for (size_t i = 0; i < nchk; i++)
        readable &= chk[i] != NULL;
    char witness[256] = "";
    enum sym_ineq_verdict v = SYM_INEQ_UNCHECKED;
    if (readable) {
        enum sym_phase prev = sym_prof_enter(SYM_PH_NUMERIC);
        v = sym_ineq_check(ineq, name, (const char *const *)chk, nchk, (const mpfr_t *)vals, nr,
                           witness, sizeof witness);
        sym_prof_leave(prev);
    }
    for (size_t i = 0; i < nchk; i++)
        free(chk[i]);
    if (!arr)
        return err ? err : cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    if (v != SYM_INEQ_AGREES) {
        char *got = json_dumps(arr, JSON_COMPACT);
        json_t *e = v == SYM_INEQ_REFUTED
                        ? cc_err("validation",
                                 "the solution set found for this inequality, %.400s, is wrong: at %s",
                                 got ? got : "?", witness)
                        : cc_err("validation",
                                 "the solution set found for this inequality, %.400s, could not be "
                                 "checked by substitution (a region it cannot read, or a function "
                                 "the numeric evaluator lacks), so it is not given",
                                 got ? got : "?");
        free(got);
        json_decref(arr);
        return e;
    }
    json_t *out = json_pack("{s:b}", "ok", 1);
    struct sym_node *w = sym_written_tree(ineq);
    char *eq = w ? sym_print(w) : NULL;
    sym_free(w);
    json_object_set_new(out, "equation", json_string(eq ? eq : text));
    free(eq);
    json_object_set_new(out, "variable", json_string(name));
    json_object_set_new(out, "solutions", arr);
    json_object_set_new(out, "note",
                        json_string("an inequality: the solutions are the regions of real values "
                                    "where it holds with both sides real (\"True\": every real "
                                    "value; []: none), checked by substitution at the bounds, "
                                    "between them and beyond them"));
    return out;
}

/* The real roots of one sign case of the equation (sym_abs_case), each
 * checked against the equation as written (s), appended to all when new. */
static bool abs_case_roots(const struct sides *s, cc_gexpr *var, const char *name,
                           const char *text, json_t *all) {
    struct sides s2;
    json_t *err = NULL;
    if (parse_sides(text, &s2, &err) < 0) {
        json_decref(err);
        return false;
    }
    struct cc_sym_err se = {0};
    cc_gexpr *lr[2] = {s2.lhs.g, s2.rhs.g};
    cc_gexpr *e = s2.rhs.g ? cc_giac_apply(CC_G_SUB, lr, 2, &se) : s2.lhs.g;
    cc_gexpr *ev[2] = {e, var};
    json_t *scratch = json_object();
    json_t *found = e && scratch ? roots(s, name, ev, scratch, &err) : NULL;
    if (e && e != s2.lhs.g)
        cc_gexpr_free(e);
    sym_expr_free(&s2.lhs);
    sym_expr_free(&s2.rhs);
    json_decref(scratch);
    json_decref(err);
    if (!found)
        return false;
    size_t i, j;
    json_t *r, *have;
    json_array_foreach(found, i, r) {
        bool seen = false;
        json_array_foreach(all, j, have) seen |= json_equal(have, r);
        if (!seen && !strchr(json_string_value(r), 'I'))
            json_array_append(all, r);
    }
    json_decref(found);
    return true;
}

/* The CAS cannot isolate Abs (abs(x - 1) = 2 was refused): over the reals
 * each Abs(u) is +u or -u, one equation per choice of signs; the real
 * roots that satisfy the equation as written are the answer. NULL, *err
 * kept, when there is no Abs, too many, or a case fails. */
static json_t *abs_real_roots(const struct sides *s, cc_gexpr *var, const char *name,
                              const char *text, json_t *out, json_t **err) {
    int n = sym_abs_count(text);
    if (n < 1 || n > SYM_ABS_MAX_CASES)
        return NULL;
    json_t *all = json_array();
    for (unsigned signs = 0; all && signs < (1u << n); signs++) {
        char *c = sym_abs_case(text, signs);
        bool ok = c && abs_case_roots(s, var, name, c, all);
        free(c);
        if (!ok) {
            json_decref(all);
            return NULL;
        }
    }
    json_decref(*err);
    *err = NULL;
    json_object_set_new(out, "note",
                        json_string("real solutions: the solver cannot isolate Abs, so each "
                                    "Abs(u) was taken as u and as -u and every root was checked "
                                    "in the equation as written"));
    json_object_set_new(out, "domain", json_string("real"));
    return all;
}

static json_t *solve(const struct sides *s, cc_gexpr *var, const char *name, const char *text) {
    if (!s->rhs.root && sym_ineq_is(s->lhs.root))
        return solve_inequality(s, var, name, text);
    json_t *err = NULL;
    struct cc_sym_err se = {0};
    cc_gexpr *lr[2] = {s->lhs.g, s->rhs.g};
    cc_gexpr *e = s->rhs.g ? cc_giac_apply(CC_G_SUB, lr, 2, &se) : s->lhs.g;
    if (!e)
        return sym_err_json(&se, "");
    cc_gexpr *ev[2] = {e, var};
    json_t *out = json_pack("{s:b}", "ok", 1);
    json_t *eqn = equation(s->lhs.g, s->rhs.g, &err);
    /* a linear or quadratic polynomial: the closed form, without giac's
     * solver (sym_fast.h); NULL declines */
    json_t *arr = eqn && sym_fast_enabled() && !periodic_looking(text)
                      ? sym_fast_roots(s->lhs.root, s->rhs.root, name)
                      : NULL;
    if (arr)
        sym_prof_mark_fast();
    else if (eqn)
        arr = roots(s, name, ev, out, &err);
    if (!arr && eqn && err)
        arr = abs_real_roots(s, var, name, text, out, &err);
    if (arr && periodic_looking(text)) {
        free(cc_giac_take_family_samples());
        add_general(out, ev);
        fill_from_families(out, arr);
    }
    if (e != s->lhs.g)
        cc_gexpr_free(e);
    if (arr && !json_object_get(out, "general_solution") && !json_object_get(out, "conditional_solutions")) {
        json_t *more = incomplete(s, name, arr);
        if (more) {
            json_decref(arr);
            arr = NULL;
            json_decref(err);
            err = more;
        }
    }
    if (!arr) {
        json_decref(eqn);
        json_decref(out);
        return err;
    }
    json_object_set_new(out, "equation", eqn);
    json_object_set_new(out, "variable", json_string(name));
    json_object_set_new(out, "solutions", arr);
    return out;
}

static json_t *solve_expression_handler(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *text = sym_arg_str(args, "expr", NULL, &err);
    if (!text)
        return err;
    if (strlen(text) > 2000 * 4)
        return cc_err("resource_exhausted", "expression too long (max 2000 chars)");
    char *name = NULL;
    cc_gexpr *var = sym_var(args, "var", &name, &err);
    if (!var)
        return err;
    struct sides s;
    free(cc_giac_take_note()); /* one an earlier call left: not this one's */
    json_t *out = parse_sides(text, &s, &err) < 0 ? err : solve(&s, var, name, text);
    /* how the input was read (cbrt(x) as the principal root: cbrt(x) = -3
     * has no solution), beside the solver's own note */
    char *read = cc_giac_take_note();
    if (read && out != err && json_is_true(json_object_get(out, "ok"))) {
        const char *had = json_string_value(json_object_get(out, "note"));
        json_object_set_new(out, "note", had ? json_sprintf("%s; %s", had, read) : json_string(read));
    }
    free(read);
    if (out != err) {
        sym_expr_free(&s.lhs);
        sym_expr_free(&s.rhs);
    }
    cc_gexpr_free(var);
    free(name);
    return out;
}

SYM_PROFILED_TOOL(solve_expression, solve_expression_handler)
