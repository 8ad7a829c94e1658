/* The numeric check of a derivative: diff(f, x) answered d must equal the
 * derivative of f as written at complex points, computed by a central
 * difference with the 128-bit evaluator (sym_numeval.h). giac
 * differentiates some functions with real-only formulas (d/dx asec(x) as
 * 1/(Abs(x)*sqrt(x**2 - 1)), right for real x alone). */
#ifndef CC_SYM_DERIVCHECK_H
#define CC_SYM_DERIVCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "workers/common/expr_ast.h"

/* true when d differs from df/dvar at one of the check's complex points;
 * witness (cap bytes) then names it ("x = 0.7 + 1.3*I"). false also when
 * too few points evaluate to tell. */
bool sym_derivative_mismatch(const struct cc_node *f, const char *var, const struct cc_node *d,
                             char *witness, size_t cap);

#endif
