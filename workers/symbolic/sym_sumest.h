/* A numeric estimate of an infinite series, to choose between closed forms
 * of the CAS that contradict each other (redsym7: giac's sums of (-1)**n
 * times a rational term had the wrong sign from some starts). */
#ifndef CC_SYM_SUMEST_H
#define CC_SYM_SUMEST_H

#include <stdbool.h>

#include "workers/common/expr_ast.h"

/* The sum of term (in k) for k = start, start + 1, ... estimated from its
 * first 4000 partial sums, the last 32 averaged pairwise repeatedly (the
 * Euler-van Wijngaarden step that makes an alternating series converge
 * fast; for a series of one sign it is about the last partial sum). Our
 * evaluator at 128 bits. The terms' work is counted, not timed
 * (sym_nwork.h): past 1,500,000 units (about 0.15 s of CPU on the reference
 * host) the partial sums so far are used, so the same series gets the same
 * terms on every host. false when a term has no real value, or fewer than
 * 256 terms fit (a series that converged sooner excepted). *spread is the
 * change of the estimate between half the terms and all of them: how far
 * it can be trusted. */
bool sym_sum_estimate(const struct cc_node *term, const char *k, long start, double *out,
                      double *spread);

/* The logarithm of the infinite product of term (in k) for k = start,
 * start + 1, ...: the log partial products after 500, 1000, 2000 and 4000
 * terms, extrapolated three times in 1/M (Richardson: a product of
 * rational terms tending to 1 has log partial products L + a/M + b/M**2 +
 * ...), in *out; *spread is the change of the second extrapolation from
 * 500-2000 terms to 1000-4000. false when a term is not a positive real, or
 * the work bound (as for sums) cuts the 4000 terms. */
bool sym_product_estimate(const struct cc_node *term, const char *k, long start, double *out,
                          double *spread);

#endif
