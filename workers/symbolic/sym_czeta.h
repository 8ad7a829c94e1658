/* The Riemann zeta function and the branches of Lambert's W at complex
 * arguments for the evaluator (sym_numeval.h): MPFR's zeta is real-only,
 * MPC has neither, and N(zeta(2 + I)) / N(LambertW(1 + I)) were refused. */
#ifndef CC_SYM_CZETA_H
#define CC_SYM_CZETA_H

#include <mpc.h>

/* out = zeta(s) of a complex s (s != 1) at out's precision: Borwein's
 * alternating-series algorithm (1991, algorithm 2) for Re s >= 1/2, the
 * functional equation left of it. Not correctly rounded: callers compare
 * two precisions (N's loop does). 0, or -1 at s = 1, near a zero of
 * 1 - 2^(1 - s) (the divisor below 2^(-p/2)), or for |Im s| > 1000 (the
 * terms' cancellation). */
int sym_czeta(mpc_ptr out, mpc_srcptr s);

/* out = W_k(z), branch k of Lambert's W (SymPy's and mpmath's branches),
 * by Newton's iteration from the asymptotic start L - log L, L = log z +
 * 2 pi i k (log(1 + z) near 0 on branch 0). The root is accepted only when
 * it satisfies W + log W = log z + 2 pi i k, which names the branch
 * (Jeffrey, Hare and Corless 1996); the real branch -1 on (-1/e, 0), where
 * that identity does not hold, is checked by being real and below -1.
 * Not correctly rounded: callers compare two precisions. 0, or -1 when no
 * root of that branch is found or z = 0 on a branch k != 0 (-oo there). */
int sym_clambertw(mpc_ptr out, mpc_srcptr z, long k);

/* w = a start for Newton on a real branch of W at real x in [-1/e, 0)
 * near the branch point: the series -1 + s q - q^2/3 + s 11 q^3/72,
 * q = sqrt(2 (e x + 1)), s = +1 on branch 0 and -1 on branch -1. There W
 * has a double root in w (f'(-1) = 0), Newton from a far start only
 * halves its error each step, and 200 steps from -0.5 left
 * LambertW(-exp(-1)) + 1 = 4.3e-61 at every precision: a value that
 * looked settled. */
void sym_lambertw_branch_start(mpfr_ptr w, mpfr_srcptr x, int s);

#endif
