/* The explosive-shape check of TOOLS.md 2.4: looks at every power node of a
 * parsed tree, without evaluating anything, and refuses shapes whose result
 * could not be computed or rendered in bounded time and memory. */
#ifndef CC_EXPR_SHAPE_H
#define CC_EXPR_SHAPE_H

#include "workers/common/expr_ast.h"
#include "workers/common/expr_lex.h"

/* Nodes inspected at most; the rest of a bigger tree is not walked. */
#define CC_EXPR_SHAPE_MAX_NODES 20000

/* 0 when the tree may be evaluated; -1 with err set (resource_exhausted). */
int cc_expr_shape_check(const struct cc_node *root, struct cc_expr_error *err);

#endif
