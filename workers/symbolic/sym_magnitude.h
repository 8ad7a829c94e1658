/* The size of an expression at a point before any cancellation: what a
 * residual or a difference of two forms is measured against where a test
 * against 1 would take a tiny value for 0 (x**2 - 1e-40 at 0, a form 0 of
 * 1e-30*x). */
#ifndef CC_SYM_MAGNITUDE_H
#define CC_SYM_MAGNITUDE_H

#include <mpfr.h>
#include <stdbool.h>

#include "workers/common/expr_ast.h"
#include "workers/symbolic/sym_numeval.h"

/* A sum's largest term, a product's product of sizes, a power's base size
 * to its (positive integer) exponent, a quotient's numerator size over its
 * denominator's value; any other node its value, a function's at least 1
 * (sin(x) at pi is rounding, its size the argument's order), into out
 * (SYM_NUM_BITS). False when a part cannot be evaluated. */
bool sym_magnitude(const struct cc_node *n, const struct sym_point *p, mpfr_t out);

#endif
