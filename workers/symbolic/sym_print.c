/* Tree -> text. Structure follows sympy's StrPrinter so that clients that
 * compare strings with sympy see the same spelling: products split into a
 * numerator and a denominator, sums ordered by degree with constants last,
 * floats at full precision only at the top level. */
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_numeric.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_REL = 35, P_ADD = 40, P_MUL = 50, P_POW = 60, P_ATOM = 1000 };

/* A growable string; on OOM it latches failed and further appends no-op. */
struct sbuf {
    char *s;
    size_t len, cap;
    int failed;
};

static void sb_put(struct sbuf *b, const char *t) {
    if (b->failed || !t) {
        b->failed = 1;
        return;
    }
    size_t n = strlen(t);
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 64) + n;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, t, n + 1);
    b->len += n;
}

/* Takes ownership of t. */
static void sb_take(struct sbuf *b, char *t) {
    sb_put(b, t);
    free(t);
}

static char *sb_done(struct sbuf *b) {
    if (b->failed) {
        free(b->s);
        return NULL;
    }
    return b->s ? b->s : strdup("");
}

static char *pr(const struct sym_node *n, int depth);

/* ---- printing each node once ----------------------------------------------
 * Products and sums print their factors and terms once to sort them and
 * again to write them, so without a memo every level of nesting doubles
 * the work: x*f(x*f(...)) thirty deep took 2^30 prints. Every node of the
 * tree given to sym_print is printed once; later requests copy the text.
 * Only nodes of that tree are remembered (they stay allocated for the whole
 * print), never a temporary node, whose address could be reused for another
 * one. Below the top level a node's text does not depend on where it is
 * printed (floats are only padded at the top), so one text per node. */

struct memo {
    const struct sym_node **node; /* open addressing, NULL = empty */
    char **text;                  /* NULL until printed */
    size_t cap;                   /* power of two */
};

static struct memo memo;
static size_t pr_work; /* nodes printed without the memo (sym_print_work) */

static size_t memo_slot(const struct sym_node *n) {
    size_t h = (size_t)(uintptr_t)n;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ULL;
    for (size_t i = h & (memo.cap - 1);; i = (i + 1) & (memo.cap - 1))
        if (memo.node[i] == n || memo.node[i] == NULL)
            return i;
}

static size_t count_nodes(const struct sym_node *n) {
    size_t c = 1;
    for (size_t i = 0; i < n->n; i++)
        c += count_nodes(n->kid[i]);
    return c;
}

static void memo_add_tree(const struct sym_node *n) {
    memo.node[memo_slot(n)] = n;
    for (size_t i = 0; i < n->n; i++)
        memo_add_tree(n->kid[i]);
}

/* false on OOM (printing then works without the memo). */
static bool memo_init(const struct sym_node *root) {
    size_t want = 2 * count_nodes(root), cap = 16;
    while (cap < want)
        cap *= 2;
    memo.node = calloc(cap, sizeof *memo.node);
    memo.text = calloc(cap, sizeof *memo.text);
    memo.cap = cap;
    if (!memo.node || !memo.text) {
        free(memo.node);
        free(memo.text);
        memo = (struct memo){0};
        return false;
    }
    memo_add_tree(root);
    return true;
}

static void memo_free(void) {
    for (size_t i = 0; i < memo.cap; i++)
        free(memo.text[i]);
    free(memo.node);
    free(memo.text);
    memo = (struct memo){0};
}

/* ---- precedence ---------------------------------------------------------- */

static bool num_negative(const struct sym_node *n) {
    return (n->kind == SYM_NUM && mpq_sgn(n->q) < 0) ||
           (n->kind == SYM_FLOAT && n->f < 0);
}

static bool mul_negative(const struct sym_node *n) {
    return n->kind == SYM_MUL && n->n && num_negative(n->kid[0]);
}

static bool pow_neg_rational(const struct sym_node *n) {
    return n->kind == SYM_POW && n->kid[1]->kind == SYM_NUM && mpq_sgn(n->kid[1]->q) < 0;
}

