/* The work of the numeric evaluator (sym_numeval.h) as a count.
 *
 * A check bounded by CPU time gives another answer on a slower or busier
 * host: the sum estimate (sym_sumest.h) once stopped at 0.25 s, so the same
 * series was checked here and left unchecked there. Its bound is this
 * count instead: units of about 0.1 us of CPU on the reference host (an
 * arithmetic node is 4, an elementary function of a real 40, a complex
 * gamma 4000, a complex zeta 35000 and more as its imaginary part grows),
 * charged from the functions called and their arguments, never measured,
 * so the same input is charged the same everywhere. A value the memo
 * (sym_nmemo.h) remembers is charged as if computed: the count must not
 * depend on the requests before. */
#ifndef CC_SYM_NWORK_H
#define CC_SYM_NWORK_H

#include <mpc.h>

/* The units charged since the last reset. */
unsigned long sym_nwork(void);
void sym_nwork_reset(void);

/* Charges one node of arithmetic. */
void sym_nwork_node(void);
/* Charges a**b with a non-integer or large exponent (MPC's pow). */
void sym_nwork_pow(void);
/* Charges the call name(a, ...) (canonical name, first argument). */
void sym_nwork_call(const char *name, mpc_srcptr a);

#endif
