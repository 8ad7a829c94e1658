/* The numeric cross-check: two parsed expressions compared at
 * deterministic pseudo-random points of each symbol's domain with
 * SYM_NUM_BITS-bit complex arithmetic (sym_numeval.h). Simple branch-cut
 * witnesses (-1, -2, I, -1 + I ...) come first, then pseudo-random points
 * p/8 + q/8*I. Used by algebraic_equiv (the verdict), simplify (a
 * candidate form must agree with the input) and solve (a root must
 * satisfy the equation). */
#ifndef CC_SYM_NUMCHECK_H
#define CC_SYM_NUMCHECK_H

#include <mpc.h>
#include <stddef.h>

#include "workers/common/expr_ast.h"
#include "workers/symbolic/giac_shim.h"

struct sym_domains {
    size_t n;
    const char *const *names;   /* symbols with a stated domain */
    const enum cc_num_dom *doms;
    enum cc_num_dom dflt;       /* every other symbol */
};

struct sym_num_verdict {
    int points;      /* points where both sides evaluated to finite numbers */
    int mismatches;  /* of those, where they differ by more than 1e-25 relative */
    int a_only;      /* points where a evaluated and b did not (b undefined
                        there: floor(x) at complex x, 1/x at 0) */
    int tried;       /* points tried, evaluated or not (the check stops early
                        on request: these are the ones it visited) */
    char witness[300]; /* first mismatch (else first a_only point), "x = -1, y = -1" */
    char va[64], vb[64]; /* the two values there */
    char gap[48];        /* sym_numcheck_hidden_gap: |a - b| at its witness */
    double gap_share;    /* ... and over max(|a|, |b|) there */
};

/* Compares a and b (b may be NULL: compared with 0) at up to `tries`
 * points. */
void sym_numcheck(const struct cc_node *a, const struct cc_node *b, const struct sym_domains *d,
                  int tries, struct sym_num_verdict *out);

/* When a check may end before its last point: the points it would still
 * evaluate cannot change what the caller reads of the verdict. */
enum sym_numcheck_stop {
    SYM_NC_ALL,           /* every point: the counts are reported */
    SYM_NC_MISMATCH,      /* at the first mismatch (its witness is the one the
                             full check reports: the first mismatch wins) */
    SYM_NC_DISAGREEMENT,  /* at the first mismatch or a_only point (a yes/no
                             question: do they agree everywhere?) */
};
/* While on, two values differ only beyond 10^SYM_NC_FLOAT_TOL_EXP
 * relative: an input written with floats or N(...) is good to about 15
 * digits, and the CAS's value of it (x + 0.479425538604203 for x +
 * sin(0.5)) is not a different function. Off: 1e-25. */
#define SYM_NC_FLOAT_TOL_EXP (-12)
void sym_numcheck_float_tolerance(bool on);

void sym_numcheck_until(const struct cc_node *a, const struct cc_node *b,
                        const struct sym_domains *d, int tries, enum sym_numcheck_stop stop,
                        struct sym_num_verdict *out);

/* A difference of a and b far below what the 1e-25 check resolves (x +
 * 1e-30 against x; sin(x) - 5e-33 against sin(x), which giac's float
 * tolerance reduced to 0): at each of the first `tries` points of the
 * check, |a - b| at 256 and at 512 bits. Rounding noise shrinks by far
 * more than 2^8 between them; a true difference keeps its size. 1 with
 * out's witness, values and gap (|a - b| there) at the first point that
 * shows one, else 0 (out->points counts the points evaluated). */
int sym_numcheck_hidden_gap(const struct cc_node *a, const struct cc_node *b, const struct sym_domains *d,
                            int tries, struct sym_num_verdict *out);

/* The symbols of a and b as "x, y" (the order they first occur), with a
 * prefix/suffix per the domain: "real x, y", "x > 0, y > 0". Symbols named
 * in d are left out. malloc'd; NULL when none remain. */
char *sym_numcheck_describe(const struct cc_node *a, const struct cc_node *b,
                            const struct sym_domains *d, enum cc_num_dom dom);

#endif
