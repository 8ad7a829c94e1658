/* The solution set of a one-variable real inequality, checked by
 * substitution (redsym7).
 *
 * giac evaluates an inequality as it builds it, deciding its sign as if
 * every symbol were real and generic: (x - 1)**2 > 0 became True (it fails
 * at x = 1), cos(x) > 2 False, and its solver then answered [] for "every
 * x" and ["x"] for "no x"; a*x > 1 gave [] (it holds for x > 1/a when
 * a > 0). Every solution set is therefore compared with the inequality as
 * written, by our evaluator, at real points: a grid, every bound of the
 * set, every real root of lhs = rhs, points just beside each and midway
 * between them, and with parameters at several real values of them. A
 * point where both sides are real and the inequality's truth differs from
 * the set's membership refutes the set.
 *
 * The inequality holds at x only where both sides are real. At a bound or
 * a root of the equation two values within 1e-25 of each other
 * (relatively) are taken as equal (met at 128 bits), so <= and >= hold
 * there and < and > do not; elsewhere only an exact 0 is (x*exp(x) at
 * x = -10**6 is negative, however small). */
#ifndef CC_SYM_INEQ_H
#define CC_SYM_INEQ_H

#include <mpfr.h>
#include <stdbool.h>
#include <stddef.h>

#include "workers/common/expr_ast.h"
#include "workers/symbolic/sym_tree.h"

/* true when n is one comparison < <= > >= != (a single operator). */
bool sym_ineq_is(const struct cc_node *n);
/* true when the comparison is strict (<, >, !=). */
bool sym_ineq_strict(const struct cc_node *n);

/* A region tree (a relation, And/Or/Not of relations, a boolean) as text
 * our parser reads (And -> &, Or -> |), malloc'd; NULL when it holds
 * anything else (giac's bare "x" for an empty set). */
char *sym_ineq_region_text(const struct sym_node *region);

enum sym_ineq_verdict {
    SYM_INEQ_AGREES,    /* no point refutes the set */
    SYM_INEQ_REFUTED,   /* witness names the point */
    SYM_INEQ_UNCHECKED, /* no point could be judged (the evaluator lacks a function) */
};

/* The set given by regions[0..n) (texts from sym_ineq_region_text; the
 * union; n = 0 is the empty set) against the inequality ineq in var.
 * roots[0..nroots) are real roots of lhs = rhs sampled beside the bounds.
 * witness (cap bytes) receives "x = 1: the inequality holds there but the
 * set excludes it" on refutation. */
enum sym_ineq_verdict sym_ineq_check(const struct cc_node *ineq, const char *var,
                                     const char *const *regions, size_t n, const mpfr_t *roots,
                                     size_t nroots, char *witness, size_t cap);

#endif
