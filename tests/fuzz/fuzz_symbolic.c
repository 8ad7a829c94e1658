/* Fuzz target: the symbolic tools' front end and printer, without giac.
 *
 * The input is an expression in the symbolic dialect (TOOLS.md 2.3). It
 * goes through the token screen, the symbolic-dialect parser and the shape
 * check (workers/common/expr_*), exactly as sym_input() runs them before
 * anything reaches the CAS. A parsed tree is then turned into a result
 * tree by a plain structural mapping (the CAS is not needed to exercise
 * the printer: an unevaluated expression is a valid result), normalised
 * (sym_normalize) and printed (sym_print).
 *
 * Properties: no sanitizer report, no timeout; a refusal carries one of the
 * closed codes and a message; the printer returns text for every tree; and
 * that text parses back through the symbolic dialect (sym_print.h promises
 * it), unless the screen refuses it for size. */
#include <math.h>
#include <string.h>

#include "workers/common/expr_parse.h"
#include "workers/common/tool_api.h"
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_tree.h"
#include "tests/fuzz/fz.h"

static struct sym_node *conv(const struct cc_node *n);

static struct sym_node *neg(struct sym_node *a) { return sym_bin(SYM_MUL, sym_int(-1), a); }
static struct sym_node *inv(struct sym_node *a) { return sym_bin(SYM_POW, a, sym_int(-1)); }

static struct sym_node *func(const char *name, struct sym_node *a, struct sym_node *b) {
    struct sym_node *kids[2] = {a, b};
    if (!a) {
        sym_free(b);
        return NULL;
    }
    return sym_func(name, kids, b ? 2 : 1);
}

static struct sym_node *constant_or_symbol(const char *name) {
    static const struct { const char *name; enum sym_const c; } consts[] = {
        {"pi", SYM_PI}, {"E", SYM_E}, {"I", SYM_I}, {"oo", SYM_OO}, {"zoo", SYM_ZOO}, {"nan", SYM_NAN},
    };
    for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
        if (strcmp(name, consts[i].name) == 0) return sym_const(consts[i].c);
    return sym_symbol(name);
}

static struct sym_node *unary(const struct cc_node *n) {
    struct sym_node *a = conv(n->child[0]);
    if (!a) return NULL;
    switch (n->op) {
    case CC_OP_NEG: return neg(a);
    case CC_OP_FACT: return func("factorial", a, NULL);
    case CC_OP_NOT:
    case CC_OP_INVERT: return func("sign", a, NULL);
    default: return a;
    }
}

/* Operators without a printer form of their own become known functions, so
 * the printed text stays inside the dialect. */
static struct sym_node *binary(const struct cc_node *n) {
    struct sym_node *a = conv(n->child[0]), *b = a ? conv(n->child[1]) : NULL;
    if (!a || !b) {
        sym_free(a);
        return NULL;
    }
    switch (n->op) {
    case CC_OP_ADD: return sym_bin(SYM_ADD, a, b);
    case CC_OP_SUB: return sym_bin(SYM_ADD, a, neg(b));
    case CC_OP_MUL: return sym_bin(SYM_MUL, a, b);
    case CC_OP_DIV: return sym_bin(SYM_MUL, a, inv(b));
    case CC_OP_POW: return sym_bin(SYM_POW, a, b);
    case CC_OP_FLOORDIV: return func("floor", sym_bin(SYM_MUL, a, inv(b)), NULL);
    case CC_OP_MOD:
    case CC_OP_BITXOR: return func("Mod", a, b);
    case CC_OP_AND:
    case CC_OP_BITAND: return func("Min", a, b);
    case CC_OP_OR:
    case CC_OP_BITOR: return func("Max", a, b);
    case CC_OP_LSHIFT: return sym_bin(SYM_MUL, a, sym_bin(SYM_POW, sym_int(2), b));
    case CC_OP_RSHIFT: return sym_bin(SYM_MUL, a, sym_bin(SYM_POW, sym_int(2), neg(b)));
    default: return sym_bin(SYM_ADD, a, b);
    }
}

