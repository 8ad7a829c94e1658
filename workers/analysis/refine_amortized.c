/* The refinement rules that read the tree rather than a loop's flattened
 * text (docs/analysis.md "Refinements"): amortised loops (a monotonic
 * stack's pops, a graph traversal's neighbour loops), a sieve's guard, a
 * loop over permutations, a collection that doubles, and the shapes of
 * self-calls made inside a loop (DFS, backtracking, subsets).
 *
 * Every rule names the collection it reasons about and checks how the
 * code changes it through the tree's calls and assignments: receivers,
 * method names, subscripts, and which conditions and loops stand between
 * a node and the loop it belongs to. Subtrees are visited with a cursor,
 * never by recursion, and ancestor walks are bounded. */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* A subtree larger than this is not examined (the rule then makes no
 * claim), which bounds the work per loop. */
#define SUBTREE_MAX 65536
#define ANCESTORS_MAX 512

static const char *const push_methods[] = {"append", "push", "add", "addLast", "addFirst", "offer", "offerLast",
    "offerFirst", "push_back", "push_front", "emplace_back", "emplace", "unshift", "appendleft", "heappush", NULL};
static const char *const pop_methods[] = {"pop", "pollLast", "pollFirst", "poll", "removeLast", "removeFirst",
    "pop_back", "pop_front", "popleft", "shift", "heappop", "remove", NULL};
static const char *const read_methods[] = {"peek", "top", "isEmpty", "empty", "size", "length", "len", "back",
    "front", "get", "peekLast", "peekFirst", "getLast", "getFirst", "element", "at", "count", "index", NULL};
static const char *const mark_methods[] = {"add", "put", "set", "insert", "append", "push", "emplace", NULL};
static const char *const unmark_methods[] = {"remove", "discard", "delete", "erase", "pop", "clear", NULL};
static const char *const assignments[] = {"assignment", "assignment_expression", "assignment_statement",
    "augmented_assignment", "augmented_assignment_expression", "update_expression", "inc_statement",
    "dec_statement", NULL};
static const char *const declarations[] = {"short_var_declaration", "variable_declarator", "init_declarator",
    "lexical_declaration", "let_declaration", NULL};
static const char *const subscripts[] = {"subscript", "subscript_expression", "index_expression", "array_access",
    "element_reference", NULL};
static const char *const ifs[] = {"if_statement", "if_expression", NULL};

/* ---- small tree helpers ---- */

/* each_node's outcomes. */
enum { VISIT_STOPPED = 0, VISIT_DONE = 1, VISIT_NO_CLAIM = -1 };

/* Visit every named node of root's subtree, root first, until fn says
 * stop (VISIT_STOPPED) or all are seen (VISIT_DONE). A subtree larger than
 * SUBTREE_MAX, or the walk's visit budget running out (many loops in one
 * large loop), gives VISIT_NO_CLAIM: the rule then claims nothing, which
 * leaves the loop counted as a factor n. */
static int each_node(const struct cx_walk *w, TSNode root, bool (*fn)(void *, TSNode), void *ctx) {
    if (ts_node_end_byte(root) - ts_node_start_byte(root) > SUBTREE_MAX) return VISIT_NO_CLAIM;
    TSTreeCursor c = ts_tree_cursor_new(root);
    int out = VISIT_DONE;
    for (;;) {
        if (*w->visits_left <= 0) {
            out = VISIT_NO_CLAIM;
            break;
        }
        --*w->visits_left;
        TSNode n = ts_tree_cursor_current_node(&c);
        if (ts_node_is_named(n) && !fn(ctx, n)) {
            out = VISIT_STOPPED;
            break;
        }
        if (ts_tree_cursor_goto_first_child(&c)) continue;
        bool done = false;
        while (!ts_tree_cursor_goto_next_sibling(&c))
            if (!ts_tree_cursor_goto_parent(&c) || ts_node_eq(ts_tree_cursor_current_node(&c), root)) {
                done = true;
                break;
            }
        if (done) break;
    }
    ts_tree_cursor_delete(&c);
    return out;
}

static bool inside(TSNode n, TSNode outer) {
    return ts_node_start_byte(n) >= ts_node_start_byte(outer) && ts_node_end_byte(n) <= ts_node_end_byte(outer) &&
           !ts_node_eq(n, outer);
}

static bool is_word(struct cx_text t) { return t.n > 0 && t.n < CX_NAME_LEN && cx_word_len(t.s, t.n, 0) == t.n; }

static bool same(struct cx_text t, const char *name) { return t.n == strlen(name) && memcmp(t.s, name, t.n) == 0; }

/* An operator child (`&&`, `||`, `!`, `not`) of n. */
bool cx_has_token(TSNode n, const char *op) {
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_child(n, i);
        if (!ts_node_is_named(k) && strcmp(ts_node_type(k), op) == 0) return true;
    }
    return false;
}