static int prec(const struct sym_node *n) {
    switch (n->kind) {
    case SYM_ADD: return P_ADD;
    case SYM_MUL: return mul_negative(n) ? P_ADD : P_MUL;
    case SYM_POW:
        if (pow_neg_rational(n))
            return P_MUL; /* prints as a division */
        return P_POW;
    case SYM_NUM:
        if (mpq_sgn(n->q) < 0)
            return P_ADD;
        return mpz_cmp_ui(mpq_denref(n->q), 1) ? P_MUL : P_ATOM;
    case SYM_FLOAT: return n->f < 0 ? P_ADD : P_ATOM;
    case SYM_CONST: return n->ival == SYM_NEG_OO ? P_ADD : P_ATOM;
    case SYM_REL: return P_REL;
    default: return P_ATOM;
    }
}

static char *paren(const struct sym_node *n, int level, bool strict, int depth) {
    char *s = pr(n, depth);
    int p = prec(n);
    if (!s || !(p < level || (strict && p <= level)))
        return s;
    char *o = NULL;
    int rc = asprintf(&o, "(%s)", s);
    free(s);
    return rc < 0 ? NULL : o;
}

/* ---- atoms --------------------------------------------------------------- */

/* pre + a + mid + b (a and b owned, b may be NULL for nothing). */
static char *wrap(const char *pre, char *a, const char *mid, char *b) {
    char *o = NULL;
    if (a && asprintf(&o, "%s%s%s%s", pre, a, mid, b ? b : "") < 0)
        o = NULL;
    free(a);
    free(b);
    return o;
}

/* mpz text in a malloc'd buffer (GMP's own allocator may be replaced by a
 * library, so its strings are never handed to free()). */
static char *mpz_text(const mpz_t z) {
    size_t cap = mpz_sizeinbase(z, 10) + 2;
    char *s = malloc(cap);
    return s ? mpz_get_str(s, 10, z) : NULL;
}

static char *pr_num(const struct sym_node *n) {
    char *p = mpz_text(mpq_numref(n->q));
    if (!p || mpz_cmp_ui(mpq_denref(n->q), 1) == 0)
        return p;
    return wrap("", p, "/", mpz_text(mpq_denref(n->q)));
}

static const char *const const_names[] = {"pi", "E", "I", "oo", "-oo", "zoo", "nan"};
static const char *const rel_ops[] = {"==", "!=", "<", "<=", ">", ">="};

/* ---- products ------------------------------------------------------------ */

/* sympy's class ordering of factors: numbers, then atoms (by class name),
 * then functions, then compound expressions. */
static int class_rank(const struct sym_node *b, const char **cname) {
    static const char *const cn[] = {"Pi", "Exp1", "ImaginaryUnit", "Infinity",
                                     "NegativeInfinity", "ComplexInfinity", "NaN"};
    switch (b->kind) {
    case SYM_NUM: case SYM_FLOAT: *cname = "Number"; return 1;
    case SYM_CONST: *cname = cn[b->ival]; return 2;
    case SYM_SYMBOL: *cname = "Symbol"; return 2;
    case SYM_FUNC: *cname = b->name; return 4;
    default: *cname = ""; return 5;
    }
}

struct fkey {
    const struct sym_node *f;
    int rank;
    const char *cname;
    char *base, *exp;
};

static int fkey_cmp(const void *pa, const void *pb) {
    const struct fkey *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank - b->rank;
    int c = strcmp(a->cname, b->cname);
    if (c)
        return c;
    if ((c = strcmp(a->base, b->base)))
        return c;
    return strcmp(a->exp, b->exp);
}