static enum sym_rel rel_of(enum cc_op op) {
    switch (op) {
    case CC_OP_NE: return SYM_NE;
    case CC_OP_LT: return SYM_LT;
    case CC_OP_LE: return SYM_LE;
    case CC_OP_GT: return SYM_GT;
    case CC_OP_GE: return SYM_GE;
    default: return SYM_EQ;
    }
}

/* a < b <= c becomes Min(a < b, b <= c). */
static struct sym_node *compare(const struct cc_node *n) {
    struct sym_node *all = sym_func("Min", NULL, 0);
    for (uint32_t i = 0; all && i + 1 < n->nchild; i++) {
        struct sym_node *r = sym_rel(rel_of(n->cmp_ops[i]), conv(n->child[i]), conv(n->child[i + 1]));
        if (!r || sym_append(all, r) < 0) {
            sym_free(all);
            return NULL;
        }
    }
    if (all && all->n == 1) {
        struct sym_node *only = all->kid[0];
        all->n = 0;
        sym_free(all);
        return only;
    }
    return all;
}

static struct sym_node *container(const struct cc_node *n, struct sym_node *c) {
    for (uint32_t i = 0; c && i < n->nchild; i++) {
        struct sym_node *k = conv(n->child[i]);
        if (!k || sym_append(c, k) < 0) {
            sym_free(c);
            return NULL;
        }
    }
    return c;
}

static struct sym_node *conv(const struct cc_node *n) {
    switch (n->kind) {
    case CC_N_INT: return sym_num_mpz(n->v.z);
    case CC_N_FLOAT: return isfinite(n->v.f.d) ? sym_float(n->v.f.d) : sym_const(SYM_OO);
    case CC_N_BOOL: return sym_bool(n->v.b);
    case CC_N_NAME: return constant_or_symbol(n->v.name);
    case CC_N_UNARY: return unary(n);
    case CC_N_BINARY: return binary(n);
    case CC_N_COMPARE: return compare(n);
    case CC_N_CALL: return container(n, sym_func(n->v.name, NULL, 0));
    case CC_N_TUPLE: return container(n, sym_nary(SYM_TUPLE, NULL, 0));
    }
    return NULL;
}

static bool closed_code(const char *code) {
    for (int i = 0; code && i < 8; i++)
        if (strcmp(code, cc_codes[i]) == 0) return true;
    return false;
}

/* Screen, parse and shape-check text; NULL with err set on refusal. */
static const struct cc_node *front(struct cc_arena *a, const char *text, size_t n, struct cc_expr_error *err) {
    const struct cc_node *root = cc_expr_screen_parse(a, text, n, CC_DIALECT_SYMBOLIC, err);
    if (root && cc_expr_shape_check(root, err) < 0) return NULL;
    if (!root) FZ_ASSERT(closed_code(err->code) && err->message[0], "refusal without a closed code");
    return root;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct cc_arena *a = cc_arena_new();
    if (!a) abort();
    struct cc_expr_error err = {0};
    const struct cc_node *root = front(a, (const char *)data, size, &err);
    struct sym_node *t = root ? sym_normalize(conv(root)) : NULL;
    cc_arena_free(a);
    if (!root) return 0;
    FZ_ASSERT(t != NULL, "a parsed expression gave no result tree");
    char *text = sym_print(t);
    sym_free(t);
    FZ_ASSERT(text != NULL, "the printer gave up on %.*s", (int)size, (const char *)data);
    struct cc_arena *b = cc_arena_new();
    struct cc_expr_error err2 = {0};
    if (!front(b, text, strlen(text), &err2))
        FZ_ASSERT(strcmp(err2.code, "validation") != 0, "printed text does not parse back: %s (from %.*s): %s",
                  text, (int)size, (const char *)data, err2.message);
    cc_arena_free(b);
    free(text);
    return 0;
}
