/* The refinement model of analyze_complexity (docs/analysis.md
 * "Refinements"): rules TOOLS.md 3.5.1 does not have, reported beside the
 * spec's estimate in refined_estimate and refinements[], never in place of
 * it. Every rule that makes the refined estimate differ adds one
 * {rule, line, note}.
 *
 * The model is a set of cost terms n^k (log n)^l, k a whole or half
 * power, the largest of which is the refined estimate: the loops open at a
 * point multiply their factors (refine_loops.c: n, log n, sqrt n, or none);
 * a known linear operation is one factor n more, a sort n log n more, a
 * heap or binary-search call log n more; a recursive function contributes
 * by how it calls itself. This file holds the cost terms, the python name
 * kinds, the call rules and the recursion rules. */
#if CC_HAVE_TREE_SITTER
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/refine_tree.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* ---- cost terms ---- */


/* The largest term wins; a graph term as large as the best says what its
 * n is (V + E), which a plain O(n) term of the same size (reading V
 * vertices) does not contradict. */
void cx_consider(struct cx_walk *w, struct cx_cost c) {
    if (cx_cost_gt(c, w->best) || (c.graph && !cx_cost_gt(w->best, c))) w->best = c;
    if (w->nfns) { /* the innermost function's own cost, for calls to it */
        struct cx_fn *f = &w->fns[w->nfns - 1];
        struct cx_cost rel = cx_cost_minus(c, f->entry);
        if (cx_cost_gt(rel, f->inner) || (rel.graph && !cx_cost_gt(f->inner, rel))) f->inner = rel;
    }
}

/* The cost of work of n^more at this point: the counted, sqrt and log
 * loops open around it. */
struct cx_cost cx_cost_here(const struct cx_walk *w, int more) {
    return (struct cx_cost){.k = w->rdepth + more + w->sdepth / 2, .log = w->ldepth, .half = w->sdepth % 2 == 1,
                            .loglog = w->lldepth, .fact = w->fdepth > 0, .graph = w->gdepth > 0,
                            .exp = w->edepth > 0};
}

void cx_refinement(struct cx_walk *w, const char *rule, uint32_t line, const char *fmt, ...) {
    json_t *list = w->r->refinements;
    size_t n = json_array_size(list);
    if (n >= CX_REFINEMENTS_MAX) return;
    for (size_t i = 0; i < n; i++) { /* one entry per rule and line */
        json_t *e = json_array_get(list, i);
        if (json_integer_value(json_object_get(e, "line")) == line &&
            strcmp(json_string_value(json_object_get(e, "rule")), rule) == 0)
            return;
    }
    char note[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note, sizeof note, fmt, ap);
    va_end(ap);
    json_array_append_new(list, json_pack("{s:s,s:I,s:s}", "rule", rule, "line", (json_int_t)line, "note", note));
}

/* A name for a note: at most 60 bytes, cut at a character boundary. */
int cx_shown(struct cx_text t) {
    size_t n = t.n == (size_t)-1 ? 0 : t.n < 60 ? t.n : 60;
    if (n < t.n)
        while (n > 0 && ((unsigned char)t.s[n] & 0xC0) == 0x80) n--;
    return (int)n;
}

/* ---- node predicates ---- */

bool cx_type_is(TSNode n, const char *const *types) {
    const char *t = ts_node_type(n);
    for (; *types; types++)
        if (strcmp(t, *types) == 0) return true;
    return false;
}

bool cx_in_list(struct cx_text t, const char *const *list) {
    for (; *list; list++)
        if (cx_text_is(t, *list)) return true;
    return false;
}

TSNode cx_field(TSNode n, const char *name) {
    return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

TSNode cx_first_for_clause(TSNode comp) {
    uint32_t c = ts_node_named_child_count(comp);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(comp, i);
        if (strcmp(ts_node_type(k), "for_in_clause") == 0) return k;
    }
    return (TSNode){0};
}

bool cx_is_comprehension_loop(const char *type) {
    return strcmp(type, "list_comprehension") == 0 || strcmp(type, "generator_expression") == 0;
}

/* Work of n^depth at this point counts toward the innermost function's
 * work per call (a loop, and a linear call or a sort one level deeper:
 * merge sort's slice and concat are its O(n) per call). */
void cx_body_work(struct cx_walk *w, int depth) {
    if (!w->nfns) return;
    struct cx_fn *f = &w->fns[w->nfns - 1];
    if (depth - f->rdepth_at_entry > f->body_k) f->body_k = depth - f->rdepth_at_entry;
}

/* ---- python name kinds (lists vs hash structures) ---- */

/* Index of name among the known kinds, or -1. */
static int kind_of(const struct cx_walk *w, struct cx_text name) {
    for (size_t i = 0; i < w->nkinds; i++)
        if (cx_text_eq(w->kinds[i].name, name)) return (int)i;
    return -1;
}

int cx_name_kind(const struct cx_walk *w, struct cx_text name) {
    int k = kind_of(w, name);
    return k >= 0 ? w->kinds[k].kind : -1;
}

void cx_set_kind(struct cx_walk *w, struct cx_text name, int kind) {
    int k = kind_of(w, name);
    if (kind < 0) {
        if (k >= 0) w->kinds[k] = w->kinds[--w->nkinds];
        return;
    }
    if (k < 0 && w->nkinds < CX_KINDS_MAX) k = (int)w->nkinds++;
    if (k >= 0) w->kinds[k] = (struct cx_kind){name, kind};
}

/* The kind of a sum's operand: a literal or a known name; no deeper (a
 * long chain of sums must not recurse). */
static int operand_kind(const struct cx_walk *w, TSNode v) {
    if (ts_node_is_null(v)) return -1;
    const char *t = ts_node_type(v);
    if (strcmp(t, "string") == 0) return CX_KIND_STR;
    if (strcmp(t, "list") == 0) return CX_KIND_LIST;
    if (strcmp(t, "identifier") != 0) return -1;
    int k = kind_of(w, cx_node_text(w, v));
    return k >= 0 ? w->kinds[k].kind : -1;
}

/* CX_KIND_* of a value, or -1 unknown. A sum keeps the kind of a known
 * operand (`ch + r` is a string when r is). */
int cx_value_kind(const struct cx_walk *w, TSNode v) {
    static const char *const lists[] = {"list", "list_comprehension", NULL};
    static const char *const hashes[] = {"dictionary", "set", "dictionary_comprehension", "set_comprehension", NULL};
    static const char *const strings[] = {"string", "concatenated_string", NULL};
    static const char *const list_calls[] = {"list", "sorted", "split", "splitlines", "readlines", NULL};
    static const char *const hash_calls[] = {"set", "dict", "frozenset", "Counter", "defaultdict", "OrderedDict", NULL};
    if (ts_node_is_null(v)) return -1;
    if (cx_type_is(v, lists)) return CX_KIND_LIST;
    if (cx_type_is(v, hashes)) return CX_KIND_HASH;
    if (cx_type_is(v, strings)) return CX_KIND_STR;
    const char *t = ts_node_type(v);
    if (strcmp(t, "call") == 0) {
        struct cx_text c = cx_callee(w, v);
        if (cx_in_list(c, list_calls)) return CX_KIND_LIST;
        if (cx_in_list(c, hash_calls)) return CX_KIND_HASH;
        if (cx_text_is(c, "str") || cx_text_is(c, "join")) return CX_KIND_STR;
    }
    if (strcmp(t, "binary_operator") == 0 && cx_text_is(cx_node_text(w, cx_field(v, "operator")), "+")) {
        int k = operand_kind(w, cx_field(v, "left"));
        return k >= 0 ? k : operand_kind(w, cx_field(v, "right"));
    }
    if (strcmp(t, "identifier") == 0) {
        int k = kind_of(w, cx_node_text(w, v));
        if (k >= 0) return w->kinds[k].kind;
    }
    return -1;
}

static void linear_term(struct cx_walk *w, TSNode at, const char *rule, const char *what, int whatlen);

/* x = y + x builds a new x by copying the old one: linear in its length,
 * for a string or a list. x = x + [y] copies a list too; x = x + "c" on a
 * string CPython extends in place. */
