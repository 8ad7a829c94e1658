/* Internal interface between the pieces of calc_exact (TOOLS.md 3.3.1):
 * calc_rational.c (rational helpers, failure recording), calc_funcs.c (the
 * callable functions and their table), calc_binary64.c (functions applied in
 * binary64), calc_eval.c (the evaluator) and calc_render.c (the success
 * object). Not for use outside those files, calc_exact.c and
 * compare_threshold.c. */
#ifndef CC_CALC_INTERNAL_H
#define CC_CALC_INTERNAL_H

#include <gmp.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "workers/calc/calc_exact.h"
#include "workers/common/expr_ast.h"

/* Resource bounds of 3.3.1: every power, shift, factorial, comb and perm is
 * priced against these before it is computed. */
#define CALC_POW_EXP_LIMIT 10000
#define CALC_POW_BITS_LIMIT 50000UL
#define CALC_SHIFT_BITS_LIMIT 1000000UL
#define CALC_FORMAT_DIGITS 4300
#define CALC_EVAL_DEPTH_LIMIT 2500
#define CALC_FACTORIAL_LIMIT 1463

/* Evaluation state: the first failure wins; funcs/consts record what was
 * approximated. Owns msg (malloc'd).
 *
 * prec 0 is calc_exact's own evaluation: approximated functions and
 * constants are binary64 values (TOOLS.md 3.3.1). prec > 0 is the second
 * look an approximated result gets (calc_exact.c): the same functions and
 * constants at prec bits, kept as exact rationals, so that what the binary64
 * value claims (an exact integer, a comparison) can be checked against the
 * true value. A step whose outcome changes for a change of its argument
 * below that precision (a comparison of nearly equal sides, floor of a
 * value that is nearly an integer) sets close: the second look then decides
 * nothing. */
#define CALC_CMP_MAX 32

/* One comparison a look decided where an approximation took part: by the
 * sign of the difference d of its sides (near: within the look's reach),
 * or by a rule (rule: the side a saturated value lies on, the order of a
 * monotonic function's arguments, or two true values compared exactly)
 * with that sign. */
struct calc_cmp {
    mpq_t d;
    signed char sign;
    bool near, rule;
};

struct calc_ev {
    const char *code;
    char *msg;
    const char *remedy; /* failure: a remedy better than the code's default, or NULL */
    uint64_t funcs;  /* bit i: calc_function_name(i) was applied in binary64 */
    unsigned consts; /* bit 0 pi, bit 1 e, bit 2 tau */
    int depth;
    unsigned prec;   /* 0: binary64; else bits of the second look */
    bool close;      /* prec > 0: a step was too close to call */
    bool fn_exact;   /* prec > 0: the last binary64 function gave its true value */
    /* prec > 0: eval_call asks the binary64 function it applies to report
     * a value held as the integer beside its true value (calc_val.tiny)
     * in tiny instead of voiding the look; any other caller voids it. */
    bool want_tiny;
    signed char tiny;
    struct calc_dist dist; /* with tiny: the distance, when proven */
    /* prec > 0: a comparison was decided without its sides' distance: by
     * the side a value held beside its integer lies on (calc_val.tiny), or
     * by the order of one monotonic function's arguments where the look
     * holds the two values too close to tell (eval_compare) */
    bool no_distance;
    /* prec > 0: the last binary64 function's value on this look is not
     * proven to be its true value (calc_val.unproven) */
    bool unproven;
    /* prec > 0: the comparisons of approximations this look decided, in
     * order (calc_near_equal, calc_cmp_rule): the looks' answers stand
     * only where both made the same comparisons and found each one real
     * (calc_exact.c) */
    int ncmp;
    struct calc_cmp cmp[CALC_CMP_MAX];
    /* prec 0 only: the binary64 pass (calc_exact.c), Python's float
     * semantics: a decimal literal, a constant, a binary64 function's value
     * and every operation with a float operand (and int / int) are doubles,
     * each operation rounded once; it gives a comparison's binary64_value. */
    bool b64;
};