/* A node that runs its parts only sometimes: a branch, a short-circuit, a
 * loop, a function body, a handler. */
static bool conditional_node(TSNode p) {
    static const char *const types[] = {"if_statement", "if_expression", "conditional_expression",
        "ternary_expression", "elif_clause", "else_clause", "boolean_operator", "switch_statement",
        "match_statement", "case_clause", "expression_case", "switch_case", "switch_block_statement_group",
        "expression_switch_statement", "try_statement", "catch_clause", "except_clause", "if_clause", NULL};
    const char *t = ts_node_type(p);
    if (cx_type_is(p, types) || cx_is_loop_type(t) || cx_is_function_type(t)) return true;
    return strcmp(t, "binary_expression") == 0 && (cx_has_token(p, "&&") || cx_has_token(p, "||"));
}

/* Does a node of that kind stand between n and top (exclusive)? */
static bool between(TSNode n, TSNode top, bool (*kind)(TSNode)) {
    TSNode p = ts_node_parent(n);
    for (int i = 0; i < ANCESTORS_MAX && !ts_node_is_null(p) && !ts_node_eq(p, top); i++, p = ts_node_parent(p))
        if (kind(p)) return true;
    return false;
}

static bool loop_node(TSNode p) { return cx_is_loop_type(ts_node_type(p)) || cx_is_function_type(ts_node_type(p)); }

/* A call's receiver and method: `s.pop()`, `st.push(i)`, `heapq.heappop(pq)`
 * (a heap function's receiver is its first argument), `pop(s)`. */
struct mcall {
    struct cx_text recv, method;
    TSNode args;
};

static bool method_call(const struct cx_walk *w, TSNode call, struct mcall *m) {
    static const char *const members[][3] = {{"attribute", "object", "attribute"},
        {"member_expression", "object", "property"}, {"selector_expression", "operand", "field"},
        {"field_expression", "argument", "field"}};
    static const char *const heapfns[] = {"heappush", "heappop", "heapreplace", "heappushpop", NULL};
    static const char *const calls[] = {"call", "call_expression", "method_invocation", NULL};
    if (!cx_type_is(call, calls)) return false;
    *m = (struct mcall){{"", 0}, {"", 0}, cx_field(call, "arguments")};
    TSNode f = cx_field(call, "function"), obj = cx_field(call, "object");
    if (!ts_node_is_null(obj)) { /* java */
        m->recv = cx_node_text(w, obj);
        m->method = cx_node_text(w, cx_field(call, "name"));
    } else if (!ts_node_is_null(f)) {
        m->method = cx_node_text(w, f);
        for (size_t i = 0; i < sizeof members / sizeof *members; i++)
            if (strcmp(ts_node_type(f), members[i][0]) == 0) {
                m->recv = cx_node_text(w, cx_field(f, members[i][1]));
                m->method = cx_node_text(w, cx_field(f, members[i][2]));
            }
    }
    if (cx_in_list(m->method, heapfns) && !ts_node_is_null(m->args) && ts_node_named_child_count(m->args) > 0)
        m->recv = cx_node_text(w, ts_node_named_child(m->args, 0));
    return m->method.n > 0;
}

/* The object and index of a subscript node. */
static bool subscript_parts(const struct cx_walk *w, TSNode n, struct cx_text *obj, TSNode *index) {
    static const char *const objf[] = {"value", "object", "argument", "operand", "array", NULL};
    if (!cx_type_is(n, subscripts)) return false;
    TSNode o = {0};
    for (const char *const *f = objf; *f && ts_node_is_null(o); f++) o = cx_field(n, *f);
    if (ts_node_is_null(o)) o = ts_node_named_child(n, 0);
    *index = cx_field(n, "index");
    if (ts_node_is_null(*index)) *index = cx_field(n, "subscript");
    if (ts_node_is_null(*index) && ts_node_named_child_count(n) > 1) *index = ts_node_named_child(n, 1);
    *obj = cx_node_text(w, o);
    return !ts_node_is_null(*index);
}

/* A slice of the collection name: python `s[:-1]`, `s[1:]`, Go `s[:len(s)-1]`. */
static bool slice_of(const struct cx_walk *w, TSNode v, const char *name) {
    if (ts_node_is_null(v)) return false;
    if (strcmp(ts_node_type(v), "slice_expression") == 0) return same(cx_node_text(w, cx_field(v, "operand")), name);
    struct cx_text obj;
    TSNode idx;
    return strcmp(ts_node_type(v), "subscript") == 0 && subscript_parts(w, v, &obj, &idx) && same(obj, name) &&
           strcmp(ts_node_type(idx), "slice") == 0;
}

/* The target and value of an assignment or declaration (Go's and python's
 * single-name lists unwrapped). */