static void note_copying_sum(struct cx_walk *w, TSNode n, struct cx_text name, int k) {
    TSNode v = cx_field(n, "right");
    if (k < 0 || w->rdepth + w->sdepth == 0 || w->kinds[k].kind == CX_KIND_HASH ||
        strcmp(ts_node_type(v), "binary_operator") != 0 || !cx_text_is(cx_node_text(w, cx_field(v, "operator")), "+"))
        return;
    bool prepend = cx_text_eq(cx_node_text(w, cx_field(v, "right")), name);
    bool append = cx_text_eq(cx_node_text(w, cx_field(v, "left")), name) && w->kinds[k].kind == CX_KIND_LIST;
    if (!prepend && !append) return;
    char what[128];
    snprintf(what, sizeof what, "`%.*s = %s` (a new %s, copying the old one)", cx_shown(name), name.s,
             prepend ? "... + itself" : "itself + ...", w->kinds[k].kind == CX_KIND_STR ? "string" : "list");
    linear_term(w, n, "copying_concatenation", what, (int)strlen(what));
}

/* `x = {} if x is None else x` and `x = x or {}`, python's idiom for a
 * default made per call: x keeps its own value or gets the literal, and
 * what it holds is the literal's kind (an argument of that kind). The
 * value that is not x itself, or v unchanged. */
static TSNode past_self_default(const struct cx_walk *w, TSNode v, struct cx_text name) {
    const char *t = ts_node_type(v);
    bool ternary = strcmp(t, "conditional_expression") == 0, either = strcmp(t, "boolean_operator") == 0;
    if ((!ternary && !either) || ts_node_named_child_count(v) != (ternary ? 3u : 2u)) return v;
    if (either && !cx_text_is(cx_node_text(w, cx_field(v, "operator")), "or")) return v;
    TSNode a = ts_node_named_child(v, 0), b = ts_node_named_child(v, ternary ? 2 : 1);
    if (cx_text_eq(cx_node_text(w, b), name) && strcmp(ts_node_type(b), "identifier") == 0) return a;
    if (cx_text_eq(cx_node_text(w, a), name) && strcmp(ts_node_type(a), "identifier") == 0) return b;
    return v;
}

static void note_assignment(struct cx_walk *w, TSNode n) {
    TSNode left = cx_field(n, "left");
    if (ts_node_is_null(left) || strcmp(ts_node_type(left), "identifier") != 0) return;
    struct cx_text name = cx_node_text(w, left);
    int k = kind_of(w, name);
    note_copying_sum(w, n, name, k);
    TSNode right = cx_field(n, "right");
    int kind = ts_node_is_null(right) ? -1 : cx_value_kind(w, past_self_default(w, right, name));
    cx_set_kind(w, name, kind); /* reassigned to something unknown: forgotten */
}

/* Whether `at` is in what the innermost loop over n iterates over (`for x
 * in list(a)`, `[y for y in a[1:] if ...]`): evaluated once, not once per
 * iteration. 1 or 0, to take off the loop depth. */
static int in_loop_header(const struct cx_walk *w, TSNode at) {
    static const char *const iterables[] = {"right", "value", "iterable", NULL};
    if (w->nnloops == 0) return 0;
    TSNode loop = w->nloops[w->nnloops - 1], prev = at, child = at, p = ts_node_parent(at);
    for (int up = 0; up < 256 && !ts_node_is_null(p); up++, prev = child, child = p, p = ts_node_parent(p)) {
        bool clause = strcmp(ts_node_type(p), "for_in_clause") == 0 && ts_node_eq(ts_node_parent(p), loop) &&
                      ts_node_eq(cx_first_for_clause(loop), p);
        if (!ts_node_eq(p, loop) && !clause) continue;
        if (strcmp(ts_node_type(child), "range_clause") == 0) /* Go: for _, x := range xs */
            return ts_node_eq(cx_field(child, "right"), prev);
        for (const char *const *f = iterables; *f; f++)
            if (ts_node_eq(cx_field(p, *f), child)) return 1;
        return 0;
    }
    return 0;
}

static void linear_term(struct cx_walk *w, TSNode at, const char *rule, const char *what, int whatlen) {
    int depth = w->rdepth - in_loop_header(w, at);
    struct cx_cost c = cx_cost_here(w, 1 + depth - w->rdepth);
    char cost[64];
    cx_consider(w, c);
    cx_body_work(w, depth + 1);
    uint32_t line = cx_line(at);
    if (depth == 0)
        cx_refinement(w, rule, line, "%.*s at line %u is linear in its input: %s", whatlen, what, line,
                      cx_cost_text(c, cost, sizeof cost));
    else
        cx_refinement(w, rule, line, "%.*s at line %u is linear in its input, inside %d loop level(s): %s",
                      whatlen, what, line, depth, cx_cost_text(c, cost, sizeof cost));
}

/* Membership that costs O(1) whatever the source does not show: a range,
 * a dict's keys view, a set or dict built in place. */
static bool constant_membership(const struct cx_walk *w, TSNode right) {
    static const char *const o1[] = {"range", "keys", "set", "dict", "frozenset", "Counter", "defaultdict", NULL};
    const char *t = ts_node_type(right);
    if (strcmp(t, "call") == 0) return cx_in_list(cx_callee(w, right), o1);
    /* a literal: a fixed size ("aeiou", (1, 2)); a comprehension is a list */
    return strcmp(t, "integer") == 0 || strcmp(t, "string") == 0 || strcmp(t, "tuple") == 0;
}

/* A bound on the scans of the source for a name (declared_as, fixed_string). */
#define CX_TYPE_SCANS 64
#define CX_TYPE_SCAN_BYTES (256 * 1024)

/* Every assignment to name in the source (python) gives it a string
 * literal: it never grows (`vowels = "aeiou"`), so `c in vowels` is O(1).
 * A name grown (`out += w`, `out = out + w`), built (`" ".join(a)`) or
 * rebound (`for out in ...`) anywhere holds a string as long as the input.
 * Bounded like declared_as: past the budget, the name reads as grown. */
static bool fixed_string(struct cx_walk *w, struct cx_text name) {
    if (name.n == 0 || name.n > 64 || name.n == SIZE_MAX || w->type_scans >= CX_TYPE_SCANS || w->len > CX_TYPE_SCAN_BYTES)
        return false;
    w->type_scans++;
    char v[65], flat[1024];
    memcpy(v, name.s, name.n), v[name.n] = '\0';
    for (size_t from = 0, to; from < w->len; from = to + 1) {
        for (to = from; to < w->len && w->src[to] != '\n';) to++;
        if (!cx_has_word(w->src + from, to - from, v)) continue;
        if (to - from >= sizeof flat) return false;
        size_t n = cx_flatten((struct cx_text){w->src + from, to - from}, flat, sizeof flat);
        for (size_t i = 0; i < n; i++) {
            if ((i > 0 && flat[i - 1] == '.') || !cx_assigns(flat, n, i, v, name.n)) continue;
            size_t end, r = cx_word_then(flat, n, i, v, name.n, "=") ? cx_assignment_rhs(flat, n, i, &end) : 0;
            char q = r ? flat[r] : 0;
            if (!(q == '"' || q == '\'') || end - r < 2 || flat[end - 1] != q || memchr(flat + r + 1, q, end - r - 2))
                return false;
        }
    }
    return true;
}

/* x in items / x not in items, where items is a list, a str, or a name of
 * a type the source does not show. A str is scanned too, unless it is a
 * literal or a name only ever assigned literals. */
