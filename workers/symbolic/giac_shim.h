/* The only door to giac (C++), as a small C API.
 *
 * Untrusted text never reaches giac's parser: values are built from our own
 * AST (workers/common/expr_ast.h) node by node. User identifiers become giac
 * identifiers with an internal prefix, so no user name can denote a giac
 * command; only an allowlist of function names maps to giac functions.
 * Results come back as a neutral tree (sym_tree.h) with user names restored.
 *
 * A cc_gexpr is an opaque handle on one giac value, owned by the caller and
 * released with cc_gexpr_free(). Every function catches every C++ exception:
 * a failure returns NULL/-1 and fills *err with a TOOLS.md code and message.
 */
#ifndef CC_GIAC_SHIM_H
#define CC_GIAC_SHIM_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "workers/common/expr_ast.h"
#include "workers/symbolic/sym_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cc_sym_err {
    const char *code;  /* one of the closed codes, static storage */
    char msg[600];
    bool declined;     /* giac itself threw on the operation ("Not implemented
                          ..."): not a limit, not the shim's own refusal */
};

typedef struct cc_gexpr cc_gexpr;

/* Creates the giac context and silences giac's own console output. Called
 * once at worker warm-up (later calls are no-ops). 0, or -1 with *err. */
int cc_giac_init(struct cc_sym_err *err);

/* Builds and evaluates the value of an AST (functions applied bottom-up). */
cc_gexpr *cc_giac_from_ast(const struct cc_node *root, struct cc_sym_err *err);
cc_gexpr *cc_giac_int(const mpz_t v, struct cc_sym_err *err);
cc_gexpr *cc_giac_float(double d, struct cc_sym_err *err);
/* An exact rational (canonical q). */
cc_gexpr *cc_giac_rational(const mpq_t q, struct cc_sym_err *err);
/* The symbol a user calls `name` (trimmed by the caller). */
cc_gexpr *cc_giac_symbol(const char *name, struct cc_sym_err *err);
/* +infinity. */
cc_gexpr *cc_giac_infinity(struct cc_sym_err *err);
/* A list of n values (borrowed; copied). */
cc_gexpr *cc_giac_list(cc_gexpr *const *items, size_t n, struct cc_sym_err *err);
/* A rows x cols matrix from row-major entries (borrowed). */
cc_gexpr *cc_giac_matrix(cc_gexpr *const *entries, size_t rows, size_t cols,
                         struct cc_sym_err *err);
void cc_gexpr_free(cc_gexpr *g);

enum cc_giac_op {
    CC_G_SIMPLIFY,    /* (e) */
    CC_G_FACTOR,      /* (e) */
    CC_G_EXPAND,      /* (e) */
    CC_G_SUB,         /* (a, b): a - b */
    CC_G_SOLVE,       /* (expr, var): roots of expr = 0 over C, a list in the
                         order of TOOLS.md 3.3.16 */
    CC_G_LIMIT,       /* (expr, var, point): from the right at a finite point */
    CC_G_SOLVE_SYSTEM,/* (list of expressions = 0, list of symbols): a list of
                         solutions, each a list of values in variable order */
    CC_G_DET, CC_G_INVERSE, CC_G_EIGENVALUES /* list with multiplicity */,
    CC_G_RANK, CC_G_TRACE, CC_G_TRANSPOSE,
    CC_G_SOLVE_GENERAL, /* (expr, var): every solution of a periodic equation, the
                           integer parameters named k, k2, ...; an empty list when
                           the solutions are not periodic */
    CC_G_LIMIT_LEFT,    /* (expr, var, point): from the left at a finite point */
    CC_G_SOLVE_REAL,    /* (expr, var): roots over the reals, giac's exact forms
                           (LambertW(1) where the complex solver gives a float) */
    CC_G_SOLVE_GENERAL_AFTER, /* as CC_G_SOLVE_GENERAL, when CC_G_SOLVE of the same
                                 arguments has given a list: an equation without
                                 trigonometric or hyperbolic functions skips giac's
                                 second solve (the same list, no family in it) */
    CC_G_SOLVE_EXACTED, /* (expr, var): as CC_G_SOLVE with every float of expr read
                           as the rational it is, the roots given back as floats
                           (giac's zero test called 1e-40 zero: x**2 - 1e-40 was
                           answered 0, 0) */
};

