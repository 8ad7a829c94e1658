/* The expression AST shared by calc_exact (workers/calc) and the symbolic
 * tools (workers/symbolic). Built by our own parser (expr_parse.h); nothing
 * here is ever evaluated as code, and untrusted text never reaches any
 * engine's own parser: engines consume this tree.
 *
 * Ownership: every node of one parse lives in one arena (struct cc_arena);
 * freeing the arena frees the tree. Nodes are never shared between arenas.
 */
#ifndef CC_EXPR_AST_H
#define CC_EXPR_AST_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cc_node_kind {
    CC_N_INT,     /* integer literal: .v.z (exact) */
    CC_N_FLOAT,   /* decimal literal: .v.f.d (binary64) and .v.f.text (as written) */
    CC_N_BOOL,    /* True / False: .v.b */
    CC_N_NAME,    /* identifier: .v.name (a symbol, a constant such as pi, or a
                     function name when it is the callee of CC_N_CALL) */
    CC_N_UNARY,   /* .op in {CC_OP_POS, CC_OP_NEG, CC_OP_INVERT, CC_OP_NOT,
                     CC_OP_FACT}; one child */
    CC_N_BINARY,  /* .op arithmetic/bitwise/boolean; two children */
    CC_N_COMPARE, /* chained comparison a < b <= c: children are the n operands,
                     .cmp_ops holds the n-1 operators */
    CC_N_CALL,    /* .v.name is the function name; children are the positional
                     arguments; keyword arguments are dropped at parse time */
    CC_N_TUPLE,   /* parenthesised comma list (a, b); children */
};

enum cc_op {
    CC_OP_NONE = 0,
    /* unary */
    CC_OP_POS, CC_OP_NEG, CC_OP_INVERT /* ~ */, CC_OP_NOT, CC_OP_FACT /* postfix ! */,
    /* binary arithmetic */
    CC_OP_ADD, CC_OP_SUB, CC_OP_MUL, CC_OP_DIV, CC_OP_FLOORDIV, CC_OP_MOD, CC_OP_POW,
    /* binary bitwise (calc_exact) / logical (symbolic: & | ~ on booleans) */
    CC_OP_BITAND, CC_OP_BITOR, CC_OP_BITXOR, CC_OP_LSHIFT, CC_OP_RSHIFT,
    /* boolean keywords */
    CC_OP_AND, CC_OP_OR,
    /* comparisons (in cmp_ops) */
    CC_OP_EQ, CC_OP_NE, CC_OP_LT, CC_OP_LE, CC_OP_GT, CC_OP_GE,
};

struct cc_node {
    enum cc_node_kind kind;
    enum cc_op op;
    uint32_t flags;      /* CC_NF_* */
    uint32_t pos;        /* 0-based character offset in the source */
    uint32_t nchild;
    struct cc_node **child;
    enum cc_op *cmp_ops; /* CC_N_COMPARE only: nchild - 1 entries */
    union {
        mpz_t z;                 /* CC_N_INT (initialised; cleared by the arena) */
        struct {
            double d;
            const char *text;    /* the literal as written, NUL-terminated */
        } f;                     /* CC_N_FLOAT */
        int b;                   /* CC_N_BOOL */
        const char *name;        /* CC_N_NAME, CC_N_CALL */
    } v;
};

/* Node flags. */
enum {
    /* CC_N_FLOAT written with a j/J suffix (Python imaginary literal, e.g.
     * 1j); .v.f.d is the imaginary part. The symbolic dialect never produces
     * it (it builds coefficient * I instead). */
    CC_NF_IMAG = 1u << 0,
    /* CC_N_BINARY CC_OP_MUL inserted by implicit multiplication (2x). */
    CC_NF_IMPLICIT = 1u << 1,
};

/* true when pred holds for n or for a node below it (absent children are
 * skipped): the one walk behind every "does the tree hold a ..." test. */
static inline bool cc_node_any(const struct cc_node *n, bool (*pred)(const struct cc_node *)) {
    if (pred(n))
        return true;
    for (uint32_t i = 0; i < n->nchild; i++)
        if (n->child[i] && cc_node_any(n->child[i], pred))
            return true;
    return false;
}

/* cc_node_any's predicate for a float literal (2.5, 1e-20) */
static inline bool cc_node_is_float(const struct cc_node *n) { return n->kind == CC_N_FLOAT; }

/* Parse dialects. */
enum cc_dialect {
    CC_DIALECT_PYTHON,   /* calc_exact: Python expression grammar; '^' is XOR */
    CC_DIALECT_SYMBOLIC, /* symbolic tools (TOOLS.md 2.3): '^' is power, postfix
                            '!', implicit multiplication/application */
};

#endif
