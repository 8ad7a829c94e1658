/* N(e) and N(e, d) of a constant, evaluated by our own MPC evaluator
 * (sym_numeval_strict) instead of giac's evalf, which drops a part below
 * its epsilon (N(I/10**20) was 0.0), is not correctly rounded
 * (N(10**-20) was 9.99999999999999e-21) and loses whole values to
 * cancellation (N(exp(100) + 1 - exp(100)) was 0.0).
 *
 * A Ziv loop: the expression is evaluated at a working precision above
 * the requested digits, then again at twice that, until each part rounds
 * to the same d digits from both sides of the difference between the last
 * two evaluations. A part that keeps shrinking as the precision grows
 * (sin(pi), a cancellation) is asked of the CAS: exactly zero, or the loop
 * goes on; the rounds are bounded. */
#ifndef CC_SYM_NVAL_H
#define CC_SYM_NVAL_H

#include <mpc.h>
#include <stdbool.h>

#include "workers/common/expr_ast.h"
#include "workers/symbolic/sym_tree.h"

/* Digits printed when N is given none (SymPy's 15). */
#define SYM_NV_DEFAULT_DIGITS 15
/* The loop's precision bound in bits (or 4 times the requested
 * precision, if more). */
#define SYM_NV_MAX_BITS 32768
/* The binary exponent range of the evaluation (about 10**+-39456). */
#define SYM_NV_MAX_EXP (1L << 17)
/* Most digits this evaluator answers; more are left to the CAS. */
#define SYM_NV_MAX_DIGITS 20000

enum sym_nv_rc {
    SYM_NV_OK,        /* the value, each part correctly rounded or exactly 0 */
    SYM_NV_DECLINE,   /* not ours (a function we lack, a symbol, 1/0): giac's path */
    SYM_NV_UNRESOLVED, /* digits that did not settle within the rounds: an error */
    SYM_NV_RANGE,      /* the value, or a step of it, is beyond 2**SYM_NV_MAX_EXP
                          in magnitude (or a part that did not settle is
                          below 2**-SYM_NV_MAX_EXP): an error (giac's evalf answered
                          sinh(10**49) with 0.115 - 0.615*I) */
    SYM_NV_COMPLEX_GAP /* a real-only function (gamma, erf, zeta, LambertW...) at a
                          complex argument: no value of ours, and giac's evalf
                          is wrong there (gamma(1 + I) = 0.5 - 0.2*I): an error */
};

/* true when part (0 real, 1 imaginary) of arg is exactly 0, decided by
 * the CAS. */
typedef bool (*sym_nv_zero_fn)(const struct cc_node *arg, int part, void *ctx);

struct sym_nv {
    /* each part as mpfr_get_str's digits ("-314159", with the decimal
     * exponent in exp_re/exp_im), NULL for an exact zero; malloc'd */
    char *re, *im;
    long exp_re, exp_im;
    int digits;
};

/* The value of arg to digits significant digits into *v (sym_nv_clear).
 * zero may be NULL (a part that will not settle is then unresolved). */
enum sym_nv_rc sym_nvalue(const struct cc_node *arg, int digits, sym_nv_zero_fn zero, void *ctx,
                          struct sym_nv *v);
void sym_nv_clear(struct sym_nv *v);

/* The value of arg, each part correctly rounded to digits digits, into
 * out (whose precision should hold them); false, out unset, when the loop
 * does not answer (a part that will not settle is not asked of the CAS). */
bool sym_nvalue_mpc(const struct cc_node *arg, int digits, mpc_t out);
/* As sym_nvalue_mpc, with the loop going on up to max_bits (or 4 times
 * the digits, if more): a value that cancels far below its terms
 * (sin(1e-20) - 1e-20, about -1.7e-61) settles only past the 4 times. */
bool sym_nvalue_mpc_bits(const struct cc_node *arg, int digits, mpfr_prec_t max_bits, mpc_t out);

/* The value as a result tree: a float, float*I, float + float*I, or the
 * integer 0. NULL on OOM. */
struct sym_node *sym_nv_tree(const struct sym_nv *v);

/* The decimal text of a part ("0.314159e1"), malloc'd, for the 12-digit
 * `value`; "0" for an exact zero. */
char *sym_nv_decimal(const char *digits, long exp);

#endif
