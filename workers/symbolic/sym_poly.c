/* Small exact polynomials over the rationals (see sym_poly.h). */
#include "workers/symbolic/sym_poly.h"

#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_funcs.h"

void sym_poly_init(struct sym_poly *p) { memset(p, 0, sizeof *p); }

void sym_poly_clear(struct sym_poly *p) {
    for (size_t i = 0; i < p->n; i++)
        mpq_clear(p->t[i].c);
    free(p->t);
    memset(p, 0, sizeof *p);
}

static bool too_big(const mpq_t c) {
    return mpz_sizeinbase(mpq_numref(c), 2) > SYM_POLY_MAX_BITS ||
           mpz_sizeinbase(mpq_denref(c), 2) > SYM_POLY_MAX_BITS;
}

/* p += c * x^e. 0, or -1 when a bound is exceeded or on OOM. */
static int add_term(struct sym_poly *p, const unsigned short *e, const mpq_t c) {
    if (mpq_sgn(c) == 0)
        return 0;
    for (size_t i = 0; i < p->n; i++) {
        if (memcmp(p->t[i].e, e, sizeof p->t[i].e))
            continue;
        mpq_add(p->t[i].c, p->t[i].c, c);
        if (too_big(p->t[i].c))
            return -1;
        if (mpq_sgn(p->t[i].c) == 0) { /* cancelled: the last term fills the hole */
            mpq_clear(p->t[i].c);
            p->t[i] = p->t[--p->n];
        }
        return 0;
    }
    if (p->n == SYM_POLY_MAX_TERMS || too_big(c))
        return -1;
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 4;
        struct sym_term *t = realloc(p->t, cap * sizeof *t);
        if (!t)
            return -1;
        p->t = t;
        p->cap = cap;
    }
    memcpy(p->t[p->n].e, e, sizeof p->t[p->n].e);
    mpq_init(p->t[p->n].c);
    mpq_set(p->t[p->n].c, c);
    p->n++;
    return 0;
}

static int set_constant(struct sym_poly *p, const mpq_t c) {
    static const unsigned short zero[SYM_POLY_VARS];
    sym_poly_init(p);
    return add_term(p, zero, c);
}

int sym_poly_add(const struct sym_poly *a, const struct sym_poly *b, int sign,
                    struct sym_poly *out) {
    sym_poly_init(out);
    mpq_t c;
    mpq_init(c);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < a->n; i++)
        rc = add_term(out, a->t[i].e, a->t[i].c);
    for (size_t i = 0; rc == 0 && i < b->n; i++) {
        mpq_set(c, b->t[i].c);
        if (sign < 0)
            mpq_neg(c, c);
        rc = add_term(out, b->t[i].e, c);
    }
    mpq_clear(c);
    if (rc < 0)
        sym_poly_clear(out);
    return rc;
}

int sym_poly_mul(const struct sym_poly *a, const struct sym_poly *b, struct sym_poly *out) {
    sym_poly_init(out);
    mpq_t c;
    mpq_init(c);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < a->n; i++)
        for (size_t j = 0; rc == 0 && j < b->n; j++) {
            unsigned short e[SYM_POLY_VARS];
            for (size_t k = 0; k < SYM_POLY_VARS; k++) {
                e[k] = (unsigned short)(a->t[i].e[k] + b->t[j].e[k]);
                if (e[k] > SYM_POLY_MAX_DEGREE)
                    rc = -1;
            }
            mpq_mul(c, a->t[i].c, b->t[j].c);
            if (rc == 0)
                rc = add_term(out, e, c);
        }
    mpq_clear(c);
    if (rc < 0)
        sym_poly_clear(out);
    return rc;
}

bool sym_poly_constant(const struct sym_poly *p, mpq_t q) {
    mpq_set_ui(q, 0, 1);
    for (size_t i = 0; i < p->n; i++)
        for (size_t k = 0; k < SYM_POLY_VARS; k++)
            if (p->t[i].e[k])
                return false;
    if (p->n == 1)
        mpq_set(q, p->t[0].c);
    return true;
}

