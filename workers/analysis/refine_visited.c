/* Visited collections (docs/analysis.md "graph_traversal",
 * "visited_recursion", "visited_call"): which collections a guard
 * consults, whether a scope writes them, and whether a function marks one
 * for good (never unmarks, each call marking what it was called for). */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/refine_tree.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* The collections a guard condition consults: M[v], v in M, M.get(v),
 * M.has(v), M.contains(v). */
struct cx_guard_names {
    const struct cx_walk *w;
    struct cx_names names;
};

static bool cx_collect_guard_names(void *ctx, TSNode n) {
    static const char *const lookups[] = {"get", "has", "contains", "containsKey", "count", "find", "getOrDefault",
        NULL};
    struct cx_guard_names *g = ctx;
    struct cx_text obj;
    TSNode idx;
    struct cx_mcall m;
    if (cx_subscript_parts(g->w, n, &obj, &idx)) cx_remember(&g->names, obj);
    else if (cx_method_call(g->w, n, &m) && cx_in_list(m.method, lookups)) cx_remember(&g->names, m.recv);
    else if (strcmp(ts_node_type(n), "comparison_operator") == 0) {
        uint32_t c = ts_node_child_count(n);
        for (uint32_t i = 0; i + 1 < c; i++) {
            const char *t = ts_node_type(ts_node_child(n, i));
            if (strcmp(t, "in") == 0 || strcmp(t, "not in") == 0)
                cx_remember(&g->names, cx_node_text(g->w, ts_node_next_named_sibling(ts_node_child(n, i))));
        }
    }
    return true;
}

/* Is one of names written in scope: M[k] = ..., M[k] -= 1, M[k]--, M.add(k)? */
struct cx_written {
    const struct cx_walk *w;
    const struct cx_names *names;
    bool found;
    /* For a function marking what it visits: the function, and its
     * parameters; the mark must then be a statement of the function (not
     * under a condition) at an index made of its parameters (seen[u],
     * seen.add((r, c))), so that every call marks what it was called for. */
    TSNode fn;
    const struct cx_names *params;
};

static bool cx_params_only(const struct cx_walk *w, TSNode idx, const struct cx_names *params);

static bool cx_find_write(void *ctx, TSNode n) {
    struct cx_written *s = ctx;
    TSNode l, r, idx = {0};
    struct cx_text obj;
    struct cx_mcall m;
    bool hit = false;
    if (cx_type_is(n, cx_assignment_types) && cx_assignment_parts(n, &l, &r)) {
        if (strcmp(ts_node_type(l), "expression_list") == 0 && ts_node_named_child_count(l) > 0)
            l = ts_node_named_child(l, 0);
        if (cx_subscript_parts(s->w, l, &obj, &idx)) {
            char flat[CX_NAME_LEN];
            size_t fn = cx_flatten(obj, flat, sizeof flat);
            hit = cx_mentions(s->names, flat, fn) && cx_word_len(flat, fn, 0) == fn;
        }
    } else if (cx_method_call(s->w, n, &m) && cx_in_list(m.method, cx_mark_methods)) {
        for (size_t i = 0; i < s->names->n && !hit; i++) hit = cx_same(m.recv, s->names->v[i]);
        idx = ts_node_is_null(m.args) || ts_node_named_child_count(m.args) != 1 ? (TSNode){0}
                                                                                : ts_node_named_child(m.args, 0);
    }
    if (hit && s->params)
        hit = !ts_node_is_null(idx) && !cx_between(n, s->fn, cx_conditional_node) && cx_params_only(s->w, idx, s->params);
    s->found = hit;
    return !s->found;
}

/* A guard that admits each vertex a bounded number of times: its
 * condition consults a collection the scope writes (visited, dist,
 * indegree). */
bool cx_guard_tracks(const struct cx_walk *w, TSNode cond, TSNode scope) {
    struct cx_guard_names g = {w, {{{0}}, 0}};
    if (ts_node_is_null(cond) || cx_each_node(w, cond, cx_collect_guard_names, &g) != CX_VISIT_DONE || g.names.n == 0)
        return false;
    struct cx_written s = {.w = w, .names = &g.names};
    cx_each_node(w, scope, cx_find_write, &s);
    return s.found;
}