/* Sorts the non-coefficient factors of a product into sympy order. */
static int sort_factors(const struct sym_node **fs, size_t n) {
    struct fkey *k = calloc(n ? n : 1, sizeof *k);
    if (!k)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const struct sym_node *b = fs[i]->kind == SYM_POW ? fs[i]->kid[0] : fs[i];
        k[i].f = fs[i];
        k[i].rank = class_rank(b, &k[i].cname);
        k[i].base = pr(b, 2);
        k[i].exp = fs[i]->kind == SYM_POW ? pr(fs[i]->kid[1], 2) : strdup("1");
        if (!k[i].base || !k[i].exp)
            rc = -1;
    }
    if (rc == 0) {
        qsort(k, n, sizeof *k, fkey_cmp);
        for (size_t i = 0; i < n; i++)
            fs[i] = k[i].f;
    }
    for (size_t i = 0; i < n; i++) {
        free(k[i].base);
        free(k[i].exp);
    }
    free(k);
    return rc;
}

/* Joins strings with '*' (owned; freed here). */
static char *join_star(char **v, size_t n) {
    struct sbuf b = {0};
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_put(&b, "*");
        sb_take(&b, v[i]);
    }
    return sb_done(&b);
}

/* One factor of the numerator or denominator. A denominator factor that is
 * b**(-e) is printed as b**e. */
static char *pr_factor(const struct sym_node *f, bool invert, int depth) {
    if (!invert)
        return paren(f, P_MUL, false, depth);
    if (sym_is_int_value(f->kid[1], -1)) /* a product below the bar keeps its parens */
        return paren(f->kid[0], P_MUL, true, depth);
    /* b**e with the exponent negated; the base is the tree's own node (no
     * copy), so its text comes from the memo. */
    struct sym_node *e = sym_copy(f->kid[1]);
    if (!e)
        return NULL;
    mpq_neg(e->q, e->q);
    struct sym_node *kids[2] = {f->kid[0], e};
    struct sym_node p = {.kind = SYM_POW, .n = 2, .kid = kids};
    char *s = paren(&p, P_MUL, false, depth);
    sym_free(e);
    return s;
}

static char *pr_mul(const struct sym_node *n, int depth) {
    size_t nf = n->n;
    const struct sym_node **fs = calloc(nf, sizeof *fs);
    char **num = calloc(nf + 1, sizeof *num), **den = calloc(nf + 1, sizeof *den);
    char *out = NULL;
    size_t na = 0, nb = 0, k = 0;
    const struct sym_node *coef = NULL;
    if (!fs || !num || !den)
        goto done;
    for (size_t i = 0; i < n->n; i++) {
        if (!coef && i == 0 && (n->kid[i]->kind == SYM_NUM || n->kid[i]->kind == SYM_FLOAT))
            coef = n->kid[i];
        else
            fs[k++] = n->kid[i];
    }
    if (sort_factors(fs, k) < 0)
        goto done;
    bool neg = coef && num_negative(coef);
    if (coef && coef->kind == SYM_NUM) {
        mpq_t c;
        mpq_init(c);
        mpq_abs(c, coef->q);
        if (mpz_cmp_ui(mpq_numref(c), 1) != 0)
            num[na++] = mpz_text(mpq_numref(c));
        if (mpz_cmp_ui(mpq_denref(c), 1) != 0)
            den[nb++] = mpz_text(mpq_denref(c));
        mpq_clear(c);
    } else if (coef) {
        /* a float coefficient prints, 1.0 too (SymPy's 1.0*I), with its
         * own digits when it is multiprecision */
        double a = coef->f < 0 ? -coef->f : coef->f;
        if (coef->name)
            num[na++] = sym_fmt_decimal(coef->name + (coef->name[0] == '-'), coef->ival, true);
        else
            num[na++] = sym_fmt_double(a, 15, true);
    }
    for (size_t i = 0; i < k; i++) {
        if (pow_neg_rational(fs[i]))
            den[nb++] = pr_factor(fs[i], true, depth);
        else
            num[na++] = pr_factor(fs[i], false, depth);
    }
    if (na == 0)
        num[na++] = strdup("1");
    size_t nden = nb;
    char *a = join_star(num, na), *b = nb ? join_star(den, nb) : NULL;
    na = nb = 0; /* join_star consumed the strings */
    if (a && nden == 0) {
        if (asprintf(&out, "%s%s", neg ? "-" : "", a) < 0)
            out = NULL;
    } else if (a && b) {
        if (asprintf(&out, nden == 1 ? "%s%s/%s" : "%s%s/(%s)", neg ? "-" : "", a, b) < 0)
            out = NULL;
    }
    free(a);
    free(b);
done:
    for (size_t i = 0; i < na; i++)
        free(num[i]);
    for (size_t i = 0; i < nb; i++)
        free(den[i]);
    free(num);
    free(den);
    free(fs);
    return out;
}