/* a ** k for a literal integer k: repeated products for k >= 0, a number's
 * reciprocal power for k < 0. */
static int poly_pow(const struct sym_poly *a, const struct cc_node *k, struct sym_poly *out) {
    if (k->kind != CC_N_INT || !mpz_fits_slong_p(k->v.z))
        return -1;
    long e = mpz_get_si(k->v.z);
    mpq_t q;
    mpq_init(q);
    bool constant = sym_poly_constant(a, q);
    int rc = -1;
    if (constant && mpq_sgn(q) != 0 && labs(e) <= SYM_POLY_MAX_BITS &&
        (mpz_sizeinbase(mpq_numref(q), 2) + mpz_sizeinbase(mpq_denref(q), 2)) * (size_t)labs(e) <=
            SYM_POLY_MAX_BITS) {
        mpz_pow_ui(mpq_numref(q), mpq_numref(q), (unsigned long)labs(e));
        mpz_pow_ui(mpq_denref(q), mpq_denref(q), (unsigned long)labs(e));
        if (e < 0)
            mpq_inv(q, q);
        rc = set_constant(out, q);
        if (rc < 0)
            sym_poly_clear(out);
    } else if (e >= 0 && e <= SYM_POLY_MAX_DEGREE && !(constant && mpq_sgn(q) == 0 && e == 0)) {
        mpq_set_ui(q, 1, 1);
        rc = set_constant(out, q);
        for (long i = 0; rc == 0 && i < e; i++) {
            struct sym_poly t;
            rc = sym_poly_mul(out, a, &t);
            sym_poly_clear(out);
            *out = t;
        }
        if (rc < 0)
            sym_poly_clear(out);
    }
    mpq_clear(q);
    return rc;
}

/* A bare name that denotes a symbol: not a constant, not a function (the
 * CAS refuses a function name used without arguments). */
static bool symbol_name(const char *s) {
    return !cc_expr_is_constant(s) && !cc_expr_is_function(s) && strcmp(s, "EulerGamma") != 0;
}

static int var_index(struct sym_vars *v, const char *name) {
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->name[i], name))
            return (int)i;
    if (v->n == SYM_POLY_VARS)
        return -1;
    v->name[v->n] = name;
    return (int)v->n++;
}

static int from_name(const struct cc_node *n, struct sym_vars *v, struct sym_poly *out) {
    int i = symbol_name(n->v.name) ? var_index(v, n->v.name) : -1;
    if (i < 0)
        return -1;
    unsigned short e[SYM_POLY_VARS] = {0};
    e[i] = 1;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    sym_poly_init(out);
    int rc = add_term(out, e, one);
    mpq_clear(one);
    if (rc < 0)
        sym_poly_clear(out);
    return rc;
}

static int from_binary(const struct cc_node *n, struct sym_vars *v, struct sym_poly *out) {
    struct sym_poly a, b;
    if (n->op == CC_OP_POW || n->op == CC_OP_BITXOR) { /* '^' is a power here */
        if (sym_poly_from_ast(n->child[0], v, &a) < 0)
            return -1;
        int rc = poly_pow(&a, n->child[1], out);
        sym_poly_clear(&a);
        return rc;
    }
    if (n->op != CC_OP_ADD && n->op != CC_OP_SUB && n->op != CC_OP_MUL && n->op != CC_OP_DIV)
        return -1;
    if (sym_poly_from_ast(n->child[0], v, &a) < 0)
        return -1;
    if (sym_poly_from_ast(n->child[1], v, &b) < 0) {
        sym_poly_clear(&a);
        return -1;
    }
    int rc = -1;
    mpq_t q;
    mpq_init(q);
    if (n->op == CC_OP_ADD || n->op == CC_OP_SUB) {
        rc = sym_poly_add(&a, &b, n->op == CC_OP_ADD ? 1 : -1, out);
    } else if (n->op == CC_OP_MUL) {
        rc = sym_poly_mul(&a, &b, out);
    } else if (sym_poly_constant(&b, q) && mpq_sgn(q) != 0) {
        mpq_inv(q, q);
        struct sym_poly inv;
        rc = set_constant(&inv, q);
        if (rc == 0)
            rc = sym_poly_mul(&a, &inv, out);
        sym_poly_clear(&inv);
    }
    mpq_clear(q);
    sym_poly_clear(&a);
    sym_poly_clear(&b);
    return rc;
}

