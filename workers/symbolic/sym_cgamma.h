/* The gamma, digamma, error and exponential integral functions of a complex argument for the evaluator
 * (sym_numeval.h): MPFR's gamma is real-only, MPC has none, and giac's
 * complex gamma is wrong (N(gamma(1 + I)) was 0.5 - 0.2*I, for
 * 0.498 - 0.155*I). */
#ifndef CC_SYM_CGAMMA_H
#define CC_SYM_CGAMMA_H

#include <mpc.h>

/* out = gamma(z) at out's precision, by Stirling's series after shifting
 * z right (and the reflection formula left of Re z = 1/2), computed with
 * guard bits. Not correctly rounded and without an error bound near the
 * poles: callers compare two precisions (N's loop does). 0, or -1 at a
 * pole or beyond the exponent range. */
int sym_cgamma(mpc_ptr out, mpc_srcptr z);

/* out = erf(z) (erfc(z) when complement) of a complex z with |z| <= 12,
 * by the Maclaurin series at a precision raised by the series'
 * cancellation (about 1.45*|z|^2 bits). Not correctly rounded: callers
 * compare two precisions. 0, or -1 beyond |z| = 12 (no value of ours). */
int sym_cerf(mpc_ptr out, mpc_srcptr z, int complement);

/* out = digamma(z) of a complex z, by its asymptotic series after shifting
 * z right (and the reflection formula left of Re z = 1/2), with guard
 * bits. Not correctly rounded: callers compare two precisions. 0, or -1
 * at a pole. */
int sym_cdigamma(mpc_ptr out, mpc_srcptr z);

/* out = Ei(z) of a complex z with 0 < |z| <= 60 (SymPy's and mpmath's
 * branch, EulerGamma + log(z) + sum z**k/(k*k!)), the series at a
 * precision raised by its cancellation (about 1.45*|z| bits). Not
 * correctly rounded: callers compare two precisions. 0, or -1 outside
 * that disc. */
int sym_cei(mpc_ptr out, mpc_srcptr z);

#endif
