/* Memo tables of a recursive function (docs/analysis.md
 * "memoized_recursion"): a table it stores into and looks up before
 * computing (any language), and how many dimensions its states have (the
 * argument positions its self-calls vary). A python cache decorator is
 * read in refine.c. */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/refine_tree.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* Past the subscripts at flat[i] (`[i]`, `[i][j]`): the index after the
 * last ']', or i when flat[i] opens none (or one does not close on its
 * line). */
static size_t past_subscripts(const char *flat, size_t n, size_t i) {
    size_t at = i;
    while (at < n && flat[at] == '[') { /* memo[[2]int{i, j}]: brackets nest */
        size_t close = at + 1;
        for (int depth = 1; close < n && flat[close] != ';'; close++) {
            depth += flat[close] == '[' ? 1 : flat[close] == ']' ? -1 : 0;
            if (depth == 0) break;
        }
        if (close >= n || flat[close] != ']') return i;
        at = close + 1;
    }
    return at;
}

/* At flat[i], the name M (length l) is looked up as a memo: `n in M`
 * (python, JS), M.get( / M.has( / M.containsKey( / M.count( / M.find( /
 * M.TryGetValue( / M.getOrPut(, Go's `v, ok := M[k]`, or M[k] compared
 * with a value no result has (undefined, null, None, nil, -1, 0). */
static bool memo_lookup(const char *flat, size_t n, const char *m, size_t l) {
    static const char *const calls[] = {".get(", ".has(", ".containsKey(", ".ContainsKey(", ".contains_key(",
                                        ".count(", ".find(", ".TryGetValue(", ".getOrPut(", NULL};
    static const char *const empty[] = {"undefined", "null", "None", "nil", "0", NULL}; /* and -1 */
    for (size_t k = 0; k + l <= n; k++) {
        if (!cx_word_then(flat, n, k, m, l, "") || (k > 0 && flat[k - 1] == '.')) continue;
        if (k >= 3 && memcmp(flat + k - 3, "in ", 3) == 0 && (k == 3 || !cx_is_word((unsigned char)flat[k - 4])))
            return true;
        for (const char *const *c = calls; *c; c++)
            if (cx_word_then(flat, n, k, m, l, *c)) return true;
        if (k >= 4 && memcmp(flat + k - 4, "ok:=", 4) == 0) return true;
        size_t c = past_subscripts(flat, n, k + l), e = c; /* M[k] or M[i][j], then a comparison */
        if (c == k + l) continue;
        while (e < n && e - c < 3 && (flat[e] == '!' || flat[e] == '=')) e++;
        if (e - c < 2 || flat[c + 1] != '=') continue;
        if (e + 1 < n && flat[e] == '-' && flat[e + 1] == '1' && (e + 2 == n || !cx_is_word((unsigned char)flat[e + 2])))
            return true;
        for (const char *const *v = empty; *v; v++)
            if (cx_word_then(flat, n, e, *v, strlen(*v), "")) return true;
    }
    return false;
}

/* A hand-written memo table in the function: it stores into a name
 * (`memo[n] = ...`, memo.set( / .put( / .insert( / .Add( / .getOrPut() and
 * looks it up (memo_lookup). */
bool cx_memo_table(const struct cx_walk *w, TSNode fn) {
    static const char *const stores[] = {".set(", ".put(", ".insert(", ".Add(", ".getOrPut(", NULL};
    struct cx_text t = cx_node_text(w, fn);
    if (t.n > 16384) return false;
    char flat[16384];
    size_t n = cx_flatten(t, flat, sizeof flat);
    for (size_t i = 0; i + 1 < n; i++) {
        size_t l = cx_word_len(flat, n, i);
        if (l == 0 || l > 60 || (i > 0 && (cx_is_word((unsigned char)flat[i - 1]) || flat[i - 1] == '.'))) continue;
        bool stored = false;
        for (const char *const *c = stores; *c && !stored; c++) stored = cx_word_then(flat, n, i, flat + i, l, *c);
        size_t after = stored ? i + l : past_subscripts(flat, n, i + l); /* memo[k] = or memo[i][j] = */
        if (!stored && after > i + l)
            stored = after < n && flat[after] == '=' && !(after + 1 < n && flat[after + 1] == '=');
        if (stored && memo_lookup(flat, n, flat + i, l)) return true;
        i += l - 1;
    }
    return false;
}

/* The name (the first word not a literal) an argument flat[from..to)
 * moves, and the collection its bound measures in flat (`i == len(a)`,
 * `i >= a.length`, `r == len(grid) - 1` with grid[0] the same grid): two
 * arguments bounded by one collection are one dimension of it (a grid's
 * row and column count its cells). The base's length, 0 when unseen. */
