/* Amortised inner loops (docs/analysis.md "amortized_stack",
 * "graph_traversal", "unguarded_worklist"): a while loop popping a stack
 * the loop around it pushes at most a fixed number of times per
 * iteration, and a loop over a vertex's neighbours inside a worklist loop.
 * Each rule names the collection it reasons about and checks every call
 * and assignment that changes it, through the tree. */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/refine_tree.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* ---- monotonic stack ---- */
struct pop_find {
    const struct cx_walk *w;
    TSNode body;
    char name[CX_NAME_LEN];
};

/* An unconditional pop in the loop's body: s.pop(), s = s[:-1]. */
static bool find_pop(void *ctx, TSNode n) {
    struct pop_find *p = ctx;
    struct cx_mcall m;
    TSNode l, r;
    struct cx_text s = {"", 0};
    if (cx_method_call(p->w, n, &m) && cx_in_list(m.method, cx_pop_methods) && !cx_text_is(m.method, "remove")) s = m.recv;
    else if (cx_assignment_parts(n, &l, &r) && !ts_node_is_null(r) && cx_is_name(cx_node_text(p->w, l))) {
        char name[CX_NAME_LEN];
        struct cx_text t = cx_node_text(p->w, l);
        snprintf(name, sizeof name, "%.*s", (int)t.n, t.s);
        if (cx_slice_of(p->w, r, name)) s = t;
    }
    if (!cx_is_name(s) || cx_between(n, p->body, cx_conditional_node)) return true;
    snprintf(p->name, sizeof p->name, "%.*s", (int)s.n, s.s);
    return false;
}

struct stack_use {
    const struct cx_walk *w;
    TSNode outer, inner;
    const char *name;
    bool ok;
};

/* Every change to the stack in the outer loop: pushes at most once per
 * outer iteration (not in a nested loop, not in the popping loop), pops,
 * reads, shrinking slices and resets; anything else voids the rule. */
static bool check_stack_use(void *ctx, TSNode n) {
    struct stack_use *u = ctx;
    struct cx_mcall m;
    TSNode l, r;
    if (cx_method_call(u->w, n, &m) && cx_same(m.recv, u->name)) {
        if (cx_in_list(m.method, cx_push_methods))
            u->ok = !cx_inside(n, u->inner) && !cx_between(n, u->outer, cx_loop_node);
        else
            u->ok = cx_in_list(m.method, cx_pop_methods) || cx_in_list(m.method, cx_read_methods);
    } else if (cx_assignment_parts(n, &l, &r) && cx_same(cx_node_text(u->w, l), u->name)) {
        if (!cx_type_is(n, cx_assignment_types) || strncmp(ts_node_type(n), "augmented", 9) == 0 || ts_node_is_null(r))
            u->ok = false;
        else if (cx_slice_of(u->w, r, u->name) || ts_node_named_child_count(r) == 0)
            u->ok = true;
        else if (cx_method_call(u->w, r, &m) && cx_text_is(m.method, "append") && !ts_node_is_null(m.args) &&
                 ts_node_named_child_count(m.args) == 2 &&
                 cx_same(cx_node_text(u->w, ts_node_named_child(m.args, 0)), u->name) &&
                 !cx_has_text(cx_node_text(u->w, m.args).s, cx_node_text(u->w, m.args).n, "..."))
            u->ok = !cx_inside(n, u->inner) && !cx_between(n, u->outer, cx_loop_node); /* Go: s = append(s, x) */
        else
            u->ok = false;
    }
    return u->ok;
}

bool cx_amortized_stack(const struct cx_walk *w, TSNode loop, char *name, size_t cap) {
    if (w->nnloops == 0 || !cx_while_like(loop)) return false;
    TSNode body = cx_field(loop, "body"), cond = cx_loop_condition(loop);
    if (ts_node_is_null(body)) body = ts_node_named_child(loop, ts_node_named_child_count(loop) - 1);
    if (ts_node_is_null(body) || ts_node_is_null(cond)) return false;
    struct pop_find p = {w, body, ""};
    if (cx_each_node(w, body, find_pop, &p) != CX_VISIT_STOPPED || !p.name[0]) return false;
    struct cx_text c = cx_node_text(w, cond);
    if (!cx_has_word(c.s, c.n, p.name)) return false;
    struct stack_use u = {w, w->nloops[w->nnloops - 1], loop, p.name, true};
    if (cx_each_node(w, u.outer, check_stack_use, &u) != CX_VISIT_DONE) return false;
    snprintf(name, cap, "%s", p.name);
    return true;
}

