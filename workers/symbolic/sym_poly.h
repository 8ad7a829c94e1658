/* Small exact polynomials over the rationals, read from our own AST: the
 * arithmetic behind the symbolic fast paths (sym_fast.h), which answer
 * trivial inputs without the CAS.
 *
 * A polynomial is a sparse sum of terms c * x1^e1 * ... * xk^ek over at
 * most SYM_POLY_VARS symbols, kept merged (no two terms with the same
 * exponents, no zero coefficient) and in no particular order. Sizes are
 * bounded (terms, degree, coefficient bits): an input beyond a bound is
 * declined, never approximated, and the CAS path answers it.
 *
 * Ownership: a struct sym_poly is the caller's (usually on the stack);
 * sym_poly_clear() releases its terms. Symbol names are borrowed from the
 * AST, which must outlive the polynomial. */
#ifndef CC_SYM_POLY_H
#define CC_SYM_POLY_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "workers/common/expr_ast.h"
#include "workers/symbolic/sym_tree.h"

#define SYM_POLY_VARS 4
#define SYM_POLY_MAX_TERMS 256
#define SYM_POLY_MAX_DEGREE 64
#define SYM_POLY_MAX_BITS 4096

struct sym_term {
    unsigned short e[SYM_POLY_VARS];
    mpq_t c;
};

/* The symbols of one reading, shared by every polynomial built from it. */
struct sym_vars {
    size_t n;
    const char *name[SYM_POLY_VARS];
};

struct sym_poly {
    size_t n, cap;
    struct sym_term *t;
};

void sym_poly_init(struct sym_poly *p);
void sym_poly_clear(struct sym_poly *p);

/* The polynomial n denotes: integers, symbols, + - *, division by a
 * non-zero number, powers to a literal integer in [0, SYM_POLY_MAX_DEGREE]
 * (negative too when the base is a non-zero number). Anything else (a
 * float, a function, a named constant, a relation, a bound exceeded)
 * declines. 0 with *out set (initialised here), or -1 (nothing to free). */
int sym_poly_from_ast(const struct cc_node *n, struct sym_vars *v, struct sym_poly *out);

/* true when n is written as an expanded polynomial: a sum or difference of
 * monomials, each an optional sign, at most one leading integer and
 * distinct symbols or symbols to literal positive integer powers (2*x**2*y,
 * -x, 7). The CAS keeps such an input as it is, up to the order of terms
 * and merging like terms. */
bool sym_poly_written_expanded(const struct cc_node *n);

/* out = a + sign * b (sign 1 or -1; out initialised here, a and b
 * untouched). 0, or -1 when a bound is exceeded (nothing to free). */
int sym_poly_add(const struct sym_poly *a, const struct sym_poly *b, int sign,
                 struct sym_poly *out);

/* out = a * b (out initialised here). 0, or -1 when a bound is exceeded. */
int sym_poly_mul(const struct sym_poly *a, const struct sym_poly *b, struct sym_poly *out);

/* out = d p / d x_var (var may be a variable p does not use: 0). 0, or -1
 * (nothing to free). */
int sym_poly_diff(const struct sym_poly *p, size_t var, struct sym_poly *out);

/* true when p is a number (no symbol); its value is then *q's
 * (q initialised by the caller). */
bool sym_poly_constant(const struct sym_poly *p, mpq_t q);
/* The degree of p in variable i; the total number of variables used. */
unsigned sym_poly_degree(const struct sym_poly *p, size_t i);
size_t sym_poly_nvars_used(const struct sym_poly *p, const struct sym_vars *v);
/* true when every coefficient is an integer. */
bool sym_poly_integral(const struct sym_poly *p);

/* p as a normalised neutral tree (sym_free), NULL on OOM. */
struct sym_node *sym_poly_tree(const struct sym_poly *p, const struct sym_vars *v);

/* A rational function num/den as written: not reduced, den never the zero
 * polynomial. Released with sym_rat_clear(). */
struct sym_rat {
    struct sym_poly num, den;
};

/* The rational function n denotes: what sym_poly_from_ast() reads, and
 * division by any expression it reads whose numerator is not the zero
 * polynomial, and literal negative powers of such. 0 with *out set, or -1
 * (nothing to free). */
int sym_rat_from_ast(const struct cc_node *n, struct sym_vars *v, struct sym_rat *out);
void sym_rat_clear(struct sym_rat *r);

#endif
