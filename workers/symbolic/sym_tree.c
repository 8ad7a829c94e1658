/* Result-tree construction, copying and sympy-style normalisation. */
#include "workers/symbolic/sym_tree.h"

#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_collect.h"

static struct sym_node *node_new(enum sym_kind k) {
    struct sym_node *n = calloc(1, sizeof *n);
    if (n)
        n->kind = k;
    return n;
}

struct sym_node *sym_num_q(const mpq_t v) {
    struct sym_node *n = node_new(SYM_NUM);
    if (!n)
        return NULL;
    mpq_init(n->q);
    mpq_set(n->q, v);
    return n;
}

struct sym_node *sym_int(long v) {
    struct sym_node *n = node_new(SYM_NUM);
    if (!n)
        return NULL;
    mpq_init(n->q);
    mpq_set_si(n->q, v, 1);
    return n;
}

struct sym_node *sym_num_mpz(const mpz_t v) {
    struct sym_node *n = node_new(SYM_NUM);
    if (!n)
        return NULL;
    mpq_init(n->q);
    mpq_set_z(n->q, v);
    return n;
}

struct sym_node *sym_num_frac(const mpz_t num, const mpz_t den) {
    struct sym_node *n = node_new(SYM_NUM);
    if (!n)
        return NULL;
    mpq_init(n->q);
    mpz_set(mpq_numref(n->q), num);
    mpz_set(mpq_denref(n->q), den);
    mpq_canonicalize(n->q);
    return n;
}

struct sym_node *sym_float(double d) {
    struct sym_node *n = node_new(SYM_FLOAT);
    if (n)
        n->f = d;
    return n;
}

static struct sym_node *named(enum sym_kind k, const char *name) {
    struct sym_node *n = node_new(k);
    if (!n)
        return NULL;
    n->name = strdup(name);
    if (!n->name) {
        free(n);
        return NULL;
    }
    return n;
}

struct sym_node *sym_symbol(const char *name) { return named(SYM_SYMBOL, name); }

struct sym_node *sym_const(enum sym_const c) {
    struct sym_node *n = node_new(SYM_CONST);
    if (n)
        n->ival = (int)c;
    return n;
}

struct sym_node *sym_bool(bool b) {
    struct sym_node *n = node_new(SYM_BOOL);
    if (n)
        n->ival = b ? 1 : 0;
    return n;
}

/* Frees kids[0..n) when construction fails, so callers never leak. */
static void free_kids(struct sym_node **kids, size_t n) {
    for (size_t i = 0; i < n; i++)
        sym_free(kids[i]);
}

static int take_kids(struct sym_node *n, struct sym_node **kids, size_t cnt) {
    for (size_t i = 0; i < cnt; i++)
        if (!kids[i])
            return -1;
    if (cnt == 0)
        return 0;
    n->kid = malloc(cnt * sizeof *n->kid);
    if (!n->kid)
        return -1;
    memcpy(n->kid, kids, cnt * sizeof *kids);
    n->n = cnt;
    return 0;
}

struct sym_node *sym_nary(enum sym_kind k, struct sym_node **kids, size_t cnt) {
    struct sym_node *n = node_new(k);
    if (!n || take_kids(n, kids, cnt) < 0) {
        free(n);
        free_kids(kids, cnt);
        return NULL;
    }
    return n;
}

struct sym_node *sym_bin(enum sym_kind k, struct sym_node *a, struct sym_node *b) {
    struct sym_node *kids[2] = {a, b};
    return sym_nary(k, kids, 2);
}

struct sym_node *sym_func(const char *name, struct sym_node **kids, size_t cnt) {
    struct sym_node *n = sym_nary(SYM_FUNC, kids, cnt);
    if (!n)
        return NULL;
    n->name = strdup(name);
    if (!n->name) {
        sym_free(n);
        return NULL;
    }
    return n;
}

struct sym_node *sym_rel(enum sym_rel op, struct sym_node *a, struct sym_node *b) {
    struct sym_node *n = sym_bin(SYM_REL, a, b);
    if (n)
        n->ival = (int)op;
    return n;
}

void sym_free(struct sym_node *n) {
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++)
        sym_free(n->kid[i]);
    free(n->kid);
    free(n->name);
    if (n->kind == SYM_NUM)
        mpq_clear(n->q);
    free(n);
}

struct sym_node *sym_copy(const struct sym_node *n) {
    struct sym_node *c = node_new(n->kind);
    if (!c)
        return NULL;
    c->ival = n->ival;
    c->f = n->f;
    if (n->kind == SYM_NUM) {
        mpq_init(c->q);
        mpq_set(c->q, n->q);
    }
    if (n->name && !(c->name = strdup(n->name)))
        goto fail;
    if (n->n) {
        c->kid = calloc(n->n, sizeof *c->kid);
        if (!c->kid)
            goto fail;
        c->n = n->n;
        for (size_t i = 0; i < n->n; i++)
            if (!(c->kid[i] = sym_copy(n->kid[i])))
                goto fail;
    }
    return c;
fail:
    sym_free(c);
    return NULL;
}

