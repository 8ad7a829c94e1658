/* analyze_complexity (TOOLS.md 3.5.1): what one reading of the source found,
 * the two readers that fill it (the tree-sitter walk and the regex
 * fallback), and the refinement model of docs/analysis.md.
 *
 * The spec's facts (loops, max_nesting, recursion, functions, partial) are
 * counted exactly as 3.5.1 says; the refinement fields are a second,
 * separate model that never changes them. */
#ifndef CC_ANALYSIS_COMPLEXITY_H
#define CC_ANALYSIS_COMPLEXITY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "workers/analysis/grammars.h"

/* A cost n^k * (log n)^log * (log log n)^loglog, or 2^n when exp, or
 * n^k * n! / n^n when fact is 1 / 2. */
struct cx_cost {
    int k;
    int log;
    bool exp;
    bool half;                   /* one more factor sqrt(n): n^(k + 1/2) */
    int loglog;                  /* factors log log n (a sieve's sum over primes) */
    int fact;                    /* 1: times n! (permutations), 2: n^n */
    bool graph;                  /* n is V + E (a graph traversal): printed so */
};

/* Longest function name kept (names come from the source). */
#define CX_NAME_MAX 128

struct cx_reading {
    int loops, max_nesting;
    bool recursion;
    char rec_name[CX_NAME_MAX];  /* the first recursive function found */
    json_t *functions;           /* names, walk order (owned; [] for the fallback) */
    bool partial;                /* the tree holds an ERROR or MISSING node */
    /* Refinement model (tree-sitter only; zero/empty for the fallback). */
    struct cx_cost refined;
    bool refined_valid;
    json_t *refinements;         /* [{rule, line, note}] (owned) */
};

void cx_reading_init(struct cx_reading *r);
void cx_reading_free(struct cx_reading *r);

/* The tree-sitter reading. 0 on success; -1 when the parse failed (detail in
 * err, for the note "parse failed: <detail>"); r is then untouched. */
int cx_read_tree(const struct cc_grammar *g, const char *code, size_t len, struct cx_reading *r,
                 char *err, size_t errcap);

/* The regex fallback of 3.5.1 (loops, nesting, recursion; functions []). */
void cx_read_lines(const char *code, size_t len, struct cx_reading *r);

/* The text scans applied whatever the reading mode. */
bool cx_scan_sort(const char *code, size_t len);
bool cx_scan_hash(const char *code, size_t len);

/* "O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2 log n)", "O(2^n)",
 * "O(n log log n)", "O(n * n!)", "O(n^n)", "O(V + E)", "O((V + E) log V)".
 * buf holds at least 64 bytes; returns buf. */
char *cx_cost_text(struct cx_cost c, char *buf, size_t cap);
/* a > b? (n^n, then n!, then exp dominate, then the power of n, then log,
 * then log log) */
bool cx_cost_gt(struct cx_cost a, struct cx_cost b);

#endif
