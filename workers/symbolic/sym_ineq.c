/* The solution set of a one-variable real inequality, checked by
 * substitution (see sym_ineq.h). */
#include "workers/symbolic/sym_ineq.h"

#include <mpc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_parse.h"
#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_print.h"

#define MAX_PARAMS 6
#define MAX_CRIT 64
#define MAX_REGIONS 64
/* two values this close (relatively) are equal: a bound or a root met at 128 bits */
#define TIE_TOL 1e-25
/* an imaginary part below this (relatively) is rounding noise */
#define IMAG_TOL 1e-30

enum tv { TV_FALSE = 0, TV_TRUE = 1, TV_UNKNOWN = -1 };

static enum tv and3(enum tv a, enum tv b) {
    if (a == TV_FALSE || b == TV_FALSE)
        return TV_FALSE;
    return a == TV_TRUE && b == TV_TRUE ? TV_TRUE : TV_UNKNOWN;
}

static enum tv or3(enum tv a, enum tv b) {
    if (a == TV_TRUE || b == TV_TRUE)
        return TV_TRUE;
    return a == TV_FALSE && b == TV_FALSE ? TV_FALSE : TV_UNKNOWN;
}

static bool is_cmp(enum cc_op op) {
    return op == CC_OP_LT || op == CC_OP_LE || op == CC_OP_GT || op == CC_OP_GE || op == CC_OP_NE;
}

bool sym_ineq_is(const struct cc_node *n) {
    return n && n->kind == CC_N_COMPARE && n->nchild == 2 && is_cmp(n->cmp_ops[0]);
}

bool sym_ineq_strict(const struct cc_node *n) {
    enum cc_op op = n->cmp_ops[0];
    return op == CC_OP_LT || op == CC_OP_GT || op == CC_OP_NE;
}

/* ---- region text ------------------------------------------------------------------ */

static bool region_write(FILE *f, const struct sym_node *r) {
    static const char *const rel[] = {"==", "!=", "<", "<=", ">", ">="};
    if (r->kind == SYM_BOOL)
        return fputs(r->ival ? "True" : "False", f) >= 0;
    if (r->kind == SYM_REL && r->ival >= 0 && r->ival <= SYM_GE) {
        char *a = sym_print(r->kid[0]), *b = a ? sym_print(r->kid[1]) : NULL;
        bool ok = b && fprintf(f, "((%s) %s (%s))", a, rel[r->ival], b) >= 0;
        free(a);
        free(b);
        return ok;
    }
    if (r->kind != SYM_FUNC || r->n == 0)
        return false;
    bool and = strcmp(r->name, "And") == 0, or = strcmp(r->name, "Or") == 0;
    if (strcmp(r->name, "Not") == 0 && r->n == 1)
        return fputs("(~", f) >= 0 && region_write(f, r->kid[0]) && fputs(")", f) >= 0;
    if (!and && !or)
        return false;
    if (fputs("(", f) < 0)
        return false;
    for (size_t i = 0; i < r->n; i++)
        if ((i && fputs(and ? " & " : " | ", f) < 0) || !region_write(f, r->kid[i]))
            return false;
    return fputs(")", f) >= 0;
}

char *sym_ineq_region_text(const struct sym_node *region) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    bool ok = region_write(f, region);
    if (fclose(f) != 0)
        ok = false;
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- truth at a point --------------------------------------------------------------- */

/* +1 / -1 for oo / -oo, 0 otherwise */
static int infinity_sign(const struct cc_node *n) {
    if (n->kind == CC_N_NAME && strcmp(n->v.name, "oo") == 0)
        return 1;
    if (n->kind == CC_N_UNARY && n->op == CC_OP_NEG && n->nchild == 1)
        return -infinity_sign(n->child[0]);
    return 0;
}

