/* Loops to a power of the input (docs/analysis.md "power_bound"):
 * `range(n * n)`, `for (i = 0; i < n * n; i++)`, `0..n.pow(2)` read as
 * one loop over n undercounted them: a loop to n^k runs n^k times.
 *
 * Only a product of one and the same factor (n * n, len(a) * len(a),
 * n ** 3) and of counters of enclosing loops over n (n * i, i * j) is
 * read: `rows * cols` may be the size of the input itself (a grid of n
 * cells), so it keeps its reading of one factor of n. A loop
 * that does not step by one (a step, a doubling counter) is left to the
 * other rules. */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* The text of a node without blanks into flat; its length, 0 if too long. */
static size_t flat_of(const struct cx_walk *w, TSNode n, char *flat, size_t cap) {
    struct cx_text t = cx_node_text(w, n);
    return ts_node_is_null(n) || t.n >= cap ? 0 : cx_flatten(t, flat, cap);
}

/* Python's `range(X)`, `range(k, X)` (k a literal), Rust's `k..X` and
 * `k..=X`: X's degree. */
static int range_degree(const struct cx_walk *w, TSNode loop) {
    char flat[256];
    TSNode over = cx_field(loop, "right");
    if (ts_node_is_null(over)) over = cx_field(loop, "value");
    for (uint32_t k = 0; ts_node_is_null(over) && k < ts_node_named_child_count(loop); k++) { /* Kotlin: no fields */
        TSNode ch = ts_node_named_child(loop, k);
        if (strcmp(ts_node_type(ch), "infix_expression") == 0 || strcmp(ts_node_type(ch), "range_expression") == 0)
            over = ch;
    }
    if (ts_node_is_null(over)) return 0;
    const char *t = ts_node_type(over);
    TSNode stop = {0};
    if (strcmp(t, "call") == 0 && cx_text_is(cx_callee(w, over), "range")) {
        TSNode args = cx_field(over, "arguments");
        uint32_t k = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
        if (k == 0 || k > 2) return 0;
        if (k == 2) {
            size_t n = flat_of(w, ts_node_named_child(args, 0), flat, sizeof flat);
            if (n == 0 || !cx_literal_at_least(flat, n, 0, 0)) return 0;
        }
        stop = ts_node_named_child(args, k - 1);
    } else if (strcmp(t, "infix_expression") == 0 && ts_node_named_child_count(over) == 3 &&
               cx_text_is(cx_node_text(w, ts_node_named_child(over, 1)), "until")) { /* Kotlin's 0 until X */
        size_t n = flat_of(w, ts_node_named_child(over, 0), flat, sizeof flat);
        if (n == 0 || !cx_literal_at_least(flat, n, 0, 0)) return 0;
        stop = ts_node_named_child(over, 2);
    } else if (strcmp(t, "range_expression") == 0 && ts_node_named_child_count(over) == 2) {
        size_t n = flat_of(w, ts_node_named_child(over, 0), flat, sizeof flat);
        if (n == 0 || !cx_literal_at_least(flat, n, 0, 0)) return 0;
        stop = ts_node_named_child(over, 1);
    } else {
        return 0;
    }
    size_t n = flat_of(w, stop, flat, sizeof flat);
    return n ? cx_power_degree(w, flat, n) : 0;
}

/* A C-style loop `for (v = k; v < X; v++)` (or <=, ++v, v += 1; Go's
 * for_clause): X's degree. */
static int counted_degree(const struct cx_walk *w, TSNode loop) {
    TSNode cond = cx_field(loop, "condition"), update = cx_field(loop, "update");
    for (uint32_t k = 0; ts_node_is_null(cond) && k < ts_node_named_child_count(loop); k++) {
        TSNode ch = ts_node_named_child(loop, k);
        if (strcmp(ts_node_type(ch), "for_clause") == 0) cond = cx_field(ch, "condition"), update = cx_field(ch, "update");
    }
    if (ts_node_is_null(update)) update = cx_field(loop, "increment");
    char c[256], u[64];
    size_t cn = flat_of(w, cond, c, sizeof c), un = flat_of(w, update, u, sizeof u);
    size_t vl = cn ? cx_word_len(c, cn, 0) : 0;
    if (vl == 0 || un == 0 || (c[0] >= '0' && c[0] <= '9')) return 0;
    size_t at = cx_word_then(c, cn, 0, c, vl, "<=") ? vl + 2 : cx_word_then(c, cn, 0, c, vl, "<") ? vl + 1 : 0;
    if (at == 0) return 0;
    size_t sat;
    bool up = false;
    bool unit = cx_unit_step(u, un, &sat, &up) == vl && up && memcmp(u + sat, c, vl) == 0;
    return unit ? cx_power_degree(w, c + at, cn - at) : 0;
}

int cx_power_bound(const struct cx_walk *w, TSNode loop, char *bound, size_t cap) {
    int d = range_degree(w, loop);
    if (!d) d = counted_degree(w, loop);
    if (d) snprintf(bound, cap, "n^%d", d);
    return d;
}
#endif
