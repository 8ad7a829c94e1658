/* The part of sympy's automatic evaluation the CAS does not do when a value
 * is built node by node: 2*x + 3*x is 5*x and x*x is x**2 as soon as it is
 * written. Fractions are not cancelled ((x**2 - 1)/(x - 1) stays), exactly
 * as in sympy. Used by sym_normalize (sym_tree.h) on flattened nodes whose
 * children are already normalised. */
#ifndef CC_SYM_COLLECT_H
#define CC_SYM_COLLECT_H

#include "workers/symbolic/sym_tree.h"

/* Merges the terms of a sum that differ only in their numeric coefficient
 * (a term whose coefficients cancel disappears). The node keeps ownership
 * of its children; n->n may shrink, possibly to 0 or 1. Returns 1 when
 * something merged, 0 when not, -1 on allocation failure. */
int sym_collect_terms(struct sym_node *n);

/* Merges the factors of a product that share a non-numeric base by adding
 * their exponents (x*x**2 -> x**3; x/x -> the factor disappears). Same
 * contract as sym_collect_terms. */
int sym_collect_factors(struct sym_node *n);

#endif
