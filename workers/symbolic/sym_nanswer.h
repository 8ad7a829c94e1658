/* evaluate_expression's N(e) and N(e, d) answered by our own evaluator
 * (sym_nval.h) rather than giac's evalf. */
#ifndef CC_SYM_NANSWER_H
#define CC_SYM_NANSWER_H

#include <jansson.h>
#include <stdbool.h>

#include "workers/common/expr_ast.h"
#include "workers/symbolic/sym_nval.h"

/* The whole result for root when it is N(e) or N(e, d) with e a constant
 * our evaluator covers (d a positive integer literal): each part correctly
 * rounded to d significant digits (15 without d), an exactly zero part
 * omitted, a nonzero one kept however small. NULL when it is not ours: the
 * caller goes on with the CAS. */
json_t *sym_n_answer(const struct cc_node *root);

/* Sets out["value"] (the 12-digit approximation) of an exact constant
 * input (no symbol, no float) from our evaluator, correctly rounded, a
 * tiny nonzero part kept (giac's evalf gave 0.0 for I/10**20 and dropped
 * the imaginary part of 1 + exp(-50)*I). false, leaving out alone, when
 * the input is not one or the evaluator declines; *why then says why
 * (SYM_NV_RANGE: the value or a step of it is beyond 10**+-39456,
 * SYM_NV_UNRESOLVED: its digits did not settle; in both giac's evalf may
 * round a nonzero value to 0.0). */
bool sym_n_value(const struct cc_node *root, json_t *out, enum sym_nv_rc *why);

/* The whole result for a constant written with float literals (and no N
 * call) whose value is a float: our evaluator's value of the literals as
 * written, correctly rounded to 15 digits (giac's complex tanh gave
 * tanh(2.0 + I) = 0.984 - 0.033*I, for 1.015 + 0.034*I). NULL when the
 * input is not one or the evaluator declines: the CAS's answer stands. */
json_t *sym_float_answer(const struct cc_node *root);

#endif
