/* The neutral result tree: what the giac shim hands back to C.
 *
 * The shim converts a giac value into this tree (mapping internal symbol
 * names back to the user's); the printer (sym_print.h) turns it into the
 * sympy-compatible text of TOOLS.md 2.3. Keeping giac's own types out of C
 * means the printer can be tested without a CAS.
 *
 * Ownership: every node is malloc'd; a parent owns its children and its
 * name. sym_free() releases a whole tree. Constructors return NULL only on
 * allocation failure; passing NULL children propagates that NULL (the
 * partially built children are freed), so callers can check once at the top.
 */
#ifndef CC_SYM_TREE_H
#define CC_SYM_TREE_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>

enum sym_kind {
    SYM_NUM,    /* exact rational .q (integers have denominator 1) */
    SYM_FLOAT,  /* binary64 .f */
    SYM_SYMBOL, /* .name (the user's spelling) */
    SYM_CONST,  /* .ival is an enum sym_const */
    SYM_ADD,    /* n >= 2 terms */
    SYM_MUL,    /* n >= 2 factors */
    SYM_POW,    /* kid[0] ** kid[1] */
    SYM_FUNC,   /* .name(kid...) with sympy's function name */
    SYM_REL,    /* kid[0] <op> kid[1]; .ival is an enum sym_rel */
    SYM_BOOL,   /* .ival 0/1 */
    SYM_LIST,   /* [kid...] */
    SYM_TUPLE,  /* (kid...) */
    SYM_DICT,   /* {kid[0]: kid[1], kid[2]: kid[3], ...} */
};

enum sym_const { SYM_PI, SYM_E, SYM_I, SYM_OO, SYM_NEG_OO, SYM_ZOO, SYM_NAN };
enum sym_rel { SYM_EQ, SYM_NE, SYM_LT, SYM_LE, SYM_GT, SYM_GE };

struct sym_node {
    enum sym_kind kind;
    int ival;
    mpq_t q;              /* initialised for SYM_NUM only */
    double f;
    char *name;           /* owned; SYMBOL and FUNC */
    size_t n;
    struct sym_node **kid; /* owned array of owned children */
};

struct sym_node *sym_int(long v);
struct sym_node *sym_num_mpz(const mpz_t v);
/* num/den; den must be nonzero. The value is canonicalised. */
struct sym_node *sym_num_frac(const mpz_t num, const mpz_t den);
struct sym_node *sym_num_q(const mpq_t v);
struct sym_node *sym_float(double d);
struct sym_node *sym_symbol(const char *name);
struct sym_node *sym_const(enum sym_const c);
struct sym_node *sym_bool(bool b);
/* A node of kind k taking ownership of kids[0..n) (the array is copied). */
struct sym_node *sym_nary(enum sym_kind k, struct sym_node **kids, size_t n);
struct sym_node *sym_bin(enum sym_kind k, struct sym_node *a, struct sym_node *b);
struct sym_node *sym_func(const char *name, struct sym_node **kids, size_t n);
struct sym_node *sym_rel(enum sym_rel op, struct sym_node *a, struct sym_node *b);

void sym_free(struct sym_node *n);
struct sym_node *sym_copy(const struct sym_node *n);

/* Appends child c to a container node (LIST/TUPLE/DICT/ADD/MUL/FUNC).
 * Takes c; returns 0, or -1 on allocation failure (c is freed). */
int sym_append(struct sym_node *parent, struct sym_node *c);

bool sym_is_num(const struct sym_node *n);
bool sym_is_int_value(const struct sym_node *n, long v);
/* true when any SYM_SYMBOL occurs in n. */
bool sym_has_symbol(const struct sym_node *n);
/* true when SYM_CONST I occurs in n. */
bool sym_has_imag(const struct sym_node *n);

/* Rewrites the tree toward sympy's automatic form: flattens nested sums and
 * products, folds exact numeric factors of a product into one leading
 * coefficient, drops unit coefficients, and distributes a rational
 * coefficient over a single sum (2*(x+1) -> 2*x + 2) as sympy does.
 * Returns the new root (the old one is consumed), NULL on OOM. */
struct sym_node *sym_normalize(struct sym_node *n);

#endif