static void note_membership(struct cx_walk *w, TSNode n) {
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i + 1 < c; i++) {
        TSNode op = ts_node_child(n, i);
        const char *t = ts_node_type(op);
        if (ts_node_is_named(op) || (strcmp(t, "in") != 0 && strcmp(t, "not in") != 0)) continue;
        TSNode right = ts_node_next_named_sibling(op);
        int kind = cx_value_kind(w, right);
        /* A name of unknown type may be a str or a list (a scan) as well as
         * a set: read as the scan, an upper bound, and said so. */
        bool fixed = kind == CX_KIND_STR && (strcmp(ts_node_type(right), "identifier") != 0
                                                 ? constant_membership(w, right)
                                                 : fixed_string(w, cx_node_text(w, right)));
        if (kind == CX_KIND_HASH || fixed || (kind < 0 && constant_membership(w, right))) return;
        struct cx_text r = cx_node_text(w, right);
        char what[200];
        snprintf(what, sizeof what, kind < 0 ? "`%s` on %.*s, of a type the source does not show (a str or list is "
                                               "scanned; were it a set or dict it would be O(1))"
                                    : kind == CX_KIND_STR ? "`%s` on the string %.*s, which the source builds or grows "
                                                            "(a scan of it)"
                                                          : "`%s` on the list %.*s",
                 t, cx_shown(r), r.s);
        linear_term(w, n, "linear_membership", what, (int)strlen(what));
        return;
    }
}

/* The name and value of an assignment or declaration, in the grammars'
 * field names. */
static bool name_and_value(TSNode n, const char *type, TSNode *name, TSNode *value) {
    static const char *const forms[][3] = {
        {"assignment", "left", "right"},          {"assignment_expression", "left", "right"},
        {"init_declarator", "declarator", "value"}, {"variable_declarator", "name", "value"},
        {"let_declaration", "pattern", "value"},  {"short_var_declaration", "left", "right"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        if (strcmp(type, forms[i][0]) != 0) continue;
        *name = cx_field(n, forms[i][1]);
        *value = cx_field(n, forms[i][2]);
        if (!ts_node_is_null(*name) && strcmp(ts_node_type(*name), "expression_list") == 0 &&
            ts_node_named_child_count(*name) == 1)
            *name = ts_node_named_child(*name, 0);
        return !ts_node_is_null(*name) && !ts_node_is_null(*value);
    }
    return false;
}

static void note_halving(struct cx_walk *w, TSNode name, TSNode value) {
    char flat[256];
    struct cx_text v = cx_node_text(w, value);
    if (cx_halving_text(flat, cx_flatten(v, flat, sizeof flat))) cx_remember(&w->halving, cx_node_text(w, name));
}

static bool starts_with_ci(struct cx_text t, const char *lit) {
    size_t l = strlen(lit);
    return t.n != SIZE_MAX && t.n >= l && strncasecmp(t.s, lit, l) == 0;
}

/* partition, part, pivot, hoarePartition, lomuto_partition... */
static bool partition_name(struct cx_text c) {
    return starts_with_ci(c, "part") || starts_with_ci(c, "pivot") ||
           (c.n != SIZE_MAX && (cx_has_text(c.s, c.n, "Partition") || cx_has_text(c.s, c.n, "partition")));
}

/* One side of a partition of a collection: a comprehension with a filter
 * clause, a filter(...) call or .filter(...) method, or a call to a function
 * whose name says it partitions (its result is a pivot index or the sides).
 * The subtree is visited with a cursor, never by recursion. */
static bool splitting_value(const struct cx_walk *w, TSNode v) {
    static const char *const comprehensions[] = {"list_comprehension", "generator_expression", NULL};
    static const char *const calls[] = {"call", "call_expression", "method_invocation", NULL};
    TSTreeCursor c = ts_tree_cursor_new(v);
    bool found = false;
    for (bool more = true; more && !found;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        if (cx_type_is(n, comprehensions)) {
            for (uint32_t i = 0; i < ts_node_named_child_count(n) && !found; i++)
                found = strcmp(ts_node_type(ts_node_named_child(n, i)), "if_clause") == 0;
        } else if (cx_type_is(n, calls)) {
            struct cx_text callee = cx_callee(w, n);
            found = cx_text_is(callee, "filter") || partition_name(callee);
        }
        if (ts_tree_cursor_goto_first_child(&c)) continue;
        while (!ts_tree_cursor_goto_next_sibling(&c))
            if (!ts_tree_cursor_goto_parent(&c) || ts_node_eq(ts_tree_cursor_current_node(&c), v)) {
                more = false;
                break;
            }
    }
    ts_tree_cursor_delete(&c);
    return found;
}

/* left = [x for x in a if x < p]; p = partition(a, lo, hi); and the
 * tuple forms (left, right = split(a)). */
static void note_split(struct cx_walk *w, TSNode name, TSNode value) {
    static const char *const tuples[] = {"pattern_list", "tuple_pattern", "expression_list", NULL};
    if (!splitting_value(w, value)) return;
    if (!cx_type_is(name, tuples)) {
        cx_remember(&w->split, cx_node_text(w, name));
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(name); i++)
        cx_remember(&w->split, cx_node_text(w, ts_node_named_child(name, i)));
}

/* A python slice bound `i+3` of `a[i:i+3]`: start plus a literal. */
static bool fixed_width(const char *flat, size_t n) {
    const char *colon = memchr(flat, ':', n);
    if (!colon || memchr(colon + 1, ':', n - (size_t)(colon + 1 - flat))) return false;
    size_t a = (size_t)(colon - flat), b = n - a - 1;
    const char *stop = colon + 1;
    bool lit_a = a > 0 && cx_literal_at_least(flat, a, 0 + (flat[0] == '-'), 0) && cx_word_len(flat, a, flat[0] == '-') == a - (flat[0] == '-');
    bool lit_b = b > 0 && cx_literal_at_least(stop, b, stop[0] == '-', 0) && cx_word_len(stop, b, stop[0] == '-') == b - (stop[0] == '-');
    if (lit_a && lit_b) return true;
    /* i:i+3 */
    return a > 0 && b > a + 1 && memcmp(stop, flat, a) == 0 && stop[a] == '+' && cx_literal_at_least(stop, b, a + 1, 0) &&
           cx_word_len(stop, b, a + 1) == b - a - 1;
}

/* a[i:], s[:i], a[::-1]: a python slice copies what it takes, linear in
 * its length (a fixed width, a[i:i+3] or a[1:3], is not). */
static void note_slice(struct cx_walk *w, TSNode n) {
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 1; i < c; i++) {
        TSNode sl = ts_node_named_child(n, i);
        if (strcmp(ts_node_type(sl), "slice") != 0) continue;
        char flat[128];
        struct cx_text t = cx_node_text(w, sl);
        if (t.n < sizeof flat && fixed_width(flat, cx_flatten(t, flat, sizeof flat))) return;
        struct cx_text whole = cx_node_text(w, n);
        char what[96];
        snprintf(what, sizeof what, "the slice %.*s (a copy)", cx_shown(whole), whole.s);
        linear_term(w, n, "slice_copy", what, (int)strlen(what));
        return;
    }
}

/* [...a, x], {...o}, f(...a), python [*a, x]: a spread copies what it
 * spreads, linear in its length. */
static void note_spread(struct cx_walk *w, TSNode n) {
    static const char *const spreads[] = {"spread_element", "list_splat", "dictionary_splat", NULL};
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c && i < 64; i++) {
        TSNode k = ts_node_named_child(n, i);
        if (!cx_type_is(k, spreads)) continue;
        struct cx_text t = cx_node_text(w, k);
        char what[96];
        snprintf(what, sizeof what, "the spread %.*s (a copy)", cx_shown(t), t.s);
        linear_term(w, n, "spread_copy", what, (int)strlen(what));
        return;
    }
}

/* python [0] * n, "ab" * k, (x,) * n: repeating a sequence builds one of
 * n items, linear in n (a literal count, "-" * 40, is a constant). */
static void note_repetition(struct cx_walk *w, TSNode n) {
    static const char *const seqs[] = {"list", "string", "tuple", "concatenated_string", NULL};
    if (!cx_text_is(cx_node_text(w, cx_field(n, "operator")), "*")) return;
    TSNode l = cx_field(n, "left"), r = cx_field(n, "right");
    if (ts_node_is_null(l) || ts_node_is_null(r)) return;
    TSNode count = cx_type_is(l, seqs) ? r : cx_type_is(r, seqs) ? l : (TSNode){0};
    if (ts_node_is_null(count) || strcmp(ts_node_type(count), "integer") == 0 || cx_type_is(count, seqs)) return;
    struct cx_text t = cx_node_text(w, n);
    char what[96];
    snprintf(what, sizeof what, "the repetition %.*s (a new sequence of that many items)", cx_shown(t), t.s);
    linear_term(w, n, "sequence_repetition", what, (int)strlen(what));
}

