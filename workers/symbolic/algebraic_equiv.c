/* algebraic_equiv (TOOLS.md 3.4.2, extended by issue 12; contract in
 * docs/contract.md): is a - b identically zero, over the complex numbers
 * unless the caller states assumptions?
 *
 * Two independent witnesses decide. The CAS simplifies a - b (and, when
 * that is not 0, tries rewriting it through exponentials and trigonometric
 * collection); giac simplifies as if every symbol were real and positive
 * where that helps (it reduces log(x*y) - log(x) - log(y) to 0), so its
 * "zero" alone is never trusted. Both sides, as the user wrote them (the
 * AST, before giac rewrote anything), are also evaluated with 128-bit
 * MPC/MPFR arithmetic at deterministic pseudo-random points of each symbol's
 * domain (complex by default, simple branch-cut witnesses like -1 and I
 * first). A numeric mismatch always wins: identical is then false, with the
 * point as a counterexample and, when one is found, a domain on which the
 * identity does hold. Numbers that agree everywhere while the CAS cannot
 * show zero give identical: null with numerically_equal: true. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_arena.h"
#include "workers/common/expr_funcs.h"
#include "workers/common/expr_parse.h"
#include "workers/symbolic/sym_assume.h"
#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_numcheck.h"
#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_tools.h"
#include "workers/symbolic/sym_trig.h"
#include "workers/symbolic/sym_profile.h"

#define EQUIV_CAVEAT \
    "identity over symbolic reals says nothing about float rounding, integer truncation or modular overflow"
/* Random points per check and the fewest that must evaluate before the
 * numbers are allowed to speak for a symbolic expression. */
#define EQUIV_POINTS 22
#define EQUIV_POINTS_ENTIRE 11
#define EQUIV_MIN_POINTS 4

/* Rewritings tried on a - b after plain simplification: exponential and
 * trigonometric forms cover exp(I*x) = cos(x) + I*sin(x), hyperbolic
 * identities and products of exponentials. */
static const enum cc_rw ZERO_TRIES[] = {CC_RW_EXP2TRIG, CC_RW_HYP2EXP, CC_RW_TRIG2EXP,
                                        CC_RW_TRIGSIMPLIFY, CC_RW_INTROUND};

/* trig_kind's answers */
enum { TRIG = 1, TRIG_AND_EXP = 2 };

/* a - b reduced to exactly 0 through exponentials (new handle), or NULL:
 * sines and cosines written with exp(I*u) (trig2exp, an identity over the
 * complex numbers), then reduced as a rational function of those
 * exponentials (ratnormal). This reaches the zero of identities that mix
 * exponentials with sines and cosines, which linearising does not:
 * exp(I*x) against cos(x) + I*sin(x) (giac's simplify: 7 ms, and its a - b
 * was not even printed as 0). It does not reach the tangent identities
 * (exp(I*x) and exp(2*I*x) stay separate atoms). Taken only with the fast
 * paths on (fastpath.py compares). */
static cc_gexpr *exp_zero(cc_gexpr *d) {
    struct cc_sym_err se = {0};
    cc_gexpr *r = cc_giac_rewrite(CC_RW_TRIG2EXP_RAT, d, &se);
    if (r && cc_giac_is_literal_zero(r))
        return r;
    cc_gexpr_free(r);
    return NULL;
}

/* a - b reduced to exactly 0 by a quick rewriting (new handle), or NULL:
 * as a rational function of its other parts (ratnormal, microseconds),
 * and, with sines and cosines but no tangent, secant... in the inputs
 * (trig), linearised or collected (tlin, tcollect: cos(x)**2 - (1 +
 * cos(2*x))/2, sin(2*x) - 2*sin(x)*cos(x)). giac's simplify of such a
 * difference takes the tan(x/2) route, 1 to 7 ms, to reach the same 0.
 * Each of these is an identity over the complex numbers; the verdict still
 * needs the numbers to agree. */