int sym_poly_from_ast(const struct cc_node *n, struct sym_vars *v, struct sym_poly *out) {
    switch (n->kind) {
    case CC_N_INT: {
        if (mpz_sizeinbase(n->v.z, 2) > SYM_POLY_MAX_BITS)
            return -1;
        mpq_t q;
        mpq_init(q);
        mpq_set_z(q, n->v.z);
        int rc = set_constant(out, q);
        mpq_clear(q);
        if (rc < 0)
            sym_poly_clear(out);
        return rc;
    }
    case CC_N_NAME: return from_name(n, v, out);
    case CC_N_UNARY: {
        if (n->op != CC_OP_NEG && n->op != CC_OP_POS)
            return -1;
        if (sym_poly_from_ast(n->child[0], v, out) < 0)
            return -1;
        for (size_t i = 0; n->op == CC_OP_NEG && i < out->n; i++)
            mpq_neg(out->t[i].c, out->t[i].c);
        return 0;
    }
    case CC_N_BINARY: return from_binary(n, v, out);
    default: return -1;
    }
}

/* ---- the expanded shape as written ---------------------------------------- */

/* A factor of a monomial: a symbol, or a symbol to a literal positive
 * integer power. Records the symbol in seen[] and fails on a repeat. */
static bool symbol_factor(const struct cc_node *n, const char **seen, size_t *nseen) {
    const struct cc_node *s = n;
    if (n->kind == CC_N_BINARY && (n->op == CC_OP_POW || n->op == CC_OP_BITXOR)) {
        const struct cc_node *k = n->child[1];
        if (k->kind != CC_N_INT || mpz_sgn(k->v.z) <= 0)
            return false;
        s = n->child[0];
    }
    if (s->kind != CC_N_NAME || !symbol_name(s->v.name) || *nseen == SYM_POLY_VARS)
        return false;
    for (size_t i = 0; i < *nseen; i++)
        if (!strcmp(seen[i], s->v.name))
            return false;
    seen[(*nseen)++] = s->v.name;
    return true;
}

/* 7, x, 2*x**2*y (products associate to the left: ((2*x**2)*y)). */
static bool monomial(const struct cc_node *n, const char **seen, size_t *nseen, bool *number) {
    if (n->kind == CC_N_INT) {
        if (*number)
            return false;
        *number = true;
        return true;
    }
    if (n->kind == CC_N_BINARY && n->op == CC_OP_MUL)
        return monomial(n->child[0], seen, nseen, number) &&
               n->child[1]->kind != CC_N_INT && symbol_factor(n->child[1], seen, nseen);
    return symbol_factor(n, seen, nseen);
}

static bool signed_monomial(const struct cc_node *n) {
    if (n->kind == CC_N_UNARY && n->op == CC_OP_NEG)
        n = n->child[0];
    const char *seen[SYM_POLY_VARS];
    size_t nseen = 0;
    bool number = false;
    return monomial(n, seen, &nseen, &number);
}

bool sym_poly_written_expanded(const struct cc_node *n) {
    while (n->kind == CC_N_BINARY && (n->op == CC_OP_ADD || n->op == CC_OP_SUB)) {
        if (!signed_monomial(n->child[1]) || n->child[1]->kind == CC_N_UNARY)
            return false;
        n = n->child[0];
    }
    return signed_monomial(n);
}