/* A value: a rational, marked when it came from a comparison. */
struct calc_val {
    mpq_t q;
    bool is_bool;
    /* prec > 0: q is an approximation (it came from a constant or a
     * function's rounded value). A value that is not is the true value, so
     * a comparison of two such needs no closeness test: floor(pi) == 3 and
     * sqrt(16) == 4 are decided, where any tolerance would leave them open. */
    bool inexact;
    /* q is a Python float, not an int (a decimal literal, a constant, a
     * function's value, a float operation's); in the b64 pass a double */
    bool isfloat;
    /* q is 0 written negated (-0.0, -(0)): a rational has no signed zero,
     * but copysign and atan2 answer by the sign of a zero, and a caller
     * writing copysign(1, -0.0) means IEEE's -0.0 (Python: -1.0) */
    bool negzero;
    /* prec > 0: q is an integer that the look holds in place of a binary64
     * function's true value, which lies beside it on side tiny (+1 above,
     * -1 below) closer than the look can hold: a saturated limit (tanh(300)
     * is 1 - 2e-261, 1 at 256 and 384 bits; exp(-10**10) underflows to 0)
     * or the correctly rounded value of exact arguments (cos(10**-100)).
     * Only the side is known, not the distance, so the value may be
     * negated or compared (an exactly equal other side is decided by the
     * side; a distance within the look's reach voids it); any other use
     * voids the look, as (tanh(300) - 1) * 10**300 would read 0. */
    signed char tiny;
    /* with tiny: a proven bound on the true value's distance from q
     * (tanh, erf, erfc, expm1 of a true argument): a comparison with a
     * true value within the look's reach is decided by it (tanh(300) >
     * 1 - 10**-300 is false, erf(389) > 1 - 10**-157 true) */
    struct calc_dist dist;
    /* prec > 0: q came through a binary64 function whose value on this
     * look MPFR did not prove to be the true one (an exact result of exact
     * arguments: sqrt(16), log2(8)). Agreement of the looks is no proof of
     * an integer: sin(1 + 10**-200) - sin(1) is 0 at 256 and 384 bits, as
     * exp(10**-100) is 1 at 256 bits and 1 + 1e-100 at 384, and both were
     * "exact". A value carrying it is not confirmed as an integer
     * (cc_calc_check_value); a step function's value, exact unless too
     * close to its step (round(exp(log(10)))), ends it. */
    bool unproven;
};

/* ---- calc_rational.c ---- */

/* The b64 pass: q rounded to the nearest double (ties to even, subnormals
 * as binary64 has them); a value past the doubles fails the pass. */
int calc_b64_round(struct calc_ev *e, mpq_t q);