static cc_gexpr *quick_zero(cc_gexpr *d, int trig) {
    static const enum cc_rw QUICK[] = {CC_RW_RATNORMAL, CC_RW_TLIN, CC_RW_TCOLLECT};
    for (size_t i = 0; i < (trig ? 3 : 1); i++) {
        struct cc_sym_err se = {0};
        cc_gexpr *r = cc_giac_rewrite(QUICK[i], d, &se);
        if (r && cc_giac_is_literal_zero(r))
            return r;
        cc_gexpr_free(r);
    }
    return trig == TRIG_AND_EXP && sym_fast_enabled() ? exp_zero(d) : NULL;
}

/* The difference to print (new handle) and whether some rewriting of it
 * is exactly 0. decide: false when the numbers already refute the
 * identity; whether the CAS reaches 0 then changes nothing in the answer,
 * so neither the zero test (a second simplify) nor the rewritings run and
 * *zero is false. The difference is then a - b reduced as a rational
 * function of its other parts (giac's ratnormal: (x + 1)**2 - (x**2 + 1)
 * is 2*x, x/(x + 1) - 1 is -1/(x + 1), sin(x) - cos(x) stays), not giac's
 * simplify: that was most of a refuted pair's work (sin(x) - cos(x): 4.7 M
 * of 5.0 M instructions, printed with half-angle tangents), and it assumes
 * real symbols (atan(x) + atan(1/x) - pi/2 became pi*sign(x)/2 - pi/2,
 * not a - b at complex x). NULL with *err. */
static cc_gexpr *symbolic_difference(cc_gexpr *a, cc_gexpr *b, bool decide, int trig, bool *zero,
                                     json_t **err) {
    struct cc_sym_err se = {0};
    cc_gexpr *ab[2] = {a, b};
    cc_gexpr *d = cc_giac_apply(CC_G_SUB, ab, 2, &se);
    cc_gexpr *z = d && decide ? quick_zero(d, trig) : NULL;
    if (z) {
        cc_gexpr_free(d);
        *zero = true;
        return z;
    }
    cc_gexpr *sd = !d        ? NULL
                   : decide ? cc_giac_apply(CC_G_SIMPLIFY, &d, 1, &se)
                            : cc_giac_rewrite(CC_RW_RATNORMAL, d, &se);
    if (!sd) {
        cc_gexpr_free(d);
        *err = sym_err_json(&se, "");
        return NULL;
    }
    *zero = decide && cc_giac_is_zero(sd);
    for (size_t i = 0; decide && !*zero && i < sizeof ZERO_TRIES / sizeof *ZERO_TRIES; i++) {
        cc_gexpr *r = cc_giac_rewrite(ZERO_TRIES[i], d, &se);
        *zero = r && cc_giac_is_zero(r);
        cc_gexpr_free(r);
    }
    cc_gexpr_free(d);
    return sd;
}

/* "x > 0, y > 0" or "real x, y": the first domain (for every symbol the
 * caller left unconstrained) on which the numbers agree, or NULL. */
static char *holds_for(const struct sym_expr *a, const struct sym_expr *b,
                       const struct sym_domains *d) {
    static const enum cc_num_dom tries[] = {CC_DOM_REAL, CC_DOM_POSITIVE};
    for (size_t i = 0; i < 2; i++) {
        struct sym_domains t = *d;
        t.dflt = tries[i];
        struct sym_num_verdict v;
        sym_numcheck_until(a->root, b->root, &t, EQUIV_POINTS, SYM_NC_MISMATCH, &v);
        if (v.points >= EQUIV_MIN_POINTS && v.mismatches == 0)
            return sym_numcheck_describe(a->root, b->root, d, tries[i]);
    }
    return NULL;
}