/* a side's value: 0, or -1 (no value there) */
static int side(const struct cc_node *n, const struct sym_point *p, mpc_t out) {
    int inf = infinity_sign(n);
    if (inf) {
        mpfr_set_inf(mpc_realref(out), inf);
        mpfr_set_ui(mpc_imagref(out), 0, MPFR_RNDN);
        return 0;
    }
    return sym_numeval(n, p, out);
}

static bool non_real(const mpc_t v) {
    if (mpfr_inf_p(mpc_realref(v)))
        return false;
    mpfr_t re, im;
    mpfr_inits2(SYM_NUM_BITS, re, im, (mpfr_ptr)0);
    mpfr_abs(re, mpc_realref(v), MPFR_RNDN);
    mpfr_abs(im, mpc_imagref(v), MPFR_RNDN);
    if (mpfr_cmp_ui(re, 1) < 0)
        mpfr_set_ui(re, 1, MPFR_RNDN);
    mpfr_mul_d(re, re, IMAG_TOL, MPFR_RNDN);
    bool out = mpfr_cmp(im, re) > 0;
    mpfr_clears(re, im, (mpfr_ptr)0);
    return out;
}

/* l op r for two real values; at a critical point (tie) equal within
 * TIE_TOL (a bound or root met at 128 bits), elsewhere only when exactly
 * equal: x*exp(x) at x = -10**6 is -10**-434288, below any tolerance, and
 * still negative */
static enum tv compare(enum cc_op op, const mpc_t l, const mpc_t r, bool tie) {
    if (non_real(l) || non_real(r))
        return TV_FALSE; /* no order between non-real values: not a real solution */
    int sgn;
    if (mpfr_inf_p(mpc_realref(l)) || mpfr_inf_p(mpc_realref(r))) {
        sgn = mpfr_cmp(mpc_realref(l), mpc_realref(r));
    } else {
        mpfr_t d, s, t;
        mpfr_inits2(SYM_NUM_BITS, d, s, t, (mpfr_ptr)0);
        mpfr_sub(d, mpc_realref(l), mpc_realref(r), MPFR_RNDN);
        mpfr_abs(s, mpc_realref(l), MPFR_RNDN);
        mpfr_abs(t, mpc_realref(r), MPFR_RNDN);
        mpfr_max(s, s, t, MPFR_RNDN);
        if (mpfr_cmp_ui(s, 1) < 0)
            mpfr_set_ui(s, 1, MPFR_RNDN);
        mpfr_mul_d(s, s, TIE_TOL, MPFR_RNDN);
        mpfr_abs(t, d, MPFR_RNDN);
        sgn = tie && mpfr_cmp(t, s) <= 0 ? 0 : mpfr_sgn(d);
        mpfr_clears(d, s, t, (mpfr_ptr)0);
    }
    switch (op) {
    case CC_OP_LT: return sgn < 0 ? TV_TRUE : TV_FALSE;
    case CC_OP_LE: return sgn <= 0 ? TV_TRUE : TV_FALSE;
    case CC_OP_GT: return sgn > 0 ? TV_TRUE : TV_FALSE;
    case CC_OP_GE: return sgn >= 0 ? TV_TRUE : TV_FALSE;
    case CC_OP_NE: return sgn != 0 ? TV_TRUE : TV_FALSE;
    case CC_OP_EQ: return sgn == 0 ? TV_TRUE : TV_FALSE;
    default: return TV_UNKNOWN;
    }
}