static bool declared_hash(struct cx_walk *w, struct cx_text name);
static bool declared_as(struct cx_walk *w, struct cx_text name, const char *const *types);

/* Java, C#, Kotlin and Go strings are immutable: `s += x` or `s = s + x`
 * in a loop copies s each time, linear per iteration (JavaScript's engines
 * build ropes, python's CPython extends in place: not these). */
static void note_string_append(struct cx_walk *w, TSNode n) {
    static const char *const langs[] = {"java", "csharp", "kotlin", "go", NULL};
    static const char *const strings[] = {"String", "string", "\"\"", NULL};
    static const char *const assigns[] = {"assignment_expression", "assignment_statement", "assignment", NULL};
    bool ours = false;
    for (size_t i = 0; langs[i] && !ours; i++) ours = strcmp(w->lang, langs[i]) == 0;
    if (!ours || w->rdepth + w->sdepth == 0 || !cx_type_is(n, assigns)) return;
    TSNode l = cx_field(n, "left"), r = cx_field(n, "right");
    if (ts_node_is_null(l) || ts_node_is_null(r)) return;
    if (strcmp(ts_node_type(l), "expression_list") == 0 && ts_node_named_child_count(l) == 1) l = ts_node_named_child(l, 0);
    if (strcmp(ts_node_type(r), "expression_list") == 0 && ts_node_named_child_count(r) == 1) r = ts_node_named_child(r, 0);
    if (strcmp(ts_node_type(l), "identifier") != 0) return;
    struct cx_text name = cx_node_text(w, l);
    bool plus_eq = cx_has_token(n, "+=");
    /* the leftmost operand of a chain of +: s = s + x + "," */
    TSNode first = r;
    for (int i = 0; i < 16 && strcmp(ts_node_type(first), "binary_expression") == 0 && cx_has_token(first, "+"); i++)
        first = ts_node_named_child(first, 0);
    bool self_sum = cx_has_token(n, "=") && !ts_node_eq(first, r) && cx_text_eq(cx_node_text(w, first), name);
    if ((!plus_eq && !self_sum) || !declared_as(w, name, strings)) return;
    char what[128];
    snprintf(what, sizeof what, "`%.*s %s` on a string (a new string, copying the old one)", cx_shown(name), name.s,
             plus_eq ? "+= ..." : "= itself + ...");
    linear_term(w, n, "copying_concatenation", what, (int)strlen(what));
}

/* python `del a[0]` (or `del a[:k]`) shifts every item after it: linear,
 * like a.pop(0). */
static void note_front_delete(struct cx_walk *w, TSNode n) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode t = ts_node_named_child(n, i);
        if (strcmp(ts_node_type(t), "subscript") != 0) continue;
        TSNode idx = cx_field(t, "subscript");
        struct cx_text it = cx_node_text(w, idx);
        bool front = cx_text_is(it, "0") || (!ts_node_is_null(idx) && strcmp(ts_node_type(idx), "slice") == 0 &&
                                             it.n > 1 && (it.s[0] == ':' || (it.s[0] == '0' && it.s[1] == ':')));
        int k = kind_of(w, cx_node_text(w, cx_field(t, "value")));
        if (!front || (k >= 0 && w->kinds[k].kind == CX_KIND_HASH)) continue; /* a dict's key 0 */
        char what[96];
        struct cx_text a = cx_node_text(w, t);
        snprintf(what, sizeof what, "`del %.*s` (every later item shifts)", cx_shown(a), a.s);
        linear_term(w, n, "linear_call", what, (int)strlen(what));
        return;
    }
}

void cx_refine_node(struct cx_walk *w, TSNode n, const char *type) {
    TSNode name, value;
    if (name_and_value(n, type, &name, &value)) {
        note_halving(w, name, value);
        note_split(w, name, value);
        cx_note_shrunk(w, name, value);
    }
    static const char *const spreading[] = {"array", "object", "list", "tuple", "set", "dictionary", "arguments",
        "argument_list", NULL};
    if (cx_type_is(n, spreading)) note_spread(w, n);
    if (!w->python) {
        note_string_append(w, n);
        return;
    }
    if (strcmp(type, "assignment") == 0) note_assignment(w, n);
    else if (strcmp(type, "comparison_operator") == 0) note_membership(w, n);
    else if (strcmp(type, "subscript") == 0) note_slice(w, n);
    else if (strcmp(type, "binary_operator") == 0) note_repetition(w, n);
    else if (strcmp(type, "delete_statement") == 0) note_front_delete(w, n);
}

/* ---- calls ---- */


static uint32_t argument_count(TSNode call) {
    TSNode args = cx_field(call, "arguments");
    return ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
}

static bool is_sort_call(const struct cx_walk *w, TSNode call, struct cx_text callee) {
    static const char *const sorts[] = {"sort", "sorted", "sort_by", "sort_by_key", "sort_unstable",
        "sort_unstable_by", "sort_unstable_by_key", "qsort", "stable_sort", "sort_by_cached_key", "toSorted",
        /* Kotlin, C# */
        "sortBy", "sortedBy", "sortWith", "sortedWith", "sortByDescending", "sortedByDescending", "sortDescending",
        "sortedDescending", "Sort", "OrderBy", "OrderByDescending", NULL};
    if (cx_in_list(callee, sorts)) return true;
    TSNode f = cx_field(call, "function");
    if (ts_node_is_null(f)) return false;
    struct cx_text t = cx_node_text(w, f); /* Go: sort.Ints, sort.Slice, slices.Sort */
    return (t.n > 5 && memcmp(t.s, "sort.", 5) == 0) || cx_text_is(t, "slices.Sort");
}

/* The receiver of a method call (the callee text before its last
 * separator), or an empty text for a plain call. */
static struct cx_text receiver(const struct cx_walk *w, TSNode call, struct cx_text callee) {
    TSNode f = cx_field(call, "function");
    TSNode obj = cx_field(call, "object"); /* Java: method_invocation's object */
    if (ts_node_is_null(f) && !ts_node_is_null(obj)) return cx_node_text(w, obj);
    if (ts_node_is_null(f) && ts_node_named_child_count(call) > 0 &&
        strcmp(ts_node_type(ts_node_named_child(call, 0)), "navigation_expression") == 0)
        f = ts_node_named_child(call, 0); /* Kotlin: b.contains(x) */
    if (ts_node_is_null(f) || callee.n == (size_t)-1) return (struct cx_text){"", 0};
    struct cx_text t = cx_node_text(w, f);
    size_t cut = (size_t)(callee.s - t.s);
    if (callee.s < t.s || cut > t.n) return (struct cx_text){"", 0};
    while (cut > 0 && (t.s[cut - 1] == '.' || t.s[cut - 1] == '>' || t.s[cut - 1] == ':' || t.s[cut - 1] == '-'))
        cut--;
    return (struct cx_text){t.s, cut};
}

/* Outside python: is name declared as a set or map in the source? A
 * declaration is an occurrence of the name with a set or map type or
 * constructor before it on its line (`Set<String> seen`, `std::set<int>
 * s`, `seen := map[int]bool{}`, `let mut m = HashMap::new()`). Text only:
 * the tree shows no types the walk keeps. */
static bool declared_as(struct cx_walk *w, struct cx_text name, const char *const *types) {
    if (name.n == 0 || name.n > 64 || name.n == SIZE_MAX) return false;
    /* Bounded: a source with many such calls is scanned for the first
     * CX_TYPE_SCANS of them; the rest read as undeclared (an upper bound). */
    if (w->type_scans >= CX_TYPE_SCANS) return false;
    w->type_scans++;
    size_t len = w->len < CX_TYPE_SCAN_BYTES ? w->len : CX_TYPE_SCAN_BYTES;
    for (size_t i = 0; i + name.n <= len; i++) {
        if (memcmp(w->src + i, name.s, name.n) != 0 || (i > 0 && cx_is_word((unsigned char)w->src[i - 1])) ||
            (i + name.n < w->len && cx_is_word((unsigned char)w->src[i + name.n])))
            continue;
        size_t from = i;
        while (from > 0 && w->src[from - 1] != '\n' && i - from < 80) from--;
        size_t to = i + name.n;
        while (to < w->len && w->src[to] != '\n' && w->src[to] != ';' && to - i < 80) to++;
        for (size_t k = 0; types[k]; k++)
            if (cx_has_text(w->src + from, to - from, types[k])) return true;
    }
    return false;
}