static size_t bound_base(const char *flat, size_t n, const char *arg, size_t an, const char **base) {
    size_t v = 0;
    while (v < an && !(cx_is_word((unsigned char)arg[v]) && !(arg[v] >= '0' && arg[v] <= '9'))) v++;
    size_t vl = cx_word_len(arg, an, v);
    if (vl == 0) return 0;
    for (size_t i = 0; i + vl < n; i++) {
        if (!cx_word_then(flat, n, i, arg + v, vl, "") || (i > 0 && flat[i - 1] == '.')) continue;
        size_t j = i + vl;
        while (j < n && flat[j] && strchr("+-0123456789", flat[j])) j++; /* i + 1 >= len(a) */
        size_t op = j;
        while (j < n && j - op < 3 && flat[j] && strchr("<>=!", flat[j])) j++;
        if (j == op) continue;
        if (n - j > 4 && memcmp(flat + j, "len(", 4) == 0) j += 4;
        size_t bl = cx_word_len(flat, n, j);
        if (bl && !(flat[j] >= '0' && flat[j] <= '9') && j + bl < n && flat[j + bl] && strchr("[).", flat[j + bl])) {
            *base = flat + j;
            return bl;
        }
    }
    return 0;
}

/* An argument that may take 2^n values: a bitmask (`mask | 1 << i`,
 * `m ^ b`) or a set of items (`frozenset(...)`, `tuple(...)`). */
static bool exponential_state(const char *a, size_t n) {
    for (size_t i = 0; i < n; i++)
        if ((a[i] == '|' && !(i + 1 < n && a[i + 1] == '|') && !(i > 0 && a[i - 1] == '|')) || a[i] == '^' ||
            (a[i] == '<' && i + 1 < n && a[i + 1] == '<'))
            return true;
    return cx_has_text(a, n, "frozenset(") || cx_has_text(a, n, "tuple(");
}

/* How many dimensions a memoised function's states have: the argument
 * positions its self-calls vary (an expression, or names that differ
 * between calls; `memo` passed on unchanged is none), those bounded by
 * the same collection counted once. fib(n - 1, memo): 1; lcs(i + 1, j)
 * and lcs(i, j + 1): 2, O(n^2) states. At most 3; 0 when an argument is a
 * bitmask or a set of items (2^n states: no claim). */
int cx_memo_dimensions(const struct cx_walk *w, TSNode fn, struct cx_text name) {
    TSNode body = cx_field(fn, "body");
    struct cx_text t = cx_node_text(w, ts_node_is_null(body) ? fn : body);
    if (t.n > 16384 || name.n == 0 || name.n > 60 || name.n == SIZE_MAX) return 1;
    char flat[16384];
    size_t n = cx_flatten(t, flat, sizeof flat), first[4][2] = {{0}};
    bool varies[4] = {false}, seen = false;
    int calls = 0; /* the first 16 self-calls: each scan of its arguments is bounded by the text */
    for (size_t i = ts_node_is_null(body) ? 1 : 0; i + name.n < n && calls < 16; i++) {
        if (!cx_word_then(flat, n, i, name.s, name.n, "(") || (i > 0 && flat[i - 1] == '.')) continue;
        calls++;
        size_t open = i + name.n, close = open + 1;
        for (int depth = 1; close < n && depth > 0; close++)
            depth += flat[close] == '(' ? 1 : flat[close] == ')' ? -1 : 0;
        if (close > n || flat[close - 1] != ')') continue;
        for (size_t k = 0, from, to; k < 4 && cx_list_item(flat, open + 1, close - 1, k, &from, &to); k++) {
            bool plain = to > from && cx_word_len(flat, to, from) == to - from;
            if (!seen) first[k][0] = from, first[k][1] = to;
            size_t fl = first[k][1] - first[k][0];
            varies[k] |= !plain || fl != to - from || memcmp(flat + first[k][0], flat + from, fl) != 0;
        }
        seen = true;
    }
    int dims = 0;
    const char *bases[4];
    size_t bls[4];
    for (size_t k = 0; k < 4; k++) {
        if (!varies[k]) continue;
        const char *a = flat + first[k][0];
        size_t al = first[k][1] - first[k][0];
        if (exponential_state(a, al)) return 0;
        const char *b = NULL;
        size_t bl = bound_base(flat, n, flat + first[k][0], first[k][1] - first[k][0], &b);
        bool same = false;
        for (int d = 0; d < dims && bl; d++) same |= bls[d] == bl && memcmp(bases[d], b, bl) == 0;
        if (same) continue;
        bases[dims] = b, bls[dims] = bl, dims++;
    }
    return dims < 1 ? 1 : dims > 3 ? 3 : dims; /* no varying position seen: one state per n, as before */
}
#endif