/* ---- sums ---------------------------------------------------------------- */

struct gen_deg {
    char *gen;
    bool is_sym;
    long deg;
};

struct tkey {
    const struct sym_node *t;
    bool symbolic;
    int crank;             /* constants: 0 rational/float, 1 real, 2 imaginary */
    long total;
    struct gen_deg *g;
    size_t ng;
    char *text;
};

static int gd_cmp(const void *pa, const void *pb) {
    const struct gen_deg *a = pa, *b = pb;
    if (a->is_sym != b->is_sym)
        return a->is_sym ? -1 : 1;
    return strcmp(a->gen, b->gen);
}

/* Splits a term into generators and degrees (its coefficient ignored). */
static int term_gens(struct tkey *k) {
    const struct sym_node *t = k->t;
    size_t n = t->kind == SYM_MUL ? t->n : 1;
    k->g = calloc(n, sizeof *k->g);
    if (!k->g)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const struct sym_node *f = t->kind == SYM_MUL ? t->kid[i] : t;
        if (!sym_has_symbol(f))
            continue;
        struct gen_deg *g = &k->g[k->ng++];
        if (f->kind == SYM_SYMBOL) {
            g->gen = strdup(f->name);
            g->is_sym = true;
            g->deg = 1;
        } else if (f->kind == SYM_POW && f->kid[0]->kind == SYM_SYMBOL &&
                   f->kid[1]->kind == SYM_NUM && mpz_cmp_ui(mpq_denref(f->kid[1]->q), 1) == 0 &&
                   mpq_sgn(f->kid[1]->q) > 0 && mpz_fits_slong_p(mpq_numref(f->kid[1]->q))) {
            g->gen = strdup(f->kid[0]->name);
            g->is_sym = true;
            g->deg = mpz_get_si(mpq_numref(f->kid[1]->q));
        } else if (f->kind == SYM_POW && f->kid[1]->kind == SYM_NUM &&
                   mpz_cmp_ui(mpq_denref(f->kid[1]->q), 1) == 0 && mpq_sgn(f->kid[1]->q) > 0 &&
                   mpz_fits_slong_p(mpq_numref(f->kid[1]->q))) {
            g->gen = pr(f->kid[0], 2);
            g->deg = mpz_get_si(mpq_numref(f->kid[1]->q));
        } else {
            g->gen = pr(f, 2);
            g->deg = 1;
        }
        if (!g->gen)
            return -1;
        k->total += g->deg;
    }
    qsort(k->g, k->ng, sizeof *k->g, gd_cmp);
    return 0;
}

static int tkey_cmp(const void *pa, const void *pb) {
    const struct tkey *a = pa, *b = pb;
    if (a->symbolic != b->symbolic)
        return a->symbolic ? -1 : 1;
    if (!a->symbolic) {
        if (a->crank != b->crank)
            return a->crank - b->crank;
        return strcmp(a->text, b->text);
    }
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    size_t i = 0, j = 0;
    while (i < a->ng && j < b->ng) {
        int c = gd_cmp(&a->g[i], &b->g[j]);
        if (c)
            return c; /* the term holding the earlier generator leads */
        if (a->g[i].deg != b->g[j].deg)
            return a->g[i].deg > b->g[j].deg ? -1 : 1;
        i++;
        j++;
    }
    if (i < a->ng || j < b->ng)
        return i < a->ng ? -1 : 1;
    return strcmp(a->text, b->text);
}