/* Adds identical / numerically_equal / counterexample / holds_for. */
static void verdict(json_t *out, bool cas_zero, const struct sym_num_verdict *v,
                    const struct sym_expr *a, const struct sym_expr *b,
                    const struct sym_domains *d, bool constant) {
    bool enough = v->points >= (constant ? 1 : EQUIV_MIN_POINTS);
    json_object_set_new(out, "numeric_check",
                        json_pack("{s:i, s:i, s:i}", "points", v->points, "mismatches",
                                  v->mismatches, "digits", 38));
    if (v->mismatches > 0) {
        json_object_set_new(out, "identical", json_false());
        json_object_set_new(out, "numerically_equal", json_false());
        json_object_set_new(out, "counterexample", json_pack("{s:s, s:s, s:s}", "point",
                                                             v->witness, "a", v->va, "b", v->vb));
        char *h = constant ? NULL : holds_for(a, b, d);
        if (h)
            json_object_set_new(out, "holds_for", json_string(h));
        free(h);
        return;
    }
    if (!enough) {
        /* nothing numeric to go on (integrals, functions the evaluator
         * lacks): a CAS zero stands, flagged by numerically_equal: null; a
         * CAS non-zero proves nothing (it may just not have found the
         * rewriting), so the answer is undecided */
        json_object_set_new(out, "identical", cas_zero ? json_true() : json_null());
        json_object_set_new(out, "numerically_equal", json_null());
        if (!cas_zero)
            json_object_set_new(out, "note",
                                json_string("undecided: the CAS could not reduce a - b to 0 and "
                                            "the expressions could not be evaluated numerically"));
        return;
    }
    json_object_set_new(out, "numerically_equal", json_true());
    json_object_set_new(out, "identical", cas_zero ? json_true() : json_null());
    if (!cas_zero)
        json_object_set_new(out, "note",
                            json_string("the CAS could not reduce a - b to 0, but both sides agree "
                                        "to 25 digits at every sampled point: very likely identical"));
}

/* The numeric check over complex points, or over real points when too few
 * complex points evaluate (functions the evaluator has only for real
 * arguments: gamma, erf). *over names the domain used. */
static void numeric_check(const struct sym_expr *a, const struct sym_expr *b,
                          const struct sym_domains *d, struct sym_num_verdict *v,
                          const char **over) {
    /* without branch cuts a false identity fails almost everywhere: the
     * branch-cut witnesses and a few random points are plenty. One
     * mismatch refutes: the check stops there (its counts say so) */
    int points = sym_numeval_branch_free(a->root) && sym_numeval_branch_free(b->root)
                     ? EQUIV_POINTS_ENTIRE : EQUIV_POINTS;
    sym_numcheck_until(a->root, b->root, d, points, SYM_NC_MISMATCH, v);
    *over = "complex";
    if (v->points < EQUIV_MIN_POINTS && v->mismatches == 0) {
        struct sym_domains r = *d;
        r.dflt = CC_DOM_REAL;
        sym_numcheck_until(a->root, b->root, &r, EQUIV_POINTS, SYM_NC_MISMATCH, v);
        *over = "real";
    }
}

/* true when n is a rational function of symbols over the rationals:
 * integers, symbols, + - * / and integer powers, nothing else (no float,
 * no function, no named constant). giac's simplified form of such a value
 * is its normal form, which is 0 exactly when the function is. */
static bool rational_function(const struct cc_node *n) {
    static const char *const constants[] = {"pi", "E", "I", "oo", "zoo", "nan", "EulerGamma"};
    switch (n->kind) {
    case CC_N_INT: return true;
    case CC_N_NAME:
        for (size_t i = 0; i < sizeof constants / sizeof *constants; i++)
            if (!strcmp(n->v.name, constants[i]))
                return false;
        return true;
    case CC_N_UNARY: return (n->op == CC_OP_NEG || n->op == CC_OP_POS) && rational_function(n->child[0]);
    case CC_N_BINARY:
        if (n->op == CC_OP_POW)
            return rational_function(n->child[0]) && n->child[1]->kind == CC_N_INT;
        if (n->op == CC_OP_ADD || n->op == CC_OP_SUB || n->op == CC_OP_MUL || n->op == CC_OP_DIV)
            return rational_function(n->child[0]) && rational_function(n->child[1]);
        return false;
    default: return false;
    }
}

