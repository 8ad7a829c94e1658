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

#endif
