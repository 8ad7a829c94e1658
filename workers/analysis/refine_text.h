/* Matchers over a node's text with its blanks taken out (`i*=2`, `m=(lo+hi)//2`),
 * for the refinement rules of analyze_complexity that read an update, a
 * bound or an argument as text (docs/analysis.md "Refinements"). Each is
 * linear in its input; nothing is a regular expression. */
#ifndef CC_ANALYSIS_REFINE_TEXT_H
#define CC_ANALYSIS_REFINE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "workers/analysis/ts_walk.h"

/* Text without blanks, at most cap - 1 bytes of it; a line end becomes
 * `;` so tokens of two lines never run together (`i *= 2` then `for`). */
size_t cx_flatten(struct cx_text t, char *flat, size_t cap);

/* At flat[i]: an integer literal of at least min, not followed by more of
 * a number or a name (2, not 2.5 or 2x). */
bool cx_literal_at_least(const char *flat, size_t n, size_t i, long min);

/* flat[i..] is the name v (a whole word) followed by lit. */
bool cx_word_then(const char *flat, size_t n, size_t i, const char *v, size_t vl, const char *lit);

/* `lit` occurs in flat and no digit or point continues it (/2, not /20). */
bool cx_has_operator(const char *flat, size_t n, const char *lit);

/* A division by a constant factor: / k or // k with k >= 2, >> k with
 * k >= 1, * 0.5. (The name says half; a third shrinks as fast, up to a
 * constant in the logarithm.) */
bool cx_halving_text(const char *flat, size_t n);

/* At flat[i]: v steps by addition (v += 1, v -= k, v++, ++v, v = v + 1). */
bool cx_step_update(const char *flat, size_t n, size_t i, const char *v, size_t vl);

/* At flat[i]: v scales by a constant (v *= 2, v //= 2, v >>= 1, v = v * 2). */
bool cx_scale_update(const char *flat, size_t n, size_t i, const char *v, size_t vl);

/* flat[i] starts a name inside a list of names before one '=' (`lo, hi =
 * i + 1, n - 1`, `[lo, hi] = ...`): a tuple assignment to it. */
bool cx_tuple_target(const char *flat, size_t n, size_t i);

/* 2 to a power that is not a literal (`1<<n`, `1ULL<<len(a)`, `2**n`,
 * `pow(2,n)`): a loop to it runs 2^n times. */
bool cx_power_of_two_text(const char *flat, size_t n);

/* Where the assignment `name = rhs` at flat[i] has its right side (and
 * its end at ';' or the text's end), or 0 when flat[i] starts none. */
size_t cx_assignment_rhs(const char *flat, size_t n, size_t i, size_t *end);

/* The item at index k of a comma list flat[i..end) at bracket depth 0,
 * as [*from, *to); false when the list is shorter. */
bool cx_list_item(const char *flat, size_t i, size_t end, size_t k, size_t *from, size_t *to);

/* At flat[i]: v is assigned some way (v = ..., v op= ..., v := ..., v++,
 * ++v) or bound (`a, v = ...`, `for v in`). A comparison (v == x) is none. */
bool cx_assigns(const char *flat, size_t n, size_t i, const char *v, size_t vl);

/* At flat[0..n): exactly a unit step of one name (i += 1, i++, ++i,
 * i -= 1, i--, i = i + 1), optionally ending in ';'. Its name's length
 * (the name at flat[*at]), or 0; *up (when not NULL): whether the step
 * raises the name. */
size_t cx_unit_step(const char *flat, size_t n, size_t *at, bool *up);

/* In flat, an assignment to v other than a step by a literal (v = 0,
 * v = x, v := 0, for v in ..., v *= 2, v -= k): the name is reset or
 * rebound. A member (o.v = 0) is another name. */
bool cx_reassigned(const char *flat, size_t n, const char *v, size_t vl);

/* An integer literal node (0, 10, 0x1F, 1_000, 10u). */
bool cx_is_int_literal(const struct cx_walk *w, TSNode n);

/* The degree of a bound's text without blanks as a product of one
 * non-literal factor and counters of loops over n open around this point:
 * 2 for n*n, n**2, n*n//2, n*n+1 or n*i, 3 for n*n*n (at most 4), else 0. */
int cx_power_degree(const struct cx_walk *w, const char *s, size_t n);

/* Remembers an identifier; anything longer or not a plain word is left out. */
bool cx_remember(struct cx_names *names, struct cx_text t);

/* Does flat hold one of the names as a whole word? */
bool cx_mentions(const struct cx_names *names, const char *flat, size_t n);

#endif
