/* A numeric look at a finite limit the CAS gave at +-oo: giac takes sin
 * and cos for bounded even where their argument turns imaginary
 * (cos(sqrt(x))/x at -oo was 0; it is -oo: cos(i t) = cosh(t)). */
#ifndef CC_SYM_LIMCHECK_H
#define CC_SYM_LIMCHECK_H

#include <stdbool.h>

#include "workers/common/expr_ast.h"

/* true when e, evaluated (our evaluator, 128 bits) at var = sgn*10**2,
 * sgn*10**4, sgn*10**8 and sgn*10**16 (far enough for exp(-x/10**6) to
 * decay, near enough for e**(10**8) to stay in MPFR's range), grows in
 * modulus by a factor of at least 10 from each point to the next and
 * exceeds 1e30 at the last two: no finite limit at sgn*oo. *decimal_exp
 * is then the modulus's decimal exponent at the last point. false when a
 * point cannot be evaluated. */
bool sym_limit_grows(const struct cc_node *e, const char *var, int sgn, long *decimal_exp);

#endif
