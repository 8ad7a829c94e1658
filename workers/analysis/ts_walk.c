/* The tree-sitter reading of TOOLS.md 3.5.1: parse, then walk the named
 * nodes (never into inert ones) counting loops and their nesting, naming
 * functions, and marking recursion when a call names a function that
 * lexically encloses it. The same walk drives the refinement model
 * (refine.c), which never changes what is counted here.
 *
 * The walk uses a tree cursor, not recursion, so no nesting depth in the
 * source can exhaust the stack, and every node is visited once. */
#if CC_HAVE_TREE_SITTER
#include "workers/analysis/ts_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "protocol/monotonic.h"

/* Parsing stops (and the fallback reads the source) after this long. */
#define PARSE_BUDGET_US (5 * 1000 * 1000)
/* At most this many names in `functions` (docs/contract.md). */
#define FUNCTIONS_MAX 1000

enum { K_NONE, K_INERT, K_LOOP, K_FUNCTION, K_CALL };

/* The class of each of a grammar's symbols, decided once per parse. */
struct kinds {
    signed char *of;
    uint32_t count;
};

static const char *const inert_types[] = {"comment", "string", "string_literal", "raw_string_literal",
    "line_comment", "block_comment", "char_literal", "string_content", NULL};
static const char *const loop_types[] = {"for_statement", "while_statement", "do_statement",
    "repeat_statement", "for_in_statement", "for_of_statement", "foreach_statement", "loop_statement",
    "for_range_loop", "while", "until", "for_expression", "while_expression", "loop_expression",
    "do_while_statement", "enhanced_for_statement", "for_in_clause", "list_comprehension",
    "generator_expression", NULL};
static const char *const function_types[] = {"function_definition", "function_declaration",
    "method_definition", "function_item", "method_declaration", "function", "fn_item",
    "arrow_function", "lambda", "subroutine", "procedure_declaration", "constructor_declaration",
    "function_expression", "method", NULL};
static const char *const call_types[] = {"call", "call_expression", "function_call",
    "method_invocation", "invocation_expression", "call_expression_statement", NULL};

/* type is one of list, or ends with "_" + one of list. */
static bool type_in(const char *type, const char *const *list) {
    size_t tl = strlen(type);
    for (; *list; list++) {
        size_t l = strlen(*list);
        if (tl == l && memcmp(type, *list, l) == 0) return true;
        if (tl > l + 1 && type[tl - l - 1] == '_' && memcmp(type + tl - l, *list, l) == 0) return true;
    }
    return false;
}

bool cx_is_loop_type(const char *type) { return type_in(type, loop_types); }

bool cx_is_function_type(const char *type) { return type_in(type, function_types); }

static int classify(const char *type) {
    if (type_in(type, inert_types)) return K_INERT;
    if (type_in(type, loop_types)) return K_LOOP;
    if (type_in(type, function_types)) return K_FUNCTION;
    if (type_in(type, call_types)) return K_CALL;
    return K_NONE;
}

/* ---- text helpers ---- */

struct cx_text cx_node_text(const struct cx_walk *w, TSNode n) {
    /* A field a grammar does not have is a null node, whose byte range
     * tree-sitter reads through a null tree (Rust's field_expression has
     * `value`, not C's `argument`: the worker died on `a.len()`). */
    if (ts_node_is_null(n)) return (struct cx_text){w->src, 0};
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (a > w->len) a = (uint32_t)w->len;
    if (b > w->len) b = (uint32_t)w->len;
    return (struct cx_text){w->src + a, b > a ? b - a : 0};
}

bool cx_text_eq(struct cx_text a, struct cx_text b) {
    return a.n == b.n && a.n != (size_t)-1 && memcmp(a.s, b.s, a.n) == 0;
}

bool cx_text_is(struct cx_text a, const char *lit) {
    return a.n == strlen(lit) && memcmp(a.s, lit, a.n) == 0;
}

uint32_t cx_line(TSNode n) { return ts_node_start_point(n).row + 1; }

struct cx_text cx_reduce_callee(struct cx_text t) {
    size_t look = t.n < CX_CMP_MAX + 2 ? t.n : CX_CMP_MAX + 2;
    for (size_t i = t.n; i > t.n - look; i--) {
        char c = t.s[i - 1];
        bool sep = c == '.' || (i >= 2 && ((c == '>' && t.s[i - 2] == '-') || (c == ':' && t.s[i - 2] == ':')));
        if (sep) return (struct cx_text){t.s + i, t.n - i};
    }
    if (t.n > CX_CMP_MAX) return (struct cx_text){t.s, (size_t)-1};
    return t;
}

