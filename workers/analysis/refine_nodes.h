/* What the refinement rules of analyze_complexity share besides text
 * matchers (refine.c defines these; refine_loops.c and refine.c use them):
 * the cost of work at the walk's current point, and small tree-sitter
 * node helpers. */
#ifndef CC_ANALYSIS_REFINE_NODES_H
#define CC_ANALYSIS_REFINE_NODES_H

#include <stdbool.h>

#include "workers/analysis/ts_walk.h"

/* The cost of work of n^more at this point: the counted, sqrt and log
 * loops open around it. */
struct cx_cost cx_cost_here(const struct cx_walk *w, int more);

/* A name for a note: at most 60 bytes, cut at a character boundary. */
int cx_shown(struct cx_text t);

/* Is the node's type one of types (NULL-terminated)? */
bool cx_type_is(TSNode n, const char *const *types);

/* Is t one of list (NULL-terminated)? */
bool cx_in_list(struct cx_text t, const char *const *list);

/* The child in field name, or a null node. */
TSNode cx_field(TSNode n, const char *name);

/* A comprehension's first `for` clause. */
TSNode cx_first_for_clause(TSNode comp);

/* A comprehension or generator: one loop with its first clause. */
bool cx_is_comprehension_loop(const char *type);

/* Work of n^depth at this point counts toward the innermost function's
 * work per call (a loop, and a linear call or a sort one level deeper:
 * merge sort's slice and concat are its O(n) per call). */
void cx_body_work(struct cx_walk *w, int depth);

#endif
