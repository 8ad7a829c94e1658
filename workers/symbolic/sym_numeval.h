/* Numeric evaluation of a parsed expression (our AST, exactly as the user
 * wrote it) at a point, with MPC/MPFR complex arithmetic on principal
 * branches. This is the independent witness behind every numeric
 * cross-check: it never sees giac's rewritings (giac turns sqrt(x**2) into
 * abs(x) and log(exp(x)) into x as it builds a value, which is right only
 * for real x). */
#ifndef CC_SYM_NUMEVAL_H
#define CC_SYM_NUMEVAL_H

#include <mpc.h>
#include <stdbool.h>
#include <stddef.h>

#include "workers/common/expr_ast.h"

/* Catalan's constant (SymPy's Catalan, 0.9159655941...). The CAS has no
 * such constant and keeps the name as a symbol, so exact answers keep
 * it; this evaluator values it (MPFR's mpfr_const_catalan), so N() and
 * every numeric check read it as the constant, never as a free symbol. */
#define SYM_CATALAN "Catalan"

/* Working precision of the cross-check (about 38 decimal digits). */
#define SYM_NUM_BITS 128

struct sym_point {
    size_t n;
    const char *const *names; /* symbol names */
    mpc_srcptr *vals;         /* their values */
};

/* out = n at p. 0, or -1 when n cannot be evaluated there: a function
 * outside the evaluator's set (integrate, LambertW at complex points...),
 * a symbol without a value, or a non-finite result. out must be
 * initialised with SYM_NUM_BITS. */
int sym_numeval(const struct cc_node *n, const struct sym_point *p, mpc_t out);
/* The same at out's own precision (a re-check at more bits). */
int sym_numeval_at(const struct cc_node *n, const struct sym_point *p, mpc_t out);

struct sym_strict {
    /* the part is exactly the true value: an exact zero part is then a
     * true zero (a zero that cancelled from rounded terms is not exact) */
    bool exact_re, exact_im;
    /* on failure: a real-only function (gamma, erf, LambertW...) met a
     * complex argument */
    bool complex_gap;
    /* a bound on |out - value| / |value| in units of 2**-prec, from a
     * running error analysis (INFINITY when some step's is unknown) */
    double err;
};

/* out = n, a constant (no symbols), at out's precision, as N() wants it:
 * no noise snapping (sin(pi) is its rounding error, not 0), powers
 * correctly rounded, each part's exactness in *info. 0, or -1 as
 * sym_numeval. */
int sym_numeval_strict(const struct cc_node *n, mpc_t out, struct sym_strict *info);

/* true when sym_numeval(n) fails at every point, whatever the values: n
 * holds a call of a function outside the evaluator's set (diff, integrate,
 * limit...), an operator it leaves to the CAS, or oo/zoo/nan. A check of
 * such an expression can gather no point, so callers skip it. */
bool sym_numeval_never(const struct cc_node *n);

/* true when n is built only from + - * /, integer powers and entire
 * functions (exp, sin, cos, sinh, cosh, and tan/tanh/cot/sec/csc as their
 * quotients): no branch cut anywhere, so an algebraic rewriting of it
 * cannot be right for positive reals and wrong elsewhere. */
bool sym_numeval_branch_free(const struct cc_node *n);

/* n with every rewriting call around it taken off (simplify(factor(f)) is
 * f): what it evaluates as. */
const struct cc_node *sym_numeval_value_of(const struct cc_node *n);

/* A decimal literal with more significant digits than this is not read as
 * a double: it is the decimal it spells, at its own precision (SymPy's
 * Float keeps 1.000000000000000000001; a double makes it 1.0). */
#define SYM_LITERAL_DOUBLE_DIGITS 17

/* The significant digits of a decimal literal's text ("0.00120" has 3,
 * "1_000.5" 5); 0 for a zero. */
int sym_literal_digits(const char *text);

/* The literal's text without digit separators, in buf of cap bytes (the
 * form mpfr_set_str reads). false when it does not fit. */
bool sym_literal_clean(const char *text, char *buf, size_t cap);

/* The distinct symbol names of n (function names and constants excluded),
 * appended to names[0..*count) up to cap. */
void sym_numeval_symbols(const struct cc_node *n, const char **names, size_t *count, size_t cap);

/* |a - b| > tol * max(1, |a|): two values a check tells apart. */
bool sym_far_apart(const mpc_t a, const mpc_t b, double tol);

#endif