static bool declared_hash(struct cx_walk *w, struct cx_text name) {
    static const char *const hashes[] = {"Set", "Map", "set<", "map<", "map[", "unordered_", "Dictionary", "dict",
                                         NULL};
    return declared_as(w, name, hashes);
}

/* Outside python, methods whose cost depends on a type the tree does not
 * show: `contains` scans a String or a List (Java), a Vec (Rust), but not
 * a set or map; C++'s insert/erase at begin() shift a vector. */
static bool linear_outside_python(struct cx_walk *w, TSNode call, struct cx_text callee, struct cx_text recv) {
    if (cx_text_is(callee, "contains") || cx_text_is(callee, "remove"))
        return !declared_hash(w, recv);
    if (cx_text_is(callee, "insert") || cx_text_is(callee, "erase")) {
        TSNode args = cx_field(call, "arguments");
        if (ts_node_is_null(args) || ts_node_named_child_count(args) == 0) return false;
        struct cx_text a = cx_node_text(w, ts_node_named_child(args, 0));
        return a.n != SIZE_MAX && cx_has_text(a.s, a.n, "begin()");
    }
    return false;
}

/* C#'s LINQ operators enumerate their source: Sum, Max, ToList... always;
 * Count, Any, All, First, Last with a predicate (without one, Count() and
 * Any() of a collection read its size); Contains unless the receiver is
 * declared a set or dictionary. */
static bool linq_scan(struct cx_walk *w, TSNode call, struct cx_text callee, struct cx_text recv) {
    static const char *const always[] = {"Where", "Select", "Sum", "Max", "Min", "Average", "ToList", "ToArray",
        "ToDictionary", "ToHashSet", "Distinct", "Reverse", "Aggregate", "SequenceEqual", "IndexOf",
        "SelectMany", "Skip", "Concat", NULL};
    static const char *const with_predicate[] = {"Count", "Any", "All", "First", "FirstOrDefault", "Last",
        "LastOrDefault", "Single", "SingleOrDefault", NULL};
    if (cx_text_is(callee, "Contains")) return !declared_hash(w, recv);
    return cx_in_list(callee, always) || (cx_in_list(callee, with_predicate) && argument_count(call) >= 1);
}

/* Calls that shift or copy every item whatever the receiver's type: an
 * insert or removal at index 0 of a list or string (C#'s Insert(0, x) and
 * RemoveAt(0), Java's and Kotlin's add(0, x) and removeAt(0), Java's
 * StringBuilder and Rust's Vec insert(0, x)), unless the receiver is
 * declared a map or set; and Go's
 * append(xs, ys...), which copies ys (append([]int{x}, res...) prepends by
 * copying all of res). */
static bool shifting_call(struct cx_walk *w, TSNode call, struct cx_text callee) {
    static const char *const at_index[] = {"Insert", "RemoveAt", "add", "removeAt", "insert", NULL};
    TSNode args = cx_field(call, "arguments");
    uint32_t k = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    if (k == 0) return false;
    TSNode first = ts_node_named_child(args, 0), last = ts_node_named_child(args, k - 1);
    if (strcmp(ts_node_type(first), "value_argument") == 0 || strcmp(ts_node_type(first), "argument") == 0)
        first = ts_node_named_child_count(first) ? ts_node_named_child(first, 0) : first; /* Kotlin, C# */
    if (cx_text_is(callee, "append")) return strcmp(ts_node_type(last), "variadic_argument") == 0;
    bool two = cx_text_is(callee, "Insert") || cx_text_is(callee, "add") || cx_text_is(callee, "insert");
    if (!cx_in_list(callee, at_index) || k != (two ? 2u : 1u) || !cx_text_is(cx_node_text(w, first), "0")) return false;
    /* a map's insert(0, v) or add(0, v) puts the key 0: no shift */
    return !declared_hash(w, receiver(w, call, callee));
}

static bool has_callback(TSNode call);

/* Go's strings, bytes and slices functions walk their input
 * (strings.Contains(text, w) in a loop over words is O(n * m)); a prefix
 * test, a binary search, a builder are not scans. */
static bool go_package_scan(const struct cx_walk *w, struct cx_text recv, struct cx_text callee) {
    static const char *const pkgs[] = {"strings", "bytes", "slices", NULL};
    static const char *const not_scans[] = {"HasPrefix", "HasSuffix", "BinarySearch", "BinarySearchFunc", "NewReader",
                                            "NewReplacer", "NewBuffer", "NewBufferString", "Builder", "Buffer", NULL};
    return strcmp(w->lang, "go") == 0 && cx_in_list(recv, pkgs) && !cx_in_list(callee, not_scans);
}

/* Rust: an iterator's consumers walk it (b.iter().position(|y| y == x),
 * .any(..), .sum(), .max()) when the receiver is an iterator over a
 * collection (iter(), chars(), bytes(), keys(), values(), lines(),
 * split..); x.max(y) of two numbers is not one. A clone or to_vec copies
 * what it is called on. */
static bool rust_scan(const struct cx_walk *w, struct cx_text recv, struct cx_text callee) {
    static const char *const consumers[] = {"position", "rposition", "any", "all", "sum", "product", "max", "min",
        "fold", "collect", "max_by_key", "min_by_key", "max_by", "min_by", "for_each", "last", NULL};
    static const char *const iters[] = {"iter()", "iter_mut()", "into_iter()", "chars()", "bytes()", "keys()",
        "values()", "lines()", "split", NULL};
    static const char *const copies[] = {"clone", "to_vec", "to_owned", NULL};
    if (strcmp(w->lang, "rust") != 0 || recv.n == 0 || recv.n == SIZE_MAX) return false;
    if (cx_in_list(callee, copies)) return !cx_text_is(recv, "Rc") && !cx_text_is(recv, "Arc"); /* a count bump */
    if (!cx_in_list(callee, consumers)) return false;
    for (const char *const *i = iters; *i; i++)
        if (cx_has_text(recv.s, recv.n, *i)) return true;
    return false;
}

static bool is_linear_call(struct cx_walk *w, TSNode call, struct cx_text callee) {
    static const char *const methods[] = {"index", "count", "remove", "insert", "join", "indexOf", "repeat",
        "padStart", "padEnd", "substring", "substr", "replace", "replaceAll", "nth",
        "lastIndexOf", "includes", "splice", "shift", "unshift", "concat", "find", "findIndex", "filter",
        "map", "reduce", "some", "every", "slice", "copy", "deepcopy", "reverse", "fill", "heapify", NULL};
    static const char *const builtins[] = {"sum", "min", "max", "any", "all", "list", "tuple", "reversed", "set",
        "frozenset", "dict", "heapify", NULL};
    /* C's string and memory functions walk their whole input (strlen(s) in
     * a loop's condition runs every iteration) */
    static const char *const cstring[] = {"strlen", "wcslen", "strcpy", "strcat", "strcmp", "strstr", "strchr",
        "strrchr", "strdup", "memcpy", "memmove", "memset", "memcmp", "memchr", NULL};
    struct cx_text recv = receiver(w, call, callee);
    if (!w->python && shifting_call(w, call, callee)) return true;
    if (go_package_scan(w, recv, callee) || rust_scan(w, recv, callee)) return true;
    if (recv.n == 0)
        return (cx_in_list(callee, builtins) && argument_count(call) == 1) || (!w->python && cx_in_list(callee, cstring)) ||
               (!w->python && cx_text_is(callee, "copy") && argument_count(call) == 2); /* Go's copy(dst, src) */
    /* Object.keys/values/entries build an array of every key (python's
     * dict.keys() is a view: not this) */
    if (cx_text_is(recv, "Object") && (cx_text_is(callee, "keys") || cx_text_is(callee, "values") ||
                                      cx_text_is(callee, "entries")))
        return true;
    if (cx_text_is(recv, "Array") && cx_text_is(callee, "from")) return true; /* a new array of every item */
    if (cx_text_is(callee, "pop")) {
        TSNode args = cx_field(call, "arguments");
        return !ts_node_is_null(args) && ts_node_named_child_count(args) == 1 &&
               cx_text_is(cx_node_text(w, ts_node_named_child(args, 0)), "0");
    }
    /* a C++ map's or set's find and count look one key up */
    if (!w->python && (cx_text_is(callee, "find") || cx_text_is(callee, "count")) && argument_count(call) == 1 &&
        !has_callback(call) && declared_hash(w, recv))
        return false;
    if (!w->python && (cx_text_is(callee, "contains") || cx_text_is(callee, "remove") || cx_text_is(callee, "insert") ||
                       cx_text_is(callee, "erase")))
        return linear_outside_python(w, call, callee, recv);
    if (strcmp(w->lang, "csharp") == 0 && linq_scan(w, call, callee, recv)) return true;
    if (!cx_in_list(callee, methods)) return false;
    int k = w->python ? kind_of(w, recv) : -1;
    return !(k >= 0 && w->kinds[k].kind == CX_KIND_HASH && cx_text_is(callee, "remove")); /* set.remove is O(1) */
}