struct marks_only {
    const struct cx_walk *w;
    const struct cx_names *names;
    int value;
    bool unmarked;
};

/* A visited collection is only ever marked, never unmarked (backtracking
 * unmarks: used[i] = False after the call, seen.remove(x)). */
static bool find_unmark(void *ctx, TSNode n) {
    struct marks_only *s = ctx;
    struct cx_text obj;
    struct cx_mcall m;
    int v;
    if (cx_subscript_write(s->w, n, &obj, &v)) {
        bool ours = false;
        for (size_t i = 0; i < s->names->n; i++) ours |= cx_same(obj, s->names->v[i]);
        if (ours) {
            /* a value that is not a boolean literal may unmark; two values do */
            if (v == 0 || (s->value && v != s->value)) s->unmarked = true;
            s->value = v;
        }
    } else if (cx_method_call(s->w, n, &m) && cx_in_list(m.method, cx_unmark_methods)) {
        for (size_t i = 0; i < s->names->n; i++) s->unmarked |= cx_same(m.recv, s->names->v[i]);
    }
    return !s->unmarked;
}

TSNode cx_guard_of(TSNode call, TSNode top) {
    TSNode g = cx_enclosing_if(call, top);
    return ts_node_is_null(g) ? g : cx_field(g, "condition");
}

/* Every identifier of idx is one of params. */
static bool cx_params_only(const struct cx_walk *w, TSNode idx, const struct cx_names *params) {
    struct cx_idents ids = {w, {{{0}}, 0}};
    if (cx_each_node(w, idx, cx_collect_identifiers, &ids) != CX_VISIT_DONE || ids.names.n == 0) return false;
    for (size_t i = 0; i < ids.names.n; i++) {
        bool p = false;
        for (size_t j = 0; j < params->n && !p; j++) p = strcmp(ids.names.v[i], params->v[j]) == 0;
        if (!p) return false;
    }
    return true;
}

bool cx_marks_for_good(const struct cx_walk *w, TSNode cond, TSNode fn) {
    struct cx_guard_names names = {w, {{{0}}, 0}};
    if (ts_node_is_null(cond) || cx_each_node(w, cond, cx_collect_guard_names, &names) != CX_VISIT_DONE || names.names.n == 0)
        return false;
    TSNode pl = cx_fn_params(fn);
    struct cx_idents params = {w, {{{0}}, 0}};
    if (ts_node_is_null(pl) || cx_each_node(w, pl, cx_collect_identifiers, &params) != CX_VISIT_DONE) return false;
    struct cx_written s = {w, &names.names, false, fn, &params.names};
    cx_each_node(w, fn, cx_find_write, &s);
    if (!s.found) return false;
    struct marks_only mo = {w, &names.names, 0, false};
    return cx_each_node(w, fn, find_unmark, &mo) == CX_VISIT_DONE && !mo.unmarked;
}

/* A statement that only returns (`return`, `return;`, `return 0`). */
static bool only_return(const struct cx_walk *w, TSNode n) {
    char flat[64];
    struct cx_text t = cx_node_text(w, n);
    if (t.n >= sizeof flat) return false;
    size_t fn = cx_flatten(t, flat, sizeof flat), i = 0;
    while (fn > 0 && (flat[fn - 1] == ';' || flat[fn - 1] == '}')) fn--;
    while (i < fn && (flat[i] == '{' || flat[i] == ':' || flat[i] == ';')) i++;
    return fn - i >= 6 && memcmp(flat + i, "return", 6) == 0 && !memchr(flat + i, ';', fn - i) &&
           (fn - i == 6 || !cx_is_word((unsigned char)flat[i + 6]) || flat[i + 6] == ' ');
}

bool cx_early_visit_guard(const struct cx_walk *w, TSNode fn) {
    TSNode body = cx_field(fn, "body");
    if (ts_node_is_null(body)) return false;
    uint32_t c = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < c && i < 4; i++) {
        TSNode s = ts_node_named_child(body, i);
        if (!cx_type_is(s, cx_if_types) || !ts_node_is_null(cx_field(s, "alternative"))) continue;
        if (only_return(w, cx_field(s, "consequence")) && cx_marks_for_good(w, cx_field(s, "condition"), fn))
            return true;
    }
    return false;
}
#endif