int sym_append(struct sym_node *p, struct sym_node *c) {
    if (!c)
        return -1;
    struct sym_node **k = realloc(p->kid, (p->n + 1) * sizeof *k);
    if (!k) {
        sym_free(c);
        return -1;
    }
    p->kid = k;
    p->kid[p->n++] = c;
    return 0;
}

bool sym_is_num(const struct sym_node *n) { return n && n->kind == SYM_NUM; }

bool sym_is_int_value(const struct sym_node *n, long v) {
    return sym_is_num(n) && mpz_cmp_ui(mpq_denref(n->q), 1) == 0 &&
           mpz_cmp_si(mpq_numref(n->q), v) == 0;
}

bool sym_has_symbol(const struct sym_node *n) {
    if (n->kind == SYM_SYMBOL)
        return true;
    for (size_t i = 0; i < n->n; i++)
        if (sym_has_symbol(n->kid[i]))
            return true;
    return false;
}

bool sym_has_imag(const struct sym_node *n) {
    if (n->kind == SYM_CONST && n->ival == SYM_I)
        return true;
    for (size_t i = 0; i < n->n; i++)
        if (sym_has_imag(n->kid[i]))
            return true;
    return false;
}

/* ---- normalisation ------------------------------------------------------ */

/* Moves the children of nested nodes of the same kind into n (in place). */
static int flatten(struct sym_node *n) {
    size_t total = 0;
    for (size_t i = 0; i < n->n; i++)
        total += n->kid[i]->kind == n->kind ? n->kid[i]->n : 1;
    if (total == n->n)
        return 0;
    struct sym_node **k = malloc(total * sizeof *k);
    if (!k)
        return -1;
    size_t j = 0;
    for (size_t i = 0; i < n->n; i++) {
        struct sym_node *c = n->kid[i];
        if (c->kind != n->kind) {
            k[j++] = c;
            continue;
        }
        for (size_t m = 0; m < c->n; m++)
            k[j++] = c->kid[m];
        free(c->kid);
        c->kid = NULL;
        c->n = 0;
        sym_free(c);
    }
    free(n->kid);
    n->kid = k;
    n->n = total;
    return 0;
}

/* Folds every exact number among the children into acc (sum or product),
 * removing those children. */
static void fold_numbers(struct sym_node *n, mpq_t acc, bool product) {
    size_t j = 0;
    for (size_t i = 0; i < n->n; i++) {
        struct sym_node *c = n->kid[i];
        if (c->kind != SYM_NUM) {
            n->kid[j++] = c;
            continue;
        }
        if (product)
            mpq_mul(acc, acc, c->q);
        else
            mpq_add(acc, acc, c->q);
        sym_free(c);
    }
    n->n = j;
}

/* Replaces a container left with 0 or 1 children by the natural value. */
static struct sym_node *collapse(struct sym_node *n, long empty_value) {
    if (n->n == 1) {
        struct sym_node *only = n->kid[0];
        n->n = 0;
        sym_free(n);
        return only;
    }
    if (n->n == 0) {
        sym_free(n);
        return sym_int(empty_value);
    }
    return n;
}

static struct sym_node *norm_add(struct sym_node *n) {
    if (flatten(n) < 0 || sym_collect_terms(n) < 0)
        goto oom;
    mpq_t acc;
    mpq_init(acc);
    fold_numbers(n, acc, false);
    if (mpq_sgn(acc) != 0 || n->n == 0) {
        if (sym_append(n, sym_num_q(acc)) < 0) {
            mpq_clear(acc);
            goto oom;
        }
    }
    mpq_clear(acc);
    return collapse(n, 0);
oom:
    sym_free(n);
    return NULL;
}

/* c * (a + b + ...) -> c*a + c*b + ..., each product normalised again. */
static struct sym_node *distribute(const mpq_t c, struct sym_node *sum) {
    for (size_t i = 0; i < sum->n; i++) {
        struct sym_node *t = sym_bin(SYM_MUL, sym_num_q(c), sum->kid[i]);
        sum->kid[i] = t ? sym_normalize(t) : NULL;
        if (!sum->kid[i]) {
            for (size_t m = i + 1; m < sum->n; m++)
                sym_free(sum->kid[m]);
            sum->n = i;
            sym_free(sum);
            return NULL;
        }
    }
    return norm_add(sum);
}