int sym_poly_diff(const struct sym_poly *p, size_t var, struct sym_poly *out) {
    sym_poly_init(out);
    mpq_t c;
    mpq_init(c);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < p->n; i++) {
        if (var >= SYM_POLY_VARS || p->t[i].e[var] == 0)
            continue;
        unsigned short e[SYM_POLY_VARS];
        memcpy(e, p->t[i].e, sizeof e);
        mpz_mul_ui(mpq_numref(c), mpq_numref(p->t[i].c), e[var]);
        mpz_set(mpq_denref(c), mpq_denref(p->t[i].c));
        mpq_canonicalize(c);
        e[var]--;
        rc = add_term(out, e, c);
    }
    mpq_clear(c);
    if (rc < 0)
        sym_poly_clear(out);
    return rc;
}

/* ---- queries and the tree ----------------------------------------------- */

unsigned sym_poly_degree(const struct sym_poly *p, size_t i) {
    unsigned d = 0;
    for (size_t k = 0; k < p->n; k++)
        if (p->t[k].e[i] > d)
            d = p->t[k].e[i];
    return d;
}

size_t sym_poly_nvars_used(const struct sym_poly *p, const struct sym_vars *v) {
    size_t used = 0;
    for (size_t i = 0; i < v->n; i++)
        used += sym_poly_degree(p, i) > 0;
    return used;
}

bool sym_poly_integral(const struct sym_poly *p) {
    for (size_t i = 0; i < p->n; i++)
        if (mpz_cmp_ui(mpq_denref(p->t[i].c), 1) != 0)
            return false;
    return true;
}

static struct sym_node *term_tree(const struct sym_term *t, const struct sym_vars *v) {
    struct sym_node *m = sym_nary(SYM_MUL, NULL, 0);
    if (!m || sym_append(m, sym_num_q(t->c)) < 0) {
        sym_free(m);
        return NULL;
    }
    for (size_t i = 0; i < v->n; i++) {
        if (!t->e[i])
            continue;
        struct sym_node *f = sym_symbol(v->name[i]);
        if (t->e[i] > 1)
            f = sym_bin(SYM_POW, f, sym_int(t->e[i]));
        if (sym_append(m, f) < 0) {
            sym_free(m);
            return NULL;
        }
    }
    return m;
}

struct sym_node *sym_poly_tree(const struct sym_poly *p, const struct sym_vars *v) {
    if (p->n == 0)
        return sym_int(0);
    static const unsigned short none[SYM_POLY_VARS];
    if (p->n == 1 && !memcmp(p->t[0].e, none, sizeof none)) /* a number */
        return sym_num_q(p->t[0].c);
    struct sym_node *s = sym_nary(SYM_ADD, NULL, 0);
    for (size_t i = 0; s && i < p->n; i++) {
        struct sym_node *t = term_tree(&p->t[i], v);
        if (!t || sym_append(s, t) < 0) {
            sym_free(s);
            return NULL;
        }
    }
    return sym_normalize(s);
}

/* ---- rational functions ------------------------------------------------- */

void sym_rat_clear(struct sym_rat *r) {
    sym_poly_clear(&r->num);
    sym_poly_clear(&r->den);
}

static int rat_const(struct sym_rat *r, const struct sym_poly *num) {
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    r->num = *num;
    int rc = set_constant(&r->den, one);
    mpq_clear(one);
    if (rc < 0)
        sym_rat_clear(r);
    return rc;
}

