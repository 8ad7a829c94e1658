/* The printer of TOOLS.md 2.3: renders a result tree as the sympy-compatible
 * text clients see (`x**3/3`, `-1/2 + sqrt(3)*I/2`, `Eq(x**2 - 4, 0)`).
 * Output is deterministic and parses back through our symbolic language. */
#ifndef CC_SYM_PRINT_H
#define CC_SYM_PRINT_H

#include "workers/symbolic/sym_tree.h"

/* A malloc'd string (caller frees), or NULL on allocation failure. The tree
 * should be normalised (sym_normalize) first. */
char *sym_print(const struct sym_node *n);

/* How many nodes the last sym_print() printed (each node of the tree once,
 * plus a few temporaries): for the test that printing stays linear. */
size_t sym_print_work(void);

#endif
