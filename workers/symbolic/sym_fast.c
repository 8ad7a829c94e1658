/* The symbolic fast paths (see sym_fast.h). */
#include "workers/symbolic/sym_fast.h"

#include <stdlib.h>
#include <string.h>

#include "protocol/flag.h"
#include "workers/symbolic/sym_factor.h"
#include "workers/symbolic/sym_measure.h"
#include "workers/symbolic/sym_poly.h"
#include "workers/symbolic/sym_print.h"

bool sym_fast_enabled(void) {
    static int on = -1;
    if (on < 0) {
        on = cc_flag(CC_FLAG_SYMBOLIC_FASTPATH);
    }
    return on;
}

static bool names_free(const struct cc_node *n) {
    if (n->kind == CC_N_NAME)
        return false;
    for (uint32_t i = 0; i < n->nchild; i++)
        if (!names_free(n->child[i]))
            return false;
    return true;
}

/* A polynomial the CAS keeps as written (up to the order of terms and
 * merging like terms): a number, or one written expanded. */
static bool kept_as_written(const struct cc_node *n) {
    return names_free(n) || sym_poly_written_expanded(n);
}

/* The polynomial of root when it is one the CAS keeps as written: a number,
 * or a polynomial written expanded. 0, or -1 (nothing to free). */
static int kept_polynomial(const struct cc_node *root, struct sym_vars *v, struct sym_poly *p) {
    memset(v, 0, sizeof *v);
    if (sym_poly_from_ast(root, v, p) < 0)
        return -1;
    if (kept_as_written(root))
        return 0;
    sym_poly_clear(p);
    return -1;
}

/* diff(P, x) of a polynomial P the CAS keeps as written, by a symbol x:
 * the derivative term by term, which the CAS gives expanded too. */
static int derivative(const struct cc_node *call, struct sym_vars *v, struct sym_poly *out) {
    const struct cc_node *x = call->nchild == 2 ? call->child[1] : NULL;
    if (!x || x->kind != CC_N_NAME || strcmp(call->v.name, "diff") != 0)
        return -1;
    struct sym_poly p;
    if (kept_polynomial(call->child[0], v, &p) < 0)
        return -1;
    /* x must read as a symbol: the polynomial reader says which index */
    struct sym_poly xp;
    int rc = sym_poly_from_ast(x, v, &xp);
    if (rc == 0) {
        sym_poly_clear(&xp);
        size_t i = 0;
        while (strcmp(v->name[i], x->v.name) != 0)
            i++;
        rc = sym_poly_diff(&p, i, out);
    }
    sym_poly_clear(&p);
    return rc;
}

/* The exact value of arithmetic on integer literals (+ - * /, literal
 * integer powers), into q; -1 for anything else, a zero divisor, 0**k
 * with k <= 0, or a result beyond SYM_POLY_MAX_BITS. */
static int rational_value(const struct cc_node *n, mpq_t q) {
    if (n->kind == CC_N_INT) {
        if (mpz_sizeinbase(n->v.z, 2) > SYM_POLY_MAX_BITS)
            return -1;
        mpq_set_z(q, n->v.z);
        return 0;
    }
    if (n->kind == CC_N_UNARY && (n->op == CC_OP_NEG || n->op == CC_OP_POS)) {
        if (rational_value(n->child[0], q) < 0)
            return -1;
        if (n->op == CC_OP_NEG)
            mpq_neg(q, q);
        return 0;
    }
    if (n->kind != CC_N_BINARY || rational_value(n->child[0], q) < 0)
        return -1;
    if (n->op == CC_OP_POW || n->op == CC_OP_BITXOR) {
        const struct cc_node *k = n->child[1];
        if (k->kind != CC_N_INT || !mpz_fits_slong_p(k->v.z))
            return -1;
        long e = mpz_get_si(k->v.z);
        size_t bits = mpz_sizeinbase(mpq_numref(q), 2) + mpz_sizeinbase(mpq_denref(q), 2);
        if (mpq_sgn(q) == 0 ? e <= 0 : (e < 0 || bits * (size_t)e > SYM_POLY_MAX_BITS))
            return -1;
        mpz_pow_ui(mpq_numref(q), mpq_numref(q), (unsigned long)e);
        mpz_pow_ui(mpq_denref(q), mpq_denref(q), (unsigned long)e);
        return 0;
    }
    mpq_t b;
    mpq_init(b);
    int rc = rational_value(n->child[1], b);
    if (rc == 0) {
        switch (n->op) {
        case CC_OP_ADD: mpq_add(q, q, b); break;
        case CC_OP_SUB: mpq_sub(q, q, b); break;
        case CC_OP_MUL: mpq_mul(q, q, b); break;
        case CC_OP_DIV:
            if (mpq_sgn(b) == 0)
                rc = -1;
            else
                mpq_div(q, q, b);
            break;
        default: rc = -1;
        }
    }
    mpq_clear(b);
    if (rc == 0 && (mpz_sizeinbase(mpq_numref(q), 2) > SYM_POLY_MAX_BITS ||
                    mpz_sizeinbase(mpq_denref(q), 2) > SYM_POLY_MAX_BITS))
        rc = -1;
    return rc;
}

