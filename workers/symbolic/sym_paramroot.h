/* A root that holds parameters (a**2 for sqrt(x) = a) checked at sample
 * values of the parameters: the evaluator cannot value it alone, and a
 * root that holds only for some parameter values (a**2 needs Re(a) > 0)
 * must not pass for an unconditional one. */
#ifndef CC_SYM_PARAMROOT_H
#define CC_SYM_PARAMROOT_H

#include <stddef.h>

#include "workers/common/expr_ast.h"

enum sym_pr_verdict {
    SYM_PR_UNCHECKED, /* no sample point evaluated (a function we lack) */
    SYM_PR_HOLDS,     /* the equation holds at every sample point that evaluated */
    SYM_PR_FAILS,     /* it fails at every one: not a root */
    SYM_PR_SOME       /* it holds at some and fails at others: a conditional root */
};

/* Checks root_text (a printed root of lhs = rhs, rhs NULL for 0, in var)
 * at sample parameter values (positive, negative and complex); on
 * SYM_PR_SOME, witness holds a failing assignment ("a = -1"). */
enum sym_pr_verdict sym_param_root(const struct cc_node *lhs, const struct cc_node *rhs,
                                   const char *var, const char *root_text, char *witness,
                                   size_t cap);

#endif