/* out = a op b for + - * / (b's numerator non-zero for /). */
static int rat_binary(enum cc_op op, const struct sym_rat *a, const struct sym_rat *b,
                      struct sym_rat *out) {
    struct sym_poly x = {0}, y = {0};
    int rc = -1;
    if (op == CC_OP_MUL) {
        rc = sym_poly_mul(&a->num, &b->num, &out->num);
        if (rc == 0 && (rc = sym_poly_mul(&a->den, &b->den, &out->den)) < 0)
            sym_poly_clear(&out->num);
        return rc;
    }
    if (op == CC_OP_DIV) {
        if (b->num.n == 0)
            return -1;
        rc = sym_poly_mul(&a->num, &b->den, &out->num);
        if (rc == 0 && (rc = sym_poly_mul(&a->den, &b->num, &out->den)) < 0)
            sym_poly_clear(&out->num);
        return rc;
    }
    if (op != CC_OP_ADD && op != CC_OP_SUB)
        return -1;
    if (sym_poly_mul(&a->num, &b->den, &x) < 0)
        return -1;
    if (sym_poly_mul(&b->num, &a->den, &y) == 0) {
        rc = sym_poly_add(&x, &y, op == CC_OP_ADD ? 1 : -1, &out->num);
        if (rc == 0 && (rc = sym_poly_mul(&a->den, &b->den, &out->den)) < 0)
            sym_poly_clear(&out->num);
        sym_poly_clear(&y);
    }
    sym_poly_clear(&x);
    return rc;
}

/* A literal integer exponent, written k or -k. */
static bool literal_exponent(const struct cc_node *k, long *e) {
    bool neg = k->kind == CC_N_UNARY && k->op == CC_OP_NEG;
    if (neg)
        k = k->child[0];
    if (k->kind != CC_N_INT || !mpz_fits_slong_p(k->v.z))
        return false;
    *e = mpz_get_si(k->v.z);
    if (neg)
        *e = -*e;
    return *e >= -SYM_POLY_MAX_DEGREE && *e <= SYM_POLY_MAX_DEGREE;
}

static int rat_pow(const struct sym_rat *a, long e, struct sym_rat *out) {
    const struct sym_poly *n = e < 0 ? &a->den : &a->num, *d = e < 0 ? &a->num : &a->den;
    if (e < 0 && a->num.n == 0)
        return -1;
    if (e == 0 && a->num.n == 0)
        return -1; /* 0**0 */
    unsigned long k = (unsigned long)(e < 0 ? -e : e);
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    int rc = set_constant(&out->num, one);
    if (rc == 0 && (rc = set_constant(&out->den, one)) < 0)
        sym_poly_clear(&out->num);
    mpq_clear(one);
    for (unsigned long i = 0; rc == 0 && i < k; i++) {
        struct sym_poly t;
        rc = sym_poly_mul(&out->num, n, &t);
        sym_poly_clear(&out->num);
        out->num = t;
        if (rc == 0) {
            rc = sym_poly_mul(&out->den, d, &t);
            sym_poly_clear(&out->den);
            out->den = t;
        }
    }
    if (rc < 0)
        sym_rat_clear(out);
    return rc;
}

int sym_rat_from_ast(const struct cc_node *n, struct sym_vars *v, struct sym_rat *out) {
    memset(out, 0, sizeof *out);
    if (n->kind == CC_N_INT || n->kind == CC_N_NAME) {
        struct sym_poly p;
        return sym_poly_from_ast(n, v, &p) < 0 ? -1 : rat_const(out, &p);
    }
    if (n->kind == CC_N_UNARY && (n->op == CC_OP_NEG || n->op == CC_OP_POS)) {
        if (sym_rat_from_ast(n->child[0], v, out) < 0)
            return -1;
        for (size_t i = 0; n->op == CC_OP_NEG && i < out->num.n; i++)
            mpq_neg(out->num.t[i].c, out->num.t[i].c);
        return 0;
    }
    if (n->kind != CC_N_BINARY)
        return -1;
    struct sym_rat a, b;
    if (n->op == CC_OP_POW || n->op == CC_OP_BITXOR) {
        long e;
        if (!literal_exponent(n->child[1], &e) || sym_rat_from_ast(n->child[0], v, &a) < 0)
            return -1;
        int rc = rat_pow(&a, e, out);
        sym_rat_clear(&a);
        return rc;
    }
    if (sym_rat_from_ast(n->child[0], v, &a) < 0)
        return -1;
    int rc = sym_rat_from_ast(n->child[1], v, &b);
    if (rc == 0) {
        rc = rat_binary(n->op, &a, &b, out);
        sym_rat_clear(&b);
    }
    sym_rat_clear(&a);
    return rc;
}