struct sym_node *sym_fast_value(const struct cc_node *root) {
    if (names_free(root)) { /* plain numbers: no polynomial needed */
        mpq_t q;
        mpq_init(q);
        struct sym_node *t = rational_value(root, q) == 0 ? sym_num_q(q) : NULL;
        mpq_clear(q);
        return t;
    }
    struct sym_vars v;
    struct sym_poly p;
    if (root->kind == CC_N_CALL ? derivative(root, &v, &p) < 0 : kept_polynomial(root, &v, &p) < 0)
        return NULL;
    struct sym_node *t = sym_poly_tree(&p, &v);
    sym_poly_clear(&p);
    return t;
}

/* Names simplify_expression's rewritings look for in the printed input
 * (simplify_expression.c REWRITES): a symbol spelled with one of them
 * would trigger a rewriting, whose answer this path does not know. */
static bool rewrite_free(const char *text) {
    static const char *const names[] = {"sin", "cos", "tan", "sec", "exp", "log", "/", "I"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strstr(text, names[i]))
            return false;
    return true;
}

/* p has one symbol, integer coefficients and a certain factorisation:
 * its factored tree (sym_factor.h), else NULL. Tried before anything is
 * printed, so that a declined polynomial costs only this. */
static struct sym_node *factored_tree(const struct sym_poly *p, const struct sym_vars *v) {
    if (v->n != 1 || sym_poly_nvars_used(p, v) != 1 || !sym_poly_integral(p))
        return NULL;
    return sym_factor_univariate(p, v, 0);
}

/* The forms of p (see sym_fast_forms) given its factored tree f (taken;
 * NULL: no factored form): simplified, expanded and, with f, factored;
 * or NULL to decline. */
static json_t *forms(const struct sym_poly *p, const struct sym_vars *v, struct sym_node *f,
                     const char *input, long input_ops) {
    struct sym_node *t = rewrite_free(input) ? sym_poly_tree(p, v) : NULL;
    char *expanded = t ? sym_print(t) : NULL;
    char *factored = expanded && f ? sym_print(f) : NULL;
    json_t *out = NULL;
    if (expanded && (factored || !f)) /* giac's simplify of a polynomial is its expanded form */
        out = json_pack("{s:s, s:s}", "simplified",
                        input_ops < sym_count_ops(t) ? input : expanded, "expanded", expanded);
    if (out && factored && json_object_set_new(out, "factored", json_string(factored)) < 0) {
        json_decref(out);
        out = NULL;
    }
    free(factored);
    free(expanded);
    sym_free(f);
    sym_free(t);
    return out;
}

static bool power(const struct cc_node *n) {
    return n->kind == CC_N_BINARY && (n->op == CC_OP_POW || n->op == CC_OP_BITXOR);
}

static bool negation(const struct cc_node *n) {
    return (n->kind == CC_N_UNARY && n->op == CC_OP_NEG) ||
           (n->kind == CC_N_INT && mpz_sgn(n->v.z) < 0);
}

/* A power whose base holds a negated power: (1 - x**2)**2, (-2*x**2 +
 * 1)**2. giac's expand leaves such a value half expanded (-2*x**2 +
 * (x**2)**2 + 1), which this path does not reproduce: it declines.
 * in_base: n lies in a power's base. */
static bool negated_power_in_base(const struct cc_node *n, bool in_base) {
    if (in_base && n->kind == CC_N_UNARY && n->op == CC_OP_NEG && cc_node_any(n->child[0], power))
        return true;
    if (in_base && n->kind == CC_N_BINARY && n->op == CC_OP_SUB && cc_node_any(n->child[1], power))
        return true;
    /* a negative factor times a power: -2*x**2 */
    if (in_base && n->kind == CC_N_BINARY && (n->op == CC_OP_MUL || n->op == CC_OP_DIV) &&
        cc_node_any(n, power) && cc_node_any(n, negation))
        return true;
    bool pow = n->kind == CC_N_BINARY && (n->op == CC_OP_POW || n->op == CC_OP_BITXOR);
    for (uint32_t i = 0; i < n->nchild; i++)
        if (negated_power_in_base(n->child[i], in_base || (pow && i == 0)))
            return true;
    return false;
}

/* The polynomial forms() takes, read from root (integer coefficients,
 * every symbol it reads used), and its factored tree when certain (else
 * *f is NULL); 0, or -1 (nothing to free) when the forms path declines
 * before seeing the input's print. */
static int forms_polynomial(const struct cc_node *root, struct sym_vars *v, struct sym_poly *p,
                            struct sym_node **f) {
    memset(v, 0, sizeof *v);
    if (negated_power_in_base(root, false) || sym_poly_from_ast(root, v, p) < 0)
        return -1;
    if (v->n > 0 && sym_poly_nvars_used(p, v) == v->n && sym_poly_integral(p)) {
        *f = factored_tree(p, v);
        return 0;
    }
    sym_poly_clear(p);
    return -1;
}

