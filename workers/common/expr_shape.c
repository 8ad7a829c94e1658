/* Explosive-shape check (see expr_shape.h). The walk uses an explicit stack
 * so a deep tree cannot overflow the C stack, and it stops after
 * CC_EXPR_SHAPE_MAX_NODES nodes. Digit counts are computed with MPFR at a
 * precision far above what the bounds need, so 10**4000 (4001 digits) and
 * 10**3999 (4000 digits) land on the right side of the limit. */
#include "workers/common/expr_shape.h"

#include <gmp.h>
#include <math.h>
#include <mpfr.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_funcs.h"

#define SYMBOLIC_EXP_LIMIT 200
#define MONOMIAL_EXP_LIMIT 10000   /* a power of a product of symbols expands to itself */
#define SYMBOLIC_TOWER_LIMIT 8
#define DIGIT_LIMIT 4000
#define UNBOUNDED_EXP_BITS 1000

/* A node under unary + / - signs; *neg tells whether the signs flip it. */
static const struct cc_node *unsigned_node(const struct cc_node *n, bool *neg) {
    *neg = false;
    while (n->kind == CC_N_UNARY && (n->op == CC_OP_NEG || n->op == CC_OP_POS)) {
        if (n->op == CC_OP_NEG) *neg = !*neg;
        n = n->child[0];
    }
    return n;
}

static bool is_pow(const struct cc_node *n) {
    return n->kind == CC_N_BINARY && n->op == CC_OP_POW;
}

static bool is_number(const struct cc_node *n) {
    return n->kind == CC_N_INT || (n->kind == CC_N_FLOAT && !(n->flags & CC_NF_IMAG));
}

/* |literal| into an MPFR value rounded in direction rnd. */
static void literal_abs_rounded(const struct cc_node *n, mpfr_t out, mpfr_rnd_t rnd) {
    if (n->kind == CC_N_INT) mpfr_set_z(out, n->v.z, rnd);
    else mpfr_set_d(out, n->v.f.d, rnd);
    mpfr_abs(out, out, rnd);
}

/* |literal| exactly (prec is large enough for any literal that passed the
 * 2000-character cap). */
static void literal_abs(const struct cc_node *n, mpfr_t out) {
    literal_abs_rounded(n, out, MPFR_RNDN);
}

/* true when the subtree holds a free symbol (a name that is no constant).
 * stack is scratch space of CC_EXPR_SHAPE_MAX_NODES entries. */
static bool has_symbol(const struct cc_node *root, const struct cc_node **stack) {
    size_t sp = 0, seen = 0;
    stack[sp++] = root;
    while (sp && seen++ < CC_EXPR_SHAPE_MAX_NODES) {
        const struct cc_node *n = stack[--sp];
        if (n->kind == CC_N_NAME && !cc_expr_is_constant(n->v.name)) return true;
        for (uint32_t i = 0; i < n->nchild && sp < CC_EXPR_SHAPE_MAX_NODES; i++)
            stack[sp++] = n->child[i];
    }
    return false;
}

/* A product, quotient or numeric power of symbols and numbers: its power
 * expands to a single term (x**1000, (2*x*y)**500), so only a base with a
 * sum in it pays the superlinear expansion the exponent limit is for. */
static bool monomial(const struct cc_node *n) {
    for (;;) {
        if (n->kind == CC_N_UNARY && (n->op == CC_OP_NEG || n->op == CC_OP_POS)) {
            n = n->child[0];
            continue;
        }
        if (n->kind == CC_N_NAME || is_number(n)) return true;
        if (n->kind != CC_N_BINARY) return false;
        if (n->op == CC_OP_POW) {
            if (!is_number(n->child[1])) return false;
            n = n->child[0];
            continue;
        }
        if (n->op != CC_OP_MUL && n->op != CC_OP_DIV) return false;
        if (!monomial(n->child[0])) return false; /* recursion bounded by the parser's depth cap */
        n = n->child[1];
    }
}

static int refuse_symbolic(const mpfr_t e, int limit, struct cc_expr_error *err, uint32_t pos) {
    mpz_t z;
    mpz_init(z);
    mpfr_get_z(z, e, MPFR_RNDZ);
    size_t digits = mpz_sizeinbase(z, 10);
    mpz_clear(z);
    cc_expr_set_error(err, "resource_exhausted", pos,
                      "a symbolic power with an exponent of about %zu digits exceeds the limit "
                      "of %d: expanding it is superlinear in the exponent",
                      digits, limit);
    return -1;
}