struct cx_text cx_callee(const struct cx_walk *w, TSNode call) {
    TSNode f = ts_node_child_by_field_name(call, "function", 8);
    if (ts_node_is_null(f)) f = ts_node_child_by_field_name(call, "name", 4);
    if (ts_node_is_null(f)) f = ts_node_child(call, 0);
    if (ts_node_is_null(f)) return (struct cx_text){"", 0};
    return cx_reduce_callee(cx_node_text(w, f));
}

/* A name shown to the client: at most CX_NAME_MAX - 1 bytes, cut at a
 * UTF-8 character boundary. */
static size_t shown_len(struct cx_text t) {
    size_t n = t.n < CX_NAME_MAX - 1 ? t.n : CX_NAME_MAX - 1;
    if (n < t.n)
        while (n > 0 && ((unsigned char)t.s[n] & 0xC0) == 0x80) n--;
    return n;
}

/* ---- the spec's facts ---- */

static const struct cx_text anonymous = {"<anonymous>", 11};

/* The identifier a C/C++ function_definition declares: its declarator
 * chain down to the name. */
static struct cx_text declarator_name(const struct cx_walk *w, TSNode fn) {
    TSNode d = ts_node_child_by_field_name(fn, "declarator", 10);
    for (int hops = 0; !ts_node_is_null(d) && hops < 8; hops++) {
        TSNode inner = ts_node_child_by_field_name(d, "declarator", 10);
        if (ts_node_is_null(inner)) return cx_reduce_callee(cx_node_text(w, d));
        d = inner;
    }
    return (struct cx_text){"", 0};
}

/* The name an anonymous function is bound to: `const f = (x) => ...`,
 * `f = function (x) {...}`, python `f = lambda x: ...`; empty otherwise. */
static struct cx_text binding_name(const struct cx_walk *w, TSNode fn) {
    static const char *const forms[][2] = {{"variable_declarator", "name"}, {"assignment_expression", "left"},
        {"assignment", "left"}, {"short_var_declaration", "left"}, {"assignment_statement", "left"}};
    TSNode p = ts_node_parent(fn), value = fn;
    if (!ts_node_is_null(p) && strcmp(ts_node_type(p), "expression_list") == 0 && ts_node_named_child_count(p) == 1)
        value = p, p = ts_node_parent(p); /* Go: count := func(...) {...} */
    if (ts_node_is_null(p)) return (struct cx_text){"", 0};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        if (strcmp(ts_node_type(p), forms[i][0]) != 0) continue;
        TSNode v = ts_node_child_by_field_name(p, "value", 5);
        if (ts_node_is_null(v)) v = ts_node_child_by_field_name(p, "right", 5);
        TSNode name = ts_node_child_by_field_name(p, forms[i][1], (uint32_t)strlen(forms[i][1]));
        if (!ts_node_is_null(name) && strcmp(ts_node_type(name), "expression_list") == 0 &&
            ts_node_named_child_count(name) == 1)
            name = ts_node_named_child(name, 0);
        if (!ts_node_eq(v, value) || ts_node_is_null(name) || strcmp(ts_node_type(name), "identifier") != 0) break;
        return cx_node_text(w, name);
    }
    return (struct cx_text){"", 0};
}

/* spec: a function of 3.5.1's list (named in `functions`); else a
 * function literal only the refinement model reads (Go's func_literal). */
static int open_function(struct cx_walk *w, TSNode n, bool spec) {
    if (w->nfns == w->capfns) {
        size_t nc = w->capfns ? w->capfns * 2 : 16;
        struct cx_fn *nf = realloc(w->fns, nc * sizeof *nf);
        if (!nf) return -1;
        w->fns = nf, w->capfns = nc;
    }
    struct cx_fn *f = &w->fns[w->nfns++];
    memset(f, 0, sizeof *f);
    TSNode name = ts_node_child_by_field_name(n, "name", 4);
    f->spec_name = ts_node_is_null(name) ? anonymous : cx_node_text(w, name);
    f->ref_name = f->spec_name;
    if (ts_node_is_null(name)) {
        struct cx_text d = declarator_name(w, n);
        if (d.n && d.n != (size_t)-1) f->ref_name = d, f->named_by_declarator = true;
        else if ((d = binding_name(w, n)).n) f->ref_name = d, f->named_by_binding = true;
    }
    f->line = cx_line(n);
    f->node = n;
    f->rdepth_at_entry = w->rdepth;
    if (spec && json_array_size(w->r->functions) < FUNCTIONS_MAX)
        json_array_append_new(w->r->functions, json_stringn(f->spec_name.s, shown_len(f->spec_name)));
    cx_refine_function(w, n, f);
    return 0;
}