bool sym_fast_forms_apply(const struct cc_node *root) {
    struct sym_vars v;
    struct sym_poly p;
    struct sym_node *f;
    if (forms_polynomial(root, &v, &p, &f) < 0)
        return false;
    sym_free(f);
    sym_poly_clear(&p);
    return true;
}

json_t *sym_fast_forms(const struct cc_node *root, const char *input, long input_ops) {
    struct sym_vars v;
    struct sym_poly p;
    struct sym_node *f;
    if (forms_polynomial(root, &v, &p, &f) < 0)
        return NULL;
    json_t *out = forms(&p, &v, f, input, input_ops);
    sym_poly_clear(&p);
    return out;
}

json_t *sym_fast_simplify(const struct cc_node *root) {
    struct sym_vars v;
    struct sym_poly p;
    if (kept_polynomial(root, &v, &p) < 0)
        return NULL;
    struct sym_node *fac = factored_tree(&p, &v);
    struct sym_node *t = fac ? sym_poly_tree(&p, &v) : NULL;
    char *text = t ? sym_print(t) : NULL;
    json_t *f = text ? forms(&p, &v, fac, text, sym_count_ops(t)) : (sym_free(fac), NULL);
    json_t *out = f ? json_pack("{s:b, s:s}", "ok", 1, "original", text) : NULL;
    if (out)
        json_object_update(out, f);
    json_decref(f);
    free(text);
    sym_free(t);
    sym_poly_clear(&p);
    return out;
}

/* p printed (malloc'd), NULL on OOM. */
static char *poly_text(const struct sym_poly *p, const struct sym_vars *v) {
    struct sym_node *t = sym_poly_tree(p, v);
    char *s = t ? sym_print(t) : NULL;
    sym_free(t);
    return s;
}

static int rational_identity(const struct cc_node *a, const struct cc_node *b);

/* Two rational functions that are equal: difference 0, each side printed
 * by the CAS. */
static int rational_zero(const struct cc_node *a, const struct cc_node *b,
                         struct sym_fast_diff *out) {
    if (rational_identity(a, b) < 0)
        return -1;
    out->zero = true;
    out->d = strdup("0");
    return out->d ? 0 : -1;
}

/* a = b as rational functions (a.num * b.den == b.num * a.den), read from
 * the ASTs: the CAS's simplified difference is then its normal form, 0.
 * 0 when they are equal, -1 when they differ or cannot be read. */
static int rational_identity(const struct cc_node *a, const struct cc_node *b) {
    struct sym_vars v = {0};
    struct sym_rat ra, rb;
    if (sym_rat_from_ast(a, &v, &ra) < 0)
        return -1;
    if (sym_rat_from_ast(b, &v, &rb) < 0) {
        sym_rat_clear(&ra);
        return -1;
    }
    struct sym_poly x, y, d;
    int rc = sym_poly_mul(&ra.num, &rb.den, &x);
    if (rc == 0) {
        rc = sym_poly_mul(&rb.num, &ra.den, &y);
        if (rc == 0) {
            rc = sym_poly_add(&x, &y, -1, &d);
            if (rc == 0) {
                rc = d.n == 0 ? 0 : -1;
                sym_poly_clear(&d);
            }
            sym_poly_clear(&y);
        }
        sym_poly_clear(&x);
    }
    sym_rat_clear(&ra);
    sym_rat_clear(&rb);
    return rc;
}

int sym_fast_difference(const struct cc_node *a, const struct cc_node *b,
                        struct sym_fast_diff *out) {
    memset(out, 0, sizeof *out);
    struct sym_vars v = {0};
    struct sym_poly pa, pb, d;
    if (sym_poly_from_ast(a, &v, &pa) < 0)
        return rational_zero(a, b, out);
    if (sym_poly_from_ast(b, &v, &pb) < 0) {
        sym_poly_clear(&pa);
        return rational_zero(a, b, out);
    }
    int rc = sym_poly_add(&pa, &pb, -1, &d);
    if (rc == 0 && !sym_poly_integral(&d)) {
        sym_poly_clear(&d);
        rc = -1;
    }
    if (rc == 0) {
        out->zero = d.n == 0;
        out->d = poly_text(&d, &v);
        if (kept_as_written(a))
            out->a = poly_text(&pa, &v);
        if (kept_as_written(b))
            out->b = poly_text(&pb, &v);
        sym_poly_clear(&d);
        if (!out->d)
            rc = -1;
    }
    sym_poly_clear(&pa);
    sym_poly_clear(&pb);
    if (rc < 0)
        sym_fast_diff_free(out);
    return rc;
}

void sym_fast_diff_free(struct sym_fast_diff *f) {
    free(f->a);
    free(f->b);
    free(f->d);
    memset(f, 0, sizeof *f);
}
