/* Exact -> float conversion of a result tree, for answers that the CAS
 * computed exactly from float input (matrix entries such as 0.5): sympy
 * would have carried Floats through the arithmetic, so the numbers of the
 * answer print as floats. */
#ifndef CC_SYM_FLOAT_H
#define CC_SYM_FLOAT_H

#include "workers/symbolic/sym_tree.h"

/* Rewrites, in place, every exact number of n as the nearest binary64,
 * except exponents (x**2 stays x**2) and a unit coefficient (-x stays -x,
 * where sympy never had a Float). */
void sym_to_float(struct sym_node *n);

/* A float node for the decimal text dec (as cc_giac_approx writes it):
 * the nearest binary64, or, when that is 0 for a nonzero value or is
 * infinite, the decimal itself at 15 significant digits (printed like a
 * multiprecision literal), so 1e-400 is not answered as 0.0 and 1e310 is
 * not a failure. NULL on OOM. */
struct sym_node *sym_float_decimal(const char *dec);
/* true when the decimal text has no nonzero digit before its exponent. */
bool sym_decimal_is_zero(const char *dec);

#endif