/* ---- graph traversal ---- */
/* The vertex whose neighbours e lists: g[u], g[u].items(), adj.get(u),
 * g.neighbors(u). */
static struct cx_text neighbours_of(const struct cx_walk *w, TSNode e) {
    static const char *const views[] = {"items", "keys", "values", NULL};
    static const char *const lookups[] = {"get", "getOrDefault", "at", "neighbors", "successors", "adj", NULL};
    struct cx_text none = {"", 0}, obj;
    for (int hop = 0; hop < 4 && !ts_node_is_null(e); hop++) {
        struct cx_mcall m;
        TSNode idx;
        /* g.get(u) || [], g.get(u) ?? [], g.get(u) or []: the lookup */
        if ((strcmp(ts_node_type(e), "binary_expression") == 0 &&
             (cx_has_token(e, "||") || cx_has_token(e, "??"))) ||
            (strcmp(ts_node_type(e), "boolean_operator") == 0 && cx_has_token(e, "or"))) {
            e = ts_node_named_child(e, 0);
            continue;
        }
        if (cx_subscript_parts(w, e, &obj, &idx)) {
            struct cx_text v = cx_node_text(w, idx);
            return cx_is_name(v) ? v : none;
        }
        if (!cx_method_call(w, e, &m) || ts_node_is_null(m.args)) return none;
        if (cx_in_list(m.method, lookups) && ts_node_named_child_count(m.args) >= 1) {
            struct cx_text v = cx_node_text(w, ts_node_named_child(m.args, 0));
            return cx_is_name(v) ? v : none;
        }
        if (!cx_in_list(m.method, views)) return none;
        e = cx_field(cx_field(e, "function"), "object");
    }
    return none;
}

/* A literal operand: a number, a boolean, None/null, or a negated number. */
static bool literal_operand(TSNode n) {
    static const char *const lits[] = {"integer", "float", "number", "number_literal", "int_literal",
        "decimal_integer_literal", "float_literal", "true", "false", "none", "null", "nil", NULL};
    if (cx_type_is(n, lits)) return true;
    return strcmp(ts_node_type(n), "unary_expression") == 0 && ts_node_named_child_count(n) == 1 &&
           cx_type_is(ts_node_named_child(n, 0), lits);
}

/* An ordering comparison of two computed values (`nd < dist[v]`, `d + w <
 * best.get(v, inf)`): a guard that lets a vertex in again each time its
 * value improves (Dijkstra's relaxation), not once. */
static bool improving_test(void *ctx, TSNode n) {
    (void)ctx;
    static const char *const cmps[] = {"binary_expression", "comparison_operator", NULL};
    if (!cx_type_is(n, cmps) || ts_node_named_child_count(n) != 2) return true;
    bool order = cx_has_token(n, "<") || cx_has_token(n, ">") || cx_has_token(n, "<=") || cx_has_token(n, ">=");
    return !(order && !literal_operand(ts_node_named_child(n, 0)) && !literal_operand(ts_node_named_child(n, 1)));
}

struct worklist {
    const struct cx_walk *w;
    TSNode outer, inner;
    struct cx_text vertex;
    const char *q;
    bool taken, popped, pushes_ok, pop_guard, improving;
};

static bool mentions_q(const struct worklist *k, TSNode n) {
    struct cx_text t = cx_node_text(k->w, n);
    return cx_has_word(t.s, t.n, k->q);
}

/* Reads the outer loop: u taken from the worklist, the worklist popped,
 * pushes in the neighbour loop under a tracking guard, or a tracking
 * guard at the pop (`if u in seen: continue`). */
