/* A memo of the numeric evaluator's function values (sym_numeval.c).
 *
 * Every numeric check samples the same points (sym_numcheck.c: fixed
 * branch-cut witnesses, then a fixed pseudo-random sequence), so the same
 * function meets the same argument again and again: sin(x) at x = -1 in
 * every check of every request with one symbol, and, inside one request,
 * the input's values once per simplify candidate and per domain holds_for
 * tries. A function value at SYM_NUM_BITS is a deterministic function of
 * the name and the argument's bits alone (MPC/MPFR results depend on the
 * operands and the target precision only; our own functions keep no
 * state), so a value remembered is bit for bit the value recomputed, and
 * no verdict can tell whether the memo was consulted: answers do not
 * depend on the requests before them.
 *
 * Only the non-strict evaluation uses it (N()'s strict mode reads each
 * call's rounding flags, which the memo does not keep). The table is
 * direct-mapped and bounded: a collision overwrites, which changes only
 * what is remembered. */
#ifndef CC_SYM_NMEMO_H
#define CC_SYM_NMEMO_H

#include <mpc.h>
#include <stdbool.h>

/* The memo's key: a function name (at most SYM_NMEMO_NAME - 1 bytes, else
 * never remembered) and one or two arguments (b NULL for one). */
#define SYM_NMEMO_NAME 16

/* true and out = the remembered value (*rc its return code) when name(a,
 * b) is remembered; out must be initialised at SYM_NUM_BITS. */
bool sym_nmemo_get(const char *name, mpc_srcptr a, mpc_srcptr b, mpc_ptr out, int *rc);

/* Remembers name(a, b) = out with return code rc (out is ignored when rc
 * is not 0). Arguments that are not finite, or anything not at
 * SYM_NUM_BITS, are not remembered. */
void sym_nmemo_put(const char *name, mpc_srcptr a, mpc_srcptr b, mpc_srcptr out, int rc);

/* CODECALC_SYMBOLIC_NMEMO=0 in the worker's environment turns the memo
 * off (every value recomputed), for before/after comparisons; so does
 * CODECALC_SYMBOLIC_FASTPATH=0 (tests/crosscheck/fastpath.py then checks
 * that every answer is the same with and without it). */
bool sym_nmemo_enabled(void);
/* Overrides the environment (the unit tests compare both ways). */
void sym_nmemo_enable(bool on);

/* Lookups and hits since the worker started (for measurements). */
void sym_nmemo_stats(unsigned long *lookups, unsigned long *hits);

#endif