static bool assignment_parts(TSNode n, TSNode *left, TSNode *right) {
    static const char *const lf[] = {"left", "name", "declarator", "pattern", NULL};
    static const char *const rf[] = {"right", "value", NULL};
    if (!cx_type_is(n, assignments) && !cx_type_is(n, declarations)) return false;
    *left = *right = (TSNode){0};
    for (const char *const *f = lf; *f && ts_node_is_null(*left); f++) *left = cx_field(n, *f);
    for (const char *const *f = rf; *f && ts_node_is_null(*right); f++) *right = cx_field(n, *f);
    if (ts_node_is_null(*left) && ts_node_named_child_count(n) > 0) *left = ts_node_named_child(n, 0);
    if (!ts_node_is_null(*left) && strcmp(ts_node_type(*left), "expression_list") == 0 &&
        ts_node_named_child_count(*left) == 1)
        *left = ts_node_named_child(*left, 0);
    if (!ts_node_is_null(*right) && strcmp(ts_node_type(*right), "expression_list") == 0 &&
        ts_node_named_child_count(*right) == 1)
        *right = ts_node_named_child(*right, 0);
    return !ts_node_is_null(*left);
}

/* ---- monotonic stack ---- */

static bool while_like(TSNode loop) {
    static const char *const whiles[] = {"while_statement", "while_expression", "do_statement", NULL};
    if (cx_type_is(loop, whiles)) return true;
    if (strcmp(ts_node_type(loop), "for_statement") != 0 || !ts_node_is_null(cx_field(loop, "left")) ||
        !ts_node_is_null(cx_field(loop, "initializer")) || !ts_node_is_null(cx_field(loop, "update")))
        return false;
    uint32_t k = ts_node_named_child_count(loop);
    for (uint32_t i = 0; i < k; i++) {
        const char *t = ts_node_type(ts_node_named_child(loop, i));
        if (strcmp(t, "for_clause") == 0 || strcmp(t, "range_clause") == 0) return false;
    }
    return !ts_node_is_null(cx_loop_condition(loop));
}

struct pop_find {
    const struct cx_walk *w;
    TSNode body;
    char name[CX_NAME_LEN];
};

/* An unconditional pop in the loop's body: s.pop(), s = s[:-1]. */
static bool find_pop(void *ctx, TSNode n) {
    struct pop_find *p = ctx;
    struct mcall m;
    TSNode l, r;
    struct cx_text s = {"", 0};
    if (method_call(p->w, n, &m) && cx_in_list(m.method, pop_methods) && !cx_text_is(m.method, "remove")) s = m.recv;
    else if (assignment_parts(n, &l, &r) && !ts_node_is_null(r) && is_word(cx_node_text(p->w, l))) {
        char name[CX_NAME_LEN];
        struct cx_text t = cx_node_text(p->w, l);
        snprintf(name, sizeof name, "%.*s", (int)t.n, t.s);
        if (slice_of(p->w, r, name)) s = t;
    }
    if (!is_word(s) || between(n, p->body, conditional_node)) return true;
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
    struct mcall m;
    TSNode l, r;
    if (method_call(u->w, n, &m) && same(m.recv, u->name)) {
        if (cx_in_list(m.method, push_methods))
            u->ok = !inside(n, u->inner) && !between(n, u->outer, loop_node);
        else
            u->ok = cx_in_list(m.method, pop_methods) || cx_in_list(m.method, read_methods);
    } else if (assignment_parts(n, &l, &r) && same(cx_node_text(u->w, l), u->name)) {
        if (!cx_type_is(n, assignments) || strncmp(ts_node_type(n), "augmented", 9) == 0 || ts_node_is_null(r))
            u->ok = false;
        else if (slice_of(u->w, r, u->name) || ts_node_named_child_count(r) == 0)
            u->ok = true;
        else if (method_call(u->w, r, &m) && cx_text_is(m.method, "append") && !ts_node_is_null(m.args) &&
                 ts_node_named_child_count(m.args) == 2 &&
                 same(cx_node_text(u->w, ts_node_named_child(m.args, 0)), u->name) &&
                 !cx_has_text(cx_node_text(u->w, m.args).s, cx_node_text(u->w, m.args).n, "..."))
            u->ok = !inside(n, u->inner) && !between(n, u->outer, loop_node); /* Go: s = append(s, x) */
        else
            u->ok = false;
    }
    return u->ok;
}

bool cx_amortized_stack(const struct cx_walk *w, TSNode loop, char *name, size_t cap) {
    if (w->nnloops == 0 || !while_like(loop)) return false;
    TSNode body = cx_field(loop, "body"), cond = cx_loop_condition(loop);
    if (ts_node_is_null(body)) body = ts_node_named_child(loop, ts_node_named_child_count(loop) - 1);
    if (ts_node_is_null(body) || ts_node_is_null(cond)) return false;
    struct pop_find p = {w, body, ""};
    if (each_node(w, body, find_pop, &p) != VISIT_STOPPED || !p.name[0]) return false;
    struct cx_text c = cx_node_text(w, cond);
    if (!cx_has_word(c.s, c.n, p.name)) return false;
    struct stack_use u = {w, w->nloops[w->nnloops - 1], loop, p.name, true};
    if (each_node(w, u.outer, check_stack_use, &u) != VISIT_DONE) return false;
    snprintf(name, cap, "%s", p.name);
    return true;
}

