/* Whether a text calls a circular trigonometric function: the results and
 * differences for which giac's simplify takes the tan(x/2) route (ms) and
 * its linearisation (tlin) is the quick way to a reduction. */
#ifndef CC_SYM_TRIG_H
#define CC_SYM_TRIG_H

#include <stdbool.h>

/* true when text holds `call` (a name and its opening, "exp(", "E**")
 * not preceded by a name character: "sinh(" does not hold "sin(" */
bool sym_text_calls(const char *text, const char *call);

/* true when text holds a call of sin, cos, tan, sec, csc or cot (not of
 * sinh, asin, ...) */
bool sym_calls_trig(const char *text);

/* true when text calls sin or cos, and none of tan, sec, csc, cot: the
 * sums that linearising (tlin) and collecting (tcollect) reduce; they
 * leave tan(x)**2 + 1 - 1/cos(x)**2 as it is, at a cost */
bool sym_calls_sin_cos_only(const char *text);

#endif