/* a - b printed as a non-zero rational function (x + 1/10**30 vs x: the
 * difference 1/10**30 is below what the numbers resolve, but exact). */
static bool exact_nonzero(const char *diff) {
    struct cc_arena *ar = cc_arena_new();
    struct cc_expr_error ee = {0};
    struct cc_node *d =
        ar ? cc_expr_screen_parse(ar, diff, strlen(diff), CC_DIALECT_SYMBOLIC, &ee) : NULL;
    bool r = d && rational_function(d) && !(d->kind == CC_N_INT && mpz_sgn(d->v.z) == 0);
    cc_arena_free(ar);
    return r;
}

/* At most this many points check a refuted pair's printed difference
 * against a - b: a wrong reduction fails almost everywhere, and the first
 * points include complex ones (where a real-only rewriting fails). Only
 * the points the verdict's own check tried are used: both sides evaluated
 * there in reasonable time (tan(cosh(y**2)) at a later point ran past the
 * 15 s limit). */
#define DIFF_CHECK_POINTS 6

/* false when the printed difference `diff` of a refuted pair disagrees
 * with a - b at one of the first `tries` points where both evaluate.
 * giac's reductions take Abs(y)**2 as y**2, and are not always right:
 * ratnormal, normal and simplify all gave a - b of (1/((x + 2)*(y + 1)) +
 * (y + 3)**2 + 1/(x + 3))**2 and 4*x**2 + (1/((x + 2)*(y + 1)) + (y +
 * 3)**2)**2 without the factor y + 1 in its denominator (16.58 against
 * 4.15 at x = y = 1; the one point the verdict tried, y = -2, does not
 * show it: the same wrong difference as main's). */
static bool difference_agrees(const struct sym_expr *a, const struct sym_expr *b,
                              const char *diff, const struct sym_domains *d, int tries) {
    struct cc_arena *ar = cc_arena_new();
    struct cc_expr_error ee = {0};
    struct cc_node *t =
        ar ? cc_expr_screen_parse(ar, diff, strlen(diff), CC_DIALECT_SYMBOLIC, &ee) : NULL;
    struct cc_node *sub = t ? cc_arena_node(ar, CC_N_BINARY, 0) : NULL;
    struct cc_node **kids = sub ? cc_arena_alloc(ar, 2 * sizeof *kids) : NULL;
    bool agrees = true;
    if (kids) {
        kids[0] = (struct cc_node *)a->root; /* read only: the check never writes */
        kids[1] = (struct cc_node *)b->root;
        sub->op = CC_OP_SUB;
        sub->nchild = 2;
        sub->child = kids;
        struct sym_num_verdict v;
        sym_numcheck_until(t, sub, d, tries < DIFF_CHECK_POINTS ? tries : DIFF_CHECK_POINTS,
                           SYM_NC_MISMATCH, &v);
        agrees = v.mismatches == 0;
    }
    cc_arena_free(ar);
    return agrees;
}

/* A tiny gap is as large at every point but the zeros of a - b. */
#define GAP_POINTS 3

/* A pair the 25-digit check could not tell apart, and that is either
 * undecided (1e-30 against 0 and x + 1e-30 against x were "very likely
 * identical") or a CAS zero of an input with floats (giac's float
 * tolerance reduced sin(x) - 5e-33 - sin(x) to 0, and the pair was
 * identical): the hidden-gap check at the first points tried decides.
 * A difference it sees makes the pair not identical, with the point; the
 * CAS's difference is then not shown when it was 0. */