/* Records a failure (unless one is already recorded); always returns -1. */
int calc_fail(struct calc_ev *e, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The text cc_calc_q_str gives n/d (d >= 1, lowest terms), written into buf
 * (NUL-terminated); returns its length. */
#define CALC_SMALL_Q_TEXT 48
size_t calc_small_q_text(int64_t n, uint64_t d, char buf[CALC_SMALL_Q_TEXT]);
/* A value for an error message, malloc'd; NULL on OOM. */
char *calc_show(mpq_srcptr q);
/* Frees a string GMP allocated (mpz_get_str with NULL). */
void calc_gmp_str_free(char *s);
bool calc_is_int(mpq_srcptr q);
/* out = the exact rational of d's shortest round-trip decimal text. */
void calc_q_from_double(double d, mpq_t out);
/* prec > 0: marks e close when x / unit is within the precision's reach of
 * an integer (unit NULL: 1), where floor, round, // and % jump. */
void calc_near_step(struct calc_ev *e, mpq_srcptr x, mpq_srcptr unit);
/* prec > 0: records the comparison of a and b, approximations (their
 * difference, and whether it is within the precision's reach); past
 * CALC_CMP_MAX comparisons the look is void (close). */
void calc_near_equal(struct calc_ev *e, mpq_srcptr a, mpq_srcptr b);
/* prec > 0: records a comparison decided by a rule with sign sign. */
void calc_cmp_rule(struct calc_ev *e, int sign);
/* prec > 0: whether a and b are within the precision's reach of each
 * other (calc_near_equal's test, nothing recorded). */
bool calc_within_reach(const struct calc_ev *e, mpq_srcptr a, mpq_srcptr b);
/* Releases the comparisons recorded. */
void calc_near_clear(struct calc_ev *e);
/* Forgets the comparisons recorded past the first ncmp (what a rule that
 * came to nothing evaluated). */
void calc_near_truncate(struct calc_ev *e, int ncmp);
/* Nearest binary64 of q; -1 when it overflows. */
int calc_q_to_double(mpq_srcptr q, double *out);
/* out = round-half-even(num / den), den > 0. */
void calc_div_half_even(mpz_t out, const mpz_t num, const mpz_t den);
/* out = round-half-even(q). */
void calc_round_half_even(mpz_t out, mpq_srcptr q);

/* ---- calc_funcs.c: the callable functions ---- */

enum calc_fkind {
    CALC_F_EXACT, /* exact over rationals */
    CALC_F_INT,   /* exact, integer arguments */
    CALC_F_FLOAT, /* binary64 (the result is approximated) */
};

struct calc_fdef;
typedef int (*calc_exact_fn)(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a,
                             int n, mpq_t out);

struct calc_fdef {
    const char *name;
    enum calc_fkind kind;
    int min_args, max_args; /* max -1: any number */
    calc_exact_fn exact;    /* CALC_F_EXACT, CALC_F_INT */
    double (*f1)(double);   /* CALC_F_FLOAT, one argument */
    double (*f2)(double, double);
    bool raw; /* no libm error reporting: a non-finite result is reported as such */
};

/* -1 with a validation failure (Python's TypeError, and what to pass
 * instead) when v is a float, what ("factorial()") naming the integer
 * function; else 0. */
int calc_refuse_float(struct calc_ev *e, const char *what, const struct calc_val *v);
/* The remedy of that refusal: what to pass instead. */
extern const char calc_float_remedy[];
/* The function named name, or NULL. */
const struct calc_fdef *calc_find_function(const char *name);
/* The function a call of argc arguments names: pow of three is Python's
 * modular pow (exact, integers), outside the table's function bits. */
const struct calc_fdef *calc_find_call(const char *name, int argc);
/* int, trunc, floor, ceil, round: their value is exact whenever the look
 * was not too close to their step (calc_near_step). */
bool calc_is_step(const struct calc_fdef *f);
/* +1 for a function of one argument strictly increasing over its whole
 * domain (exp, tanh, log, sqrt, atan, erf, ...), -1 for one strictly
 * decreasing (erfc, acos), 0 otherwise: f(x) and f(y) are then ordered as
 * x and y are (eval_compare). */
int calc_monotone(const struct calc_fdef *f);
/* Whether f, monotone (calc_monotone), is defined on every real (exp,
 * tanh, atan, erf, erfc, ...; not log, sqrt, asin, acosh, ...). */
bool calc_monotone_total(const struct calc_fdef *f);
/* 0 when f takes argc arguments; else -1 with Python's arity message. */
int calc_check_arity(struct calc_ev *e, const struct calc_fdef *f, int argc);
/* Applies f to argc evaluated arguments (arity already checked). */
int calc_apply(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int argc,
               mpq_t out);
/* The name of the function with bit i of calc_ev.funcs; NULL past the table. */
const char *calc_function_name(unsigned i);
/* The bit of f in calc_ev.funcs. */
uint64_t calc_function_bit(const struct calc_fdef *f);

/* ---- calc_binary64.c ---- */

/* Applies a CALC_F_FLOAT function in binary64 with Python's math-module error
 * rules; out receives the exact rational of the result's shortest repr. */
int calc_binary64(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int n,
                  mpq_t out);
/* The order of two proven distances (calc_dist): 1 when a's is surely
 * the larger, -1 the smaller, 0 when unknown or overlapping. */
int calc_dist_order(const struct calc_dist *a, const struct calc_dist *b);
/* The order of a proven distance and dist > 0: 1 when the distance is
 * surely larger than dist, -1 smaller, 0 when unknown. */
int calc_dist_against(const struct calc_dist *a, mpq_srcptr dist);
/* prec > 0: a, held beside an integer at a proven distance (calc_val.tiny,
 * dist), through f, monotone, where f of that integer is an integer: f's
 * value is then held so too (out, e->tiny, e->dist; f recorded as
 * applied). false when f, the integer or the distance does not allow it
 * (the caller voids the look as before). */
bool calc_tiny_through(struct calc_ev *e, const struct calc_fdef *f, const struct calc_val *a, mpq_t out);
/* The exact ends of a proven distance (d->known). */
void calc_dist_bounds(const struct calc_dist *d, mpq_t lo, mpq_t hi);
/* Whether the true value of a, an argument of f as this look holds it,
 * lies inside f's real domain: true for a function defined on every real;
 * for another (sqrt, log, acosh, ...) a must lie inside the domain beyond
 * the look's reach of each edge, or held at an edge from the domain's
 * side (tanh(300), held at 1 from below, is inside the domains of sqrt
 * and asin, outside acosh's). */
bool calc_inside_domain(const struct calc_ev *e, const struct calc_fdef *f, const struct calc_val *a);
/* a**b in binary64 (the non-integer exponent case of the power rules). */
int calc_pow_binary64(struct calc_ev *e, mpq_srcptr a, mpq_srcptr b, bool inexact, mpq_t out);

/* ---- calc_eval.c ---- */

/* Evaluates the tree; 0, or -1 with the failure recorded in e. */
int calc_eval(struct calc_ev *e, const struct cc_node *n, struct calc_val *out);
/* The comparison node n (two operands) of the values out and r its operands
 * evaluated to on e: the evaluator's rule for every comparison, applied to
 * operands evaluated elsewhere too (compare_threshold's sides, calc_exact.c).
 * close0 and ncmp0: e's close and ncmp before the operands were
 * evaluated (a look the operands voided may still be decided by the
 * monotone rule). out receives the truth (0 or 1, is_bool); r is left as
 * it was. */
int calc_compare_values(struct calc_ev *e, const struct cc_node *n, struct calc_val *out,
                        struct calc_val *r, bool close0, int ncmp0);

/* ---- calc_render.c ---- */

/* The success object of a numeric result; a new reference. */
json_t *calc_render_number(const struct cc_calc_outcome *o);
/* The approx text cc_calc_approx_str gives +-num/den (num, den < 2**63,
 * den >= 1, lowest terms; negative: the value is -num/den), written into
 * buf (NUL-terminated); returns its length. */
#define CALC_SMALL_APPROX_TEXT 64
size_t calc_small_approx_text(uint64_t num, uint64_t den, bool negative,
                              char buf[CALC_SMALL_APPROX_TEXT]);

#endif