/* How a call names an enclosing function (the innermost of that name). */
static struct cx_fn *enclosing(struct cx_walk *w, struct cx_text callee) {
    for (size_t i = w->nfns; i > 0; i--)
        if (cx_text_eq(callee, w->fns[i - 1].ref_name) && !cx_text_is(callee, "<anonymous>")) return &w->fns[i - 1];
    return NULL;
}

/* The call is the whole value of a return: return f(x). */
static bool is_returned(TSNode call) {
    TSNode p = ts_node_parent(call);
    if (!ts_node_is_null(p) && strcmp(ts_node_type(p), "expression_list") == 0 && ts_node_named_child_count(p) == 1)
        p = ts_node_parent(p);
    if (ts_node_is_null(p)) return false;
    const char *t = ts_node_type(p);
    return (strcmp(t, "return_statement") == 0 || strcmp(t, "return_expression") == 0 || strcmp(t, "return") == 0) &&
           ts_node_named_child_count(p) == 1;
}

/* f(n // 2), f(a[:mid]), f(lo, mid - 1), f(a[:m]) after m = len(a) // 2:
 * an argument that halves the input. */
static bool halves(const struct cx_walk *w, TSNode call) {
    TSNode args = cx_field(call, "arguments");
    if (ts_node_is_null(args)) return false;
    char flat[256];
    size_t n = cx_flatten(cx_node_text(w, args), flat, sizeof flat);
    return cx_halving_text(flat, n) || cx_has_word(flat, n, "mid") || cx_has_word(flat, n, "half") ||
           cx_has_word(flat, n, "middle") || cx_mentions(&w->halving, flat, n);
}

/* f(left), f(a, lo, p - 1), f([x for x in a if x < p]): an argument that is
 * one side of a partition of the input. */
static bool splits(const struct cx_walk *w, TSNode call) {
    TSNode args = cx_field(call, "arguments");
    if (ts_node_is_null(args)) return false;
    char flat[256];
    size_t n = cx_flatten(cx_node_text(w, args), flat, sizeof flat);
    return cx_mentions(&w->split, flat, n) || splitting_value(w, args);
}

/* C++'s find/count on a std::map or std::set (a balanced tree: O(log n));
 * an unordered one is O(1) (is_linear_call leaves both out of the scans). */
static bool ordered_lookup(struct cx_walk *w, TSNode call, struct cx_text callee) {
    static const char *const ordered[] = {"map<", "set<", NULL}, *const hashed[] = {"unordered_", NULL};
    if (strcmp(w->lang, "cpp") != 0 || !(cx_text_is(callee, "find") || cx_text_is(callee, "count")) ||
        argument_count(call) != 1)
        return false;
    struct cx_text recv = receiver(w, call, callee);
    return declared_as(w, recv, ordered) && !declared_as(w, recv, hashed);
}

/* A call that costs O(log n): a binary heap's push and pop, a binary
 * search. Only names that mean nothing else (Go's heap.Push by its
 * package); a plain push/pop/add is left alone. */
static bool is_log_call(struct cx_walk *w, TSNode call, struct cx_text callee) {
    static const char *const names[] = {"heappush", "heappop", "heapreplace", "heappushpop", "bisect_left",
        "bisect_right", "push_heap", "pop_heap", "lower_bound", "upper_bound", "equal_range", "binary_search",
        "binarySearch", NULL};
    if (cx_in_list(callee, names)) return true;
    if (cx_text_is(callee, "bisect")) return argument_count(call) >= 2; /* bisect.bisect(a, x), not a module */
    if (ordered_lookup(w, call, callee)) return true;
    TSNode f = cx_field(call, "function");
    if (ts_node_is_null(f)) return false;
    struct cx_text t = cx_node_text(w, f);
    return cx_text_is(t, "heap.Push") || cx_text_is(t, "heap.Pop") || cx_text_is(t, "heap.Fix");
}

static void log_term(struct cx_walk *w, TSNode call, struct cx_text callee) {
    struct cx_cost c = cx_cost_here(w, 0);
    c.log++;
    char cost[64];
    cx_consider(w, c);
    uint32_t line = cx_line(call);
    int loops = w->rdepth + w->sdepth + w->ldepth;
    if (loops)
        cx_refinement(w, "log_call", line, "%.*s(...) at line %u takes O(log n), inside %d loop level(s): %s",
                      cx_shown(callee), callee.s, line, loops, cx_cost_text(c, cost, sizeof cost));
    else
        cx_refinement(w, "log_call", line, "%.*s(...) at line %u takes O(log n): %s", cx_shown(callee), callee.s, line,
                      cx_cost_text(c, cost, sizeof cost));
}

void cx_refine_call(struct cx_walk *w, TSNode call, struct cx_text callee) {
    struct cx_fn *f = enclosing(w, callee);
    if (!f) cx_record_call(w, call, callee);
    if (f) {
        f->self_calls++;
        f->tail_calls += is_returned(call);
        f->halving_calls += halves(w, call);
        f->split_calls += splits(w, call);
        if (w->rdepth > f->rdepth_at_entry) {
            f->self_call_in_loop = true;
            f->looped_calls++;
            cx_classify_looped_call(w, call, f);
        }
        return;
    }
    if (is_sort_call(w, call, callee)) {
        w->any_sort_call = true;
        int depth = w->rdepth - in_loop_header(w, call);
        struct cx_cost c = cx_cost_here(w, 1 + depth - w->rdepth);
        c.log++;
        cx_consider(w, c);
        cx_body_work(w, depth + 1);
        if (depth > 0) {
            char cost[64];
            uint32_t line = cx_line(call);
            cx_refinement(w, "sort_in_loop", line, "%.*s(...) at line %u sorts inside %d loop level(s): %s",
                          cx_shown(callee), callee.s, line, depth, cx_cost_text(c, cost, sizeof cost));
        }
        return;
    }
    if (is_log_call(w, call, callee)) {
        log_term(w, call, callee);
        return;
    }
    if (is_linear_call(w, call, callee)) {
        char what[96];
        snprintf(what, sizeof what, "%.*s(...)", cx_shown(callee), callee.s);
        linear_term(w, call, "linear_call", what, (int)strlen(what));
    }
}

static const char *const fn_literals[] = {"arrow_function", "function_expression", "function", "lambda",
    "lambda_expression", "func_literal", "closure_expression", "lambda_literal", "annotated_lambda", NULL};

/* A function literal among value_arguments or an annotated lambda (Kotlin). */
static bool kotlin_argument_callback(TSNode a) {
    if (cx_type_is(a, fn_literals)) return true;
    if (strcmp(ts_node_type(a), "value_arguments") != 0) return false;
    for (uint32_t k = 0; k < ts_node_named_child_count(a) && k < 16; k++) {
        TSNode v = ts_node_named_child(a, k);
        if (ts_node_named_child_count(v) && cx_type_is(ts_node_named_child(v, 0), fn_literals)) return true;
    }
    return false;
}