static void on_call(struct cx_walk *w, TSNode n) {
    struct cx_text callee = cx_callee(w, n);
    if (!w->r->recursion)
        for (size_t i = 0; i < w->nfns; i++)
            if (cx_text_eq(callee, w->fns[i].spec_name) && !cx_text_eq(callee, anonymous)) {
                w->r->recursion = true;
                snprintf(w->r->rec_name, sizeof w->r->rec_name, "%.*s", (int)shown_len(callee), callee.s);
                break;
            }
    cx_refine_call(w, n, callee);
}

/* What was opened at one depth of the walk, undone when it is left. */
struct frame {
    bool loop, function, counter, held;
    bool scope;                 /* a call whose callback scope opens at its arguments */
    TSNode call;
    struct cx_factor fac;       /* what the loop added to the depths */
};

/* Kotlin's call has no field names: its arguments are a child of one of
 * these types. */
static bool kotlin_arguments(TSNode n) {
    const char *t = ts_node_type(n);
    return strcmp(t, "call_suffix") == 0 || strcmp(t, "value_arguments") == 0 || strcmp(t, "annotated_lambda") == 0;
}

static bool kotlin_call_with_arguments(TSNode call) {
    for (uint32_t i = 0; i < ts_node_named_child_count(call) && i < 16; i++)
        if (kotlin_arguments(ts_node_named_child(call, i))) return true;
    return false;
}

/* Examine a node; returns whether to descend into it. */
static bool enter(struct cx_walk *w, TSNode n, const struct kinds *kinds, struct frame *fr, const struct frame *parent,
                  const char *field) {
    *fr = (struct frame){0};
    /* A callback's scope (it runs once per item, or n log n times for a
     * comparator) covers the call's arguments, not its receiver: in
     * a.map(f).sort(g), the map runs once, not once per comparison. */
    if (parent && parent->scope && (field ? strcmp(field, "arguments") == 0 : kotlin_arguments(n)))
        cx_refine_call_scope(w, parent->call, cx_callee(w, parent->call), &fr->fac);
    if (!ts_node_is_named(n)) return false;
    const char *type = ts_node_type(n);
    TSSymbol sym = ts_node_symbol(n); /* ERROR is 65535, beyond the grammar's symbols */
    int k = sym < kinds->count ? kinds->of[sym] : K_NONE;
    if (k == K_INERT) return false;
    if (k == K_LOOP) {
        fr->loop = true;
        w->r->loops++;
        if (++w->depth > w->r->max_nesting) w->r->max_nesting = w->depth;
        cx_refine_loop(w, n, type, &fr->fac, &fr->counter, &fr->held);
    } else if (k == K_FUNCTION) {
        fr->function = open_function(w, n, true) == 0;
    } else if (k == K_CALL) {
        on_call(w, n);
        fr->scope = !ts_node_is_null(ts_node_child_by_field_name(n, "arguments", 9)) || kotlin_call_with_arguments(n);
        fr->call = n;
        if (!fr->scope) cx_refine_call_scope(w, n, cx_callee(w, n), &fr->fac);
    } else if (strcmp(type, "func_literal") == 0) { /* not 3.5.1's: the refinement's alone */
        fr->function = open_function(w, n, false) == 0;
    } else {
        cx_refine_node(w, n, type);
    }
    return true;
}

static void leave(struct cx_walk *w, const struct frame *fr) {
    if (fr->loop) w->depth--;
    w->rdepth -= fr->fac.r, w->ldepth -= fr->fac.l, w->sdepth -= fr->fac.s;
    w->lldepth -= fr->fac.ll, w->fdepth -= fr->fac.f, w->gdepth -= fr->fac.g, w->edepth -= fr->fac.e;
    if (fr->counter && w->counters.n > 0) w->counters.n--;
    if (fr->held && w->nnloops > 0) w->nnloops--;
    if (fr->function && w->nfns > 0) {
        w->nfns--;
        cx_refine_function_end(w, &w->fns[w->nfns]);
    }
}

