/* The size of an expression before cancellation (sym_magnitude.h). */
#include <stdbool.h>

#include "workers/symbolic/sym_magnitude.h"

/* |n| at p into out; false when it cannot be evaluated. */
static bool abs_at(const struct cc_node *n, const struct sym_point *p, mpfr_t out) {
    mpc_t v;
    mpc_init2(v, SYM_NUM_BITS);
    bool ok = sym_numeval(n, p, v) == 0;
    if (ok)
        mpc_abs(out, v, MPFR_RNDN);
    mpc_clear(v);
    return ok;
}

/* The size of n at p before any cancellation: a sum's largest term, a
 * product's product of sizes, a power's base size to its (real, positive)
 * exponent, a quotient's numerator size over its denominator's value; a
 * function's value, at least 1 (sin(x) at pi is 1e-38 of rounding, and
 * its size is its argument's order). False when a part cannot be
 * evaluated. Depth is bounded by the parser's nesting limit. */
bool sym_magnitude(const struct cc_node *n, const struct sym_point *p, mpfr_t out) {
    bool ok;
    mpfr_t a, b;
    mpfr_inits2(SYM_NUM_BITS, a, b, (mpfr_ptr)0);
    if (n->kind == CC_N_BINARY && (n->op == CC_OP_ADD || n->op == CC_OP_SUB)) {
        ok = sym_magnitude(n->child[0], p, a) && sym_magnitude(n->child[1], p, b);
        if (ok)
            mpfr_max(out, a, b, MPFR_RNDN);
    } else if (n->kind == CC_N_BINARY && n->op == CC_OP_MUL) {
        ok = sym_magnitude(n->child[0], p, a) && sym_magnitude(n->child[1], p, b);
        if (ok)
            mpfr_mul(out, a, b, MPFR_RNDN);
    } else if (n->kind == CC_N_BINARY && n->op == CC_OP_DIV) {
        ok = sym_magnitude(n->child[0], p, a) && abs_at(n->child[1], p, b) && !mpfr_zero_p(b);
        if (ok)
            mpfr_div(out, a, b, MPFR_RNDN);
    } else if (n->kind == CC_N_BINARY && n->op == CC_OP_POW && n->child[1]->kind == CC_N_INT &&
               mpz_sgn(n->child[1]->v.z) > 0 && mpz_fits_ulong_p(n->child[1]->v.z)) {
        ok = sym_magnitude(n->child[0], p, a);
        if (ok)
            mpfr_pow_ui(out, a, mpz_get_ui(n->child[1]->v.z), MPFR_RNDN);
    } else if (n->kind == CC_N_UNARY && (n->op == CC_OP_NEG || n->op == CC_OP_POS)) {
        ok = sym_magnitude(n->child[0], p, out);
    } else {
        ok = abs_at(n, p, out);
        if (ok && n->kind == CC_N_CALL && mpfr_cmp_ui(out, 1) < 0)
            mpfr_set_ui(out, 1, MPFR_RNDN);
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
    return ok;
}

