/* Geometric sums (docs/analysis.md "geometric_sum"): an inner loop that
 * runs up to the counter of the loop directly around it, while that
 * counter only grows by a constant factor up to a plain bound
 * (`while i < n: for j in range(i): ...; i *= 2`). The inner trip counts
 * are 1 + 2 + 4 + ... up to the bound: under twice the bound in all,
 * O(n), where a product of the two loops reads O(n log n); to a bound of
 * n * n, O(n^2), where one factor n for the inner loop would read less.
 *
 * Every test here is conservative: a shape it does not recognise keeps
 * the product (an over-estimate), never less. */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

#define FLAT_MAX 8192

/* The loop directly around loop in the same function (through ifs and
 * blocks), or a null node. A comprehension around it is no such loop. */
static TSNode enclosing_loop(TSNode loop) {
    for (TSNode p = ts_node_parent(loop); !ts_node_is_null(p); p = ts_node_parent(p)) {
        const char *t = ts_node_type(p);
        if (cx_is_function_type(t) || cx_is_comprehension_loop(t)) break;
        if (cx_is_loop_type(t)) return p;
    }
    return (TSNode){0};
}

/* A bound with no arithmetic in it: a name, a literal, len(a), a.length,
 * a.size(). A bound like n * n or 1 << n would let the counter, and the
 * inner loop with it, pass n. */
static bool plain_bound(const char *s, size_t n) {
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++)
        if (!cx_is_word((unsigned char)s[i]) && !strchr(".()[]", s[i])) return false;
    return true;
}

/* At flat[i]: v grows by a constant factor (v *= k, v <<= k, v = v * k,
 * v = v << k), never shrinks. */
static bool grows(const char *flat, size_t n, size_t i, const char *v, size_t vl) {
    if (!cx_scale_update(flat, n, i, v, vl)) return false;
    size_t op = cx_word_then(flat, n, i, v, vl, "=") ? i + vl + 1 + vl : i + vl;
    return op < n && (flat[op] == '*' || (op + 1 < n && memcmp(flat + op, "<<", 2) == 0));
}

/* Scans the text of n for assignments to v: each must make v grow.
 * Counts those into *grew; false at any other assignment. */
static bool only_grows_in(const struct cx_walk *w, TSNode n, const char *v, size_t vl, int *grew) {
    struct cx_text t = cx_node_text(w, n);
    char flat[FLAT_MAX];
    if (t.n >= sizeof flat) return false;
    size_t fn = cx_flatten(t, flat, sizeof flat);
    for (size_t i = 0; i < fn; i++) {
        if (!cx_assigns(flat, fn, i, v, vl)) continue;
        if (!grows(flat, fn, i, v, vl)) return false;
        ++*grew;
    }
    return true;
}

/* The parts of a loop that run on every iteration: every child but the
 * initializer (C, JS, Java; Go's inside its for_clause), whose `i = 1`
 * runs once. */
static bool only_grows(const struct cx_walk *w, TSNode loop, const char *v, size_t vl, int *grew) {
    TSNode init = cx_field(loop, "initializer");
    if (ts_node_is_null(init)) init = cx_field(loop, "init");
    for (uint32_t k = 0; k < ts_node_named_child_count(loop); k++) {
        TSNode c = ts_node_named_child(loop, k);
        if (!ts_node_is_null(init) && ts_node_eq(c, init)) continue;
        bool clause = strcmp(ts_node_type(c), "for_clause") == 0;
        if (clause ? !only_grows(w, c, v, vl, grew) : !only_grows_in(w, c, v, vl, grew)) return false;
    }
    return true;
}

/* The loop's condition is `v < bound` or `v <= bound`, and every
 * assignment to v in the loop makes it grow by a constant factor (at least
 * one does): the bound's degree (1 for a plain bound, d for n^d), else 0. */
static int growing_to_bound(const struct cx_walk *w, TSNode outer, const char *v, size_t vl) {
    TSNode cond = cx_loop_condition(outer);
    if (ts_node_is_null(cond)) return false;
    char c[256];
    struct cx_text ct = cx_node_text(w, cond);
    if (ct.n >= sizeof c) return false;
    size_t cn = cx_flatten(ct, c, sizeof c);
    size_t at = cx_word_then(c, cn, 0, v, vl, "<=") ? vl + 2 : cx_word_then(c, cn, 0, v, vl, "<") ? vl + 1 : 0;
    int degree = at == 0 ? 0 : plain_bound(c + at, cn - at) ? 1 : cx_power_degree(w, c + at, cn - at);
    int grew = 0;
    return degree && only_grows(w, outer, v, vl, &grew) && grew > 0 ? degree : 0;
}

/* Rust's `for j in k..v` / `k..=v` (k a literal): the bound's name into v. */
static bool rust_range_to_name(const struct cx_walk *w, TSNode loop, char *v, size_t cap) {
    TSNode r = cx_field(loop, "value");
    if (ts_node_is_null(r) || strcmp(ts_node_type(r), "range_expression") != 0 || ts_node_named_child_count(r) != 2)
        return false;
    TSNode lo = ts_node_named_child(r, 0), hi = ts_node_named_child(r, 1);
    struct cx_text t = cx_node_text(w, hi);
    if (!cx_is_int_literal(w, lo) || strcmp(ts_node_type(hi), "identifier") != 0 || t.n >= cap) return false;
    snprintf(v, cap, "%.*s", (int)t.n, t.s);
    return true;
}

