/* Factoring a univariate integer polynomial without the CAS, for the
 * inputs where giac's factorisation is certain: after the content, the
 * powers of x and every rational root (with its multiplicity) are taken
 * out, what remains must be 1 or a quadratic with a negative discriminant.
 * Such a quadratic is irreducible over Q (no rational root) and over the
 * reals, and giac's factor keeps it whole; it splits a quadratic with a
 * positive discriminant with square roots (x**2 - 2 = (x - sqrt(2))*(x +
 * sqrt(2))), and higher remainders may factor otherwise. Anything else
 * declines. */
#ifndef CC_SYM_FACTOR_H
#define CC_SYM_FACTOR_H

#include "workers/symbolic/sym_poly.h"

/* The factorisation of p (integer coefficients, one variable: v->name[var])
 * as a normalised tree: content * x**k * (q*x - p)**m ... * rest, or NULL
 * when it declines (or on OOM). */
struct sym_node *sym_factor_univariate(const struct sym_poly *p, const struct sym_vars *v,
                                       size_t var);

/* The distinct rational roots of p (rational coefficients, one variable:
 * var) into roots[0..n) (initialised by the caller, at most cap), found
 * as sym_factor_univariate finds them (0 for a power of x, then the
 * candidates p/q of the rational root theorem, each divided out as often
 * as it goes), and what remains as *rests (0 to 2) integer quadratics
 * rest[i][0..2] (rest[i][j] of x**j): none, the quadratic left, or the two
 * quadratics a quartic left splits into. n, or -1 when anything else
 * remains (an irreducible cubic or quartic, a higher degree), the
 * candidates are too many, or p is a constant. */
int sym_rational_roots(const struct sym_poly *p, size_t var, mpq_t *roots, size_t cap,
                       mpq_t rest[][3], int *rests);

#endif
