/* Equations with Abs over the reals (solve_expression). The CAS's solver
 * cannot isolate Abs (abs(x - 1) = 2 was refused), and giac turns
 * sqrt(u**2) back into abs(u): each Abs(u) is taken as +u or -u instead,
 * one equation per choice of signs, and the caller keeps the real roots
 * of those that satisfy the equation as written (a root of the wrong case
 * does not). */
#ifndef CC_SYM_ABS_REAL_H
#define CC_SYM_ABS_REAL_H

/* At most this many Abs calls are split (2**n equations). */
#define SYM_ABS_MAX_CASES 5

/* The number of Abs(u)/abs(u) calls in text, nested ones included;
 * SYM_ABS_MAX_CASES + 1 when there are more. */
int sym_abs_count(const char *text);

/* text with its Abs calls, outermost first, written (+(u)) or (-(u)): bit
 * i of signs set takes the i-th as -u. malloc'd; NULL on allocation
 * failure or unbalanced parentheses. */
char *sym_abs_case(const char *text, unsigned signs);

#endif
