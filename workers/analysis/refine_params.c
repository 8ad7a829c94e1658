/* What a python function's parameters hold (docs/analysis.md
 * "linear_membership"): the kind the source shows for each, read when the
 * function opens. A parameter shadows a name outside, so a global set
 * never lends its O(1) lookups to a parameter of the same name. Shown by,
 * in order: an annotation (`memo: dict`), a default (`memo={}`), or every
 * call of the function in the source passing one kind at that position
 * (`fib(30, {})`), its self-calls passing the parameter itself on. */
#if CC_HAVE_TREE_SITTER
#include <string.h>

#include "workers/analysis/text_scan.h"

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_tree.h"
#include "workers/analysis/ts_walk.h"

/* Annotations whose `in` is a hash lookup, a scan, or a string search. */
static const char *const hash_types[] = {"dict", "Dict", "set", "Set", "frozenset", "FrozenSet", "defaultdict",
                                         "DefaultDict", "Counter", "OrderedDict", NULL};
static const char *const list_types[] = {"list", "List", "deque", "Deque", NULL};

/* The kind an annotation names: its last dotted part before any `[`
 * (typing.Dict[int, int] is Dict). Unions, Optional and protocols such
 * as Mapping or Sequence (a range is a Sequence) say nothing. */
static int annotation_kind(const struct cx_walk *w, TSNode type) {
    struct cx_text t = cx_node_text(w, type);
    size_t end = 0;
    while (end < t.n && t.s[end] != '[') end++;
    size_t start = end;
    while (start > 0 && t.s[start - 1] != '.') start--;
    struct cx_text head = {t.s + start, end - start};
    if (memchr(t.s, '|', t.n) || !cx_is_name(head)) return -1;
    if (cx_in_list(head, hash_types)) return CX_KIND_HASH;
    if (cx_in_list(head, list_types)) return CX_KIND_LIST;
    return cx_text_is(head, "str") ? CX_KIND_STR : -1;
}

/* One parameter: its name, position (-1 keyword-only), annotation and
 * default (null nodes when absent). */
struct param {
    struct cx_text name;
    int pos;
    TSNode type, value;
};

static bool read_param(const struct cx_walk *w, TSNode p, int pos, struct param *out) {
    const char *t = ts_node_type(p);
    TSNode name = {0};
    *out = (struct param){.pos = pos};
    if (strcmp(t, "identifier") == 0) name = p;
    else if (strcmp(t, "typed_parameter") == 0) name = ts_node_named_child(p, 0);
    else if (strcmp(t, "default_parameter") == 0 || strcmp(t, "typed_default_parameter") == 0)
        name = cx_field(p, "name");
    else return false;
    if (ts_node_is_null(name) || strcmp(ts_node_type(name), "identifier") != 0) return false;
    out->name = cx_node_text(w, name);
    out->type = cx_field(p, "type");
    out->value = cx_field(p, "value");
    return true;
}

/* The calls of one function in the whole source, for one parameter. */
struct call_scan {
    const struct cx_walk *w;
    struct cx_text fn_name;
    TSNode fn;
    struct param p;
    int default_kind;   /* what a call leaving the parameter out passes */
    int kind;           /* the one kind every outside call passes, -1 none yet */
    int outside_calls;
    bool mixed;         /* a call passes something else, or cannot be read */
};

/* The argument a call passes for the parameter: *passed false when it is
 * left out; false when the call cannot be read (a splat). */
static bool argument_for(const struct call_scan *s, TSNode args, TSNode *arg, bool *passed) {
    uint32_t n = ts_node_named_child_count(args);
    int pos = 0;
    *passed = false;
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        const char *t = ts_node_type(a);
        if (strcmp(t, "list_splat") == 0 || strcmp(t, "dictionary_splat") == 0) return false;
        if (strcmp(t, "keyword_argument") == 0) {
            if (cx_text_eq(cx_node_text(s->w, cx_field(a, "name")), s->p.name))
                *arg = cx_field(a, "value"), *passed = true;
            continue;
        }
        if (strcmp(t, "comment") == 0) continue;
        if (pos++ == s->p.pos) *arg = a, *passed = true;
    }
    return !*passed || !ts_node_is_null(*arg);
}