static void tiny_gap(json_t *out, const struct sym_expr *a, const struct sym_expr *b,
                     const struct sym_domains *d, int tries, bool cas_zero) {
    struct sym_num_verdict g;
    if (!sym_numcheck_hidden_gap(a->root, b->root, d, tries < GAP_POINTS ? tries : GAP_POINTS, &g))
        return;
    json_object_set_new(out, "identical", json_false());
    json_object_set_new(out, "numerically_equal", json_false());
    json_object_set_new(out, "counterexample",
                        json_pack("{s:s, s:s, s:s}", "point", g.witness, "a", g.va, "b", g.vb));
    if (cas_zero)
        json_object_set_new(out, "difference", json_null());
    json_object_set_new(out, "note",
                        json_sprintf("a and b differ by %s at the counterexample's point (seen at 150 "
                                     "digits), below the 25 digits the numeric check compares%s",
                                     g.gap, cas_zero ? "; the CAS's a - b of 0 is its floating-point "
                                                       "tolerance, not an identity" : ""));
}

/* ASTs of the printed CAS values (only .arena and .root are set). 0, or -1
 * when either does not parse. */
static int printed_forms(const char *ta, const char *tb, struct sym_expr *ca,
                         struct sym_expr *cb) {
    const char *t[2] = {ta, tb};
    struct sym_expr *e[2] = {ca, cb};
    for (int i = 0; i < 2; i++) {
        struct cc_expr_error ee = {0};
        e[i]->arena = cc_arena_new();
        e[i]->root = e[i]->arena ? cc_expr_screen_parse(e[i]->arena, t[i], strlen(t[i]),
                                                        CC_DIALECT_SYMBOLIC, &ee)
                                 : NULL;
        if (!e[i]->root) {
            cc_arena_free(ca->arena);
            cc_arena_free(cb->arena);
            memset(ca, 0, sizeof *ca);
            memset(cb, 0, sizeof *cb);
            return -1;
        }
    }
    return 0;
}

/* The CAS half: a, b and their difference printed (simplified unless the
 * numbers refuted the pair: rewrite false), and whether some rewriting of
 * the difference is exactly 0. 0, or -1 with *err. */
static int cas_difference(const struct sym_expr *a, const struct sym_expr *b,
                          const struct sym_assume *as, bool rewrite, int trig, json_t *printed[3],
                          bool *cas_zero, json_t **err) {
    if (sym_assume_apply(as, err) < 0)
        return -1;
    cc_gexpr *sd = symbolic_difference(a->g, b->g, rewrite, trig, cas_zero, err);
    cc_giac_forget_all();
    if (!sd)
        return -1;
    printed[0] = sym_print_json(a->g, err);
    printed[1] = printed[0] ? sym_print_json(b->g, err) : NULL;
    printed[2] = printed[1] ? sym_print_json(sd, err) : NULL;
    cc_gexpr_free(sd);
    if (printed[2])
        return 0;
    json_decref(printed[0]);
    json_decref(printed[1]);
    return -1;
}

/* The same from a fast path's exact polynomial difference (sym_fast.h): a
 * side printed there is used as is, the other is the CAS value's print. */
static int fast_difference(const struct sym_expr *a, const struct sym_expr *b,
                           const struct sym_fast_diff *f, json_t *printed[3], bool *cas_zero,
                           json_t **err) {
    *cas_zero = f->zero;
    printed[0] = f->a ? json_string(f->a) : sym_print_json(a->g, err);
    printed[1] = !printed[0] ? NULL : f->b ? json_string(f->b) : sym_print_json(b->g, err);
    printed[2] = printed[1] ? json_string(f->d) : NULL;
    if (printed[2])
        return 0;
    json_decref(printed[0]);
    json_decref(printed[1]);
    if (!*err)
        *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    return -1;
}

static bool has_float(const struct sym_expr *a, const struct sym_expr *b) {
    return cc_node_any(a->root, cc_node_is_float) || cc_node_any(b->root, cc_node_is_float);
}

/* Why the CAS's a - b was 0 for a pair the numbers refute. With a float in
 * the input it is usually the CAS's float tolerance, not an assumption:
 * 0.1*x + 0.2*x vs 0.3*x differ by 5.55e-17*x as binary64 floats, below
 * the 12 digits the counterexample shows. */
