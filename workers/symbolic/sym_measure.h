/* The complexity measure simplify uses to choose among candidate forms: a
 * count of operations in the spirit of SymPy's count_ops. Every function
 * application, power, and each extra term of a sum or factor above a
 * fraction bar counts 1; a denominator (x**-1 factors) counts 1 as a
 * division; a negative coefficient counts 1 (a negation) and a non-integer
 * rational 1 (a division); symbols and integers count 0. In a sum a
 * negative term is a subtraction, as SymPy counts it: x - y is 1, x - 2*y
 * is 2, -x - y is 2 (one negation when no term is positive). */
#ifndef CC_SYM_MEASURE_H
#define CC_SYM_MEASURE_H

#include "workers/symbolic/sym_tree.h"

long sym_count_ops(const struct sym_node *n);

#endif
