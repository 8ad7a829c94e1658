/* The input as the user wrote it, as a result tree in SymPy's automatic
 * form (sums and products flattened, numeric factors folded), without
 * giac's evaluation: printed where giac's value is a rewriting that holds
 * for real values only (sqrt(x**2) built as Abs(x)), so the answer stays
 * the input rather than a form that is wrong over the complex numbers. */
#ifndef CC_SYM_WRITTEN_H
#define CC_SYM_WRITTEN_H

#include "workers/common/expr_ast.h"
#include "workers/symbolic/sym_tree.h"

/* A new tree (sym_free), or NULL on OOM or for a construct with no plain
 * arithmetic reading (a comparison, a tuple, %, bitwise operators). */
struct sym_node *sym_written_tree(const struct cc_node *n);

#endif
