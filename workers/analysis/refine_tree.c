/* Tree helpers of the tree-based refinement rules (refine_tree.h): a
 * bounded cursor visit, ancestor tests, and the grammars' shapes of method
 * calls, subscripts, assignments and loops. */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/refine_tree.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

const char *const cx_push_methods[] = {"append", "push", "add", "addLast", "addFirst", "offer", "offerLast",
    "offerFirst", "push_back", "push_front", "emplace_back", "emplace", "unshift", "appendleft", "heappush", NULL};
const char *const cx_pop_methods[] = {"pop", "pollLast", "pollFirst", "poll", "removeLast", "removeFirst",
    "pop_back", "pop_front", "popleft", "shift", "heappop", "remove", NULL};
const char *const cx_read_methods[] = {"peek", "top", "isEmpty", "empty", "size", "length", "len", "back",
    "front", "get", "peekLast", "peekFirst", "getLast", "getFirst", "element", "at", "count", "index", NULL};
const char *const cx_mark_methods[] = {"add", "put", "set", "insert", "append", "push", "emplace", NULL};
const char *const cx_unmark_methods[] = {"remove", "discard", "delete", "erase", "pop", "clear", NULL};
const char *const cx_assignment_types[] = {"assignment", "assignment_expression", "assignment_statement",
    "augmented_assignment", "augmented_assignment_expression", "update_expression", "inc_statement",
    "dec_statement", NULL};
const char *const cx_declaration_types[] = {"short_var_declaration", "variable_declarator", "init_declarator",
    "lexical_declaration", "let_declaration", NULL};
const char *const cx_subscript_types[] = {"subscript", "subscript_expression", "index_expression", "array_access",
    "element_reference", NULL};
const char *const cx_if_types[] = {"if_statement", "if_expression", NULL};

/* Visit every named node of root's subtree, root first, until fn says
 * stop (CX_VISIT_STOPPED) or all are seen (CX_VISIT_DONE). A subtree larger than
 * CX_SUBTREE_MAX, or the walk's visit budget running out (many loops in one
 * large loop), gives CX_VISIT_NO_CLAIM: the rule then claims nothing, which
 * leaves the loop counted as a factor n. */