/* ---- graph traversal ---- */

/* What a for-each loop iterates over (C: the pointer its initializer sets). */
static TSNode iterable(const struct cx_walk *w, TSNode loop) {
    (void)w;
    TSNode e = cx_field(loop, "right");
    if (ts_node_is_null(e)) e = cx_field(loop, "value");
    uint32_t k = ts_node_named_child_count(loop);
    for (uint32_t i = 0; ts_node_is_null(e) && i < k; i++) {
        TSNode ch = ts_node_named_child(loop, i);
        if (strcmp(ts_node_type(ch), "range_clause") == 0) e = cx_field(ch, "right");
    }
    TSNode init = cx_field(loop, "initializer");
    if (ts_node_is_null(e) && !ts_node_is_null(init)) {
        TSNode l, r;
        if (strcmp(ts_node_type(init), "declaration") == 0) init = cx_field(init, "declarator");
        if (!ts_node_is_null(init) && assignment_parts(init, &l, &r)) e = r;
    }
    return e;
}

/* The vertex whose neighbours e lists: g[u], g[u].items(), adj.get(u),
 * g.neighbors(u). */
static struct cx_text neighbours_of(const struct cx_walk *w, TSNode e) {
    static const char *const views[] = {"items", "keys", "values", NULL};
    static const char *const lookups[] = {"get", "getOrDefault", "at", "neighbors", "successors", "adj", NULL};
    struct cx_text none = {"", 0}, obj;
    for (int hop = 0; hop < 4 && !ts_node_is_null(e); hop++) {
        struct mcall m;
        TSNode idx;
        /* g.get(u) || [], g.get(u) ?? [], g.get(u) or []: the lookup */
        if ((strcmp(ts_node_type(e), "binary_expression") == 0 &&
             (cx_has_token(e, "||") || cx_has_token(e, "??"))) ||
            (strcmp(ts_node_type(e), "boolean_operator") == 0 && cx_has_token(e, "or"))) {
            e = ts_node_named_child(e, 0);
            continue;
        }
        if (subscript_parts(w, e, &obj, &idx)) {
            struct cx_text v = cx_node_text(w, idx);
            return is_word(v) ? v : none;
        }
        if (!method_call(w, e, &m) || ts_node_is_null(m.args)) return none;
        if (cx_in_list(m.method, lookups) && ts_node_named_child_count(m.args) >= 1) {
            struct cx_text v = cx_node_text(w, ts_node_named_child(m.args, 0));
            return is_word(v) ? v : none;
        }
        if (!cx_in_list(m.method, views)) return none;
        e = cx_field(cx_field(e, "function"), "object");
    }
    return none;
}

/* The collections a guard condition consults: M[v], v in M, M.get(v),
 * M.has(v), M.contains(v). */
struct guard_names {
    const struct cx_walk *w;
    struct cx_names names;
};