static const char *cas_zero_note(const struct sym_expr *a, const struct sym_expr *b) {
    if (has_float(a, b))
        return "the CAS reduces a - b to 0 within its floating-point tolerance (or by assuming "
               "real or positive values); the floats as written, read as binary64 numbers, "
               "differ (possibly below the 12 digits the counterexample shows): write exact "
               "numbers (1/10 for 0.1) to compare the decimals";
    return "the CAS reduces a - b to 0 only by assuming more of the symbols than was given "
           "(real or positive values; a and b are shown as it reads them); the numbers refute "
           "the identity: see counterexample and holds_for";
}

/* fast: a fast path's difference of a and b, or NULL (the CAS's); trig:
 * the quick rewritings the pair gets (trig_kind). */
/* true when the tree holds a name that is not a constant (a symbol). */
static bool holds_symbol(const struct cc_node *n) {
    if (!n)
        return false;
    if (n->kind == CC_N_NAME && !cc_expr_is_constant(n->v.name))
        return true;
    for (uint32_t i = 0; i < n->nchild; i++)
        if (holds_symbol(n->child[i]))
            return true;
    return false;
}

/* true when the tree calls loggamma of an argument holding a symbol. */
static bool loggamma_of_symbol(const struct cc_node *n) {
    if (!n)
        return false;
    if (n->kind == CC_N_CALL && !strcmp(n->v.name, "loggamma") && n->nchild == 1 && holds_symbol(n->child[0]))
        return true;
    for (uint32_t i = 0; i < n->nchild; i++)
        if (loggamma_of_symbol(n->child[i]))
            return true;
    return false;
}

/* The CAS reads loggamma(x) of a symbol as log(gamma(x)), equal to it
 * only on the positive reals, and the evaluator has no loggamma, so the
 * numbers were taken from those same CAS forms: loggamma(x) against
 * log(gamma(x)) was identical: true (they differ by 4*pi*I at x = -5/2),
 * and loggamma(x + 1) against loggamma(x) + log(x), an identity off the
 * negative reals, identical: false with a counterexample at x = -0.25
 * where the two are equal. Neither side can decide such a pair. */
static void loggamma_undecided(json_t *out) {
    json_object_set_new(out, "identical", json_null());
    json_object_set_new(out, "numerically_equal", json_null());
    json_object_del(out, "counterexample");
    json_object_del(out, "holds_for");
    json_object_set_new(out, "note", json_string("undecided: loggamma of a symbol is the analytic continuation "
                                                 "of log(gamma(x)), which the CAS and the numeric check both "
                                                 "read as log(gamma(x)), equal to it only for real x > 0"));
}