static bool read_worklist(void *ctx, TSNode n) {
    struct worklist *k = ctx;
    TSNode l, r, idx;
    struct cx_mcall m;
    struct cx_text obj;
    bool in_inner = cx_inside(n, k->inner);
    if (!in_inner && cx_assignment_parts(n, &l, &r) && !ts_node_is_null(r) && mentions_q(k, r)) {
        struct cx_text lt = cx_node_text(k->w, l);
        char v[CX_NAME_LEN];
        snprintf(v, sizeof v, "%.*s", (int)k->vertex.n, k->vertex.s);
        if (cx_has_word(lt.s, lt.n, v)) k->taken = true;
        if (cx_same(lt, k->q) && cx_slice_of(k->w, r, k->q)) k->popped = true; /* Go: q = q[1:] */
    }
    if (cx_method_call(k->w, n, &m) && cx_same(m.recv, k->q)) {
        if (cx_in_list(m.method, cx_pop_methods)) k->popped = true;
        if (in_inner && cx_in_list(m.method, cx_push_methods)) {
            TSNode g = cx_enclosing_if(n, k->inner);
            if (ts_node_is_null(g) || !cx_guard_tracks(k->w, cx_field(g, "condition"), k->outer)) k->pushes_ok = false;
            else if (cx_each_node(k->w, cx_field(g, "condition"), improving_test, NULL) != CX_VISIT_DONE) k->improving = true;
        }
    }
    if (cx_subscript_parts(k->w, n, &obj, &idx) && cx_same(obj, k->q)) { /* queue[head++] */
        struct cx_text it = cx_node_text(k->w, idx);
        if (cx_has_text(it.s, it.n, "++")) k->popped = true;
    }
    if (in_inner && cx_assignment_parts(n, &l, &r) && cx_same(cx_node_text(k->w, l), k->q)) { /* q = append(q, v) */
        TSNode g = cx_enclosing_if(n, k->inner);
        if (ts_node_is_null(g) || !cx_guard_tracks(k->w, cx_field(g, "condition"), k->outer)) k->pushes_ok = false;
        else if (cx_each_node(k->w, cx_field(g, "condition"), improving_test, NULL) != CX_VISIT_DONE) k->improving = true;
    }
    if (!in_inner && cx_type_is(n, cx_if_types) && ts_node_end_byte(n) <= ts_node_start_byte(k->inner)) {
        struct cx_text t = cx_node_text(k->w, cx_field(n, "consequence"));
        if (cx_has_word(t.s, t.n, "continue") && cx_guard_tracks(k->w, cx_field(n, "condition"), k->outer))
            k->pop_guard = true;
    }
    return true;
}

int cx_adjacency_loop(const struct cx_walk *w, TSNode loop, char *name, size_t cap) {
    if (w->nnloops == 0) return 0;
    TSNode outer = w->nloops[w->nnloops - 1];
    TSNode e = cx_iterable(w, loop), cond = cx_loop_condition(outer);
    if (ts_node_is_null(e) || ts_node_is_null(cond) || !cx_while_like(outer)) return 0;
    struct cx_text v = neighbours_of(w, e);
    if (v.n == 0) return 0;
    struct cx_idents cw = {w, {{{0}}, 0}};
    if (cx_each_node(w, cond, cx_collect_identifiers, &cw) != CX_VISIT_DONE) return 0;
    for (size_t i = 0; i < cw.names.n; i++) {
        struct worklist k = {w, outer, loop, v, cw.names.v[i], false, false, true, false, false};
        if (cx_each_node(w, outer, read_worklist, &k) != CX_VISIT_DONE || !k.taken || !k.popped) continue;
        snprintf(name, cap, "%s", k.q);
        /* pushed once per vertex, or skipped at the pop once seen; a vertex
         * pushed again at each improvement and re-scanned at each pop (no
         * stale check) may cost its edges once per improvement: no claim */
        if (k.pop_guard || (k.pushes_ok && !k.improving)) return 1;
        return k.pushes_ok ? 0 : 2;
    }
    return 0;
}
#endif
