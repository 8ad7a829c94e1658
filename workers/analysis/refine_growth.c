/* What a single recursion does with its self-call's result (docs/analysis.md
 * "doubling_recursion", "single_recursion"): returned at least twice over,
 * the result doubles per level (subsets, bit strings, Gray codes); copied
 * once beside a literal (`r + [x]`), each call is O(n). */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/refine_tree.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* Uses of the collection R (flat[i], length l) that each put all of it, or
 * one new item per item of it, into a result: `R + ...`, `... + R`,
 * `[... for x in R]` (no filter), R.map( / R.flatMap( / R.concat(, a
 * spread `...R`, Go's append(R, ...). *bare: whether every use is R
 * itself (R + R: no item is built). */
static int whole_uses(const char *flat, size_t n, const char *r, size_t l, bool *bare, int *strong, int *joined) {
    static const char *const after[] = {".map(", ".flatMap(", ".concat(", ".map{", ".flatMap{", NULL};
    static const char *const copied[] = {"[:]", ".copy()", ".slice()", ".clone()", ".toMutableList()", NULL};
    static const char *const into[] = {"list(", "ArrayList<>(", "extend(", "addAll(", "AddRange(", NULL};
    int uses = 0;
    *bare = true, *strong = *joined = 0;
    for (size_t i = 0; i + l <= n; i++) {
        bool spread = i >= 3 && memcmp(flat + i - 3, "...", 3) == 0;
        if (!cx_word_then(flat, n, i, r, l, "") || (i > 0 && flat[i - 1] == '.' && !spread)) continue;
        size_t e = i + l;
        char next = e < n ? flat[e] : ';';
        bool mapped = false;
        for (const char *const *a = after; *a; a++) mapped |= cx_word_then(flat, n, i, r, l, *a);
        bool comp = (i >= 3 && memcmp(flat + i - 3, "in ", 3) == 0 &&
                     (next == ']' || cx_word_then(flat, n, i, r, l, "[::-1]]"))) ||
                    (i >= 12 && memcmp(flat + i - 12, "in reversed(", 12) == 0 && cx_word_then(flat, n, i, r, l, ")]"));
        spread &= next != '.' && next != '[';
        bool plus = (next == '+' && (e + 1 >= n || (flat[e + 1] != '+' && flat[e + 1] != '='))) ||
                    (i > 0 && flat[i - 1] == '+' && next != '[' && next != '.' && next != '(');
        /* R + [x], [x] + R, R + "0": a list or string literal beside it says R is one, and copies it */
        bool literal = plus && ((next == '+' && e + 1 < n && (flat[e + 1] == '[' || flat[e + 1] == '"' || flat[e + 1] == '\'')) ||
                                (i >= 2 && flat[i - 1] == '+' && (flat[i - 2] == ']' || flat[i - 2] == '"' || flat[i - 2] == '\'')));
        *joined += literal;
        bool go = i >= 7 && memcmp(flat + i - 7, "append(", 7) == 0 && next == ',';
        for (const char *const *c = copied; *c; c++) go |= cx_word_then(flat, n, i, r, l, *c);
        for (const char *const *c = into; *c; c++) {
            size_t cl = strlen(*c);
            go |= i >= cl && memcmp(flat + i - cl, *c, cl) == 0 && next == ')';
        }
        if (mapped && !cx_word_then(flat, n, i, r, l, ".concat(")) *bare = false;
        if (comp) *bare = false;
        uses += mapped || comp || spread || plus || go;
        *strong += mapped || comp || spread || literal || (go && !(i >= 7 && memcmp(flat + i - 7, "append(", 7) == 0));
    }
    return uses;
}

/* A loop over R whose body adds to a collection (cx_each_node's callback):
 * how many times at most, over all loops over R. */
struct loop_adds {
    const struct cx_walk *w;
    struct cx_text r;
    int adds, most;
};

static bool count_adds(void *ctx, TSNode n) {
    static const char *const adds[] = {"append", "push", "add", "Add", "push_back", "emplace_back", "addLast", NULL};
    struct loop_adds *a = ctx;
    struct cx_mcall m;
    if (cx_method_call(a->w, n, &m) && cx_in_list(m.method, adds)) a->adds++;
    return true;
}

static bool loop_over_r(void *ctx, TSNode n) {
    struct loop_adds *a = ctx;
    if (!cx_is_loop_type(ts_node_type(n))) return true;
    TSNode it = cx_iterable(a->w, n);
    struct cx_text t = ts_node_is_null(it) ? (struct cx_text){"", 0} : cx_node_text(a->w, it);
    if (t.n && t.s[0] == '&') t.s++, t.n--; /* rust: for r in &rest */
    if (!cx_text_eq(t, a->r)) return true;
    struct loop_adds inner = {a->w, a->r, 0, 0};
    if (cx_each_node(a->w, n, count_adds, &inner) == CX_VISIT_DONE && inner.adds > a->most) a->most = inner.adds;
    return true;
}

/* How a function's one self-call's result R goes into what it returns:
 * 2 when at least twice (`rest + [[a[0]] + r for r in rest]`, `[p + "0"
 * for p in prev] + [p + "1" for p in prev]`, `rest.concat(rest.map(r =>
 * [a[0], ...r]))`, a loop over rest adding twice per item): the result
 * doubles per level, 2^n items after n levels, *copies when the items are
 * built from old ones (up to n long each); 1 when it is copied once
 * beside a literal (`r + [x]`, `"0" + r`): O(|r|) per call, a chain of
 * O(n) copies; 0 otherwise. One use at least must show R is a collection
 * (a comprehension or map over it, a spread, a copy, a literal beside it):
 * `h + h` of two numbers is no doubling. */
int cx_result_growth(const struct cx_walk *w, const struct cx_fn *f, bool *copies) {
    struct cx_text t = cx_node_text(w, f->node), name = f->ref_name;
    if (t.n > 16384 || name.n == 0 || name.n > 60 || name.n == SIZE_MAX) return 0;
    char flat[16384];
    size_t n = cx_flatten(t, flat, sizeof flat);
    int tries = 0, growth = 0; /* a name assigned the self-call: the first few (the text may repeat it in comments) */
    for (size_t i = 1; i + name.n < n && tries < 4; i++) {
        if (!cx_word_then(flat, n, i, name.s, name.n, "(") || flat[i - 1] != '=') continue;
        tries++;
        size_t e = i - 1 - (i >= 2 && flat[i - 2] == ':'), s = e; /* R = f(...), R := f(...) */
        while (s > 0 && cx_is_word((unsigned char)flat[s - 1])) s--;
        if (s == e || (flat[s] >= '0' && flat[s] <= '9') || (s > 0 && flat[s - 1] == '.')) continue;
        bool bare;
        int strong, joined, uses = whole_uses(flat + i, n - i, flat + s, e - s, &bare, &strong, &joined);
        if (uses >= 2 && strong >= 1) {
            *copies = !bare;
            return 2;
        }
        if (joined) growth = 1;
        /* for r in rest: out.append(r); out.append([a[0]] + r), or a copy
         * of rest and one add per item of it */
        struct loop_adds a = {w, {t.s, 0}, 0, 0};
        const char *at = memmem(t.s, t.n, flat + s, e - s); /* R's name in the source */
        if (!at) continue;
        a.r = (struct cx_text){at, e - s};
        if (cx_each_node(w, f->node, loop_over_r, &a) == CX_VISIT_DONE && a.most >= 1 && a.most + uses >= 2) {
            *copies = true;
            return 2;
        }
    }
    return growth;
}
#endif
