/* The input as written, as a result tree (see sym_written.h). */
#include "workers/symbolic/sym_written.h"

#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_numeval.h"

static struct sym_node *tree(const struct cc_node *n);

static struct sym_node *constant(const char *name) {
    static const struct {
        const char *name;
        enum sym_const c;
    } CONSTS[] = {{"pi", SYM_PI}, {"E", SYM_E}, {"I", SYM_I}, {"oo", SYM_OO}, {"zoo", SYM_ZOO},
                  {"nan", SYM_NAN}};
    for (size_t i = 0; i < sizeof CONSTS / sizeof *CONSTS; i++)
        if (!strcmp(name, CONSTS[i].name))
            return sym_const(CONSTS[i].c);
    return sym_symbol(name);
}

/* -a: a negated number stays a number, anything else is -1*a. */
static struct sym_node *negate(struct sym_node *a) {
    if (!a)
        return NULL;
    if (a->kind == SYM_NUM) {
        mpq_neg(a->q, a->q);
        return a;
    }
    return sym_bin(SYM_MUL, sym_int(-1), a);
}

static struct sym_node *reciprocal(struct sym_node *a) {
    return a ? sym_bin(SYM_POW, a, sym_int(-1)) : NULL;
}

/* The symbolic dialect's aliases, spelled as SymPy spells them. */
static const char *sympy_spelling(const char *name) {
    static const char *const ALIASES[][2] = {{"ln", "log"}, {"abs", "Abs"}, {"ceil", "ceiling"}};
    for (size_t i = 0; i < sizeof ALIASES / sizeof *ALIASES; i++)
        if (!strcmp(name, ALIASES[i][0]))
            return ALIASES[i][1];
    return name;
}

static struct sym_node *call(const struct cc_node *n) {
    if (!strcmp(n->v.name, "sqrt") && n->nchild == 1) { /* SymPy's sqrt(a) is a**(1/2) */
        struct sym_node *a = tree(n->child[0]), *h = sym_int(1);
        if (h)
            mpq_set_ui(h->q, 1, 2);
        return sym_bin(SYM_POW, a, h);
    }
    struct sym_node *f = sym_func(sympy_spelling(n->v.name), NULL, 0);
    for (uint32_t i = 0; f && i < n->nchild; i++) {
        if (sym_append(f, tree(n->child[i])) < 0) { /* frees the child */
            sym_free(f);
            return NULL;
        }
    }
    return f;
}

static struct sym_node *binary(const struct cc_node *n) {
    struct sym_node *a = tree(n->child[0]), *b = a ? tree(n->child[1]) : NULL;
    if (!b) {
        sym_free(a);
        return NULL;
    }
    switch (n->op) {
    case CC_OP_ADD: return sym_bin(SYM_ADD, a, b);
    case CC_OP_SUB: return sym_bin(SYM_ADD, a, negate(b));
    case CC_OP_MUL: return sym_bin(SYM_MUL, a, b);
    case CC_OP_DIV: return sym_bin(SYM_MUL, a, reciprocal(b));
    case CC_OP_POW: return sym_bin(SYM_POW, a, b);
    default:
        sym_free(a);
        sym_free(b);
        return NULL;
    }
}

/* A literal longer than a double keeps its digits (the printer's
 * multiprecision form: decimal text and digit count). */
static struct sym_node *literal(const struct cc_node *n) {
    if (n->flags & CC_NF_IMAG)
        return NULL;
    struct sym_node *f = sym_float(n->v.f.d);
    int digits = sym_literal_digits(n->v.f.text);
    char buf[512];
    if (!f || digits <= SYM_LITERAL_DOUBLE_DIGITS || !sym_literal_clean(n->v.f.text, buf, sizeof buf))
        return f;
    f->name = strdup(buf);
    f->ival = digits;
    if (!f->name) {
        sym_free(f);
        return NULL;
    }
    return f;
}

static struct sym_node *tree(const struct cc_node *n) {
    switch (n->kind) {
    case CC_N_INT: return sym_num_mpz(n->v.z);
    case CC_N_FLOAT: return literal(n);
    case CC_N_NAME: return constant(n->v.name);
    case CC_N_CALL: return call(n);
    case CC_N_BINARY: return binary(n);
    case CC_N_UNARY:
        if (n->op == CC_OP_POS)
            return tree(n->child[0]);
        if (n->op == CC_OP_NEG)
            return negate(tree(n->child[0]));
        return NULL;
    default: return NULL;
    }
}

struct sym_node *sym_written_tree(const struct cc_node *n) {
    struct sym_node *t = n ? tree(n) : NULL;
    return t ? sym_normalize(t) : NULL;
}
