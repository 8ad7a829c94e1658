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

/* The condition of a while or C-style for loop (Go: its for_clause's, or
 * the bare expression of `for n > 0 { ... }`), or a null node. */
TSNode cx_loop_condition(TSNode loop);

/* ---- what python names hold (refine.c, refine_params.c) ---- */

/* CX_KIND_* of a value (a literal, a constructor call, a known name), or
 * -1 unknown. */
int cx_value_kind(const struct cx_walk *w, TSNode v);
/* The kind the walk knows a name by, or -1. */
int cx_name_kind(const struct cx_walk *w, struct cx_text name);
/* Know name by kind from here on (-1: forget it). */
void cx_set_kind(struct cx_walk *w, struct cx_text name, int kind);
/* A python function's parameters take the kinds the source shows them
 * (refine_params.c) while its body is walked, shadowing names outside;
 * at its end the names outside are known as before. */
void cx_param_kinds_enter(struct cx_walk *w, TSNode fn, struct cx_fn *f);
void cx_param_kinds_leave(struct cx_walk *w, const struct cx_fn *f);

/* ---- calls to the source's own functions (refine_calls.c) ---- */

/* A call that may name a function of the source: remembered with the
 * cost of the loops around it. */
void cx_record_call(struct cx_walk *w, TSNode call, struct cx_text callee);
/* A function closed with the cost of its recursion rec: its total. */
void cx_function_cost(struct cx_walk *w, const struct cx_fn *f, struct cx_cost rec, bool memo_total);
/* After the walk: each recorded call costs the loops around it times the
 * callee's total (callees calling others: up to a few levels). */
void cx_compose_calls(struct cx_walk *w);
/* c relative to base (the loops already open when base was taken). */
struct cx_cost cx_cost_minus(struct cx_cost c, struct cx_cost base);
/* a times b. */
struct cx_cost cx_cost_times(struct cx_cost a, struct cx_cost b);

/* ---- tree-based rules (refine_tree.c, refine_visited.c, refine_amortized.c,
 * refine_shapes.c, refine_selfcalls.c) ---- */

/* n has the anonymous token op among its children (`+=`, `&&`, `!`). */
bool cx_has_token(TSNode n, const char *op);

/* A while loop inside a loop over n that pops a stack on every iteration,
 * the stack pushed at most a fixed number of times per outer iteration
 * (a monotonic stack): its name goes into name. */
bool cx_amortized_stack(const struct cx_walk *w, TSNode loop, char *name, size_t cap);

/* An inner loop up to the counter (name into counter) of the loop directly
 * around it, which only grows by a constant factor up to a plain bound
 * (refine_geometric_sum.c): O(n) over all outer iterations, O(n^d) when
 * the bound is n^d. Returns d (0: no such loop); the outer loop's line
 * into *outer_line. */
int cx_geometric_sum(const struct cx_walk *w, TSNode loop, char *counter, size_t cap, uint32_t *outer_line);

/* A loop stepping by one to a power of one factor (range(n * n), i <
 * n ** 3; refine_power_bound.c): the power (2 to 4), its text ("n^2")
 * into bound; 0 for any other loop. */
int cx_power_bound(const struct cx_walk *w, TSNode loop, char *bound, size_t cap);

/* A loop over the neighbours of a vertex (`for v in g[u]`) that the loop
 * over n around it took from a worklist it pops (its name goes into
 * name): 1 when it pushes onto the worklist only under a test of what it
 * has seen (a visited, distance or indegree check; BFS, DFS, Dijkstra,
 * Kahn), 2 when nothing stops a vertex from coming back (once per path),
 * 0 when it is no such loop. */
int cx_adjacency_loop(const struct cx_walk *w, TSNode loop, char *name, size_t cap);

/* The harmonic loop inner (stepping by outer's counter) runs only when
 * an array the inner loop marks is still unmarked at the counter: a sieve
 * (`if not is_p[i]: continue`, `if (!comp[i])`). */
bool cx_sieve_guard(const struct cx_walk *w, TSNode inner, TSNode outer, const char *counter);

/* What the loop iterates over, when it is itertools' permutations,
 * combinations(_with_replacement) or product: CX_COMB_POWER (n^*power:
 * choose a literal r, or a product of k collections), CX_COMB_FACTORIAL
 * (every order of all n, or of an unknown r: at most n!), CX_COMB_SUBSETS
 * (combinations of an unknown r: at most 2^n), CX_COMB_NPOWN (a product
 * repeated an unknown number of times: n^n when that is at most n), else
 * CX_COMB_NONE. */
enum { CX_COMB_NONE, CX_COMB_POWER, CX_COMB_FACTORIAL, CX_COMB_SUBSETS, CX_COMB_NPOWN };
int cx_combinatorial_over(const struct cx_walk *w, TSNode loop, int *power);

/* An inner loop whose bound is a collection it adds to, inside a loop over
 * n (`k = out.length; for (i < k) out.push(...)`): the collection doubles
 * per outer iteration. Its name goes into name. */
/* *copies: each item added is a list built from an old one (s + [x],
 * [...s, x], append(append([]int{}, s...), x)): n * 2^n in all. */
bool cx_growing_collection(const struct cx_walk *w, TSNode loop, char *name, size_t cap, bool *copies);

/* A self-call inside a loop of the function fn, counted into f's
 * visited/guarded/shrinking/subset calls. */
void cx_classify_looped_call(const struct cx_walk *w, TSNode call, struct cx_fn *f);

/* The condition of the innermost `if` around n below top, or a null node. */
TSNode cx_guard_of(TSNode n, TSNode top);

/* cond consults a collection (M[v], v in M, M.has(v)) that fn marks and
 * never unmarks (a visited set): fn enters each vertex once. */
bool cx_marks_for_good(const struct cx_walk *w, TSNode cond, TSNode fn);

/* fn starts with `if <test of a collection it marks for good>: return`:
 * it enters each state once, however many times it calls itself. */
bool cx_early_visit_guard(const struct cx_walk *w, TSNode fn);

/* ---- recursion rules (refine_memo.c, refine_growth.c) ---- */

/* fn keeps a memo table: it stores into a name (`memo[k] = ...`, .set(,
 * .put(, .insert(, .Add() and looks the same name up before computing. */
bool cx_memo_table(const struct cx_walk *w, TSNode fn);
/* The dimensions of a memoised function's states (1 to 3: the argument
 * positions its self-calls vary, one collection's bounds counted once), or
 * 0 when a state may take 2^n values (a bitmask, a set of items). */
int cx_memo_dimensions(const struct cx_walk *w, TSNode fn, struct cx_text name);
/* 2 when f's one self-call's result goes into what it returns at least
 * twice (it doubles per level; *copies when its items are built from old
 * ones), 1 when it is copied once beside a literal (O(n) per call), else 0. */
int cx_result_growth(const struct cx_walk *w, const struct cx_fn *f, bool *copies);

/* Remembers a name assigned a sliced copy (python slices, .slice(),
 * .filter()) in w->shrunk. */
void cx_note_shrunk(struct cx_walk *w, TSNode name, TSNode value);

#endif
