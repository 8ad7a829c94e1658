/* The expression front end shared by calc_exact and the symbolic tools:
 * screen (expr_screen.h) -> parse (this file) -> shape check (expr_shape.h).
 *
 * Including this header gives the whole front end.
 */
#ifndef CC_EXPR_PARSE_H
#define CC_EXPR_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workers/common/expr_arena.h"
#include "workers/common/expr_ast.h"
#include "workers/common/expr_funcs.h"
#include "workers/common/expr_lex.h"
#include "workers/common/expr_screen.h"
#include "workers/common/expr_shape.h"

/* Deepest nesting (brackets, unary chains, power chains) the parser follows;
 * beyond it: resource_exhausted "expression too deeply nested". */
#define CC_EXPR_MAX_DEPTH 200

/* Parse src[0..len) in dialect d into a tree allocated from a (the arena
 * owns every node). Returns the root, or NULL with err set: validation
 * "parse error: ..." for syntax, validation "unknown function ..." for a call
 * of an unknown name in the symbolic dialect, resource_exhausted for depth
 * or memory. Does not run the screen: callers run cc_expr_screen() first. */
struct cc_node *cc_expr_parse(struct cc_arena *a, const char *src, size_t len,
                              enum cc_dialect d, struct cc_expr_error *err);

/* cc_expr_screen() then cc_expr_parse(), with the same results and errors,
 * but tokenising once (the screen's tokens feed the parser). */
struct cc_node *cc_expr_screen_parse(struct cc_arena *a, const char *src, size_t len,
                                     enum cc_dialect d, struct cc_expr_error *err);

#endif