static enum tv truth(const struct cc_node *n, const struct sym_point *p, bool tie) {
    switch (n->kind) {
    case CC_N_BOOL: return n->v.b ? TV_TRUE : TV_FALSE;
    case CC_N_BINARY:
        if (n->op == CC_OP_BITAND || n->op == CC_OP_AND)
            return and3(truth(n->child[0], p, tie), truth(n->child[1], p, tie));
        if (n->op == CC_OP_BITOR || n->op == CC_OP_OR)
            return or3(truth(n->child[0], p, tie), truth(n->child[1], p, tie));
        return TV_UNKNOWN;
    case CC_N_UNARY:
        if (n->op == CC_OP_INVERT || n->op == CC_OP_NOT) {
            enum tv t = truth(n->child[0], p, tie);
            return t == TV_UNKNOWN ? t : t == TV_TRUE ? TV_FALSE : TV_TRUE;
        }
        return TV_UNKNOWN;
    case CC_N_COMPARE: {
        enum tv acc = TV_TRUE;
        mpc_t l, r;
        mpc_init2(l, SYM_NUM_BITS);
        mpc_init2(r, SYM_NUM_BITS);
        for (uint32_t i = 0; i + 1 < n->nchild && acc != TV_FALSE; i++) {
            if (side(n->child[i], p, l) != 0 || side(n->child[i + 1], p, r) != 0)
                acc = and3(acc, TV_UNKNOWN);
            else
                acc = and3(acc, compare(n->cmp_ops[i], l, r, tie));
        }
        mpc_clear(l);
        mpc_clear(r);
        return acc;
    }
    default: return TV_UNKNOWN;
    }
}

/* ---- sample points ------------------------------------------------------------------- */

struct pts {
    mpfr_t v[MAX_CRIT * 8 + 64];
    bool crit[MAX_CRIT * 8 + 64]; /* a critical point itself: ties count */
    size_t n;
};

static void pts_add_d(struct pts *s, double d) {
    if (s->n < sizeof s->v / sizeof *s->v) {
        s->crit[s->n] = false;
        mpfr_set_d(s->v[s->n++], d, MPFR_RNDN);
    }
}

static void pts_add(struct pts *s, const mpfr_t v, bool crit) {
    if (s->n < sizeof s->v / sizeof *s->v && mpfr_number_p(v)) {
        s->crit[s->n] = crit;
        mpfr_set(s->v[s->n++], v, MPFR_RNDN);
    }
}

static int cmp_mpfr(const void *a, const void *b) {
    return mpfr_cmp(*(const mpfr_t *)a, *(const mpfr_t *)b);
}

static bool mentions(const struct cc_node *n, const char *var) {
    if (n->kind == CC_N_NAME && strcmp(n->v.name, var) == 0)
        return true;
    for (uint32_t i = 0; i < n->nchild; i++)
        if (n->child[i] && mentions(n->child[i], var))
            return true;
    return false;
}

/* the real values of the sides of every comparison in n that do not
 * mention var (a region's bounds) */
static void bounds(const struct cc_node *n, const char *var, const struct sym_point *p,
                   mpfr_t *crit, size_t *nc) {
    if (n->kind == CC_N_COMPARE) {
        mpc_t v;
        mpc_init2(v, SYM_NUM_BITS);
        for (uint32_t i = 0; i < n->nchild && *nc < MAX_CRIT; i++)
            if (!mentions(n->child[i], var) && !infinity_sign(n->child[i]) &&
                sym_numeval(n->child[i], p, v) == 0 && !non_real(v))
                mpfr_set(crit[(*nc)++], mpc_realref(v), MPFR_RNDN);
        mpc_clear(v);
        return;
    }
    for (uint32_t i = 0; i < n->nchild; i++)
        if (n->child[i])
            bounds(n->child[i], var, p, crit, nc);
}

/* the grid, each critical point, points beside it, between consecutive
 * ones and beyond the outermost */