static json_t *equiv(const struct sym_expr *a, const struct sym_expr *b,
                     const struct sym_assume *as, const struct sym_fast_diff *fast, int trig) {
    json_t *err = NULL;
    /* the numbers first: when they refute the identity, the CAS's rewritings
     * cannot change the verdict, and only the plain difference is printed */
    struct sym_domains d = {as->n, as->names, as->doms, CC_DOM_COMPLEX};
    struct sym_num_verdict v;
    const char *checked_over;
    numeric_check(a, b, &d, &v, &checked_over);
    bool cas_zero = false;
    json_t *printed[3];
    if ((fast ? fast_difference(a, b, fast, printed, &cas_zero, &err)
              : cas_difference(a, b, as, v.mismatches == 0, trig, printed, &cas_zero, &err)) < 0)
        return err;
    json_t *pa = printed[0], *pb = printed[1], *pd = printed[2];
    char *syms = sym_numcheck_describe(a->root, b->root, &(struct sym_domains){0}, CC_DOM_REAL);
    bool constant = syms == NULL;
    free(syms);
    const char *source = "input";
    struct sym_expr ca = {0}, cb = {0};
    /* a constant needs one point (its only one); fewer than that, or than
     * EQUIV_MIN_POINTS for an expression, and the CAS forms are tried: the
     * inputs' own values were right where giac's were not
     * (((-1)**(1/3))**(1/2) is not giac's -1/2 + sqrt(3)/2) */
    if (v.points < (constant ? 1 : EQUIV_MIN_POINTS) && v.mismatches == 0 &&
        printed_forms(json_string_value(pa), json_string_value(pb), &ca, &cb) == 0) {
        /* the input holds something the evaluator cannot compute (an
         * integral, a sum): the CAS's closed forms are evaluated instead */
        numeric_check(&ca, &cb, &d, &v, &checked_over);
        source = "CAS forms";
    }
    json_t *out = json_pack("{s:b, s:o, s:o, s:o, s:s}", "ok", 1, "a", pa, "b", pb, "difference",
                            pd, "domain", as->n ? "as assumed, complex elsewhere" : "complex");
    const struct sym_expr *ea = ca.root ? &ca : a, *eb = cb.root ? &cb : b;
    verdict(out, cas_zero, &v, ea, eb, &d, constant);
    struct sym_domains tried = d;
    tried.dflt = strcmp(checked_over, "real") ? d.dflt : CC_DOM_REAL;
    if (!cas_zero && v.mismatches == 0 && exact_nonzero(json_string_value(pd))) {
        /* The numbers cannot see it; the algebra proves it, if the algebra
         * is right: giac's reductions of rational functions are not always
         * (see difference_agrees), and a wrong non-zero a - b of a true
         * identity would make this a confident false. So the printed
         * difference must itself agree with a - b at the points tried. */
        if (difference_agrees(ea, eb, json_string_value(pd), &tried, v.tried)) {
            json_object_set_new(out, "identical", json_false());
            json_object_set_new(out, "note",
                                json_string("a - b reduces exactly to a non-zero rational function "
                                            "(see difference): the two differ everywhere it is "
                                            "non-zero, by less than the numeric check resolves"));
        } else {
            json_object_set_new(out, "difference", json_null());
            json_object_set_new(out, "note",
                                json_string("the CAS's a - b is a non-zero rational function that "
                                            "disagrees with a - b at a test point, so it is not "
                                            "shown and decides nothing"));
        }
    }
    if (!fast && v.mismatches > 0 && !strcmp(source, "input") &&
        strcmp(json_string_value(pd), "0") &&
        !difference_agrees(a, b, json_string_value(pd), &tried, v.tried)) {
        /* a refuted pair's difference is not simplified, only reduced
         * (contract.md, speed6): it is shown only when it is a - b */
        json_object_set_new(out, "difference", json_null());
        json_object_set_new(out, "note",
                            json_string("the CAS's reduced a - b disagrees with a - b at a test "
                                        "point, so it is not shown; the numbers refute the "
                                        "identity: see counterexample"));
    } else if (json_is_false(json_object_get(out, "identical")) &&
               !strcmp(json_string_value(pd), "0")) {
        /* giac's rewritings assume what the symbols may not be (real:
         * sqrt(x**2) becomes Abs(x); positive: log(x*y) splits), so its
         * a - b can be 0 for a pair the points refute: a "0" beside
         * identical: false would be read as the identity */
        json_object_set_new(out, "difference", json_null());
        json_object_set_new(out, "note", json_string(cas_zero_note(a, b)));
    }
    /* last: it may replace difference, which pd is */
    if (v.mismatches == 0 &&
        (cas_zero ? json_is_true(json_object_get(out, "identical")) && has_float(ea, eb)
                  : json_is_null(json_object_get(out, "identical")) && v.points > 0))
        tiny_gap(out, ea, eb, &tried, v.tried, cas_zero);
    if (!strcmp(source, "CAS forms") && (loggamma_of_symbol(a->root) || loggamma_of_symbol(b->root)))
        loggamma_undecided(out);
    json_object_set_new(json_object_get(out, "numeric_check"), "evaluated", json_string(source));
    cc_arena_free(ca.arena);
    cc_arena_free(cb.arena);
    json_object_set_new(json_object_get(out, "numeric_check"), "domain", json_string(checked_over));
    if (!strcmp(checked_over, "real") && json_is_true(json_object_get(out, "identical")))
        /* the evidence covers real values only: say so rather than claim C */
        json_object_set_new(out, "domain", json_string("real (only real points could be evaluated)"));
    bool yes = json_is_true(json_object_get(out, "identical"));
    json_object_set_new(out, "caveat", yes ? json_null() : json_string(EQUIV_CAVEAT));
    return out;
}