static bool scan_call(void *ctx, TSNode n) {
    struct call_scan *s = ctx;
    if (strcmp(ts_node_type(n), "call") != 0 || !cx_text_eq(cx_callee(s->w, n), s->fn_name)) return true;
    TSNode args = cx_field(n, "arguments"), arg = {0};
    bool passed;
    if (ts_node_is_null(args) || strcmp(ts_node_type(args), "argument_list") != 0 ||
        !argument_for(s, args, &arg, &passed)) {
        s->mixed = true;
        return false;
    }
    if (cx_inside(n, s->fn) && passed && strcmp(ts_node_type(arg), "identifier") == 0 &&
        cx_text_eq(cx_node_text(s->w, arg), s->p.name))
        return true; /* passed on unchanged by its own call */
    int k = passed ? cx_value_kind(s->w, arg) : s->default_kind;
    if (k < 0 || (s->kind >= 0 && k != s->kind)) {
        s->mixed = true;
        return false;
    }
    s->kind = k;
    s->outside_calls++;
    return true;
}

/* The kind every call passes for p, or -1. Methods (self first) are
 * called through an object whose position the scan does not follow. */
static int calls_kind(const struct cx_walk *w, TSNode fn, const struct param *p, int default_kind) {
    TSNode name = cx_field(fn, "name"), root = fn;
    if (ts_node_is_null(name) || p->pos < 0) return -1;
    for (TSNode up = ts_node_parent(root); !ts_node_is_null(up); up = ts_node_parent(up)) root = up;
    struct call_scan s = {.w = w, .fn_name = cx_node_text(w, name), .fn = fn, .p = *p,
                          .default_kind = default_kind, .kind = -1};
    if (cx_each_node(w, root, scan_call, &s) != CX_VISIT_DONE || s.mixed || s.outside_calls == 0) return -1;
    return s.kind;
}

/* The function tests membership in the name (`x in name`, `x not in
 * name`): only then is its kind worth a scan of every call, which spends
 * the walk's shared visit budget. */
static bool membership_on(const struct cx_walk *w, TSNode fn, struct cx_text name) {
    struct cx_text t = cx_node_text(w, fn);
    for (size_t i = 3; i + name.n <= t.n; i++) {
        if (memcmp(t.s + i, name.s, name.n) != 0 || (i + name.n < t.n && cx_is_word((unsigned char)t.s[i + name.n])))
            continue;
        if (memcmp(t.s + i - 3, "in ", 3) == 0 && (i == 3 || !cx_is_word((unsigned char)t.s[i - 4]))) return true;
    }
    return false;
}

static int param_kind(const struct cx_walk *w, TSNode fn, const struct param *p, bool method) {
    if (!ts_node_is_null(p->type)) {
        int k = annotation_kind(w, p->type);
        if (k >= 0) return k;
    }
    int d = ts_node_is_null(p->value) ? -1 : cx_value_kind(w, p->value);
    if (method || !membership_on(w, fn, p->name)) return d;
    int c = calls_kind(w, fn, p, d);
    return c >= 0 ? c : d;
}

void cx_param_kinds_enter(struct cx_walk *w, TSNode fn, struct cx_fn *f) {
    TSNode ps = cx_field(fn, "parameters");
    uint32_t n = ts_node_is_null(ps) ? 0 : ts_node_named_child_count(ps);
    struct param ps_read[CX_PARAMS_MAX];
    int pos = 0, count = 0;
    bool keyword_only = false, method = false;
    for (uint32_t i = 0; i < n; i++) {
        TSNode p = ts_node_named_child(ps, i);
        const char *t = ts_node_type(p);
        if (strcmp(t, "positional_separator") == 0) continue;
        struct param r;
        if (!read_param(w, p, keyword_only ? -1 : pos, &r)) {
            keyword_only |= strcmp(t, "keyword_separator") == 0 || strcmp(t, "list_splat_pattern") == 0;
            pos++;
            continue;
        }
        if (pos == 0 && (cx_text_is(r.name, "self") || cx_text_is(r.name, "cls"))) method = true;
        pos++;
        if (count == CX_PARAMS_MAX) {
            cx_set_kind(w, r.name, -1); /* not restored: unknown from here on */
            continue;
        }
        ps_read[count++] = r;
    }
    /* Kinds are read before any is set: a default naming another
     * parameter reads the name outside, as python does. */
    int kinds[CX_PARAMS_MAX];
    for (int i = 0; i < count; i++) kinds[i] = param_kind(w, fn, &ps_read[i], method);
    for (int i = 0; i < count; i++) {
        f->params[i] = ps_read[i].name;
        f->params_outside[i] = (signed char)cx_name_kind(w, ps_read[i].name);
        cx_set_kind(w, ps_read[i].name, kinds[i]);
    }
    f->nparams = count;
}

void cx_param_kinds_leave(struct cx_walk *w, const struct cx_fn *f) {
    for (int i = f->nparams - 1; i >= 0; i--) cx_set_kind(w, f->params[i], f->params_outside[i]);
}
#endif