static bool collect_guard_names(void *ctx, TSNode n) {
    static const char *const lookups[] = {"get", "has", "contains", "containsKey", "count", "find", "getOrDefault",
        NULL};
    struct guard_names *g = ctx;
    struct cx_text obj;
    TSNode idx;
    struct mcall m;
    if (subscript_parts(g->w, n, &obj, &idx)) cx_remember(&g->names, obj);
    else if (method_call(g->w, n, &m) && cx_in_list(m.method, lookups)) cx_remember(&g->names, m.recv);
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
struct written {
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

static bool params_only(const struct cx_walk *w, TSNode idx, const struct cx_names *params);

static bool find_write(void *ctx, TSNode n) {
    struct written *s = ctx;
    TSNode l, r, idx = {0};
    struct cx_text obj;
    struct mcall m;
    bool hit = false;
    if (cx_type_is(n, assignments) && assignment_parts(n, &l, &r)) {
        if (strcmp(ts_node_type(l), "expression_list") == 0 && ts_node_named_child_count(l) > 0)
            l = ts_node_named_child(l, 0);
        if (subscript_parts(s->w, l, &obj, &idx)) {
            char flat[CX_NAME_LEN];
            size_t fn = cx_flatten(obj, flat, sizeof flat);
            hit = cx_mentions(s->names, flat, fn) && cx_word_len(flat, fn, 0) == fn;
        }
    } else if (method_call(s->w, n, &m) && cx_in_list(m.method, mark_methods)) {
        for (size_t i = 0; i < s->names->n && !hit; i++) hit = same(m.recv, s->names->v[i]);
        idx = ts_node_is_null(m.args) || ts_node_named_child_count(m.args) != 1 ? (TSNode){0}
                                                                                : ts_node_named_child(m.args, 0);
    }
    if (hit && s->params)
        hit = !ts_node_is_null(idx) && !between(n, s->fn, conditional_node) && params_only(s->w, idx, s->params);
    s->found = hit;
    return !s->found;
}

/* A guard that admits each vertex a bounded number of times: its
 * condition consults a collection the scope writes (visited, dist,
 * indegree). */
static bool guard_tracks(const struct cx_walk *w, TSNode cond, TSNode scope) {
    struct guard_names g = {w, {{{0}}, 0}};
    if (ts_node_is_null(cond) || each_node(w, cond, collect_guard_names, &g) != VISIT_DONE || g.names.n == 0)
        return false;
    struct written s = {.w = w, .names = &g.names};
    each_node(w, scope, find_write, &s);
    return s.found;
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

static TSNode enclosing_if(TSNode n, TSNode top) {
    TSNode p = ts_node_parent(n);
    for (int i = 0; i < ANCESTORS_MAX && !ts_node_is_null(p) && !ts_node_eq(p, top); i++, p = ts_node_parent(p))
        if (cx_type_is(p, ifs)) return p;
    return (TSNode){0};
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
    struct mcall m;
    struct cx_text obj;
    bool in_inner = inside(n, k->inner);
    if (!in_inner && assignment_parts(n, &l, &r) && !ts_node_is_null(r) && mentions_q(k, r)) {
        struct cx_text lt = cx_node_text(k->w, l);
        char v[CX_NAME_LEN];
        snprintf(v, sizeof v, "%.*s", (int)k->vertex.n, k->vertex.s);
        if (cx_has_word(lt.s, lt.n, v)) k->taken = true;
        if (same(lt, k->q) && slice_of(k->w, r, k->q)) k->popped = true; /* Go: q = q[1:] */
    }
    if (method_call(k->w, n, &m) && same(m.recv, k->q)) {
        if (cx_in_list(m.method, pop_methods)) k->popped = true;
        if (in_inner && cx_in_list(m.method, push_methods)) {
            TSNode g = enclosing_if(n, k->inner);
            if (ts_node_is_null(g) || !guard_tracks(k->w, cx_field(g, "condition"), k->outer)) k->pushes_ok = false;
            else if (each_node(k->w, cx_field(g, "condition"), improving_test, NULL) != VISIT_DONE) k->improving = true;
        }
    }
    if (subscript_parts(k->w, n, &obj, &idx) && same(obj, k->q)) { /* queue[head++] */
        struct cx_text it = cx_node_text(k->w, idx);
        if (cx_has_text(it.s, it.n, "++")) k->popped = true;
    }
    if (in_inner && assignment_parts(n, &l, &r) && same(cx_node_text(k->w, l), k->q)) { /* q = append(q, v) */
        TSNode g = enclosing_if(n, k->inner);
        if (ts_node_is_null(g) || !guard_tracks(k->w, cx_field(g, "condition"), k->outer)) k->pushes_ok = false;
        else if (each_node(k->w, cx_field(g, "condition"), improving_test, NULL) != VISIT_DONE) k->improving = true;
    }
    if (!in_inner && cx_type_is(n, ifs) && ts_node_end_byte(n) <= ts_node_start_byte(k->inner)) {
        struct cx_text t = cx_node_text(k->w, cx_field(n, "consequence"));
        if (cx_has_word(t.s, t.n, "continue") && guard_tracks(k->w, cx_field(n, "condition"), k->outer))
            k->pop_guard = true;
    }
    return true;
}

struct cond_words {
    const struct cx_walk *w;
    struct cx_names names;
};

static bool collect_identifiers(void *ctx, TSNode n) {
    struct cond_words *c = ctx;
    if (strcmp(ts_node_type(n), "identifier") == 0) cx_remember(&c->names, cx_node_text(c->w, n));
    return true;
}

int cx_adjacency_loop(const struct cx_walk *w, TSNode loop, char *name, size_t cap) {
    if (w->nnloops == 0) return 0;
    TSNode outer = w->nloops[w->nnloops - 1];
    TSNode e = iterable(w, loop), cond = cx_loop_condition(outer);
    if (ts_node_is_null(e) || ts_node_is_null(cond) || !while_like(outer)) return 0;
    struct cx_text v = neighbours_of(w, e);
    if (v.n == 0) return 0;
    struct cond_words cw = {w, {{{0}}, 0}};
    if (each_node(w, cond, collect_identifiers, &cw) != VISIT_DONE) return 0;
    for (size_t i = 0; i < cw.names.n; i++) {
        struct worklist k = {w, outer, loop, v, cw.names.v[i], false, false, true, false, false};
        if (each_node(w, outer, read_worklist, &k) != VISIT_DONE || !k.taken || !k.popped) continue;
        snprintf(name, cap, "%s", k.q);
        /* pushed once per vertex, or skipped at the pop once seen; a vertex
         * pushed again at each improvement and re-scanned at each pop (no
         * stale check) may cost its edges once per improvement: no claim */
        if (k.pop_guard || (k.pushes_ok && !k.improving)) return 1;
        return k.pushes_ok ? 0 : 2;
    }
    return 0;
}

/* ---- sieve ---- */

/* -1 false-ish, 1 true-ish, 0 not a boolean literal. */
static int literal_truth(const struct cx_walk *w, TSNode n) {
    struct cx_text t = cx_node_text(w, n);
    if (cx_text_is(t, "True") || cx_text_is(t, "true") || cx_text_is(t, "1")) return 1;
    if (cx_text_is(t, "False") || cx_text_is(t, "false") || cx_text_is(t, "0")) return -1;
    return 0;
}

struct mark {
    const struct cx_walk *w;
    char array[CX_NAME_LEN];
    int value;
    bool mixed;
};

/* The inner loop's writes: A[j] = <boolean literal>, all one array and value. */
static bool find_mark(void *ctx, TSNode n) {
    struct mark *k = ctx;
    TSNode l, r, idx;
    struct cx_text obj;
    if (!cx_type_is(n, assignments) || !assignment_parts(n, &l, &r) || !subscript_parts(k->w, l, &obj, &idx))
        return true;
    int v = ts_node_is_null(r) ? 0 : literal_truth(k->w, r);
    if (!is_word(obj) || v == 0 || (k->array[0] && (!same(obj, k->array) || v != k->value))) {
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
    if (subscript_parts(w, cond, &obj, &idx))
        return same(obj, array) && same(cx_node_text(w, idx), counter) ? 1 : 0;
    if (strstr(t, "parenthesized") && ts_node_named_child_count(cond) == 1)
        return reads_mark(w, ts_node_named_child(cond, 0), array, counter, depth + 1);
    if (strcmp(t, "not_operator") == 0 || (strcmp(t, "unary_expression") == 0 && cx_has_token(cond, "!")))
        return -reads_mark(w, ts_node_named_child(cond, 0), array, counter, depth + 1);
    if ((strcmp(t, "binary_expression") == 0 || strcmp(t, "comparison_operator") == 0) &&
        ts_node_named_child_count(cond) == 2) {
        int sign = cx_has_token(cond, "==") || cx_has_token(cond, "===") ? 1
                   : cx_has_token(cond, "!=") || cx_has_token(cond, "!==") ? -1 : 0;
        TSNode a = ts_node_named_child(cond, 0), b = ts_node_named_child(cond, 1);
        int la = literal_truth(w, a), lb = literal_truth(w, b);
        if (sign == 0 || (la == 0) == (lb == 0)) return 0;
        return sign * (la ? la : lb) * reads_mark(w, la ? b : a, array, counter, depth + 1);
    }
    return 0;
}

/* A statement that only skips the rest of the iteration. */
static bool only_continue(const struct cx_walk *w, TSNode n) {
    char flat[64];
    size_t fn = cx_flatten(cx_node_text(w, n), flat, sizeof flat);
    while (fn > 0 && (flat[fn - 1] == ';' || flat[fn - 1] == '}')) fn--;
    size_t i = 0;
    while (i < fn && (flat[i] == '{' || flat[i] == ':' || flat[i] == ';')) i++;
    return fn - i == 8 && memcmp(flat + i, "continue", 8) == 0;
}

bool cx_sieve_guard(const struct cx_walk *w, TSNode inner, TSNode outer, const char *counter) {
    struct mark k = {w, "", 0, false};
    TSNode body = cx_field(inner, "body");
    if (ts_node_is_null(body) || each_node(w, body, find_mark, &k) != VISIT_DONE || k.mixed || !k.array[0]) return false;
    /* Which value of A[counter] lets the inner loop run: +1 true-ish, -1 false-ish. */
    int admitted = 0;
    TSNode child = inner, p = ts_node_parent(inner);
    for (int i = 0; i < ANCESTORS_MAX && admitted == 0 && !ts_node_is_null(p) && !ts_node_eq(child, outer);
         i++, child = p, p = ts_node_parent(p)) {
        if (cx_type_is(p, ifs) && ts_node_eq(cx_field(p, "consequence"), child) &&
            ts_node_is_null(cx_field(p, "alternative")))
            admitted = reads_mark(w, cx_field(p, "condition"), k.array, counter, 0);
        for (TSNode s = ts_node_prev_named_sibling(child); admitted == 0 && !ts_node_is_null(s);
             s = ts_node_prev_named_sibling(s))
            if (cx_type_is(s, ifs) && ts_node_is_null(cx_field(s, "alternative")) &&
                only_continue(w, cx_field(s, "consequence")))
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
    TSNode e = iterable(w, loop), args = ts_node_is_null(e) ? e : cx_field(e, "arguments");
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
};

/* An unconditional push onto name inside the loop. */
static bool find_add(void *ctx, TSNode n) {
    struct adds *a = ctx;
    struct mcall m;
    if (method_call(a->w, n, &m) && same(m.recv, a->name) && cx_in_list(m.method, push_methods) &&
        !cx_text_is(m.method, "heappush") && !between(n, a->loop, conditional_node))
        a->found = true;
    return !a->found;
}

/* The comprehension's value is added back to name: `res += [... for r in
 * res]`, `res = res + [...]`, `res.extend(...)`. */
static bool fed_back(const struct cx_walk *w, TSNode comp, const char *name) {
    TSNode p = ts_node_parent(comp);
    for (int i = 0; i < 3 && !ts_node_is_null(p); i++, p = ts_node_parent(p)) {
        TSNode l, r;
        struct mcall m;
        if (assignment_parts(p, &l, &r)) return same(cx_node_text(w, l), name);
        if (method_call(w, p, &m)) return same(m.recv, name) && cx_text_is(m.method, "extend");
    }
    return false;
}

struct size_source {
    const struct cx_walk *w;
    const char *bound;
    struct cond_words sources;
};

/* k = out.length, k = len(out), k := len(out): the names k is set from. */
static bool find_size_source(void *ctx, TSNode n) {
    struct size_source *s = ctx;
    TSNode l, r;
    if (assignment_parts(n, &l, &r) && !ts_node_is_null(r) && same(cx_node_text(s->w, l), s->bound)) {
        struct cx_text t = cx_node_text(s->w, r);
        if (cx_has_word(t.s, t.n, "length") || cx_has_word(t.s, t.n, "len") || cx_has_word(t.s, t.n, "size"))
            each_node(s->w, r, collect_identifiers, &s->sources);
    }
    return true;
}

static bool grows(const struct cx_walk *w, TSNode loop, const char *c, char *name, size_t cap) {
    struct adds a = {w, loop, c, false};
    each_node(w, loop, find_add, &a);
    if (a.found || (cx_is_comprehension_loop(ts_node_type(loop)) && fed_back(w, loop, c))) {
        snprintf(name, cap, "%s", c);
        return true;
    }
    return false;
}

bool cx_growing_collection(const struct cx_walk *w, TSNode loop, char *name, size_t cap) {
    if (w->nnloops == 0) return false;
    TSNode outer = w->nloops[w->nnloops - 1];
    TSNode over = cx_is_comprehension_loop(ts_node_type(loop)) ? iterable(w, cx_first_for_clause(loop))
                                                               : iterable(w, loop);
    struct cond_words cw = {w, {{{0}}, 0}};
    if (!ts_node_is_null(over)) { /* for r in res[:] / list(res) / [...res] */
        if (each_node(w, over, collect_identifiers, &cw) != VISIT_DONE) return false;
        for (size_t i = 0; i < cw.names.n; i++)
            if (grows(w, loop, cw.names.v[i], name, cap)) return true;
        return false;
    }
    TSNode cond = cx_loop_condition(loop);
    if (ts_node_is_null(cond) || each_node(w, cond, collect_identifiers, &cw) != VISIT_DONE) return false;
    for (size_t i = 0; i < cw.names.n; i++) { /* i < k, k = out.length in the outer loop */
        struct size_source s = {w, cw.names.v[i], {w, {{{0}}, 0}}};
        each_node(w, outer, find_size_source, &s);
        for (size_t j = 0; j < s.sources.names.n; j++)
            if (grows(w, loop, s.sources.names.v[j], name, cap)) return true;
    }
    return false;
}

/* ---- self-calls in a loop ---- */

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
    TSNode l, r, idx;
    struct cx_text obj;
    struct mcall m;
    if (cx_type_is(n, assignments) && assignment_parts(n, &l, &r) && subscript_parts(s->w, l, &obj, &idx)) {
        bool ours = false;
        for (size_t i = 0; i < s->names->n; i++) ours |= same(obj, s->names->v[i]);
        if (ours) {
            /* a value that is not a boolean literal may unmark; two values do */
            int v = ts_node_is_null(r) ? 0 : literal_truth(s->w, r);
            if (v == 0 || (s->value && v != s->value)) s->unmarked = true;
            s->value = v;
        }
    } else if (method_call(s->w, n, &m) && cx_in_list(m.method, unmark_methods)) {
        for (size_t i = 0; i < s->names->n; i++) s->unmarked |= same(m.recv, s->names->v[i]);
    }
    return !s->unmarked;
}

TSNode cx_guard_of(TSNode call, TSNode top) {
    TSNode g = enclosing_if(call, top);
    return ts_node_is_null(g) ? g : cx_field(g, "condition");
}

/* A function's parameter list: its `parameters` (or an arrow function's
 * lone `parameter`), C/C++: on its declarator. */
static TSNode fn_params(TSNode fn) {
    TSNode p = cx_field(fn, "parameters");
    if (ts_node_is_null(p)) p = cx_field(fn, "parameter");
    for (TSNode d = cx_field(fn, "declarator"); ts_node_is_null(p) && !ts_node_is_null(d); d = cx_field(d, "declarator"))
        p = cx_field(d, "parameters");
    return p;
}

/* Every identifier of idx is one of params. */
static bool params_only(const struct cx_walk *w, TSNode idx, const struct cx_names *params) {
    struct cond_words ids = {w, {{{0}}, 0}};
    if (each_node(w, idx, collect_identifiers, &ids) != VISIT_DONE || ids.names.n == 0) return false;
    for (size_t i = 0; i < ids.names.n; i++) {
        bool p = false;
        for (size_t j = 0; j < params->n && !p; j++) p = strcmp(ids.names.v[i], params->v[j]) == 0;
        if (!p) return false;
    }
    return true;
}

bool cx_marks_for_good(const struct cx_walk *w, TSNode cond, TSNode fn) {
    struct guard_names names = {w, {{{0}}, 0}};
    if (ts_node_is_null(cond) || each_node(w, cond, collect_guard_names, &names) != VISIT_DONE || names.names.n == 0)
        return false;
    TSNode pl = fn_params(fn);
    struct cond_words params = {w, {{{0}}, 0}};
    if (ts_node_is_null(pl) || each_node(w, pl, collect_identifiers, &params) != VISIT_DONE) return false;
    struct written s = {w, &names.names, false, fn, &params.names};
    each_node(w, fn, find_write, &s);
    if (!s.found) return false;
    struct marks_only mo = {w, &names.names, 0, false};
    return each_node(w, fn, find_unmark, &mo) == VISIT_DONE && !mo.unmarked;
}

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
        if (same(t, params->v[i])) return true;
    return false;
}

/* The self-call passes a part of one of its parameters (sym_count(n->kid[i]),
 * walk(ch) in `for ch in node.children`) and never a parameter whole: it
 * descends into a structure (a tree walk), not across a graph it carries
 * along (dfs(g, v)). */
static bool structural_call(const struct cx_walk *w, TSNode call, TSNode fn) {
    TSNode args = cx_field(call, "arguments"), pl = fn_params(fn);
    struct cond_words params = {w, {{{0}}, 0}};
    if (ts_node_is_null(args) || ts_node_is_null(pl) || each_node(w, pl, collect_identifiers, &params) != VISIT_DONE)
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
    TSNode var = ts_node_is_null(loop) ? loop : cx_field(loop, "left"), over = ts_node_is_null(loop) ? loop : iterable(w, loop);
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
    if (w->nnloops > 0 && between(call, w->nloops[w->nnloops - 1], conditional_node)) {
        f->guarded_calls++;
        return;
    }
    /* A `continue` under a test before the call in the loop's body. */
    if (w->nnloops > 0) {
        TSNode child = call, p = ts_node_parent(call), loop = w->nloops[w->nnloops - 1];
        for (int i = 0; i < ANCESTORS_MAX && !ts_node_is_null(p) && !ts_node_eq(child, loop);
             i++, child = p, p = ts_node_parent(p))
            for (TSNode s = ts_node_prev_named_sibling(child); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s))
                if (cx_type_is(s, ifs)) {
                    struct cx_text t = cx_node_text(w, cx_field(s, "consequence"));
                    if (cx_has_word(t.s, t.n, "continue")) {
                        f->guarded_calls++;
                        return;
                    }
                }
    }
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
        if (!cx_type_is(s, ifs) || !ts_node_is_null(cx_field(s, "alternative"))) continue;
        if (only_return(w, cx_field(s, "consequence")) && cx_marks_for_good(w, cx_field(s, "condition"), fn))
            return true;
    }
    return false;
}

static bool has_slice(void *ctx, TSNode n) {
    const struct cx_walk *w = ctx;
    struct mcall m;
    if (strcmp(ts_node_type(n), "slice") == 0) return false;
    return !(method_call(w, n, &m) && (cx_text_is(m.method, "slice") || cx_text_is(m.method, "filter") ||
                                       cx_text_is(m.method, "subList") || cx_text_is(m.method, "substring")));
}

void cx_note_shrunk(struct cx_walk *w, TSNode name, TSNode value) {
    if (strcmp(ts_node_type(name), "identifier") == 0 && each_node(w, value, has_slice, w) == VISIT_STOPPED)
        cx_remember(&w->shrunk, cx_node_text(w, name));
}
#endif
