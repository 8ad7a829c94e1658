/* Loop shapes read from the tree (docs/analysis.md "sieve_loop",
 * "permutations_loop", "growing_collection"): a sieve's guard, loops over
 * itertools' combinatorial iterators, and a collection that doubles. */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/refine_tree.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* ---- sieve ---- */
struct mark {
    const struct cx_walk *w;
    char array[CX_NAME_LEN];
    int value;
    bool mixed;
};

/* The inner loop's writes: A[j] = <boolean literal>, all one array and value. */
static bool find_mark(void *ctx, TSNode n) {
    struct mark *k = ctx;
    struct cx_text obj;
    int v;
    if (!cx_subscript_write(k->w, n, &obj, &v)) return true;
    if (!cx_is_name(obj) || v == 0 || (k->array[0] && (!cx_same(obj, k->array) || v != k->value))) {
        k->mixed = true;
        return false;
    }
    snprintf(k->array, sizeof k->array, "%.*s", (int)obj.n, obj.s);
    k->value = v;
    return true;
}

/* 1 when cond holds exactly when A[counter] is true-ish, -1 when exactly
 * when it is false-ish, 0 otherwise. */
static int reads_mark(const struct cx_walk *w, TSNode cond, const char *array, const char *counter, int depth) {
    if (ts_node_is_null(cond) || depth > 8) return 0;
    const char *t = ts_node_type(cond);
    struct cx_text obj;
    TSNode idx;
    if (cx_subscript_parts(w, cond, &obj, &idx))
        return cx_same(obj, array) && cx_same(cx_node_text(w, idx), counter) ? 1 : 0;
    if (strstr(t, "parenthesized") && ts_node_named_child_count(cond) == 1)
        return reads_mark(w, ts_node_named_child(cond, 0), array, counter, depth + 1);
    if (strcmp(t, "not_operator") == 0 || (strcmp(t, "unary_expression") == 0 && cx_has_token(cond, "!")))
        return -reads_mark(w, ts_node_named_child(cond, 0), array, counter, depth + 1);
    if ((strcmp(t, "binary_expression") == 0 || strcmp(t, "comparison_operator") == 0) &&
        ts_node_named_child_count(cond) == 2) {
        int sign = cx_has_token(cond, "==") || cx_has_token(cond, "===") ? 1
                   : cx_has_token(cond, "!=") || cx_has_token(cond, "!==") ? -1 : 0;
        TSNode a = ts_node_named_child(cond, 0), b = ts_node_named_child(cond, 1);
        int la = cx_literal_truth(w, a), lb = cx_literal_truth(w, b);
        if (sign == 0 || (la == 0) == (lb == 0)) return 0;
        return sign * (la ? la : lb) * reads_mark(w, la ? b : a, array, counter, depth + 1);
    }
    return 0;
}

bool cx_sieve_guard(const struct cx_walk *w, TSNode inner, TSNode outer, const char *counter) {
    struct mark k = {w, "", 0, false};
    TSNode body = cx_field(inner, "body");
    if (ts_node_is_null(body) || cx_each_node(w, body, find_mark, &k) != CX_VISIT_DONE || k.mixed || !k.array[0]) return false;
    /* Which value of A[counter] lets the inner loop run: +1 true-ish, -1 false-ish. */
    int admitted = 0;
    TSNode child = inner, p = ts_node_parent(inner);
    for (int i = 0; i < CX_ANCESTORS_MAX && admitted == 0 && !ts_node_is_null(p) && !ts_node_eq(child, outer);
         i++, child = p, p = ts_node_parent(p)) {
        if (cx_type_is(p, cx_if_types) && ts_node_eq(cx_field(p, "consequence"), child) &&
            ts_node_is_null(cx_field(p, "alternative")))
            admitted = reads_mark(w, cx_field(p, "condition"), k.array, counter, 0);
        for (TSNode s = ts_node_prev_named_sibling(child); admitted == 0 && !ts_node_is_null(s);
             s = ts_node_prev_named_sibling(s))
            if (cx_type_is(s, cx_if_types) && ts_node_is_null(cx_field(s, "alternative")) &&
                cx_only_continue(w, cx_field(s, "consequence")))
                admitted = -reads_mark(w, cx_field(s, "condition"), k.array, counter, 0);
    }
    /* A sieve runs its inner loop only for a counter not yet marked. */
    return admitted != 0 && admitted != k.value;
}

/* ---- permutations, doubling collections ---- */

