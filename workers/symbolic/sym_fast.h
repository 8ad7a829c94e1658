/* Answers without the CAS for inputs whose answer is certain from our own
 * tree: exact rational arithmetic, and polynomials written expanded (the
 * CAS keeps those as they are; our canonical form prints the same text).
 * A fast path either gives the very answer the CAS path gives or declines
 * (NULL), and the caller then runs the CAS path unchanged.
 *
 * CODECALC_SYMBOLIC_FASTPATH=0 in the worker's environment turns every
 * fast path off: tests/crosscheck/fastpath.py runs every case of the
 * cross-check corpora both ways and requires identical answers. */
#ifndef CC_SYM_FAST_H
#define CC_SYM_FAST_H

#include <jansson.h>
#include <stdbool.h>

#include "workers/common/expr_ast.h"
#include "workers/symbolic/sym_tree.h"

bool sym_fast_enabled(void);

/* The value of root as the CAS would evaluate and normalise it, when root
 * is exact rational arithmetic, a polynomial written expanded, or diff(P,
 * x) of such a polynomial by a symbol; NULL
 * otherwise (a new tree: sym_free). */
struct sym_node *sym_fast_value(const struct cc_node *root);

/* simplify_expression's result for a polynomial in one symbol with integer
 * coefficients, written expanded, whose factorisation over Q is certain
 * (sym_factor.h); NULL otherwise. */
json_t *sym_fast_simplify(const struct cc_node *root);

/* simplify_expression's simplified and expanded forms of a polynomial with
 * integer coefficients (in up to SYM_POLY_VARS symbols, every one of them
 * used), written in any shape of + - * and literal powers, given the input
 * printed and measured as the CAS path prints and measures it (from its
 * CAS value). The CAS's simplify of such a value is its expanded form,
 * which is the answer unless the input is smaller (sym_count_ops); expand
 * gives the expanded form. The factored form is there too when it is
 * certain (one symbol, sym_factor.h); else the caller asks the CAS for it.
 * A new object {simplified, expanded[, factored]}, or NULL to decline. */
json_t *sym_fast_forms(const struct cc_node *root, const char *input, long input_ops);
/* false when sym_fast_forms(root, ...) declines whatever the input's
 * print: the caller need not print and measure it. */
bool sym_fast_forms_apply(const struct cc_node *root);

/* algebraic_equiv's CAS half for two polynomials (any shape of + - * and
 * literal powers): a - b, exactly, printed as the CAS's simplify prints
 * it, whether it is 0, and each side printed when the CAS keeps it as
 * written (sym_fast_value), else NULL (the caller prints the CAS value).
 * Declines unless a - b has integer coefficients. Two rational functions
 * (quotients of such) that are equal give a difference of 0 (the CAS's
 * normal form of a zero rational function), each side printed by the CAS;
 * unequal ones decline. 0, or -1 to decline. */
struct sym_fast_diff {
    char *a, *b, *d; /* malloc'd */
    bool zero;
};
int sym_fast_difference(const struct cc_node *a, const struct cc_node *b,
                        struct sym_fast_diff *out);
void sym_fast_diff_free(struct sym_fast_diff *f);

/* solve_expression's solutions of lhs = rhs (rhs NULL: lhs = 0) for var,
 * when lhs - rhs is a polynomial of degree 1 or 2 in var and nothing else,
 * with small rational coefficients and small literals (sym_fast_solve.c):
 * the printed roots in the CAS path's order, or NULL to decline. */
json_t *sym_fast_roots(const struct cc_node *lhs, const struct cc_node *rhs, const char *var);

/* solve_linear's answer {ok, solutions: ["{x: 6, y: 4}"], count: 1} for a
 * system of as many equations as variables (at most SYM_POLY_VARS), each
 * linear in the variables with rational coefficients and nothing else,
 * whose solution is unique, or {ok, solutions: [], count: 0} when it has
 * none (sym_fast_linear.c): exact elimination, no CAS. NULL declines
 * (families of solutions, parameters, floats, powers...). */
json_t *sym_fast_linear(const char *system, const char *variables);

/* limit_expression's limits of e, a rational function of var alone over
 * the rationals (sym_fast_limit.c): infinity +1 or -1 for the limit at +oo
 * or -oo (*right only), 0 for the right- and left-sided limits at point,
 * a rational number. The texts as the CAS path prints them ("2", "-1/3",
 * "oo", "-oo"), malloc'd. 0, or -1 to decline. */
int sym_fast_limits(const struct cc_node *e, const char *var, const struct cc_node *point,
                    int infinity, char **right, char **left);

#endif