/* `for j in range(v)` / `range(k, v)` (k a literal): the bound's name
 * into v. */
static bool range_to_name(const struct cx_walk *w, TSNode loop, char *v, size_t cap) {
    if (rust_range_to_name(w, loop, v, cap)) return true;
    TSNode right = cx_field(loop, "right");
    if (ts_node_is_null(right) || strcmp(ts_node_type(right), "call") != 0 ||
        !cx_text_is(cx_callee(w, right), "range"))
        return false;
    TSNode args = cx_field(right, "arguments");
    uint32_t k = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    if (k == 0 || k > 2 || (k == 2 && !cx_is_int_literal(w, ts_node_named_child(args, 0)))) return false;
    TSNode b = ts_node_named_child(args, k - 1);
    struct cx_text t = cx_node_text(w, b);
    if (strcmp(ts_node_type(b), "identifier") != 0 || t.n >= cap) return false;
    snprintf(v, cap, "%.*s", (int)t.n, t.s);
    return true;
}

/* At flat[i], where a name of length vl is assigned: the assignment is a
 * unit step that raises it (j++, ++j, j += 1, j = j + 1), read up to the
 * first character that cannot belong to it (`;`, `)`, `]`, `{`). */
static bool unit_raise_at(const char *flat, size_t n, size_t i, size_t vl) {
    size_t from = i >= 2 && (memcmp(flat + i - 2, "++", 2) == 0 || memcmp(flat + i - 2, "--", 2) == 0) ? i - 2 : i;
    size_t to = i + vl, at;
    while (to < n && (cx_is_word((unsigned char)flat[to]) || flat[to] == '+' || flat[to] == '-' || flat[to] == '=')) to++;
    bool up = false;
    return cx_unit_step(flat + from, to - from, &at, &up) == vl && from + at == i && up;
}

/* `for (j = k; j < v; j++)` (or <=, ++j, j += 1) where the loop assigns j
 * nowhere else: the bound's name into v. */
static bool counted_to_name(const struct cx_walk *w, TSNode loop, char *v, size_t cap) {
    TSNode cond = cx_loop_condition(loop), init = cx_field(loop, "initializer");
    if (ts_node_is_null(init)) init = cx_field(loop, "init"); /* Java */
    for (uint32_t k = 0; ts_node_is_null(init) && k < ts_node_named_child_count(loop); k++) { /* Go */
        TSNode ch = ts_node_named_child(loop, k);
        if (strcmp(ts_node_type(ch), "for_clause") == 0) init = cx_field(ch, "initializer");
    }
    if (ts_node_is_null(cond) || ts_node_is_null(init)) return false;
    char c[128];
    struct cx_text ct = cx_node_text(w, cond);
    if (ct.n >= sizeof c) return false;
    size_t cn = cx_flatten(ct, c, sizeof c), jl = cx_word_len(c, cn, 0);
    if (jl == 0 || (c[0] >= '0' && c[0] <= '9')) return false;
    size_t at = cx_word_then(c, cn, 0, c, jl, "<=") ? jl + 2 : cx_word_then(c, cn, 0, c, jl, "<") ? jl + 1 : 0;
    if (at == 0 || cx_word_len(c, cn, at) != cn - at || (c[at] >= '0' && c[at] <= '9') || cn - at >= cap) return false;
    struct cx_text body = cx_node_text(w, loop);
    char flat[FLAT_MAX];
    if (body.n >= sizeof flat) return false;
    size_t n = cx_flatten(body, flat, sizeof flat), sets = 0, steps = 0;
    for (size_t i = 0; i < n; i++) {
        if (!cx_assigns(flat, n, i, c, jl)) continue;
        sets++;
        steps += unit_raise_at(flat, n, i, jl);
    }
    if (sets != 2 || steps != 1) return false; /* the initializer and the unit step, nothing else */
    snprintf(v, cap, "%.*s", (int)(cn - at), c + at);
    return true;
}

int cx_geometric_sum(const struct cx_walk *w, TSNode loop, char *counter, size_t cap, uint32_t *outer_line) {
    if (w->ldepth < 1) return 0; /* the log factor this rule takes back must be open */
    TSNode outer = enclosing_loop(loop);
    if (ts_node_is_null(outer)) return 0;
    char v[CX_NAME_LEN];
    if (!range_to_name(w, loop, v, sizeof v) && !counted_to_name(w, loop, v, sizeof v)) return 0;
    size_t vl = strlen(v);
    int degree = vl < cap ? growing_to_bound(w, outer, v, vl) : 0;
    struct cx_text inner = cx_node_text(w, loop);
    char flat[FLAT_MAX];
    if (!degree || inner.n >= sizeof flat) return 0;
    size_t n = cx_flatten(inner, flat, sizeof flat);
    for (size_t i = 0; i < n; i++) /* the inner loop leaves the outer counter alone */
        if (cx_assigns(flat, n, i, v, vl)) return 0;
    snprintf(counter, cap, "%s", v);
    *outer_line = cx_line(outer);
    return degree;
}
#endif
