/* Answers without the CAS for inputs whose answer is certain from our own
 * tree: exact rational arithmetic, and polynomials written expanded (the
 * CAS keeps those as they are; our canonical form prints the same text).
 * A fast path either gives the very answer the CAS path gives or declines
 * (NULL), and the caller then runs the CAS path unchanged.
 *
 * CODECALC_SYMBOLIC_FASTPATH=0 in the worker's environment turns every
 * fast path off: tests/crosscheck/fastpath.py runs every case of the
 * cross-check corpora both ways and requires identical answers. */
#ifndef CC_SYM_FAST_H
#define CC_SYM_FAST_H

#include <jansson.h>
#include <stdbool.h>

#include "workers/common/expr_ast.h"
#include "workers/symbolic/sym_tree.h"

bool sym_fast_enabled(void);

/* The value of root as the CAS would evaluate and normalise it, when root
 * is exact rational arithmetic or a polynomial written expanded; NULL
 * otherwise (a new tree: sym_free). */
struct sym_node *sym_fast_value(const struct cc_node *root);

/* simplify_expression's result for a polynomial in one symbol with integer
 * coefficients, written expanded, whose factorisation over Q is certain
 * (sym_factor.h); NULL otherwise. */
json_t *sym_fast_simplify(const struct cc_node *root);

#endif