int cx_each_node(const struct cx_walk *w, TSNode root, bool (*fn)(void *, TSNode), void *ctx) {
    if (ts_node_is_null(root)) return CX_VISIT_NO_CLAIM; /* a missing field: nothing seen, nothing claimed */
    if (ts_node_end_byte(root) - ts_node_start_byte(root) > CX_SUBTREE_MAX) return CX_VISIT_NO_CLAIM;
    TSTreeCursor c = ts_tree_cursor_new(root);
    int out = CX_VISIT_DONE;
    for (;;) {
        if (*w->visits_left <= 0) {
            out = CX_VISIT_NO_CLAIM;
            break;
        }
        --*w->visits_left;
        TSNode n = ts_tree_cursor_current_node(&c);
        if (ts_node_is_named(n) && !fn(ctx, n)) {
            out = CX_VISIT_STOPPED;
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

bool cx_inside(TSNode n, TSNode outer) {
    return ts_node_start_byte(n) >= ts_node_start_byte(outer) && ts_node_end_byte(n) <= ts_node_end_byte(outer) &&
           !ts_node_eq(n, outer);
}

bool cx_is_name(struct cx_text t) { return t.n > 0 && t.n < CX_NAME_LEN && cx_word_len(t.s, t.n, 0) == t.n; }

bool cx_same(struct cx_text t, const char *name) { return t.n == strlen(name) && memcmp(t.s, name, t.n) == 0; }

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
bool cx_conditional_node(TSNode p) {
    static const char *const types[] = {"if_statement", "if_expression", "conditional_expression",
        "ternary_expression", "elif_clause", "else_clause", "boolean_operator", "switch_statement",
        "match_statement", "case_clause", "expression_case", "switch_case", "switch_block_statement_group",
        "expression_switch_statement", "try_statement", "catch_clause", "except_clause", "if_clause", NULL};
    const char *t = ts_node_type(p);
    if (cx_type_is(p, types) || cx_is_loop_type(t) || cx_is_function_type(t)) return true;
    return strcmp(t, "binary_expression") == 0 && (cx_has_token(p, "&&") || cx_has_token(p, "||"));
}

/* Does a node of that kind stand between n and top (exclusive)? */
bool cx_between(TSNode n, TSNode top, bool (*kind)(TSNode)) {
    TSNode p = ts_node_parent(n);
    for (int i = 0; i < CX_ANCESTORS_MAX && !ts_node_is_null(p) && !ts_node_eq(p, top); i++, p = ts_node_parent(p))
        if (kind(p)) return true;
    return false;
}

bool cx_loop_node(TSNode p) { return cx_is_loop_type(ts_node_type(p)) || cx_is_function_type(ts_node_type(p)); }

/* A call's receiver and method: `s.pop()`, `st.push(i)`, `heapq.heappop(pq)`
 * (a heap function's receiver is its first argument), `pop(s)`. */

bool cx_method_call(const struct cx_walk *w, TSNode call, struct cx_mcall *m) {
    static const char *const members[][3] = {{"attribute", "object", "attribute"},
        {"member_expression", "object", "property"}, {"selector_expression", "operand", "field"},
        {"field_expression", "argument", "field"}};
    static const char *const heapfns[] = {"heappush", "heappop", "heapreplace", "heappushpop", NULL};
    static const char *const calls[] = {"call", "call_expression", "method_invocation", NULL};
    if (!cx_type_is(call, calls)) return false;
    *m = (struct cx_mcall){{"", 0}, {"", 0}, cx_field(call, "arguments")};
    TSNode f = cx_field(call, "function"), obj = cx_field(call, "object");
    if (!ts_node_is_null(obj)) { /* java */
        m->recv = cx_node_text(w, obj);
        m->method = cx_node_text(w, cx_field(call, "name"));
    } else if (!ts_node_is_null(f)) {
        m->method = cx_node_text(w, f);
        for (size_t i = 0; i < sizeof members / sizeof *members; i++)
            if (strcmp(ts_node_type(f), members[i][0]) == 0) {
                TSNode o = cx_field(f, members[i][1]);
                if (ts_node_is_null(o)) o = cx_field(f, "value"); /* rust's field_expression */
                m->recv = cx_node_text(w, o);
                m->method = cx_node_text(w, cx_field(f, members[i][2]));
            }
    }
    if (cx_in_list(m->method, heapfns) && !ts_node_is_null(m->args) && ts_node_named_child_count(m->args) > 0)
        m->recv = cx_node_text(w, ts_node_named_child(m->args, 0));
    return m->method.n > 0;
}

/* The object and index of a subscript node. */
bool cx_subscript_parts(const struct cx_walk *w, TSNode n, struct cx_text *obj, TSNode *index) {
    static const char *const objf[] = {"value", "object", "argument", "operand", "array", NULL};
    if (!cx_type_is(n, cx_subscript_types)) return false;
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
bool cx_slice_of(const struct cx_walk *w, TSNode v, const char *name) {
    if (ts_node_is_null(v)) return false;
    if (strcmp(ts_node_type(v), "slice_expression") == 0) return cx_same(cx_node_text(w, cx_field(v, "operand")), name);
    struct cx_text obj;
    TSNode idx;
    return strcmp(ts_node_type(v), "subscript") == 0 && cx_subscript_parts(w, v, &obj, &idx) && cx_same(obj, name) &&
           strcmp(ts_node_type(idx), "slice") == 0;
}

/* The target and value of an assignment or declaration (Go's and python's
 * single-name lists unwrapped). */
bool cx_assignment_parts(TSNode n, TSNode *left, TSNode *right) {
    static const char *const lf[] = {"left", "name", "declarator", "pattern", NULL};
    static const char *const rf[] = {"right", "value", NULL};
    if (!cx_type_is(n, cx_assignment_types) && !cx_type_is(n, cx_declaration_types)) return false;
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

bool cx_while_like(TSNode loop) {
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

/* What a for-each loop iterates over (C: the pointer its initializer sets). */
TSNode cx_iterable(const struct cx_walk *w, TSNode loop) {
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
        if (!ts_node_is_null(init) && cx_assignment_parts(init, &l, &r)) e = r;
    }
    return e;
}

TSNode cx_enclosing_if(TSNode n, TSNode top) {
    TSNode p = ts_node_parent(n);
    for (int i = 0; i < CX_ANCESTORS_MAX && !ts_node_is_null(p) && !ts_node_eq(p, top); i++, p = ts_node_parent(p))
        if (cx_type_is(p, cx_if_types)) return p;
    return (TSNode){0};
}

bool cx_collect_identifiers(void *ctx, TSNode n) {
    struct cx_idents *c = ctx;
    if (strcmp(ts_node_type(n), "identifier") == 0) cx_remember(&c->names, cx_node_text(c->w, n));
    return true;
}

/* -1 false-ish, 1 true-ish, 0 not a boolean literal. */
int cx_literal_truth(const struct cx_walk *w, TSNode n) {
    struct cx_text t = cx_node_text(w, n);
    if (cx_text_is(t, "True") || cx_text_is(t, "true") || cx_text_is(t, "1")) return 1;
    if (cx_text_is(t, "False") || cx_text_is(t, "false") || cx_text_is(t, "0")) return -1;
    return 0;
}

bool cx_subscript_write(const struct cx_walk *w, TSNode n, struct cx_text *obj, int *truth) {
    TSNode l, r, idx;
    if (!cx_type_is(n, cx_assignment_types) || !cx_assignment_parts(n, &l, &r) || !cx_subscript_parts(w, l, obj, &idx))
        return false;
    *truth = ts_node_is_null(r) ? 0 : cx_literal_truth(w, r);
    return true;
}

/* A statement that only skips the rest of the iteration. */
bool cx_only_continue(const struct cx_walk *w, TSNode n) {
    char flat[64];
    size_t fn = cx_flatten(cx_node_text(w, n), flat, sizeof flat);
    while (fn > 0 && (flat[fn - 1] == ';' || flat[fn - 1] == '}')) fn--;
    size_t i = 0;
    while (i < fn && (flat[i] == '{' || flat[i] == ':' || flat[i] == ';')) i++;
    return fn - i == 8 && memcmp(flat + i, "continue", 8) == 0;
}

/* A function's parameter list: its `parameters` (or an arrow function's
 * lone `parameter`), C/C++: on its declarator. */
TSNode cx_fn_params(TSNode fn) {
    TSNode p = cx_field(fn, "parameters");
    if (ts_node_is_null(p)) p = cx_field(fn, "parameter");
    for (TSNode d = cx_field(fn, "declarator"); ts_node_is_null(p) && !ts_node_is_null(d); d = cx_field(d, "declarator"))
        p = cx_field(d, "parameters");
    return p;
}
#endif