static struct sym_node *norm_mul(struct sym_node *n) {
    if (flatten(n) < 0)
        goto oom;
    mpq_t acc;
    mpq_init(acc);
    mpq_set_ui(acc, 1, 1);
    fold_numbers(n, acc, true);
    if (sym_collect_factors(n) < 0) {
        mpq_clear(acc);
        goto oom;
    }
    fold_numbers(n, acc, true); /* sqrt(2)*sqrt(2) merged into a number */
    if (mpq_sgn(acc) == 0) {
        mpq_clear(acc);
        sym_free(n);
        return sym_int(0);
    }
    if (n->n == 1 && n->kid[0]->kind == SYM_ADD && mpq_cmp_ui(acc, 1, 1) != 0) {
        struct sym_node *sum = n->kid[0];
        n->n = 0;
        sym_free(n);
        struct sym_node *r = distribute(acc, sum);
        mpq_clear(acc);
        return r;
    }
    int rc = 0;
    if (mpq_cmp_ui(acc, 1, 1) != 0 || n->n == 0) {
        rc = sym_append(n, sym_num_q(acc));
        if (rc == 0 && n->n > 1) { /* keep the coefficient first */
            struct sym_node *c = n->kid[n->n - 1];
            memmove(n->kid + 1, n->kid, (n->n - 1) * sizeof *n->kid);
            n->kid[0] = c;
        }
    }
    mpq_clear(acc);
    if (rc < 0)
        goto oom;
    return collapse(n, 1);
oom:
    sym_free(n);
    return NULL;
}

/* (a*b)**k -> a**k * b**k for an integer k, as sympy does on construction.
 * Consumes n. */
static struct sym_node *distribute_power(struct sym_node *n) {
    struct sym_node *prod = n->kid[0], *k = n->kid[1];
    n->n = 0;
    sym_free(n);
    for (size_t i = 0; i < prod->n; i++) {
        struct sym_node *e = sym_copy(k);
        prod->kid[i] = e ? sym_bin(SYM_POW, prod->kid[i], e) : NULL;
        if (!prod->kid[i]) { /* drop the rest, then the node */
            for (size_t m = i + 1; m < prod->n; m++)
                sym_free(prod->kid[m]);
            prod->n = i;
            sym_free(prod);
            sym_free(k);
            return NULL;
        }
    }
    sym_free(k);
    return sym_normalize(prod);
}

/* A nonzero rational to a small integer power (what merging sqrt(2)*sqrt(2)
 * leaves behind): evaluated, as sympy does. The bound keeps it cheap. */
static bool small_int_power(const struct sym_node *n) {
    const struct sym_node *b = n->kid[0], *e = n->kid[1];
    if (b->kind != SYM_NUM || mpq_sgn(b->q) == 0 || e->kind != SYM_NUM ||
        mpz_cmp_ui(mpq_denref(e->q), 1) != 0 || !mpz_fits_slong_p(mpq_numref(e->q)))
        return false;
    long k = labs(mpz_get_si(mpq_numref(e->q)));
    size_t bits = mpz_sizeinbase(mpq_numref(b->q), 2) + mpz_sizeinbase(mpq_denref(b->q), 2);
    return k >= 2 && k <= 1024 && bits * (size_t)k <= 16384;
}

struct sym_node *sym_normalize(struct sym_node *n) {
    if (!n)
        return NULL;
    for (size_t i = 0; i < n->n; i++) {
        n->kid[i] = sym_normalize(n->kid[i]);
        if (!n->kid[i]) {
            for (size_t m = i + 1; m < n->n; m++)
                sym_free(n->kid[m]);
            n->n = i;
            sym_free(n);
            return NULL;
        }
    }
    if (n->kind == SYM_ADD)
        return norm_add(n);
    if (n->kind == SYM_MUL)
        return norm_mul(n);
    if (n->kind == SYM_POW && sym_is_int_value(n->kid[1], -1) && n->kid[0]->kind == SYM_NUM &&
        mpq_sgn(n->kid[0]->q) != 0) { /* 1/2 arrives as 2**-1: fold it */
        struct sym_node *b = n->kid[0];
        mpq_inv(b->q, b->q);
        sym_free(n->kid[1]);
        n->n = 0;
        sym_free(n);
        return b;
    }
    if (n->kind == SYM_POW && n->kid[0]->kind == SYM_MUL && sym_is_num(n->kid[1]) &&
        mpz_cmp_ui(mpq_denref(n->kid[1]->q), 1) == 0)
        return distribute_power(n);
    if (n->kind == SYM_POW && small_int_power(n)) {
        struct sym_node *b = n->kid[0];
        long e = mpz_get_si(mpq_numref(n->kid[1]->q));
        mpz_pow_ui(mpq_numref(b->q), mpq_numref(b->q), (unsigned long)labs(e));
        mpz_pow_ui(mpq_denref(b->q), mpq_denref(b->q), (unsigned long)labs(e));
        if (e < 0)
            mpq_inv(b->q, b->q);
        sym_free(n->kid[1]);
        n->n = 0;
        sym_free(n);
        return b;
    }
    if (n->kind == SYM_POW && sym_is_int_value(n->kid[1], 0)) {
        sym_free(n);
        return sym_int(1);
    }
    if (n->kind == SYM_POW && sym_is_int_value(n->kid[1], 1)) {
        struct sym_node *b = n->kid[0];
        sym_free(n->kid[1]);
        n->n = 0;
        sym_free(n);
        return b;
    }
    return n;
}