/* floor(log10(|base|) * e) with |base| > 1, computed in precision prec and
 * rounding direction rnd throughout (so RNDD gives a lower bound and RNDU an
 * upper bound of the exact floor). */
static void digits_floor(const struct cc_node *base, const mpfr_t e, mpfr_prec_t prec,
                         mpfr_rnd_t rnd, mpfr_t out) {
    mpfr_t b;
    mpfr_init2(b, prec);
    literal_abs_rounded(base, b, rnd);
    mpfr_log10(out, b, rnd);
    mpfr_mul(out, out, e, rnd);
    mpfr_floor(out, out);
    mpfr_clear(b);
}

/* floor(log10(|base|) * e) + 1, the digit count of |base|**e. A 64-bit
 * interval settles it unless the product lies within its width of an
 * integer; only then is the 8192-bit computation (which costs millions of
 * instructions) paid for. */
static void digit_count(const struct cc_node *base, const mpfr_t e, mpfr_t d) {
    mpfr_t lo, hi;
    mpfr_inits2(64, lo, hi, (mpfr_ptr)0);
    digits_floor(base, e, 64, MPFR_RNDD, lo);
    digits_floor(base, e, 64, MPFR_RNDU, hi);
    if (mpfr_equal_p(lo, hi)) mpfr_set(d, lo, MPFR_RNDN);
    else digits_floor(base, e, 8192, MPFR_RNDN, d);
    mpfr_add_ui(d, d, 1, MPFR_RNDN);
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

static void report_digits(const mpfr_t d, struct cc_expr_error *err, uint32_t pos) {
    mpz_t z;
    mpz_init(z);
    mpfr_get_z(z, d, MPFR_RNDZ);
    char *s = mpz_get_str(NULL, 10, z);
    cc_expr_set_error(err, "resource_exhausted", pos,
                      "the result would have about %s digits, over the limit of %d: it "
                      "cannot be rendered as a decimal string",
                      s ? s : "many", DIGIT_LIMIT);
    if (s) {
        void (*gfree)(void *, size_t);
        mp_get_memory_functions(NULL, NULL, &gfree);
        gfree(s, strlen(s) + 1);
    }
    mpz_clear(z);
}

/* Rule 4: decimal digits of |base|**|exp|. */
static int check_digits(const struct cc_node *base, const mpfr_t e, struct cc_expr_error *err,
                        uint32_t pos) {
    if (mpfr_cmp_ui_2exp(e, 1, UNBOUNDED_EXP_BITS) >= 0) {
        cc_expr_set_error(err, "resource_exhausted", pos,
                          "the result would have an unbounded number of digits, over the limit "
                          "of %d: it cannot be rendered as a decimal string", DIGIT_LIMIT);
        return -1;
    }
    double b = base->kind == CC_N_INT ? fabs(mpz_get_d(base->v.z)) : fabs(base->v.f.d);
    if (!(b > 1)) return 0; /* |base| <= 1: never more digits than the base */
    /* Clearly under the limit in binary64 (its error is ~1e-15 relative,
     * the margin is a whole digit): no MPFR needed. */
    if (log10(b) * mpfr_get_d(e, MPFR_RNDU) < DIGIT_LIMIT - 2) return 0;
    mpfr_t d;
    mpfr_init2(d, 8192);
    digit_count(base, e, d);
    int rc = 0;
    if (mpfr_cmp_ui(d, DIGIT_LIMIT) > 0) {
        report_digits(d, err, pos);
        rc = -1;
    }
    mpfr_clear(d);
    return rc;
}

/* Levels of a**b**c...: 1 for a plain power. */
static int tower_height(const struct cc_node *n) {
    int h = 0;
    bool neg;
    while (is_pow(n) && h <= SYMBOLIC_TOWER_LIMIT) {
        h++;
        n = unsigned_node(n->child[1], &neg);
    }
    return h;
}

/* An upper bound of |value| of a numeric exponent made of literals, signs,
 * quotients of literals and powers (2**3, (1/3)**3); false for anything
 * else, or past 1e6. */
static bool exponent_bound(const struct cc_node *n, double *out) {
    bool neg;
    n = unsigned_node(n, &neg);
    double a, b;
    if (is_number(n)) {
        *out = n->kind == CC_N_INT ? fabs(mpz_get_d(n->v.z)) : fabs(n->v.f.d);
    } else if (n->kind == CC_N_BINARY && n->op == CC_OP_DIV && exponent_bound(n->child[0], &a) &&
               is_number(unsigned_node(n->child[1], &neg))) {
        const struct cc_node *d = unsigned_node(n->child[1], &neg);
        double dv = d->kind == CC_N_INT ? fabs(mpz_get_d(d->v.z)) : fabs(d->v.f.d);
        if (!(dv > 0)) return false;
        *out = a / dv;
    } else if (is_pow(n) && exponent_bound(n->child[0], &a) && exponent_bound(n->child[1], &b)) {
        /* |p**q| <= max(|p|, 1/|p|)**|q| whatever the signs */
        if (!(a > 0)) return false;
        *out = pow(a >= 1 ? a : 1 / a, b);
    } else {
        return false;
    }
    return isfinite(*out) && *out <= 1e6;
}

/* A tower whose numeric exponent is small is an ordinary power: x**2**3 is
 * x**8 and (1/2)**2**2 is 1/16, which the tower rule refused as growing
 * "faster than any useful bound". It passes when the power with its
 * exponent's bound would pass rules 3 and 4 (200 for a symbolic base,
 * 4000 digits for a literal one). */
static bool small_tower(const struct cc_node *base, const struct cc_node *e, const struct cc_node **scratch) {
    double m;
    if (!exponent_bound(e, &m)) return false;
    if (has_symbol(base, scratch)) return m <= SYMBOLIC_EXP_LIMIT;
    if (!is_number(base)) return m <= SYMBOLIC_EXP_LIMIT;
    double b = base->kind == CC_N_INT ? fabs(mpz_get_d(base->v.z)) : fabs(base->v.f.d);
    return !(b > 1) || m * log10(b) < DIGIT_LIMIT - 2;
}

static int check_power(const struct cc_node *n, const struct cc_node **scratch,
                       struct cc_expr_error *err) {
    bool neg_e, neg_b;
    const struct cc_node *e = unsigned_node(n->child[1], &neg_e);
    const struct cc_node *base = unsigned_node(n->child[0], &neg_b);
    /* A tower is refused only when its exponent is all-numeric: 9**9**9 would
     * be evaluated, x**y**z is an ordinary symbolic expression, and
     * 9**9**9**9 - x still holds the numeric tower 9**(9**9**9). */
    if (is_pow(e) && tower_height(n) > SYMBOLIC_TOWER_LIMIT) {
        cc_expr_set_error(err, "resource_exhausted", n->pos,
                          "a power tower more than %d levels high is not evaluated",
                          SYMBOLIC_TOWER_LIMIT);
        return -1;
    }
    if (is_pow(e) && !has_symbol(e, scratch)) {
        if (small_tower(base, e, scratch)) return 0; /* its inner powers are walked on their own */
        cc_expr_set_error(err, "resource_exhausted", n->pos,
                          "a power tower (an exponent that is itself a power) is not evaluated: "
                          "the result grows faster than any useful bound");
        return -1;
    }
    if (!is_number(e)) return 0;
    if (e->kind == CC_N_FLOAT && !isfinite(e->v.f.d)) return 0;
    mpfr_t ev;
    mpfr_init2(ev, 8192);
    literal_abs(e, ev);
    int rc = 0;
    if (mpfr_cmp_ui(ev, 1) > 0) {
        if (has_symbol(base, scratch)) {
            int limit = monomial(base) ? MONOMIAL_EXP_LIMIT : SYMBOLIC_EXP_LIMIT;
            if (!neg_e && mpfr_cmp_ui(ev, (unsigned long)limit) > 0) rc = refuse_symbolic(ev, limit, err, n->pos);
        } else if (is_number(base) && (base->kind == CC_N_INT || isfinite(base->v.f.d))) {
            rc = check_digits(base, ev, err, n->pos);
        }
    }
    mpfr_clear(ev);
    return rc;
}

int cc_expr_shape_check(const struct cc_node *root, struct cc_expr_error *err) {
    if (!root) return 0;
    const struct cc_node **stack = malloc(2 * CC_EXPR_SHAPE_MAX_NODES * sizeof *stack);
    if (!stack) {
        cc_expr_set_error(err, "resource_exhausted", 0, "expression exhausted the memory ceiling");
        return -1;
    }
    size_t sp = 0, seen = 0;
    int rc = 0;
    stack[sp++] = root;
    while (sp && rc == 0 && seen++ < CC_EXPR_SHAPE_MAX_NODES) {
        const struct cc_node *n = stack[--sp];
        if (is_pow(n)) rc = check_power(n, stack + CC_EXPR_SHAPE_MAX_NODES, err);
        /* Children in reverse so the walk visits them left to right. */
        for (uint32_t i = n->nchild; i-- > 0 && sp < CC_EXPR_SHAPE_MAX_NODES;)
            stack[sp++] = n->child[i];
    }
    free(stack);
    return rc;
}