/* sympy writes a negative univariate term and a positive plain constant as
 * "10 - y", "pi - 2*x", "1 - sin(x)" (but "-x*y + 5", "-x + sqrt(2)"). */
static bool constant_leads(const struct tkey *k, size_t n) {
    if (n != 2 || !k[0].symbolic || k[1].symbolic || k[0].text[0] != '-')
        return false;
    const struct sym_node *c = k[1].t;
    bool plain = (c->kind == SYM_NUM && mpq_sgn(c->q) > 0) || (c->kind == SYM_FLOAT && c->f > 0) ||
                 (c->kind == SYM_CONST && (c->ival == SYM_PI || c->ival == SYM_E));
    size_t syms = 0;
    for (size_t i = 0; i < k[0].ng; i++)
        syms += k[0].g[i].is_sym;
    return plain && k[0].ng == 1 && syms <= 1;
}

static bool is_order(const struct sym_node *t) {
    return t->kind == SYM_FUNC && !strcmp(t->name, "O");
}

/* A truncated series prints like sympy's: ascending powers, then the O
 * term (1 + x + x**2/2 + O(x**3)). k is sorted descending. */
static void series_order(struct tkey *k, size_t n) {
    size_t o = n;
    for (size_t i = 0; i < n; i++)
        if (is_order(k[i].t))
            o = i;
    if (o == n)
        return;
    struct tkey ot = k[o];
    memmove(k + o, k + o + 1, (n - o - 1) * sizeof *k);
    for (size_t i = 0, j = n - 2; n >= 2 && i < j; i++, j--) {
        struct tkey t = k[i];
        k[i] = k[j];
        k[j] = t;
    }
    k[n - 1] = ot;
}

static char *pr_add(const struct sym_node *n, int depth) {
    struct tkey *k = calloc(n->n, sizeof *k);
    if (!k)
        return NULL;
    int rc = 0;
    for (size_t i = 0; i < n->n && rc == 0; i++) {
        k[i].t = n->kid[i];
        k[i].symbolic = sym_has_symbol(n->kid[i]);
        k[i].crank = (n->kid[i]->kind == SYM_NUM || n->kid[i]->kind == SYM_FLOAT) ? 0
                     : sym_has_imag(n->kid[i]) ? 2 : 1;
        k[i].text = paren(n->kid[i], P_ADD, false, depth);
        if (!k[i].text || (k[i].symbolic && term_gens(&k[i]) < 0))
            rc = -1;
    }
    struct sbuf b = {0};
    if (rc == 0) {
        qsort(k, n->n, sizeof *k, tkey_cmp);
        if (constant_leads(k, n->n)) {
            struct tkey t = k[0];
            k[0] = k[1];
            k[1] = t;
        }
        series_order(k, n->n);
        for (size_t i = 0; i < n->n; i++) {
            const char *s = k[i].text;
            if (i == 0)
                sb_put(&b, s);
            else if (s[0] == '-') {
                sb_put(&b, " - ");
                sb_put(&b, s + 1);
            } else {
                sb_put(&b, " + ");
                sb_put(&b, s);
            }
        }
    } else {
        b.failed = 1;
    }
    for (size_t i = 0; i < n->n; i++) {
        for (size_t g = 0; g < k[i].ng; g++)
            free(k[i].g[g].gen);
        free(k[i].g);
        free(k[i].text);
    }
    free(k);
    return sb_done(&b);
}

/* ---- powers, calls, containers -------------------------------------------- */

static bool is_half(const struct sym_node *e, int sign) {
    return e->kind == SYM_NUM && mpz_cmp_ui(mpq_denref(e->q), 2) == 0 &&
           mpz_cmp_si(mpq_numref(e->q), sign) == 0;
}