static void fill_points(struct pts *s, mpfr_t *crit, size_t nc) {
    static const double grid[] = {-1e6, -97.3, -7.31, -2.93, -1.13, -0.37, -0.011, 0, 0.023, 0.61,
                                  1.07, 1.73, 2.51, 3.31, 5.9, 8.93, 101.1, 1e6};
    s->n = 0;
    for (size_t i = 0; i < sizeof grid / sizeof *grid; i++)
        pts_add_d(s, grid[i]);
    qsort(crit, nc, sizeof *crit, cmp_mpfr);
    mpfr_t t, h;
    mpfr_inits2(SYM_NUM_BITS, t, h, (mpfr_ptr)0);
    /* one point per critical value: a root of the equation and the set's
     * bound met at 128 bits differ in the last bits, and the points
     * between them are critical too (a tie there is no sign) */
    size_t m = 0;
    for (size_t i = 0; i < nc; i++) {
        if (m) {
            mpfr_sub(t, crit[i], crit[m - 1], MPFR_RNDN);
            mpfr_abs(t, t, MPFR_RNDN);
            mpfr_abs(h, crit[i], MPFR_RNDN);
            if (mpfr_cmp_ui(h, 1) < 0)
                mpfr_set_ui(h, 1, MPFR_RNDN);
            mpfr_mul_d(h, h, 1e-30, MPFR_RNDN);
            if (mpfr_cmp(t, h) <= 0)
                continue;
        }
        if (m != i)
            mpfr_set(crit[m], crit[i], MPFR_RNDN);
        m++;
    }
    nc = m;
    for (size_t i = 0; i < nc; i++) {
        pts_add(s, crit[i], true);
        mpfr_abs(h, crit[i], MPFR_RNDN);
        if (mpfr_cmp_ui(h, 1) < 0)
            mpfr_set_ui(h, 1, MPFR_RNDN);
        mpfr_mul_d(h, h, 1e-6, MPFR_RNDN);
        mpfr_add(t, crit[i], h, MPFR_RNDN);
        pts_add(s, t, false);
        mpfr_sub(t, crit[i], h, MPFR_RNDN);
        pts_add(s, t, false);
        if (i + 1 < nc) {
            for (int w = 1; w <= 3; w++) { /* at 1/4, 1/2, 3/4 of the gap */
                mpfr_sub(t, crit[i + 1], crit[i], MPFR_RNDN);
                mpfr_mul_d(t, t, w / 4.0, MPFR_RNDN);
                mpfr_add(t, t, crit[i], MPFR_RNDN);
                pts_add(s, t, false);
            }
        }
    }
    if (nc) {
        for (int k = 1; k <= 10; k *= 10) {
            mpfr_sub_ui(t, crit[0], (unsigned long)k, MPFR_RNDN);
            pts_add(s, t, false);
            mpfr_add_ui(t, crit[nc - 1], (unsigned long)k, MPFR_RNDN);
            pts_add(s, t, false);
        }
    }
    mpfr_clears(t, h, (mpfr_ptr)0);
}

/* ---- the check --------------------------------------------------------------------------- */

struct parsed {
    struct cc_arena *arena;
    const struct cc_node *r[MAX_REGIONS];
    size_t n;
};

static bool parse_regions(struct parsed *pr, const char *const *regions, size_t n) {
    pr->n = 0;
    pr->arena = cc_arena_new();
    if (!pr->arena || n > MAX_REGIONS)
        return false;
    for (size_t i = 0; i < n; i++) {
        struct cc_expr_error ee = {0};
        const struct cc_node *r = cc_expr_screen_parse(pr->arena, regions[i], strlen(regions[i]),
                                                       CC_DIALECT_SYMBOLIC, &ee);
        if (!r)
            return false;
        pr->r[pr->n++] = r;
    }
    return true;
}

static enum tv member(const struct parsed *pr, const struct sym_point *p, bool tie) {
    enum tv acc = TV_FALSE;
    for (size_t i = 0; i < pr->n && acc != TV_TRUE; i++)
        acc = or3(acc, truth(pr->r[i], p, tie));
    return acc;
}

/* The parameter values of row k (every parameter a different value). */
static void param_row(int k, size_t n, mpc_t *vals) {
    static const double rows[] = {2, -1.5, 1.0 / 3, -1, 0.7};
    for (size_t i = 0; i < n; i++)
        mpc_set_d(vals[i], k == 4 ? 3.0 - (double)i * 1.25 : rows[k] * (1 + 0.5 * (double)i),
                  MPC_RNDNN);
}

