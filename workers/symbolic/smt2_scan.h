/* The top-level commands of an SMT-LIB2 script, read before z3 parses it:
 * the output options z3's parser refuses once its context exists (the
 * answer carries a model and a core anyway), and the names of named
 * assertions, which the parser binds but does not track for a core.
 */
#ifndef CC_SMT2_SCAN_H
#define CC_SMT2_SCAN_H

#include <stdbool.h>
#include <stddef.h>

struct cc_smt2_check {
    size_t end;                /* its script is script[0..end) */
    size_t line;               /* its 1-based line */
    size_t asserts;            /* top-level asserts before it */
    unsigned long timeout_ms;  /* the (set-option :timeout N) in force there, 0: none */
};

struct cc_smt2_scan {
    size_t n_asserts;   /* top-level (assert ...) commands, in order */
    char **names;       /* names[i]: assert i's :named label, or NULL; owned */
    bool has_scopes;    /* push, pop or reset: asserts may not all reach the solver */
    bool complete;      /* the whole script scanned (to its end or its (exit)) */
    size_t n_checks;    /* top-level (check-sat) and (check-sat-assuming ...) */
    bool assuming;      /* a (check-sat-assuming ...): its assumptions never reach the solver */
    /* the last top-level (set-option :timeout N), in ms (0: none; at most
     * UINT32_MAX). It is blanked as the output options are: z3's own
     * timer deadlocks when it fires (z3_check.c), so the caller enforces
     * it. */
    unsigned long timeout_ms;
    /* Each top-level check, so it can be answered at its place: n_checks
     * entries when the scan is complete, owned. */
    struct cc_smt2_check *checks;
    size_t check_cap; /* entries allocated */
};

/* Scans script[0..n) in place: every top-level (set-option :produce-...)
 * (and :print-success, and :timeout) is overwritten with spaces, newlines kept, so z3's
 * line and column numbers still point into the caller's text. Fills *out
 * (release with cc_smt2_scan_free). 0, or -1 when out of memory. A script
 * that does not scan (unbalanced, unterminated string) is left to z3 to
 * report. Commands after (exit) are not read (z3 stops there too). */
int cc_smt2_scan(char *script, size_t n, struct cc_smt2_scan *out);

void cc_smt2_scan_free(struct cc_smt2_scan *s);

#endif