/* An integer literal's value (at most 64), or -1. */
static int small_literal(const struct cx_walk *w, TSNode n) {
    struct cx_text t = cx_node_text(w, n);
    if (ts_node_is_null(n) || t.n == 0 || t.n > 2) return -1;
    int v = 0;
    for (size_t i = 0; i < t.n; i++) {
        if (t.s[i] < '0' || t.s[i] > '9') return -1;
        v = v * 10 + (t.s[i] - '0');
    }
    return v <= 64 ? v : -1;
}

int cx_combinatorial_over(const struct cx_walk *w, TSNode loop, int *power) {
    static const char *const calls[] = {"call", "call_expression", NULL};
    TSNode e = cx_iterable(w, loop), args = ts_node_is_null(e) ? e : cx_field(e, "arguments");
    if (ts_node_is_null(e) || !cx_type_is(e, calls) || ts_node_is_null(args)) return CX_COMB_NONE;
    struct cx_text callee = cx_callee(w, e);
    uint32_t c = ts_node_named_child_count(args), positional = 0;
    TSNode r = {0}, repeat = {0};
    for (uint32_t i = 0; i < c; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (strcmp(ts_node_type(a), "keyword_argument") == 0) {
            struct cx_text k = cx_node_text(w, cx_field(a, "name"));
            if (cx_text_is(k, "r")) r = cx_field(a, "value");
            if (cx_text_is(k, "repeat")) repeat = cx_field(a, "value");
        } else if (++positional == 2) {
            r = a;
        }
    }
    bool perm = cx_text_is(callee, "permutations");
    if (perm || cx_text_is(callee, "combinations") || cx_text_is(callee, "combinations_with_replacement")) {
        bool given = !ts_node_is_null(r);
        *power = given ? small_literal(w, r) : -1;
        if (*power >= 0) return CX_COMB_POWER;          /* choose r: n^r */
        /* every order of all n, or of r unknown: n!/(n-r)! <= n!; C(n, r) <= 2^n */
        return perm ? CX_COMB_FACTORIAL : CX_COMB_SUBSETS;
    }
    if (cx_text_is(callee, "product") && positional >= 1) {
        int rep = ts_node_is_null(repeat) ? 1 : small_literal(w, repeat);
        if (rep < 0) return CX_COMB_NPOWN;
        *power = (int)positional * rep;
        return CX_COMB_POWER;
    }
    return CX_COMB_NONE;
}

struct adds {
    const struct cx_walk *w;
    TSNode loop;
    const char *name;
    bool found;
    bool copies;                  /* what is added is a new list built from an old one */
};

/* A node that builds a new list: a list or array literal, a comprehension,
 * a spread, Go's append or a copy/concat/slice call. Each item added to a
 * doubling collection that is such a list costs its length, up to n. */
static bool find_copy(void *ctx, TSNode n) {
    static const char *const builds[] = {"list", "array", "array_expression", "composite_literal", "list_comprehension",
                                         "spread_element", "list_splat", "array_creation_expression", "vec_macro",
                                         "macro_invocation", NULL};
    static const char *const copy_calls[] = {"append", "concat", "copy", "slice", "clone", "to_vec", "list",
                                             "copyOf", "ArrayList", NULL};
    static const char *const calls[] = {"call", "call_expression", "method_invocation", NULL};
    struct adds *a = ctx;
    if (cx_type_is(n, builds)) {
        a->copies = true;
    } else if (strcmp(ts_node_type(n), "object_creation_expression") == 0) { /* Java: new ArrayList<>(old) */
        TSNode args = cx_field(n, "arguments");
        a->copies = !ts_node_is_null(args) && ts_node_named_child_count(args) > 0;
    } else if (cx_type_is(n, calls)) {
        a->copies = cx_in_list(cx_callee(a->w, n), copy_calls);
    }
    return !a->copies;
}

/* An unconditional push onto name inside the loop (and whether what it
 * pushes is a built list). */
static bool find_add(void *ctx, TSNode n) {
    struct adds *a = ctx;
    struct cx_mcall m;
    if (cx_method_call(a->w, n, &m) && cx_same(m.recv, a->name) && cx_in_list(m.method, cx_push_methods) &&
        !cx_text_is(m.method, "heappush") && !cx_between(n, a->loop, cx_conditional_node)) {
        a->found = true;
        if (!ts_node_is_null(m.args)) cx_each_node(a->w, m.args, find_copy, a);
        /* a name the loop built: `s = new ArrayList<>(res.get(i)); res.add(s)` */
        if (!a->copies && !ts_node_is_null(m.args) && ts_node_named_child_count(m.args) == 1 &&
            strcmp(ts_node_type(ts_node_named_child(m.args, 0)), "identifier") == 0)
            cx_each_node(a->w, a->loop, find_copy, a);
    }
    return !a->found;
}