/* Both sides parsed: the fast path when both are polynomials whose exact
 * difference it can give, building the CAS value only of a side it does
 * not print; else the CAS path. Errors come in the CAS path's order (a
 * side's CAS failure before anything about b that follows it). */
static json_t *decide(struct sym_expr *a, struct sym_expr *b, const struct sym_assume *as,
                      int trig) {
    json_t *err = NULL;
    struct sym_fast_diff f;
    bool fast = sym_fast_enabled() && sym_fast_difference(a->root, b->root, &f) == 0;
    json_t *out = NULL;
    if ((fast && f.a) || sym_build_expr(a, "a: ", &err) == 0) {
        if ((fast && f.b) || sym_build_expr(b, "b: ", &err) == 0)
            out = equiv(a, b, as, fast ? &f : NULL, trig);
    }
    if (fast)
        sym_fast_diff_free(&f);
    return out ? out : err;
}

/* Inputs this long or longer do not get tlin and tcollect before giac's
 * simplify: an identity short enough to reduce quickly is short, and on a
 * large trigonometric difference either can take seconds that the full
 * path (simplify, then its rewritings) did not spend. */
#define QUICK_TRIG_MAX_CHARS 200

static bool quick_trig(const char *ta, const char *tb) {
    if (strlen(ta) + strlen(tb) >= QUICK_TRIG_MAX_CHARS)
        return false;
    /* sines or cosines on some side, and no tangent, secant... on either */
    bool a_trig = sym_calls_trig(ta), b_trig = sym_calls_trig(tb);
    return (a_trig || b_trig) && (!a_trig || sym_calls_sin_cos_only(ta)) &&
           (!b_trig || sym_calls_sin_cos_only(tb));
}

/* true when text writes an exponential: exp(...) or a power of E. */
static bool writes_exp(const char *text) {
    return sym_text_calls(text, "exp(") || sym_text_calls(text, "E**");
}

/* Which quick rewritings a pair gets: 0 none but ratnormal (not
 * quick_trig); TRIG tlin and tcollect; TRIG_AND_EXP also exp_zero (an
 * exponential beside the sines and cosines, whose zero linearising does
 * not reach). */
static int trig_kind(const char *ta, const char *tb) {
    if (!quick_trig(ta, tb))
        return 0;
    return writes_exp(ta) || writes_exp(tb) ? TRIG_AND_EXP : TRIG;
}

static json_t *algebraic_equiv_handler(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *ta = sym_arg_str(args, "a", NULL, &err);
    const char *tb = ta ? sym_arg_str(args, "b", NULL, &err) : NULL;
    if (!tb)
        return err;
    struct sym_assume as;
    if (sym_assume_read(json_object_get(args, "assume"), &as, &err) < 0)
        return err;
    struct sym_expr a, b = {0};
    json_t *out = err;
    if (sym_parse_expr(ta, strlen(ta), "a: ", &a, &err) < 0) {
        out = err;
    } else if (sym_parse_expr(tb, strlen(tb), "b: ", &b, &err) < 0) {
        /* a's CAS failure, if any, is reported first, as it always was */
        json_t *berr = err;
        out = sym_build_expr(&a, "a: ", &err) == 0 ? berr : (json_decref(berr), err);
    } else {
        out = decide(&a, &b, &as, trig_kind(ta, tb));
    }
    sym_expr_free(&a);
    sym_expr_free(&b);
    sym_assume_clear(&as);
    return out;
}

SYM_PROFILED_TOOL(algebraic_equiv, algebraic_equiv_handler)