/* Kotlin's call has no field names: its arguments and a trailing lambda
 * (`a.map { x -> ... }`) are its children (in a call_suffix in some
 * versions of the grammar). */
static bool kotlin_callback(TSNode call) {
    for (uint32_t i = 0; i < ts_node_named_child_count(call) && i < 16; i++) {
        TSNode ch = ts_node_named_child(call, i);
        if (kotlin_argument_callback(ch)) return true;
        if (strcmp(ts_node_type(ch), "call_suffix") != 0) continue;
        for (uint32_t j = 0; j < ts_node_named_child_count(ch) && j < 16; j++)
            if (kotlin_argument_callback(ts_node_named_child(ch, j))) return true;
    }
    return false;
}

/* A function literal among the call's arguments (a callback). */
static bool has_callback(TSNode call) {
    static const char *const *const fns = fn_literals;
    TSNode args = cx_field(call, "arguments");
    if (ts_node_is_null(args)) return kotlin_callback(call);
    uint32_t c = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < c && i < 16; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (strcmp(ts_node_type(a), "keyword_argument") == 0) a = cx_field(a, "value");
        else if (strcmp(ts_node_type(a), "argument") == 0 && ts_node_named_child_count(a)) /* C# */
            a = ts_node_named_child(a, ts_node_named_child_count(a) - 1);
        if (!ts_node_is_null(a) && cx_type_is(a, fns)) return true;
    }
    return false;
}

/* `res = res.concat(res.map(s => [...s, x]))` or `res.push(...res.map(...))`
 * in a loop over n: what the callback makes is added back to the
 * collection it runs over, which doubles each time round: 2^n items in
 * all, n * 2^n when each is a list copied from an old one (a spread, a
 * slice, a concat in the callback). */
static void note_doubling_callback(struct cx_walk *w, TSNode call) {
    struct cx_text callee = cx_callee(w, call), recv = receiver(w, call, callee);
    if (w->nnloops == 0 || recv.n == 0 || recv.n > 60 || !cx_is_name(recv)) return;
    struct cx_text outer = cx_node_text(w, w->nloops[w->nnloops - 1]), cb = cx_node_text(w, cx_field(call, "arguments"));
    if (outer.n > 8192 || cb.n > 2048) return;
    char flat[8192], cflat[2048], pat[3][80];
    size_t n = cx_flatten(outer, flat, sizeof flat), cn = cx_flatten(cb, cflat, sizeof cflat);
    snprintf(pat[0], sizeof pat[0], "%.*s=%.*s.concat(", (int)recv.n, recv.s, (int)recv.n, recv.s);
    snprintf(pat[1], sizeof pat[1], "%.*s.push(...", (int)recv.n, recv.s);
    snprintf(pat[2], sizeof pat[2], "%.*s=[...%.*s,", (int)recv.n, recv.s, (int)recv.n, recv.s);
    bool fed = false;
    for (int i = 0; i < 3 && !fed; i++) fed = cx_has_text(flat, n, pat[i]);
    if (!fed) return;
    bool copies = cx_has_text(cflat, cn, "...") || cx_has_text(cflat, cn, ".slice(") || cx_has_text(cflat, cn, ".concat(");
    struct cx_cost c = {.exp = true, .k = copies};
    cx_consider(w, c);
    char cost[64];
    uint32_t line = cx_line(call);
    cx_refinement(w, "growing_collection", line,
                  "%.*s.%.*s(...) at line %u makes one item per item of %.*s, and the loop around it adds them back: "
                  "the collection doubles each time round, 2^n items in all%s: %s", cx_shown(recv), recv.s,
                  cx_shown(callee), callee.s, line, cx_shown(recv), recv.s,
                  copies ? ", each a list copied from an old one" : "", cx_cost_text(c, cost, sizeof cost));
}

void cx_refine_call_scope(struct cx_walk *w, TSNode call, struct cx_text callee, struct cx_factor *fac) {
    /* JS and Java streams; Rust's iterator adaptors; Kotlin's collection
     * functions; C#'s LINQ */
    static const char *const each[] = {"map", "filter", "reduce", "reduceRight", "forEach", "some", "every", "find",
        "findIndex", "findLast", "findLastIndex", "flatMap", "anyMatch", "allMatch", "noneMatch",
        "filter_map", "flat_map", "any", "all", "position", "for_each", "fold", "take_while", "skip_while",
        "max_by_key", "min_by_key", "none", "count", "sumOf", "mapIndexed", "forEachIndexed", "mapNotNull",
        "filterNot", "first", "firstOrNull", "indexOfFirst", "groupBy", "associate", "associateBy",
        "Select", "Where", "SelectMany", "Any", "All", "Count", "First", "FirstOrDefault", "Last", "ForEach",
        "Sum", "Max", "Min", "Aggregate", "GroupBy", "ToDictionary", NULL};
    static const char *const sorting[] = {"sort", "sorted", "sort_by", "sort_by_key", "toSorted", "sort_unstable_by",
        "sort_unstable_by_key", "sort_by_cached_key", "sortBy", "sortedBy", "sortWith", "sortedWith",
        "sortByDescending", "sortedByDescending", "OrderBy", "OrderByDescending", "ThenBy", NULL};
    *fac = (struct cx_factor){0};
    if (enclosing(w, callee) || !has_callback(call)) return;
    bool sorts = cx_in_list(callee, sorting), iterates = cx_in_list(callee, each) ||
        (cx_text_is(callee, "from") && cx_text_is(receiver(w, call, callee), "Array")); /* Array.from(xs, f) */
    if (!sorts && !iterates) return;
    if (iterates) note_doubling_callback(w, call);
    /* the callback runs once per item (a comparator n log n times) */
    *fac = (struct cx_factor){.r = 1, .l = sorts};
    w->rdepth += fac->r, w->ldepth += fac->l;
    uint32_t line = cx_line(call);
    cx_refinement(w, "callback_loop", line,
                  "the function passed to %.*s(...) at line %u runs once per item%s: what it does is inside a loop "
                  "over n", cx_shown(callee), callee.s, line, sorts ? " (a comparator or key: n log n times)" : "");
}

/* ---- functions and recursion ---- */

void cx_refine_function(struct cx_walk *w, TSNode fn, struct cx_fn *f) {
    f->entry = cx_cost_here(w, 0);
    if (w->python) cx_param_kinds_enter(w, fn, f);
    if (cx_memo_table(w, fn)) f->memoized = true;
    TSNode p = ts_node_parent(fn);
    if (!w->python || ts_node_is_null(p) || strcmp(ts_node_type(p), "decorated_definition") != 0) return;
    uint32_t c = ts_node_named_child_count(p);
    for (uint32_t i = 0; i < c; i++) {
        TSNode d = ts_node_named_child(p, i);
        if (strcmp(ts_node_type(d), "decorator") != 0) continue;
        struct cx_text t = cx_node_text(w, d);
        if (cx_has_text(t.s, t.n, "cache") || cx_has_text(t.s, t.n, "memo")) f->memoized = f->memo_kept = true;
    }
}

/* A python function of exactly one plain parameter: its memo's states are
 * the values of that one argument. */
static bool one_parameter(TSNode fn) {
    TSNode ps = ts_node_child_by_field_name(fn, "parameters", 10);
    return !ts_node_is_null(ps) && ts_node_named_child_count(ps) == 1 &&
           strcmp(ts_node_type(ts_node_named_child(ps, 0)), "identifier") == 0;
}

/* T(n) = 2 T(n/2) + n^k, by the master theorem. */
static struct cx_cost halves_twice(int k) {
    if (k == 0) return (struct cx_cost){.k = 1, .log = 0, .exp = false};
    if (k == 1) return (struct cx_cost){.k = 1, .log = 1, .exp = false};
    return (struct cx_cost){.k = k, .log = 0, .exp = false};
}

/* A function calling itself inside a loop of its own: a DFS that enters
 * each vertex once, subsets (each call takes the items after i), a
 * permutation-style search (each level one item fewer), or, with nothing
 * that bounds it, up to n^n calls (n levels of n branches). */
