/* Tree helpers shared by the tree-based refinement rules of
 * analyze_complexity (refine_visited.c, refine_amortized.c,
 * refine_shapes.c, refine_selfcalls.c): a bounded cursor visit, ancestor
 * tests, and how the grammars spell method calls, subscripts, assignments
 * and loops. Internal to workers/analysis. */
#ifndef CC_ANALYSIS_REFINE_TREE_H
#define CC_ANALYSIS_REFINE_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "workers/analysis/ts_walk.h"

/* A subtree larger than this is not examined (the rule then makes no
 * claim), which bounds the work per loop; ancestor walks stop after
 * CX_ANCESTORS_MAX steps. */
#define CX_SUBTREE_MAX 65536
#define CX_ANCESTORS_MAX 512

/* Method names that push onto, pop from, read, mark or unmark a
 * collection; node types of assignments, declarations, subscripts, ifs. */
extern const char *const cx_push_methods[], *const cx_pop_methods[], *const cx_read_methods[];
extern const char *const cx_mark_methods[], *const cx_unmark_methods[];
extern const char *const cx_assignment_types[], *const cx_declaration_types[], *const cx_subscript_types[];
extern const char *const cx_if_types[];

/* cx_each_node's outcomes. */
enum { CX_VISIT_STOPPED = 0, CX_VISIT_DONE = 1, CX_VISIT_NO_CLAIM = -1 };

/* Visit every named node of root's subtree, root first, until fn says
 * stop (CX_VISIT_STOPPED) or all are seen (CX_VISIT_DONE); a subtree
 * larger than CX_SUBTREE_MAX or the walk's visit budget running out gives
 * CX_VISIT_NO_CLAIM. */
int cx_each_node(const struct cx_walk *w, TSNode root, bool (*fn)(void *, TSNode), void *ctx);
/* n lies strictly inside outer. */
bool cx_inside(TSNode n, TSNode outer);
/* t is one identifier shorter than CX_NAME_LEN. */
bool cx_is_name(struct cx_text t);
/* t is exactly name. */
bool cx_same(struct cx_text t, const char *name);
/* A node that runs its parts only sometimes (a branch, a short-circuit, a
 * loop, a function body, a handler). */
bool cx_conditional_node(TSNode p);
/* A loop or a function. */
bool cx_loop_node(TSNode p);
/* Does a node of that kind stand between n and top (exclusive)? */
bool cx_between(TSNode n, TSNode top, bool (*kind)(TSNode));

/* A call's receiver and method: `s.pop()`, `st.push(i)`, `heapq.heappop(pq)`
 * (a heap function's receiver is its first argument), `pop(s)`. */
struct cx_mcall {
    struct cx_text recv, method;
    TSNode args;
};
bool cx_method_call(const struct cx_walk *w, TSNode call, struct cx_mcall *m);
/* The object and index of a subscript node. */
bool cx_subscript_parts(const struct cx_walk *w, TSNode n, struct cx_text *obj, TSNode *index);
/* A slice of the collection name: python `s[:-1]`, Go `s[:len(s)-1]`. */
bool cx_slice_of(const struct cx_walk *w, TSNode v, const char *name);
/* The target and value of an assignment or declaration. */
bool cx_assignment_parts(TSNode n, TSNode *left, TSNode *right);
/* A while loop, or Go's `for cond {}`. */
bool cx_while_like(TSNode loop);
/* What a for-each loop iterates over (C: the pointer its initializer sets). */
TSNode cx_iterable(const struct cx_walk *w, TSNode loop);
/* The innermost `if` around n below top, or a null node. */
TSNode cx_enclosing_if(TSNode n, TSNode top);
/* The identifiers of a subtree (cx_each_node's callback). */
struct cx_idents {
    const struct cx_walk *w;
    struct cx_names names;
};
bool cx_collect_identifiers(void *ctx, TSNode n);
/* -1 false-ish, 1 true-ish, 0 not a boolean literal. */
int cx_literal_truth(const struct cx_walk *w, TSNode n);
/* n assigns into a subscript, A[j] = v: *obj is A, *truth v's
 * cx_literal_truth (0 when v is not a boolean literal). The mark of a
 * sieve (refine_shapes.c) and of a visited set (refine_visited.c). */
bool cx_subscript_write(const struct cx_walk *w, TSNode n, struct cx_text *obj, int *truth);
/* A statement that only skips the rest of the iteration. */
bool cx_only_continue(const struct cx_walk *w, TSNode n);
/* A function's parameter list (C/C++: on its declarator), or a null node. */
TSNode cx_fn_params(TSNode fn);

/* A guard that admits each vertex a bounded number of times: its
 * condition consults a collection scope writes (refine_visited.c). */
bool cx_guard_tracks(const struct cx_walk *w, TSNode cond, TSNode scope);

#endif