static void describe(char *w, size_t cap, const char *var, const mpfr_t x, const char **names,
                     mpc_t *vals, size_t np, enum tv holds) {
    int at = mpfr_snprintf(w, cap, "%s = %.12Rg", var, x);
    for (size_t i = 0; i < np && at > 0 && (size_t)at < cap; i++)
        at += snprintf(w + at, cap - (size_t)at, "%s%s = %g", i ? ", " : " (", names[i],
                       mpfr_get_d(mpc_realref(vals[i]), MPFR_RNDN));
    if (at > 0 && (size_t)at < cap)
        snprintf(w + at, cap - (size_t)at, "%s: the inequality %s there but the set %s it",
                 np ? ")" : "", holds == TV_TRUE ? "holds" : "fails",
                 holds == TV_TRUE ? "excludes" : "includes");
}

enum sym_ineq_verdict sym_ineq_check(const struct cc_node *ineq, const char *var,
                                     const char *const *regions, size_t n, const mpfr_t *roots,
                                     size_t nroots, char *witness, size_t cap) {
    struct parsed pr;
    if (!parse_regions(&pr, regions, n)) {
        cc_arena_free(pr.arena);
        return SYM_INEQ_UNCHECKED;
    }
    const char *all[MAX_PARAMS + 2];
    size_t nall = 0;
    sym_numeval_symbols(ineq, all, &nall, MAX_PARAMS + 1);
    for (size_t i = 0; i < pr.n; i++)
        sym_numeval_symbols(pr.r[i], all, &nall, MAX_PARAMS + 1);
    const char *names[MAX_PARAMS + 1];
    size_t np = 0;
    for (size_t i = 0; i < nall && np < MAX_PARAMS; i++)
        if (strcmp(all[i], var))
            names[np++] = all[i];
    names[np] = var;
    mpc_t vals[MAX_PARAMS + 1];
    mpc_srcptr ptrs[MAX_PARAMS + 1];
    for (size_t i = 0; i <= np; i++) {
        mpc_init2(vals[i], SYM_NUM_BITS);
        ptrs[i] = vals[i];
    }
    static struct pts s; /* large; the worker is single-threaded */
    static mpfr_t crit[MAX_CRIT];
    static bool inited;
    if (!inited) {
        for (size_t i = 0; i < sizeof s.v / sizeof *s.v; i++)
            mpfr_init2(s.v[i], SYM_NUM_BITS);
        for (size_t i = 0; i < MAX_CRIT; i++)
            mpfr_init2(crit[i], SYM_NUM_BITS);
        inited = true;
    }
    size_t judged = 0;
    enum sym_ineq_verdict out = SYM_INEQ_AGREES;
    for (int row = 0; row < (np ? 5 : 1) && out == SYM_INEQ_AGREES; row++) {
        param_row(row, np, vals);
        struct sym_point pp = {np, names, ptrs};
        size_t nc = 0;
        for (size_t i = 0; i < pr.n; i++)
            bounds(pr.r[i], var, &pp, crit, &nc);
        for (size_t i = 0; i < nroots && !np && nc < MAX_CRIT; i++)
            mpfr_set(crit[nc++], roots[i], MPFR_RNDN);
        fill_points(&s, crit, nc);
        struct sym_point p = {np + 1, names, ptrs};
        for (size_t k = 0; k < s.n; k++) {
            mpc_set_fr(vals[np], s.v[k], MPC_RNDNN);
            enum tv want = truth(ineq, &p, s.crit[k]);
            enum tv have = want == TV_UNKNOWN ? TV_UNKNOWN : member(&pr, &p, s.crit[k]);
            if (want == TV_UNKNOWN || have == TV_UNKNOWN)
                continue;
            judged++;
            if (want != have) {
                describe(witness, cap, var, s.v[k], names, vals, np, want);
                out = SYM_INEQ_REFUTED;
                break;
            }
        }
    }
    for (size_t i = 0; i <= np; i++)
        mpc_clear(vals[i]);
    cc_arena_free(pr.arena);
    if (out == SYM_INEQ_AGREES && judged == 0)
        return SYM_INEQ_UNCHECKED;
    return out;
}