static int symbol_kinds(const TSLanguage *lang, struct kinds *k) {
    k->count = ts_language_symbol_count(lang);
    k->of = calloc(k->count ? k->count : 1, 1);
    if (!k->of) return -1;
    for (uint32_t s = 0; s < k->count; s++) {
        const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
        k->of[s] = (signed char)(name ? classify(name) : K_NONE);
    }
    return 0;
}

static int walk(struct cx_walk *w, TSTree *tree, const struct kinds *kinds) {
    TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
    struct frame *frames = NULL;
    size_t depth = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (depth == cap) {
            size_t nc = cap ? cap * 2 : 64;
            struct frame *nf = realloc(frames, nc * sizeof *nf);
            if (!nf) {
                rc = -1;
                break;
            }
            frames = nf, cap = nc;
        }
        bool descend = enter(w, ts_tree_cursor_current_node(&c), kinds, &frames[depth], depth ? &frames[depth - 1] : NULL,
                             ts_tree_cursor_current_field_name(&c));
        if (descend && ts_tree_cursor_goto_first_child(&c)) {
            depth++;
            continue;
        }
        leave(w, &frames[depth]);
        bool done = false;
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (!ts_tree_cursor_goto_parent(&c) || depth == 0) {
                done = true;
                break;
            }
            leave(w, &frames[--depth]);
        }
        if (done) break;
    }
    ts_tree_cursor_delete(&c);
    free(frames);
    return rc;
}

/* ---- parsing with a time budget ---- */

struct input {
    const char *s;
    uint32_t n;
};

static const char *read_input(void *payload, uint32_t at, TSPoint pos, uint32_t *got) {
    (void)pos;
    const struct input *in = payload;
    if (at >= in->n) {
        *got = 0;
        return "";
    }
    *got = in->n - at;
    return in->s + at;
}

static bool over_budget(TSParseState *st) {
    return cc_now_us() > *(const int64_t *)st->payload;
}

int cx_read_tree(const struct cc_grammar *g, const char *code, size_t len, struct cx_reading *r,
                 char *err, size_t errcap) {
    if (len > UINT32_MAX) {
        snprintf(err, errcap, "the source is larger than the parser's 4 GiB limit");
        return -1;
    }
    const TSLanguage *lang = g->language();
    TSParser *p = ts_parser_new();
    struct kinds kinds;
    if (symbol_kinds(lang, &kinds) < 0 || !p || !ts_parser_set_language(p, lang)) {
        snprintf(err, errcap, "the %s grammar (ABI %u) does not load", g->name, ts_language_abi_version(lang));
        if (p) ts_parser_delete(p);
        free(kinds.of);
        return -1;
    }
    struct input in = {code, (uint32_t)len};
    int64_t deadline = cc_now_us() + PARSE_BUDGET_US;
    TSInput input = {.payload = &in, .read = read_input, .encoding = TSInputEncodingUTF8};
    TSParseOptions opts = {.payload = &deadline, .progress_callback = over_budget};
    TSTree *tree = ts_parser_parse_with_options(p, NULL, input, opts);
    ts_parser_delete(p);
    if (!tree) {
        snprintf(err, errcap, "parsing took longer than %d s", PARSE_BUDGET_US / 1000000);
        free(kinds.of);
        return -1;
    }
    long visits = CX_RULE_VISITS;
    struct cx_walk *wp = calloc(1, sizeof *wp); /* large (call sites, costs): not on the stack */
    if (!wp) {
        snprintf(err, errcap, "out of memory while walking the tree");
        ts_tree_delete(tree);
        free(kinds.of);
        return -1;
    }
    struct cx_walk w_init = {.src = code, .len = len, .r = r, .python = strcmp(g->name, "python") == 0, .lang = g->name,
                             .visits_left = &visits};
    *wp = w_init;
    r->partial = ts_node_has_error(ts_tree_root_node(tree));
    int rc = walk(wp, tree, &kinds);
    if (rc == 0) cx_refine_finish(wp, cx_scan_sort(code, len));
    free(wp->fns);
    free(wp);
    free(kinds.of);
    ts_tree_delete(tree);
    if (rc < 0) snprintf(err, errcap, "out of memory while walking the tree");
    return rc;
}
#endif
