/* Like-term and like-base collection (see sym_collect.h).
 *
 * Identity of two terms (or two bases) is decided by their printed text:
 * the printer already sorts factors and terms canonically, so equal text
 * means an equal value for our purposes, and it keeps this file free of a
 * second structural comparison that could drift from the printer. */
#include "workers/symbolic/sym_collect.h"

#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_print.h"

/* An exact or float coefficient being accumulated. */
struct coef {
    mpq_t q;
    bool is_float;
    double f;
};

static void coef_add(struct coef *c, const struct sym_node *k) {
    if (!k) {
        mpq_t one;
        mpq_init(one);
        mpq_set_ui(one, 1, 1);
        mpq_add(c->q, c->q, one);
        mpq_clear(one);
    } else if (k->kind == SYM_FLOAT) {
        c->is_float = true;
        c->f += k->f;
    } else {
        mpq_add(c->q, c->q, k->q);
    }
}

static struct sym_node *coef_node(const struct coef *c) {
    if (c->is_float)
        return sym_float(c->f + mpq_get_d(c->q));
    return sym_num_q(c->q);
}

static bool coef_is_zero(const struct coef *c) {
    return c->is_float ? c->f + mpq_get_d(c->q) == 0.0 : mpq_sgn(c->q) == 0;
}

static bool is_number(const struct sym_node *n) {
    return n->kind == SYM_NUM || n->kind == SYM_FLOAT;
}

/* The leading numeric coefficient of a term, or NULL for an implicit 1. */
static const struct sym_node *term_coef(const struct sym_node *t) {
    return t->kind == SYM_MUL && t->n >= 2 && is_number(t->kid[0]) ? t->kid[0] : NULL;
}

/* Printed text of the term without its coefficient. The view node borrows
 * the term's children and is never freed as a tree. */
static char *term_key(const struct sym_node *t) {
    if (!term_coef(t))
        return sym_print(t);
    if (t->n == 2)
        return sym_print(t->kid[1]);
    struct sym_node view = *t;
    view.kid = t->kid + 1;
    view.n = t->n - 1;
    return sym_print(&view);
}

/* The term rebuilt as coefficient times its non-numeric part. Consumes t. */
static struct sym_node *with_coef(struct sym_node *t, const struct coef *c) {
    struct sym_node *cn = coef_node(c);
    if (!cn) {
        sym_free(t);
        return NULL;
    }
    if (term_coef(t)) { /* replace the old coefficient in place */
        sym_free(t->kid[0]);
        t->kid[0] = cn;
        return sym_normalize(t);
    }
    return sym_normalize(sym_bin(SYM_MUL, cn, t));
}

static char **keys_of(struct sym_node *n, char *(*key)(const struct sym_node *)) {
    char **k = calloc(n->n, sizeof *k);
    for (size_t i = 0; k && i < n->n; i++) {
        if (!(k[i] = key(n->kid[i]))) {
            for (size_t j = 0; j < i; j++)
                free(k[j]);
            free(k);
            return NULL;
        }
    }
    return k;
}

static void free_keys(char **k, size_t n) {
    for (size_t i = 0; i < n; i++)
        free(k[i]);
    free(k);
}

/* Removes the NULL slots of n->kid (children dropped by a merge). */
static void compact(struct sym_node *n) {
    size_t j = 0;
    for (size_t i = 0; i < n->n; i++)
        if (n->kid[i])
            n->kid[j++] = n->kid[i];
    n->n = j;
}

/* Merges kid[i] with every later child of the same key; 1 when something
 * merged, 0 when not, -1 on OOM. */
static int merge_terms(struct sym_node *n, char **keys, size_t i) {
    struct coef c;
    mpq_init(c.q);
    c.is_float = false;
    c.f = 0;
    coef_add(&c, term_coef(n->kid[i]));
    int merged = 0;
    for (size_t j = i + 1; j < n->n; j++) {
        if (!n->kid[j] || strcmp(keys[i], keys[j]) != 0)
            continue;
        coef_add(&c, term_coef(n->kid[j]));
        sym_free(n->kid[j]);
        n->kid[j] = NULL;
        merged = 1;
    }
    if (merged) {
        if (coef_is_zero(&c)) { /* x - x: the term vanishes */
            sym_free(n->kid[i]);
            n->kid[i] = NULL;
        } else if (!(n->kid[i] = with_coef(n->kid[i], &c))) {
            merged = -1;
        }
    }
    mpq_clear(c.q);
    return merged;
}

/* Group n's children by key and merge each group into its first member;
 * shared by sums (like terms) and products (like bases). */
static int collect(struct sym_node *n, char *(*key)(const struct sym_node *),
                   int (*merge)(struct sym_node *, char **, size_t)) {
    char **keys = keys_of(n, key);
    if (!keys)
        return -1;
    int any = 0;
    for (size_t i = 0; i < n->n; i++) {
        if (!n->kid[i])
            continue;
        int m = merge(n, keys, i);
        if (m < 0) {
            any = -1;
            break;
        }
        any |= m;
    }
    free_keys(keys, n->n);
    compact(n);
    return any;
}

int sym_collect_terms(struct sym_node *n) { return collect(n, term_key, merge_terms); }

/* ---- products ------------------------------------------------------------ */

static const struct sym_node *base_of(const struct sym_node *f) {
    return f->kind == SYM_POW ? f->kid[0] : f;
}

static char *base_key(const struct sym_node *f) { return sym_print(base_of(f)); }

/* Exponent of a factor as a new node (1 for a bare factor). */
static struct sym_node *exp_of(const struct sym_node *f) {
    return f->kind == SYM_POW ? sym_copy(f->kid[1]) : sym_int(1);
}

/* A numeric base merges only between rational powers (sqrt(2)*sqrt(2) is
 * 2; bare numbers were already folded into the coefficient). Among the
 * constants only pi and E behave like symbols (I*I and oo*oo do not). */
static bool mergeable(const struct sym_node *f) {
    const struct sym_node *b = base_of(f);
    if (b->kind == SYM_NUM)
        return f->kind == SYM_POW && f->kid[1]->kind == SYM_NUM;
    if (b->kind == SYM_CONST)
        return b->ival == SYM_PI || b->ival == SYM_E;
    return b->kind != SYM_FLOAT;
}

static int merge_bases(struct sym_node *n, char **keys, size_t i) {
    if (!mergeable(n->kid[i]))
        return 0;
    struct sym_node *sum = NULL;
    for (size_t j = i + 1; j < n->n; j++) {
        if (!n->kid[j] || strcmp(keys[i], keys[j]) != 0)
            continue;
        if (!sum && !(sum = sym_nary(SYM_ADD, NULL, 0)))
            return -1;
        if (sym_append(sum, exp_of(n->kid[j])) < 0) {
            sym_free(sum);
            return -1;
        }
        sym_free(n->kid[j]);
        n->kid[j] = NULL;
    }
    if (!sum)
        return 0;
    struct sym_node *f = n->kid[i];
    struct sym_node *b = f->kind == SYM_POW ? sym_copy(f->kid[0]) : sym_copy(f);
    if (sym_append(sum, exp_of(f)) < 0) {
        sym_free(b);
        return -1;
    }
    sym_free(f);
    n->kid[i] = sym_normalize(sym_bin(SYM_POW, b, sym_normalize(sum)));
    if (!n->kid[i])
        return -1;
    if (sym_is_int_value(n->kid[i], 1)) { /* x/x: the factor vanishes */
        sym_free(n->kid[i]);
        n->kid[i] = NULL;
    }
    return 1;
}

int sym_collect_factors(struct sym_node *n) { return collect(n, base_key, merge_bases); }