/* Go: `res = append(res, s)` where s was built by append in the loop. */
static bool find_go_append(void *ctx, TSNode n) {
    struct adds *a = ctx;
    TSNode l, r;
    if (!cx_assignment_parts(n, &l, &r) || ts_node_is_null(r) || !cx_same(cx_node_text(a->w, l), a->name) ||
        cx_between(n, a->loop, cx_conditional_node))
        return true;
    char flat[256];
    struct cx_text t = cx_node_text(a->w, r);
    size_t fn = t.n < sizeof flat ? cx_flatten(t, flat, sizeof flat) : 0, nl = strlen(a->name);
    if (fn > 7 + nl && memcmp(flat, "append(", 7) == 0 && memcmp(flat + 7, a->name, nl) == 0 && flat[7 + nl] == ',') {
        a->found = true;
        /* the value appended: built here, or a name the loop body built */
        cx_each_node(a->w, a->loop, find_copy, a);
    }
    return !a->found;
}

/* The comprehension's value is added back to name: `res += [... for r in
 * res]`, `res = res + [...]`, `res.extend(...)`. */
static bool fed_back(const struct cx_walk *w, TSNode comp, const char *name) {
    TSNode p = ts_node_parent(comp);
    for (int i = 0; i < 3 && !ts_node_is_null(p); i++, p = ts_node_parent(p)) {
        TSNode l, r;
        struct cx_mcall m;
        if (cx_assignment_parts(p, &l, &r)) return cx_same(cx_node_text(w, l), name);
        if (cx_method_call(w, p, &m)) return cx_same(m.recv, name) && cx_text_is(m.method, "extend");
    }
    return false;
}

struct size_source {
    const struct cx_walk *w;
    const char *bound;
    struct cx_idents sources;
};

/* k = out.length, k = len(out), k := len(out): the names k is set from. */
static bool find_size_source(void *ctx, TSNode n) {
    struct size_source *s = ctx;
    TSNode l, r;
    if (cx_assignment_parts(n, &l, &r) && !ts_node_is_null(r) && cx_same(cx_node_text(s->w, l), s->bound)) {
        struct cx_text t = cx_node_text(s->w, r);
        if (cx_has_word(t.s, t.n, "length") || cx_has_word(t.s, t.n, "len") || cx_has_word(t.s, t.n, "size"))
            cx_each_node(s->w, r, cx_collect_identifiers, &s->sources);
    }
    return true;
}

static bool grows(const struct cx_walk *w, TSNode loop, const char *c, char *name, size_t cap, bool *copies) {
    struct adds a = {w, loop, c, false, false};
    cx_each_node(w, loop, find_add, &a);
    if (!a.found) cx_each_node(w, loop, find_go_append, &a);
    if (!a.found && cx_is_comprehension_loop(ts_node_type(loop)) && fed_back(w, loop, c)) {
        a.found = true;
        TSNode body = cx_field(loop, "body");
        if (!ts_node_is_null(body)) cx_each_node(w, body, find_copy, &a);
    }
    if (a.found) {
        snprintf(name, cap, "%s", c);
        *copies = a.copies;
    }
    return a.found;
}

bool cx_growing_collection(const struct cx_walk *w, TSNode loop, char *name, size_t cap, bool *copies) {
    if (w->nnloops == 0) return false;
    TSNode outer = w->nloops[w->nnloops - 1];
    TSNode over = cx_is_comprehension_loop(ts_node_type(loop)) ? cx_iterable(w, cx_first_for_clause(loop))
                                                               : cx_iterable(w, loop);
    struct cx_idents cw = {w, {{{0}}, 0}};
    if (!ts_node_is_null(over)) { /* for r in res[:] / list(res) / [...res] */
        if (cx_each_node(w, over, cx_collect_identifiers, &cw) != CX_VISIT_DONE) return false;
        for (size_t i = 0; i < cw.names.n; i++)
            if (grows(w, loop, cw.names.v[i], name, cap, copies)) return true;
        return false;
    }
    TSNode cond = cx_loop_condition(loop);
    if (ts_node_is_null(cond) || cx_each_node(w, cond, cx_collect_identifiers, &cw) != CX_VISIT_DONE) return false;
    for (size_t i = 0; i < cw.names.n; i++) { /* i < k, k = out.length in the outer loop */
        struct size_source s = {w, cw.names.v[i], {w, {{{0}}, 0}}};
        cx_each_node(w, outer, find_size_source, &s);
        for (size_t j = 0; j < s.sources.names.n; j++)
            if (grows(w, loop, s.sources.names.v[j], name, cap, copies)) return true;
    }
    return false;
}
#endif
