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
 * evaluator at 128 bits. false when a term has no real value, or the
 * terms take more than 0.25 s of CPU. *spread
 * is the change of the estimate between 2000 and 4000 terms: how far it
 * can be trusted. */
bool sym_sum_estimate(const struct cc_node *term, const char *k, long start, double *out,
                      double *spread);

#endif