/* Applies op to args (borrowed). A new value, or NULL with *err. */
cc_gexpr *cc_giac_apply(enum cc_giac_op op, cc_gexpr *const *args, size_t n,
                        struct cc_sym_err *err);

/* Number of items when g is a list/matrix/sequence, else -1. */
long cc_giac_len(const cc_gexpr *g);
/* Item i of a list (new handle), NULL with *err if out of range. */
cc_gexpr *cc_giac_item(const cc_gexpr *g, size_t i, struct cc_sym_err *err);
/* true when g is exactly zero after simplification. */
bool cc_giac_is_zero(const cc_gexpr *g);
/* true when g is exactly zero as it stands (no simplification: cheap). */
bool cc_giac_is_literal_zero(const cc_gexpr *g);
/* true when a and b are the same value as giac compares them (same tree;
 * numbers by value). */
bool cc_giac_same(const cc_gexpr *a, const cc_gexpr *b);
/* true when g is the given symbol. */
bool cc_giac_is_symbol(const cc_gexpr *g, const char *name);
/* true when g is a finite number (no symbol, no infinity, no undef). */
bool cc_giac_is_number(const cc_gexpr *g);

/* The neutral tree of g (normalised), or NULL with *err. */
struct sym_node *cc_giac_tree(const cc_gexpr *g, struct cc_sym_err *err);

/* A numeric approximation with `digits` significant decimal digits: *re and
 * *im receive malloc'd decimal strings (caller frees). 0, or -1 with *err
 * (not a finite number). */
int cc_giac_approx(const cc_gexpr *g, int digits, char **re, char **im,
                   struct cc_sym_err *err);

/* ---- domains and rewritings ------------------------------------------------ */

/* The values a symbol may take (assumptions; numeric test points). */
enum cc_num_dom { CC_DOM_COMPLEX, CC_DOM_REAL, CC_DOM_POSITIVE, CC_DOM_NONNEG, CC_DOM_INTEGER };

/* A note left by the last evaluation (e.g. which cube root cbrt took), or
 * NULL; malloc'd, and cleared by the call. */
char *cc_giac_take_note(void);

/* After CC_G_SOLVE_GENERAL(_AFTER): the integers where a family is
 * undefined ("k = 0 in 1/(pi*k)"), or NULL; malloc'd, cleared by the call. */
char *cc_giac_take_family_note(void);

/* After CC_G_SOLVE_GENERAL(_AFTER): the families' members at k = -1 and 1
 * that solve the equation, printed, one a line; or NULL; malloc'd, cleared
 * by the call. */
char *cc_giac_take_family_samples(void);

/* Declares (giac assume) symbol `name` to be in domain d, until
 * cc_giac_forget_all(). 0, or -1 with *err. */
int cc_giac_assume(const char *name, enum cc_num_dom d, struct cc_sym_err *err);
/* Drops every assumption made with cc_giac_assume(), and any giac left
 * behind in its context. */
void cc_giac_forget_all(void);
/* How many assumptions the CAS context holds (a test hook: 0 between
 * requests). */
size_t cc_giac_assumption_count(void);

/* Rewritings tried by simplify (each is one giac rewriting function). */
enum cc_rw {
    CC_RW_NORMAL, CC_RW_TRIGSIMPLIFY, CC_RW_TCOLLECT, CC_RW_TLIN, CC_RW_EXP2TRIG,
    CC_RW_LNCOLLECT, CC_RW_HYP2EXP, CC_RW_TRIG2EXP, CC_RW_EXPCOLLECT, CC_RW_EXP2HYP, CC_RW_INTROUND,
    CC_RW_HYPTCOLLECT, CC_RW_HYPSIMPLIFY, CC_RW_HYPTERMS,
    CC_RW_RATNORMAL, /* a rational function of its non-rational parts, reduced
                        (sqrt(x), sin(x) are atoms: no algebraic extensions) */
    CC_RW_TRIG2EXP_RAT, /* sines, cosines and tangents as exponentials, then
                           ratnormal (no simplify: cheap; for zero tests) */
    CC_RW_COUNT
};
/* rewrite(g), or NULL with *err. */
cc_gexpr *cc_giac_rewrite(enum cc_rw how, const cc_gexpr *g, struct cc_sym_err *err);

#ifdef __cplusplus
}
#endif

#endif