static struct cx_cost looped_recursion(struct cx_walk *w, const struct cx_fn *f) {
    int name_len = cx_shown(f->ref_name);
    const char *name = f->ref_name.s;
    char cost[64];
    struct cx_cost c;
    int n = f->looped_calls;
    if (f->visited_calls == n) {
        c = (struct cx_cost){.k = f->body_k > 1 ? f->body_k : 1, .graph = true};
        cx_refinement(w, "visited_recursion", f->line,
                      "'%.*s' calls itself in a loop only for a vertex its visited collection has not marked, and "
                      "marks it for good: each vertex is entered once and each edge looked at O(1) times: %s",
                      name_len, name, cx_cost_text(c, cost, sizeof cost));
    } else if (f->structural_calls == n) {
        c = (struct cx_cost){.exp = true};
        cx_refinement(w, "structural_recursion", f->line,
                      "'%.*s' calls itself in a loop on parts of its argument (a child, a field, an element): one "
                      "call per part, O(n) in all when the structure is a tree; parts shared by several parents (a "
                      "DAG) make it up to O(2^n), the bound given", name_len, name);
    } else if (f->subset_calls == n) {
        c = (struct cx_cost){.exp = true};
        cx_refinement(w, "subset_recursion", f->line,
                      "'%.*s' calls itself in a loop on the items after the loop's counter: one call per subset, "
                      "O(2^n) calls", name_len, name);
    } else if (f->visited_calls + f->subset_calls + f->shrinking_calls + f->guarded_calls + f->structural_calls == n) {
        c = (struct cx_cost){.k = 1, .fact = 1};
        cx_refinement(w, "permutation_recursion", f->line,
                      "'%.*s' calls itself in a loop on a smaller or filtered choice (a test or a shrunk input "
                      "before each call): up to n * (n-1) * ... = n! paths with O(n) work at each leaf, an upper "
                      "bound: %s", name_len, name, cx_cost_text(c, cost, sizeof cost));
    } else {
        c = (struct cx_cost){.fact = 2};
        cx_refinement(w, "looped_recursion", f->line,
                      "'%.*s' calls itself inside a loop with nothing seen to shrink or prune the choice: up to n "
                      "levels of n branches, O(n^n) at most (an upper bound; pruning makes it less)",
                      name_len, name);
    }
    return c;
}

void cx_refine_function_end(struct cx_walk *w, const struct cx_fn *f) {
    cx_param_kinds_leave(w, f);
    if (f->self_calls == 0) {
        cx_function_cost(w, f, (struct cx_cost){0}, false);
        return;
    }
    int name_len = cx_shown(f->ref_name);
    const char *name = f->ref_name.s;
    char cost[64], work[64];
    if (f->named_by_declarator)
        cx_refinement(w, "declarator_name", f->line,
                      "'%.*s' (line %u) is named by its declarator, which the spec's reading does not look at "
                      "(it lists the function as <anonymous>); it calls itself",
                      name_len, name, f->line);
    if (f->named_by_binding)
        cx_refinement(w, "binding_name", f->line,
                      "the anonymous function at line %u is bound to '%.*s' and calls itself through that name (the "
                      "spec's reading lists it as <anonymous> and sees no recursion)", f->line, name_len, name);
    cx_cost_text((struct cx_cost){.k = f->body_k, .log = 0, .exp = false}, work, sizeof work);
    /* Self-calls that are each a whole `return` are alternatives: one runs. */
    bool alternatives = f->self_calls > 1 && f->tail_calls == f->self_calls;
    int sites = alternatives ? 1 : f->self_calls;
    bool halving = f->halving_calls == f->self_calls, copies = false;
    int dims = 0, growth = 0;
    bool memo_total = false;
    struct cx_cost c = {.exp = true};
    if (cx_early_visit_guard(w, f->node)) {
        c = (struct cx_cost){.k = f->body_k > 1 ? f->body_k : 1, .graph = true};
        cx_refinement(w, "visited_recursion", f->line,
                      "'%.*s' returns at once for a state its visited collection has marked, and marks it for "
                      "good: each state is entered once, its %d self-call(s) each an edge looked at once: %s",
                      name_len, name, f->self_calls, cx_cost_text(c, cost, sizeof cost));
    } else if (f->self_call_in_loop) {
        c = looped_recursion(w, f);
    } else if (f->memoized && (dims = cx_memo_dimensions(w, f->node, f->ref_name)) > 0) {
        c = (struct cx_cost){.k = dims + f->body_k, .log = 0, .exp = false};
        memo_total = f->memo_kept && dims == 1 && one_parameter(f->node);
        char states[32] = "O(n)";
        if (dims > 1) snprintf(states, sizeof states, "O(n^%d)", dims);
        cx_refinement(w, "memoized_recursion", f->line,
                      "'%.*s' is memoised (a cache decorator or a table it looks up before computing and stores "
                      "into): each state is computed once, %s calls (%d argument(s) vary between its "
                      "self-calls) with %s work each: %s", name_len, name, states, dims, work,
                      cx_cost_text(c, cost, sizeof cost));
    } else if (sites == 1 && halving) {
        c = f->body_k ? (struct cx_cost){.k = f->body_k, .log = 0, .exp = false} : (struct cx_cost){.k = 0, .log = 1, .exp = false};
        cx_refinement(w, "halving_recursion", f->line,
                      "'%.*s' calls itself once per call%s on half its input: O(log n) calls with %s work each: %s",
                      name_len, name, alternatives ? " (its self-calls are alternative returns)" : "", work,
                      cx_cost_text(c, cost, sizeof cost));
    } else if (sites == 1 && (growth = cx_result_growth(w, f, &copies)) == 2) {
        c = (struct cx_cost){.exp = true, .k = copies};
        cx_refinement(w, "doubling_recursion", f->line,
                      "'%.*s' calls itself once per call and returns what that call returned at least twice over "
                      "(itself and one new item per item of it): the result doubles at every level, 2^n items "
                      "after n levels%s: %s", name_len, name, copies ? ", each built from an old one (up to n long)" : "",
                      cx_cost_text(c, cost, sizeof cost));
    } else if (sites == 1) {
        int body = growth == 1 && f->body_k < 1 ? 1 : f->body_k; /* r + [x] copies r: O(n) per call */
        c = (struct cx_cost){.k = 1 + body, .log = 0, .exp = false};
        if (body != f->body_k) cx_cost_text((struct cx_cost){.k = body}, work, sizeof work);
        cx_refinement(w, "single_recursion", f->line,
                      "'%.*s' calls itself once per call%s: a chain of O(n) calls with %s work each%s, not a tree "
                      "of calls: %s", name_len, name, alternatives ? " (its self-calls are alternative returns)" : "",
                      work, body != f->body_k ? " (it copies what its self-call returned, beside a literal)" : "",
                      cx_cost_text(c, cost, sizeof cost));
    } else if (sites == 2 && halving) {
        c = halves_twice(f->body_k);
        cx_refinement(w, "divide_and_conquer", f->line,
                      "'%.*s' calls itself twice on halves of its input with %s work per call: %s", name_len,
                      name, work, cx_cost_text(c, cost, sizeof cost));
    } else if (sites == 2 && f->split_calls == 2) {
        /* T(n) = T(k) + T(n - 1 - k) + partition work (at least linear):
         * the worst pivot every time leaves k = 0. */
        int k = f->body_k > 1 ? f->body_k : 1;
        c = (struct cx_cost){.k = 1 + k, .log = 0, .exp = false};
        cx_refinement(w, "partition_recursion", f->line,
                      "'%.*s' calls itself on the two sides of a partition of its input (quicksort's shape): "
                      "%s in the worst case (every pivot the smallest or largest), %s expected on random "
                      "input", name_len, name, cx_cost_text(c, cost, sizeof cost),
                      cx_cost_text(halves_twice(k), work, sizeof work));
    }
    cx_consider(w, c);
    cx_function_cost(w, f, c, memo_total);
}

void cx_refine_finish(struct cx_walk *w, bool spec_sort) {
    if (spec_sort && !w->any_sort_call)
        cx_refinement(w, "sort_not_called", 0,
                      "the spec's sort match is not a sort call in the parsed code (a comment, a string or "
                      "another name): no O(n log n) term");
    cx_compose_calls(w);
    w->r->refined = w->best;
    w->r->refined_valid = true;
}
#endif