static char *pr_pow(const struct sym_node *n, int depth) {
    const struct sym_node *b = n->kid[0], *e = n->kid[1];
    if (is_half(e, 1))
        return wrap("sqrt(", pr(b, depth), ")", NULL);
    if (is_half(e, -1))
        return wrap("1/sqrt(", pr(b, depth), ")", NULL);
    if (sym_is_int_value(e, -1))
        return wrap("1/", paren(b, P_MUL, true, depth), "", NULL);
    char *bs = paren(b, P_POW, true, depth), *es = paren(e, P_POW, false, depth);
    char *o = NULL;
    if (bs && es && asprintf(&o, "%s**%s", bs, es) < 0)
        o = NULL;
    free(bs);
    free(es);
    return o;
}

static char *pr_seq(const struct sym_node *n, const char *open, const char *close, int depth) {
    struct sbuf b = {0};
    sb_put(&b, open);
    for (size_t i = 0; i < n->n; i++) {
        if (i)
            sb_put(&b, n->kind == SYM_DICT && (i % 2) ? ": " : ", ");
        sb_take(&b, pr(n->kid[i], depth));
    }
    if (n->kind == SYM_TUPLE && n->n == 1)
        sb_put(&b, ",");
    sb_put(&b, close);
    return sb_done(&b);
}

static char *pr_rel(const struct sym_node *n, int depth) {
    if (n->ival == SYM_EQ || n->ival == SYM_NE) {
        struct sym_node tmp = *n;
        tmp.kind = SYM_FUNC;
        tmp.name = (char *)(n->ival == SYM_EQ ? "Eq" : "Ne");
        return pr(&tmp, depth);
    }
    char *a = paren(n->kid[0], P_REL, true, depth), *b = paren(n->kid[1], P_REL, true, depth);
    char *o = NULL;
    if (a && b && asprintf(&o, "%s %s %s", a, rel_ops[n->ival], b) < 0)
        o = NULL;
    free(a);
    free(b);
    return o;
}

static char *pr_node(const struct sym_node *n, int depth);

static char *pr(const struct sym_node *n, int depth) {
    if (depth <= 1 || !memo.cap)
        return pr_node(n, depth);
    size_t i = memo_slot(n);
    if (memo.node[i] != n) /* a temporary node: not remembered */
        return pr_node(n, depth);
    if (!memo.text[i])
        memo.text[i] = pr_node(n, depth);
    return memo.text[i] ? strdup(memo.text[i]) : NULL;
}

static char *pr_node(const struct sym_node *n, int depth) {
    pr_work++;
    switch (n->kind) {
    case SYM_NUM: return pr_num(n);
    case SYM_FLOAT:
        if (n->name) /* a multiprecision value keeps its digits */
            return sym_fmt_decimal(n->name, n->ival, depth > 1);
        return sym_fmt_double(n->f, 15, depth > 1);
    case SYM_SYMBOL: return strdup(n->name);
    case SYM_CONST: return strdup(const_names[n->ival]);
    case SYM_BOOL: return strdup(n->ival ? "True" : "False");
    case SYM_ADD: return pr_add(n, depth + 1);
    case SYM_MUL: return pr_mul(n, depth + 1);
    case SYM_POW: return pr_pow(n, depth + 1);
    case SYM_REL: return pr_rel(n, depth + 1);
    case SYM_LIST: return pr_seq(n, "[", "]", depth + 1);
    case SYM_TUPLE: return pr_seq(n, "(", ")", depth + 1);
    case SYM_DICT: return pr_seq(n, "{", "}", depth + 1);
    case SYM_FUNC: {
        struct sbuf b = {0};
        sb_put(&b, n->name);
        sb_take(&b, pr_seq(n, "(", ")", depth + 1));
        return sb_done(&b);
    }
    }
    return NULL;
}

char *sym_print(const struct sym_node *n) {
    if (!n)
        return NULL;
    pr_work = 0;
    bool memoised = memo_init(n);
    char *s = pr(n, 1);
    if (memoised)
        memo_free();
    return s;
}

size_t sym_print_work(void) { return pr_work; }
