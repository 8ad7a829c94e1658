/* Self-calls made inside a loop (docs/analysis.md "visited_recursion",
 * "structural_recursion", "subset_recursion", "permutation_recursion",
 * "looped_recursion"): what each one looks like, for the function's
 * judgement at its end (refine.c). */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/refine_tree.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* The call is under a test of a collection the function marks and never
 * unmarks: each vertex is entered once (DFS). */
static bool visited_guard(const struct cx_walk *w, TSNode call, TSNode fn) {
    TSNode cond = cx_guard_of(call, fn);
    return !ts_node_is_null(cond) && cx_marks_for_good(w, cond, fn);
}

/* The name at the root of an access chain (n->kid[i], node.children[0],
 * obj[k]); *steps counts the accesses. A python slice is a copy, not a
 * part: no root. */
static TSNode access_root(TSNode a, int *steps) {
    static const char *const chains[][2] = {{"subscript", "value"}, {"subscript_expression", "object"},
        {"subscript_expression", "argument"}, {"index_expression", "operand"}, {"array_access", "array"},
        {"attribute", "object"}, {"member_expression", "object"}, {"field_expression", "argument"},
        {"selector_expression", "operand"}, {"field_access", "object"}};
    *steps = 0;
    for (int hop = 0; hop < 16 && !ts_node_is_null(a); hop++) {
        if (strcmp(ts_node_type(a), "identifier") == 0) return a;
        TSNode next = {0};
        for (size_t i = 0; i < sizeof chains / sizeof *chains && ts_node_is_null(next); i++)
            if (strcmp(ts_node_type(a), chains[i][0]) == 0) next = cx_field(a, chains[i][1]);
        if (ts_node_is_null(next)) return next;
        for (uint32_t i = 0; i < ts_node_named_child_count(a); i++)
            if (strcmp(ts_node_type(ts_node_named_child(a, i)), "slice") == 0) return (TSNode){0};
        a = next;
        ++*steps;
    }
    return (TSNode){0};
}

static bool is_param(const struct cx_walk *w, TSNode id, const struct cx_names *params) {
    struct cx_text t = cx_node_text(w, id);
    for (size_t i = 0; i < params->n; i++)
        if (cx_same(t, params->v[i])) return true;
    return false;
}

/* The self-call passes a part of one of its parameters (sym_count(n->kid[i]),
 * walk(ch) in `for ch in node.children`) and never a parameter whole: it
 * descends into a structure (a tree walk), not across a graph it carries
 * along (dfs(g, v)). */
static bool structural_call(const struct cx_walk *w, TSNode call, TSNode fn) {
    TSNode args = cx_field(call, "arguments"), pl = cx_fn_params(fn);
    struct cx_idents params = {w, {{{0}}, 0}};
    if (ts_node_is_null(args) || ts_node_is_null(pl) || cx_each_node(w, pl, cx_collect_identifiers, &params) != CX_VISIT_DONE)
        return false;
    bool part = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        int steps;
        TSNode root = access_root(a, &steps);
        if (ts_node_is_null(root) || !is_param(w, root, &params.names)) continue;
        if (steps == 0) {
            /* a parameter whole, unless it is the loop's variable over a part */
            TSNode loop = w->nnloops ? w->nloops[w->nnloops - 1] : (TSNode){0};
            TSNode var = ts_node_is_null(loop) ? loop : cx_field(loop, "left");
            if (ts_node_is_null(var) || !cx_text_eq(cx_node_text(w, var), cx_node_text(w, root))) return false;
            continue;
        }
        part = true;
    }
    if (part) return true;
    /* walk(ch) with `for ch in node.children` / `for (const ch of node.kids)` */
    TSNode loop = w->nnloops ? w->nloops[w->nnloops - 1] : (TSNode){0};
    TSNode var = ts_node_is_null(loop) ? loop : cx_field(loop, "left"), over = ts_node_is_null(loop) ? loop : cx_iterable(w, loop);
    if (ts_node_is_null(var) || ts_node_is_null(over)) return false;
    int steps;
    TSNode root = access_root(over, &steps);
    if (ts_node_is_null(root) || !is_param(w, root, &params.names)) return false;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++)
        if (cx_text_eq(cx_node_text(w, ts_node_named_child(args, i)), cx_node_text(w, var))) return true;
    return false;
}

void cx_classify_looped_call(const struct cx_walk *w, TSNode call, struct cx_fn *f) {
    TSNode args = cx_field(call, "arguments");
    char flat[256];
    size_t n = ts_node_is_null(args) ? 0 : cx_flatten(cx_node_text(w, args), flat, sizeof flat);
    if (visited_guard(w, call, f->node)) {
        f->visited_calls++;
        return;
    }
    if (structural_call(w, call, f->node)) {
        f->structural_calls++;
        return;
    }
    if (w->counters.n > 0) {
        const char *c = w->counters.v[w->counters.n - 1];
        size_t cl = strlen(c);
        for (size_t i = 0; i < n; i++)
            if (cx_word_then(flat, n, i, c, cl, "+1")) {
                f->subset_calls++;
                return;
            }
    }
    if (cx_mentions(&w->shrunk, flat, n) || cx_has_text(flat, n, ".slice(") || cx_has_text(flat, n, ":]") ||
        cx_has_text(flat, n, ".filter(")) {
        f->shrinking_calls++;
        return;
    }
    if (w->nnloops > 0 && cx_between(call, w->nloops[w->nnloops - 1], cx_conditional_node)) {
        f->guarded_calls++;
        return;
    }
    /* A `continue` under a test before the call in the loop's body. */
    if (w->nnloops > 0) {
        TSNode child = call, p = ts_node_parent(call), loop = w->nloops[w->nnloops - 1];
        for (int i = 0; i < CX_ANCESTORS_MAX && !ts_node_is_null(p) && !ts_node_eq(child, loop);
             i++, child = p, p = ts_node_parent(p))
            for (TSNode s = ts_node_prev_named_sibling(child); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s))
                if (cx_type_is(s, cx_if_types)) {
                    struct cx_text t = cx_node_text(w, cx_field(s, "consequence"));
                    if (cx_has_word(t.s, t.n, "continue")) {
                        f->guarded_calls++;
                        return;
                    }
                }
    }
}

static bool has_slice(void *ctx, TSNode n) {
    const struct cx_walk *w = ctx;
    struct cx_mcall m;
    if (strcmp(ts_node_type(n), "slice") == 0) return false;
    return !(cx_method_call(w, n, &m) && (cx_text_is(m.method, "slice") || cx_text_is(m.method, "filter") ||
                                       cx_text_is(m.method, "subList") || cx_text_is(m.method, "substring")));
}

void cx_note_shrunk(struct cx_walk *w, TSNode name, TSNode value) {
    if (strcmp(ts_node_type(name), "identifier") == 0 && cx_each_node(w, value, has_slice, w) == CX_VISIT_STOPPED)
        cx_remember(&w->shrunk, cx_node_text(w, name));
}
#endif
