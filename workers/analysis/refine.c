/* The refinement model of analyze_complexity (docs/analysis.md
 * "Refinements"): rules TOOLS.md 3.5.1 does not have, reported beside the
 * spec's estimate in refined_estimate and refinements[], never in place of
 * it. Every rule that makes the refined estimate differ adds one
 * {rule, line, note}.
 *
 * The model is a set of cost terms n^k (log n)^l, the largest of which is
 * the refined estimate: each counted loop at depth d is n^d; a known
 * linear operation at depth d is n^(d+1); a sort at depth d is
 * n^(d+1) log n; a recursive function contributes by how it calls itself. */
#if CC_HAVE_TREE_SITTER
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

/* ---- cost terms ---- */


void cx_consider(struct cx_walk *w, struct cx_cost c) {
    if (cx_cost_gt(c, w->best)) w->best = c;
}

/* The cost of work of n^more at this point: the counted, sqrt and log
 * loops open around it. */
static struct cx_cost cost_here(const struct cx_walk *w, int more) {
    return (struct cx_cost){.k = w->rdepth + more + w->sdepth / 2, .log = w->ldepth, .half = w->sdepth % 2 == 1};
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
static int shown(struct cx_text t) {
    size_t n = t.n == (size_t)-1 ? 0 : t.n < 60 ? t.n : 60;
    if (n < t.n)
        while (n > 0 && ((unsigned char)t.s[n] & 0xC0) == 0x80) n--;
    return (int)n;
}

/* ---- node predicates ---- */

static bool type_is(TSNode n, const char *const *types) {
    const char *t = ts_node_type(n);
    for (; *types; types++)
        if (strcmp(t, *types) == 0) return true;
    return false;
}

static bool in_list(struct cx_text t, const char *const *list) {
    for (; *list; list++)
        if (cx_text_is(t, *list)) return true;
    return false;
}

static const char *const int_types[] = {"integer", "integer_literal", "number_literal", "number",
    "decimal_integer_literal", "int_literal", NULL};

static bool is_int_literal(const struct cx_walk *w, TSNode n) {
    if (ts_node_is_null(n) || !type_is(n, int_types)) return false;
    struct cx_text t = cx_node_text(w, n);
    if (t.n == 0 || t.n > 40) return false;
    for (size_t i = 0; i < t.n; i++) {
        char c = t.s[i];
        if (!((c >= '0' && c <= '9') || c == '_' || c == 'x' || c == 'X' || (c >= 'a' && c <= 'f') ||
              (c >= 'A' && c <= 'F') || c == 'u' || c == 'U' || c == 'l' || c == 'L'))
            return false;
    }
    return t.s[0] >= '0' && t.s[0] <= '9';
}

static bool is_literal(const struct cx_walk *w, TSNode n) {
    static const char *const others[] = {"float", "float_literal", "string", "string_literal",
        "char_literal", "true", "false", "none", "null", "interpreted_string_literal", NULL};
    return is_int_literal(w, n) || type_is(n, others);
}

static TSNode field(TSNode n, const char *name) {
    return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

/* range(3), range(1, 10), range(0, 10, 2): every argument an integer. */
static bool constant_range_call(const struct cx_walk *w, TSNode n) {
    if (strcmp(ts_node_type(n), "call") != 0) return false;
    TSNode f = field(n, "function"), args = field(n, "arguments");
    if (ts_node_is_null(f) || ts_node_is_null(args) || !cx_text_is(cx_node_text(w, f), "range")) return false;
    uint32_t c = ts_node_named_child_count(args);
    if (c == 0 || c > 3) return false;
    for (uint32_t i = 0; i < c; i++)
        if (!is_int_literal(w, ts_node_named_child(args, i))) return false;
    return true;
}

/* [1, 2, 3], (a literal tuple), 0..10: a collection fixed in the source. */
static bool literal_collection(const struct cx_walk *w, TSNode n) {
    static const char *const colls[] = {"list", "tuple", "set", "array", "array_expression", NULL};
    static const char *const ranges[] = {"range_expression", "range", NULL};
    uint32_t c = ts_node_named_child_count(n);
    if (type_is(n, ranges)) {
        if (c != 2) return false;
        return is_int_literal(w, ts_node_named_child(n, 0)) && is_int_literal(w, ts_node_named_child(n, 1));
    }
    if (!type_is(n, colls) || c > 64) return false;
    for (uint32_t i = 0; i < c; i++)
        if (!is_literal(w, ts_node_named_child(n, i))) return false;
    return true;
}

/* Text without blanks, at most cap - 1 bytes of it; a line end becomes
 * `;` so tokens of two lines never run together (`i *= 2` then `for`). */
static size_t flatten(struct cx_text t, char *flat, size_t cap) {
    size_t n = 0;
    for (size_t i = 0; i < t.n && n + 1 < cap; i++) {
        char c = t.s[i];
        bool blank = c == ' ' || c == '\t' || c == '\r';
        if (c == '\n') flat[n++] = ';';
        /* one space where two words would run together (int mid) */
        else if (blank && n > 0 && cx_is_word((unsigned char)flat[n - 1]) && i + 1 < t.n &&
                 cx_is_word((unsigned char)t.s[i + 1]))
            flat[n++] = ' ';
        else if (!blank) flat[n++] = c;
    }
    return n;
}

/* Remembers an identifier; anything longer or not a plain word is left out. */
static bool remember(struct cx_names *names, struct cx_text t) {
    if (names->n == CX_NAMES_MAX || t.n == 0 || t.n >= CX_NAME_LEN || cx_word_len(t.s, t.n, 0) != t.n) return false;
    memcpy(names->v[names->n], t.s, t.n);
    names->v[names->n++][t.n] = '\0';
    return true;
}

static bool mentions(const struct cx_names *names, const char *flat, size_t n) {
    for (size_t i = 0; i < names->n; i++)
        if (cx_has_word(flat, n, names->v[i])) return true;
    return false;
}

/* At flat[i]: an integer literal of at least min, not followed by more of
 * a number or a name (2, not 2.5 or 2x). */
static bool literal_at_least(const char *flat, size_t n, size_t i, long min) {
    size_t j = i;
    long v = 0;
    while (j < n && flat[j] >= '0' && flat[j] <= '9' && v < 1000000) v = v * 10 + (flat[j++] - '0');
    return j > i && v >= min && (j == n || !(cx_is_word((unsigned char)flat[j]) || flat[j] == '.'));
}

/* flat[i..] is the name v (a whole word) followed by lit. */
static bool word_then(const char *flat, size_t n, size_t i, const char *v, size_t vl, const char *lit) {
    size_t l = strlen(lit);
    if (i + vl + l > n || memcmp(flat + i, v, vl) != 0 || (i > 0 && cx_is_word((unsigned char)flat[i - 1])))
        return false;
    if (l == 0) return i + vl == n || !cx_is_word((unsigned char)flat[i + vl]);
    return memcmp(flat + i + vl, lit, l) == 0;
}

/* The loop's initializer sets the name to an integer literal (i = 0,
 * int i = 0, i := 0). */
static bool literal_start(const struct cx_walk *w, TSNode init, TSNode name) {
    if (ts_node_is_null(init)) return false;
    struct cx_text t = cx_node_text(w, init), v = cx_node_text(w, name);
    for (size_t i = 0; i + v.n < t.n; i++) {
        if (!word_then(t.s, t.n, i, v.s, v.n, "")) continue;
        size_t j = cx_skip_blanks(t.s, t.n, i + v.n);
        j += j < t.n && t.s[j] == ':';
        if (j >= t.n || t.s[j] != '=' || (j + 1 < t.n && t.s[j + 1] == '=')) continue;
        size_t d = cx_skip_blanks(t.s, t.n, j + 1), e = d;
        while (e < t.n && t.s[e] >= '0' && t.s[e] <= '9') e++;
        e = cx_skip_blanks(t.s, t.n, e);
        if (e > d && (e == t.n || t.s[e] == ',' || t.s[e] == ';')) return true;
    }
    return false;
}

/* i < 10, 10 > i, i != 10: a comparison of a name with an integer, the
 * name starting from an integer too (i = 0): `i = n; i > 0` runs n times. */
static bool constant_condition(const struct cx_walk *w, TSNode cond, TSNode init) {
    if (ts_node_is_null(cond) || strcmp(ts_node_type(cond), "binary_expression") != 0) return false;
    TSNode l = field(cond, "left"), r = field(cond, "right");
    if (ts_node_is_null(l) || ts_node_is_null(r)) return false;
    bool li = is_int_literal(w, l), ri = is_int_literal(w, r);
    TSNode name = li ? r : l;
    return li != ri && strcmp(ts_node_type(name), "identifier") == 0 && literal_start(w, init, name);
}

/* What a constant-bound loop iterates over (for the note), else NULL. */
static const char *constant_bound(const struct cx_walk *w, TSNode loop, const char *type) {
    TSNode over = field(loop, "right");
    if (ts_node_is_null(over)) over = field(loop, "value");
    if (!ts_node_is_null(over)) {
        if (constant_range_call(w, over)) return "a range of integer literals";
        if (literal_collection(w, over)) return "a collection written in the source";
        if (is_int_literal(w, over)) return "an integer literal";
    }
    if (strcmp(type, "for_statement") == 0) {
        TSNode init = field(loop, "initializer");
        if (ts_node_is_null(init)) init = field(loop, "init");
        if (constant_condition(w, field(loop, "condition"), init)) return "a condition against an integer literal";
        uint32_t c = ts_node_named_child_count(loop);
        for (uint32_t i = 0; i < c; i++) { /* Go: the clause holds the bound */
            TSNode k = ts_node_named_child(loop, i);
            const char *kt = ts_node_type(k);
            if (strcmp(kt, "for_clause") == 0 && constant_condition(w, field(k, "condition"), field(k, "initializer")))
                return "a condition against an integer literal";
            if (strcmp(kt, "range_clause") == 0 && is_int_literal(w, field(k, "right")))
                return "an integer literal";
        }
    }
    return NULL;
}

static TSNode first_for_clause(TSNode comp) {
    uint32_t c = ts_node_named_child_count(comp);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(comp, i);
        if (strcmp(ts_node_type(k), "for_in_clause") == 0) return k;
    }
    return (TSNode){0};
}

static bool is_comprehension_loop(const char *type) {
    return strcmp(type, "list_comprehension") == 0 || strcmp(type, "generator_expression") == 0;
}

/* ---- loops ---- */

/* Work of n^depth at this point counts toward the innermost function's
 * work per call (a loop, and a linear call or a sort one level deeper:
 * merge sort's slice and concat are its O(n) per call). */
static void body_work(struct cx_walk *w, int depth) {
    if (!w->nfns) return;
    struct cx_fn *f = &w->fns[w->nfns - 1];
    if (depth - f->rdepth_at_entry > f->body_k) f->body_k = depth - f->rdepth_at_entry;
}

/* `lit` occurs in flat and no digit or point continues it (/2, not /20). */
static bool has_operator(const char *flat, size_t n, const char *lit) {
    size_t l = strlen(lit);
    for (size_t i = 0; i + l <= n; i++)
        if (memcmp(flat + i, lit, l) == 0 && (i + l == n || !strchr("0123456789.", flat[i + l])))
            return true;
    return false;
}

/* A division by a constant factor: / k or // k with k >= 2, >> k with
 * k >= 1, * 0.5. (The name says half; a third shrinks as fast, up to a
 * constant in the logarithm.) */
static bool halving_text(const char *flat, size_t n) {
    for (size_t i = 0; i + 1 < n; i++) {
        if (flat[i] == '/' && literal_at_least(flat, n, i + 1 + (flat[i + 1] == '/'), 2)) return true;
        if (flat[i] == '>' && flat[i + 1] == '>' && literal_at_least(flat, n, i + 2, 1)) return true;
    }
    return has_operator(flat, n, "*0.5");
}

/* ---- geometric loops: the counter is multiplied or divided ---- */

/* At flat[i]: v steps by addition (v += 1, v -= k, v++, ++v, v = v + 1). */
static bool step_update(const char *flat, size_t n, size_t i, const char *v, size_t vl) {
    static const char *const after[] = {"+=", "-=", "++", "--", NULL};
    for (const char *const *a = after; *a; a++)
        if (word_then(flat, n, i, v, vl, *a)) return true;
    if (i >= 2 && (memcmp(flat + i - 2, "++", 2) == 0 || memcmp(flat + i - 2, "--", 2) == 0) &&
        word_then(flat, n, i, v, vl, ""))
        return true;
    size_t j = i + vl + 1; /* v = v + ..., v = v - ... */
    return word_then(flat, n, i, v, vl, "=") && j < n && flat[j] != '=' &&
           (word_then(flat, n, j, v, vl, "+") || word_then(flat, n, j, v, vl, "-"));
}

/* At flat[i]: v scales by a constant (v *= 2, v //= 2, v >>= 1, v = v * 2). */
static bool scale_update(const char *flat, size_t n, size_t i, const char *v, size_t vl) {
    static const struct { const char *op; long min; } ops[] = {
        {"*", 2}, {"//", 2}, {"/", 2}, {">>", 1}, {"<<", 1}};
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        char compound[8];
        size_t ol = strlen(ops[k].op);
        snprintf(compound, sizeof compound, "%s=", ops[k].op);
        if (word_then(flat, n, i, v, vl, compound) && literal_at_least(flat, n, i + vl + ol + 1, ops[k].min))
            return true;
        size_t j = i + vl + 1;
        if (word_then(flat, n, i, v, vl, "=") && j < n && flat[j] != '=' && word_then(flat, n, j, v, vl, ops[k].op) &&
            literal_at_least(flat, n, j + vl + ol, ops[k].min))
            return true;
    }
    return false;
}

/* How the loop text updates the name v: 1 only by a constant factor,
 * 0 not at all that way, -1 also by a step (then it is no geometric loop). */
static int geometric_update(const char *flat, size_t n, const char *v, size_t vl) {
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if (step_update(flat, n, i, v, vl)) return -1;
        if (scale_update(flat, n, i, v, vl)) found = 1;
    }
    return found;
}

/* The condition of a while or C-style for loop (Go: its for_clause's, or
 * the bare expression of `for n > 0 { ... }`, which has no field name). */
static TSNode loop_condition(TSNode loop) {
    TSNode c = field(loop, "condition");
    if (!ts_node_is_null(c)) return c;
    bool go_for = strcmp(ts_node_type(loop), "for_statement") == 0 && ts_node_is_null(field(loop, "initializer")) &&
                  ts_node_is_null(field(loop, "left"));
    uint32_t k = ts_node_named_child_count(loop);
    for (uint32_t i = 0; ts_node_is_null(c) && i < k; i++) {
        TSNode ch = ts_node_named_child(loop, i);
        const char *t = ts_node_type(ch);
        if (strcmp(t, "for_clause") == 0) c = field(ch, "condition");
        else if (go_for && i == 0 && k == 2 && strcmp(t, "range_clause") != 0 && strcmp(t, "block") != 0 &&
                 strcmp(t, "comment") != 0)
            c = ch;
    }
    return c;
}

/* Where the assignment `name = rhs` at flat[i] has its right side (and
 * its end at ';' or the text's end), or 0 when flat[i] starts none. */
static size_t assignment_rhs(const char *flat, size_t n, size_t i, size_t *end) {
    if (i > 0 && cx_is_word((unsigned char)flat[i - 1])) return 0;
    size_t l = cx_word_len(flat, n, i), j = i + l;
    if (l == 0 || j + 1 >= n || flat[j] != '=' || flat[j + 1] == '=') return 0;
    size_t e = j + 1;
    while (e < n && flat[e] != ';') e++;
    *end = e;
    return j + 1;
}

/* The loop assigns name = (something halved): mid = (lo + hi) // 2. */
static bool halved_in(const char *flat, size_t n, const char *name, size_t nl) {
    for (size_t i = 0; i < n; i++) {
        size_t end, r = word_then(flat, n, i, name, nl, "=") ? assignment_rhs(flat, n, i, &end) : 0;
        if (r && halving_text(flat + r, end - r)) return true;
    }
    return false;
}

/* The loop sets v from a name it halved (lo = mid + 1, hi = mid): a
 * bisection, whose range halves each time round. */
static bool bisection_update(const char *flat, size_t n, const char *v, size_t vl) {
    for (size_t i = 0; i < n; i++) {
        size_t end, r = word_then(flat, n, i, v, vl, "=") ? assignment_rhs(flat, n, i, &end) : 0;
        size_t ml = r ? cx_word_len(flat, end, r) : 0;
        if (ml && !(flat[r] >= '0' && flat[r] <= '9') && halved_in(flat, n, flat + r, ml)) return true;
    }
    return false;
}

enum { LOOP_LINEAR, LOOP_GEOMETRIC, LOOP_BISECTION, LOOP_REMAINDER };

/* The item at index k of a comma list flat[i..end) at bracket depth 0,
 * as [*from, *to); false when the list is shorter. */
static bool list_item(const char *flat, size_t i, size_t end, size_t k, size_t *from, size_t *to) {
    int depth = 0;
    size_t at = 0, start = i;
    for (size_t j = i; j <= end; j++) {
        char c = j < end ? flat[j] : ',';
        if (c == '(' || c == '[' || c == '{') depth++;
        else if (c == ')' || c == ']' || c == '}') depth--;
        else if (c == ',' && depth == 0) {
            if (at++ == k) {
                *from = start, *to = j;
                return true;
            }
            start = j + 1;
        }
    }
    return false;
}

/* Exactly `a % b` of two names: Euclid's step. `x % 2 == 0 ? ... : ...`
 * (Collatz) or `(a + b) % m` takes no remainder of the counter itself. */
static bool plain_remainder(const char *t, size_t n) {
    size_t a = cx_word_len(t, n, 0);
    if (a == 0 || a + 1 >= n || t[a] != '%' || (t[0] >= '0' && t[0] <= '9')) return false;
    size_t b = cx_word_len(t, n, a + 1);
    return b > 0 && a + 1 + b == n && !(t[a + 1] >= '0' && t[a + 1] <= '9');
}

/* v takes a remainder: `v = a % v`, `v %= a`, or `a, v = v, a % v`:
 * Euclid's algorithm, whose remainders at least halve every two steps. */
static bool remainder_update(const char *flat, size_t n, const char *v, size_t vl) {
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (cx_is_word((unsigned char)flat[i - 1]) || flat[i - 1] == '.')) continue;
        if (word_then(flat, n, i, v, vl, "%=")) return true;
        size_t end, r = word_then(flat, n, i, v, vl, "=") ? assignment_rhs(flat, n, i, &end) : 0;
        if (r && plain_remainder(flat + r, end - r)) return true;
        /* a tuple: names, commas, one '=' */
        size_t j = i, k = 0, pos = SIZE_MAX;
        while (j < n) {
            size_t l = cx_word_len(flat, n, j);
            if (l == 0) break;
            if (l == vl && memcmp(flat + j, v, vl) == 0) pos = k;
            j += l, k++;
            if (j >= n || flat[j] != ',') break;
            j++;
        }
        if (k < 2 || pos == SIZE_MAX || j + 1 >= n || flat[j] != '=' || flat[j + 1] == '=') continue;
        size_t e = j + 1, from, to;
        while (e < n && flat[e] != ';') e++;
        if (list_item(flat, j + 1, e, pos, &from, &to) && plain_remainder(flat + from, to - from)) return true;
    }
    return false;
}

/* A loop whose condition's counter only grows or shrinks by a constant
 * factor (`while i < n: i *= 2`, `for (; n > 0; n /= 2)`), or whose bound
 * is set from a midpoint it halved (binary search), runs O(log n) times. */
static int log_loop(const struct cx_walk *w, TSNode loop, char *counter, size_t cap) {
    TSNode cond = loop_condition(loop);
    if (ts_node_is_null(cond)) return LOOP_LINEAR;
    struct cx_text body = cx_node_text(w, loop), c = cx_node_text(w, cond);
    if (body.n > 8192) return LOOP_LINEAR; /* a long loop: no claim */
    char flat[8192];
    size_t n = flatten(body, flat, sizeof flat);
    int kind = LOOP_LINEAR;
    for (size_t i = 0; i < c.n;) {
        size_t l = cx_word_len(c.s, c.n, i);
        if (l == 0) { i++; continue; }
        if (!(c.s[i] >= '0' && c.s[i] <= '9') && l < cap) {
            int g = geometric_update(flat, n, c.s + i, l);
            if (g < 0) return LOOP_LINEAR;
            int k = g > 0                                     ? LOOP_GEOMETRIC
                    : bisection_update(flat, n, c.s + i, l)   ? LOOP_BISECTION
                    : remainder_update(flat, n, c.s + i, l)   ? LOOP_REMAINDER
                                                              : LOOP_LINEAR;
            if (k != LOOP_LINEAR && kind == LOOP_LINEAR) {
                memcpy(counter, c.s + i, l);
                counter[l] = '\0';
                kind = k;
            }
        }
        i += l;
    }
    return kind;
}

/* The loop's header: its text before its body (the whole loop when the
 * grammar names no body). */
static struct cx_text loop_header(const struct cx_walk *w, TSNode loop) {
    struct cx_text t = cx_node_text(w, loop);
    TSNode body = field(loop, "body");
    if (!ts_node_is_null(body) && ts_node_start_byte(body) >= ts_node_start_byte(loop))
        t.n = ts_node_start_byte(body) - ts_node_start_byte(loop);
    return t;
}

/* v only ever steps by addition in the loop text (i += 1, i++). */
static bool additive_counter(const char *flat, size_t n, const char *v, size_t vl) {
    bool stepped = false;
    for (size_t i = 0; i < n; i++) {
        if (scale_update(flat, n, i, v, vl)) return false;
        stepped |= step_update(flat, n, i, v, vl);
    }
    return stepped;
}

/* A counter squared in the header (`i * i <= n`, `i*i < n`), stepped by
 * addition: how the loop is bounded, copied into why, or NULL. */
static bool squared_counter(const char *head, size_t hn, const char *flat, size_t n, char *why, size_t cap) {
    for (size_t i = 0; i < hn; i++) {
        size_t l = cx_word_len(head, hn, i);
        if (l == 0 || (i > 0 && cx_is_word((unsigned char)head[i - 1]))) continue;
        bool operand = !(head[i] >= '0' && head[i] <= '9') && i + 2 * l + 1 <= hn && head[i + l] == '*' &&
                       memcmp(head + i + l + 1, head + i, l) == 0 &&
                       (i + 2 * l + 1 == hn || !cx_is_word((unsigned char)head[i + 2 * l + 1]));
        if (operand && additive_counter(flat, n, head + i, l)) {
            snprintf(why, cap, "%.*s*%.*s is within the bound", (int)l, head + i, (int)l, head + i);
            return true;
        }
        i += l - 1;
    }
    return false;
}

/* A loop bounded by a square root: the header takes sqrt(n), isqrt(n) or
 * n**0.5, or squares a counter it steps by addition. The reason, or NULL. */
static const char *sqrt_loop(const struct cx_walk *w, TSNode loop, char *why, size_t cap) {
    static const char *const roots[] = {"sqrt(", "isqrt(", "**0.5", "**.5", "**(1/2)", NULL};
    struct cx_text h = loop_header(w, loop), body = cx_node_text(w, loop);
    if (body.n > 8192) return NULL;
    char head[512], flat[8192];
    size_t hn = flatten(h, head, sizeof head), n = flatten(body, flat, sizeof flat);
    for (const char *const *r = roots; *r; r++)
        if (cx_has_text(head, hn, *r)) {
            snprintf(why, cap, "its bound is a square root (%s...)", *r);
            return why;
        }
    return squared_counter(head, hn, flat, n, why, cap) ? why : NULL;
}

/* The update clause of a C-style for loop (JavaScript names it increment;
 * Go: its for_clause's). */
static TSNode loop_update(TSNode loop) {
    TSNode u = field(loop, "update");
    if (ts_node_is_null(u)) u = field(loop, "increment");
    uint32_t k = ts_node_named_child_count(loop);
    for (uint32_t i = 0; ts_node_is_null(u) && i < k; i++) {
        TSNode ch = ts_node_named_child(loop, i);
        if (strcmp(ts_node_type(ch), "for_clause") == 0) u = field(ch, "update");
    }
    return u;
}

/* The loop's counter: the name a for-in loop binds, or the first name its
 * update clause changes (i++, ++i, i += 2). Empty when there is none. */
static void loop_counter(const struct cx_walk *w, TSNode loop, char *buf, size_t cap) {
    buf[0] = '\0';
    TSNode bound = field(loop, "left");
    if (ts_node_is_null(bound)) bound = field(loop, "pattern");
    struct cx_text t = {"", 0};
    if (!ts_node_is_null(bound) && strcmp(ts_node_type(bound), "identifier") == 0) t = cx_node_text(w, bound);
    else if (!ts_node_is_null(loop_update(loop))) {
        char flat[128];
        size_t n = flatten(cx_node_text(w, loop_update(loop)), flat, sizeof flat), i = 0;
        while (i < n && (flat[i] == '+' || flat[i] == '-')) i++;
        t = (struct cx_text){flat + i, cx_word_len(flat, n, i)};
        if (t.n && t.n < cap && !(t.s[0] >= '0' && t.s[0] <= '9')) snprintf(buf, cap, "%.*s", (int)t.n, t.s);
        return;
    }
    if (t.n && t.n < cap) snprintf(buf, cap, "%.*s", (int)t.n, t.s);
}

/* A step that is an enclosing loop's counter: `range(i, n + 1, i)`,
 * `j += i`, `j = j + i`. The step's name goes into step. */
static bool harmonic_step(const struct cx_walk *w, TSNode loop, char *step, size_t cap) {
    char flat[256];
    size_t n = 0;
    TSNode right = field(loop, "right");
    if (!ts_node_is_null(right) && strcmp(ts_node_type(right), "call") == 0 &&
        cx_text_is(cx_callee(w, right), "range")) {
        TSNode args = field(right, "arguments");
        if (ts_node_is_null(args) || ts_node_named_child_count(args) != 3) return false;
        TSNode s = ts_node_named_child(args, 2);
        if (strcmp(ts_node_type(s), "identifier") != 0) return false;
        n = flatten(cx_node_text(w, s), flat, sizeof flat);
    } else if (!ts_node_is_null(loop_update(loop))) {
        size_t un = flatten(cx_node_text(w, loop_update(loop)), flat, sizeof flat);
        size_t v = cx_word_len(flat, un, 0);
        size_t at = v && v + 2 < un && memcmp(flat + v, "+=", 2) == 0 ? v + 2
                    : v && v + 1 + v + 1 < un && flat[v] == '=' && memcmp(flat + v + 1, flat, v) == 0 &&
                              flat[2 * v + 1] == '+' ? 2 * v + 2 : 0;
        if (!at) return false;
        memmove(flat, flat + at, un - at);
        n = un - at;
        if (cx_word_len(flat, n, 0) != n) return false;
    } else {
        return false;
    }
    if (n == 0 || n >= cap || (flat[0] >= '0' && flat[0] <= '9')) return false;
    for (size_t i = 0; i < w->counters.n; i++)
        if (strlen(w->counters.v[i]) == n && memcmp(w->counters.v[i], flat, n) == 0) {
            snprintf(step, cap, "%.*s", (int)n, flat);
            return true;
        }
    return false;
}

/* At flat[0..n): exactly a unit step of one name (i += 1, i++, ++i,
 * i -= 1, i--, i = i + 1), optionally ending in ';'. Its name, or 0. */
static size_t unit_step(const char *flat, size_t n, size_t *at) {
    while (n > 0 && flat[n - 1] == ';') n--;
    size_t i = 0;
    if (n > 2 && (memcmp(flat, "++", 2) == 0 || memcmp(flat, "--", 2) == 0)) i = 2;
    size_t l = cx_word_len(flat, n, i);
    if (l == 0 || (flat[i] >= '0' && flat[i] <= '9')) return 0;
    *at = i;
    const char *rest = flat + i + l;
    size_t rn = n - i - l;
    if (i == 2) return rn == 0 ? l : 0;
    if ((rn == 2 && (memcmp(rest, "++", 2) == 0 || memcmp(rest, "--", 2) == 0)) ||
        (rn == 3 && (memcmp(rest, "+=1", 3) == 0 || memcmp(rest, "-=1", 3) == 0)))
        return l;
    return rn == l + 3 && rest[0] == '=' && memcmp(rest + 1, flat + i, l) == 0 &&
                   (memcmp(rest + 1 + l, "+1", 2) == 0 || memcmp(rest + 1 + l, "-1", 2) == 0)
               ? l
               : 0;
}

/* In flat, an assignment to v other than a unit step (v = 0, v = x, for v
 * in ...): the name is reset or rebound. */
/* flat[i] starts a name inside a list of names before one '=' (`lo, hi =
 * i + 1, n - 1`, `[lo, hi] = ...`): a tuple assignment to it. */
static bool tuple_target(const char *flat, size_t n, size_t i) {
    size_t a = i, b = i;
    while (a > 0 && (cx_is_word((unsigned char)flat[a - 1]) || flat[a - 1] == ',' || flat[a - 1] == '[' ||
                     flat[a - 1] == '('))
        a--;
    while (b < n && (cx_is_word((unsigned char)flat[b]) || flat[b] == ',' || flat[b] == ']' || flat[b] == ')')) b++;
    return memchr(flat + a, ',', b - a) && b + 1 < n && flat[b] == '=' && flat[b + 1] != '=';
}

static bool reassigned(const char *flat, size_t n, const char *v, size_t vl) {
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (cx_is_word((unsigned char)flat[i - 1]) || flat[i - 1] == '.')) continue;
        if (word_then(flat, n, i, v, vl, "") && tuple_target(flat, n, i)) return true;
        if (word_then(flat, n, i, v, vl, "=") && i + vl + 1 < n && flat[i + vl + 1] != '=') {
            size_t e = i + vl + 1;
            bool step = word_then(flat, n, e, v, vl, "+1") || word_then(flat, n, e, v, vl, "-1");
            if (!step) return true;
        }
        if (i >= 4 && memcmp(flat + i - 4, "for ", 4) == 0 && word_then(flat, n, i, v, vl, "")) return true;
        if (word_then(flat, n, i, v, vl, "*=") || word_then(flat, n, i, v, vl, "/=") ||
            word_then(flat, n, i, v, vl, "//=") || word_then(flat, n, i, v, vl, ">>="))
            return true;
        /* a move by a variable amount (j -= k) may undo the progress */
        if ((word_then(flat, n, i, v, vl, "-=") || word_then(flat, n, i, v, vl, "+=")) &&
            !literal_at_least(flat, n, i + vl + 2, 0))
            return true;
    }
    return false;
}

/* A while loop inside a loop over n whose body steps a pointer by one on
 * every iteration (a statement of its body, not under a condition), that
 * its condition tests or its body indexes with, and that the outer loop
 * never resets: the pointer crosses the input once over all outer
 * iterations (two pointers, a sliding window, a merge). */
static bool amortized_pointer(const struct cx_walk *w, TSNode loop, char *name, size_t cap) {
    static const char *const whiles[] = {"while_statement", "while_expression", NULL};
    if (w->nnloops == 0 || !type_is(loop, whiles)) return false;
    TSNode body = field(loop, "body"), cond = loop_condition(loop);
    if (ts_node_is_null(body) || ts_node_is_null(cond)) return false;
    struct cx_text outer = cx_node_text(w, w->nloops[w->nnloops - 1]), inner = cx_node_text(w, body);
    if (outer.n > 8192 || inner.n > 8192) return false;
    char oflat[8192], bflat[8192], cflat[512], stmt[128];
    size_t on = flatten(outer, oflat, sizeof oflat), bn = flatten(inner, bflat, sizeof bflat);
    size_t cn = flatten(cx_node_text(w, cond), cflat, sizeof cflat);
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        size_t at, sn = flatten(cx_node_text(w, ts_node_named_child(body, i)), stmt, sizeof stmt);
        size_t l = unit_step(stmt, sn, &at);
        if (!l || l >= cap) continue;
        char v[64];
        snprintf(v, sizeof v, "%.*s", (int)l, stmt + at);
        char idx[70];
        snprintf(idx, sizeof idx, "[%s]", v);
        bool used = cx_has_word(cflat, cn, v) || cx_has_text(bflat, bn, idx);
        if (used && !reassigned(oflat, on, v, l)) {
            snprintf(name, cap, "%s", v);
            return true;
        }
    }
    return false;
}

static int loop_factor(struct cx_walk *w, TSNode loop, const char *type) {
    uint32_t line = cx_line(loop);
    if (strcmp(type, "for_in_clause") == 0) {
        TSNode parent = ts_node_parent(loop);
        if (!ts_node_is_null(parent) && is_comprehension_loop(ts_node_type(parent)) &&
            ts_node_eq(first_for_clause(parent), loop)) {
            cx_refinement(w, "comprehension_clause", line,
                          "the for clause at line %u is the comprehension's own loop: one loop level, not two",
                          line);
            return false;
        }
    }
    TSNode bound_by = loop;
    const char *bt = type;
    if (is_comprehension_loop(type)) { /* its bound is its first clause's */
        bound_by = first_for_clause(loop);
        bt = "for_in_clause";
    }
    const char *why = ts_node_is_null(bound_by) ? NULL : constant_bound(w, bound_by, bt);
    if (why) {
        cx_refinement(w, "constant_bound_loop", line,
                      "the loop at line %u runs a fixed number of times (%s); it is not a factor of n", line, why);
        return false;
    }
    char counter[64];
    if (amortized_pointer(w, loop, counter, sizeof counter)) {
        uint32_t outer = cx_line(w->nloops[w->nnloops - 1]);
        cx_refinement(w, "amortized_pointer", line,
                      "the loop at line %u advances %s by one each time, and the loop at line %u around it never "
                      "resets it: O(n) iterations over the whole outer loop, amortised O(1) per outer iteration",
                      line, counter, outer);
        return CX_LOOP_NONE;
    }
    if (w->sdepth == 0 && harmonic_step(w, loop, counter, sizeof counter)) {
        w->ldepth++;
        struct cx_cost c = cost_here(w, 0);
        char cost[32];
        cx_consider(w, c);
        cx_refinement(w, "harmonic_loop", line,
                      "the loop at line %u steps by %s, the counter of an enclosing loop: n/1 + n/2 + ... + n/n "
                      "= O(n log n) iterations in all, a factor log n here: %s", line, counter,
                      cx_cost_text(c, cost, sizeof cost));
        return CX_LOOP_LOG;
    }
    int kind = log_loop(w, loop, counter, sizeof counter);
    if (kind != LOOP_LINEAR) {
        w->ldepth++;
        struct cx_cost c = cost_here(w, 0);
        char cost[32];
        cx_consider(w, c);
        if (kind == LOOP_GEOMETRIC)
            cx_refinement(w, "geometric_loop", line,
                          "the loop at line %u changes its counter %s only by a constant factor: O(log n) "
                          "iterations, not O(n): %s", line, counter, cx_cost_text(c, cost, sizeof cost));
        else if (kind == LOOP_REMAINDER)
            cx_refinement(w, "remainder_loop", line,
                          "the loop at line %u replaces %s by a remainder (Euclid's algorithm): it at least halves "
                          "every two iterations, O(log n) iterations, not O(n): %s", line, counter,
                          cx_cost_text(c, cost, sizeof cost));
        else
            cx_refinement(w, "bisection_loop", line,
                          "the loop at line %u sets its bound %s from a midpoint it halves: the range halves "
                          "each iteration, O(log n) iterations, not O(n): %s", line, counter,
                          cx_cost_text(c, cost, sizeof cost));
        return CX_LOOP_LOG;
    }
    const char *root = sqrt_loop(w, loop, counter, sizeof counter);
    if (root) {
        w->sdepth++;
        struct cx_cost c = cost_here(w, 0);
        char cost[32];
        cx_consider(w, c);
        cx_refinement(w, "sqrt_loop", line, "the loop at line %u runs while %s: O(sqrt n) iterations, not O(n): %s",
                      line, root, cx_cost_text(c, cost, sizeof cost));
        return CX_LOOP_SQRT;
    }
    w->rdepth++;
    cx_consider(w, cost_here(w, 0));
    body_work(w, w->rdepth);
    return CX_LOOP_N;
}

int cx_refine_loop(struct cx_walk *w, TSNode loop, const char *type, bool *pushed, bool *held) {
    int factor = loop_factor(w, loop, type);
    *held = factor == CX_LOOP_N && w->nnloops < CX_NAMES_MAX;
    if (*held) w->nloops[w->nnloops++] = loop;
    char counter[CX_NAME_LEN];
    loop_counter(w, loop, counter, sizeof counter);
    /* Only a loop over n makes a harmonic sum of an inner loop stepping by
     * its counter (a fixed list of steps, or doubling ones, does not). */
    *pushed = factor == CX_LOOP_N && counter[0] && remember(&w->counters, (struct cx_text){counter, strlen(counter)});
    return factor;
}

/* ---- python name kinds (lists vs hash structures) ---- */

/* Index of name among the known kinds, or -1. */
static int kind_of(const struct cx_walk *w, struct cx_text name) {
    for (size_t i = 0; i < w->nkinds; i++)
        if (cx_text_eq(w->kinds[i].name, name)) return (int)i;
    return -1;
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
static int value_kind(const struct cx_walk *w, TSNode v) {
    static const char *const lists[] = {"list", "list_comprehension", NULL};
    static const char *const hashes[] = {"dictionary", "set", "dictionary_comprehension", "set_comprehension", NULL};
    static const char *const strings[] = {"string", "concatenated_string", NULL};
    static const char *const list_calls[] = {"list", "sorted", "split", "splitlines", "readlines", NULL};
    static const char *const hash_calls[] = {"set", "dict", "frozenset", "Counter", "defaultdict", "OrderedDict", NULL};
    if (ts_node_is_null(v)) return -1;
    if (type_is(v, lists)) return CX_KIND_LIST;
    if (type_is(v, hashes)) return CX_KIND_HASH;
    if (type_is(v, strings)) return CX_KIND_STR;
    const char *t = ts_node_type(v);
    if (strcmp(t, "call") == 0) {
        struct cx_text c = cx_callee(w, v);
        if (in_list(c, list_calls)) return CX_KIND_LIST;
        if (in_list(c, hash_calls)) return CX_KIND_HASH;
        if (cx_text_is(c, "str") || cx_text_is(c, "join")) return CX_KIND_STR;
    }
    if (strcmp(t, "binary_operator") == 0 && cx_text_is(cx_node_text(w, field(v, "operator")), "+")) {
        int k = operand_kind(w, field(v, "left"));
        return k >= 0 ? k : operand_kind(w, field(v, "right"));
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
    TSNode v = field(n, "right");
    if (k < 0 || w->rdepth + w->sdepth == 0 || w->kinds[k].kind == CX_KIND_HASH ||
        strcmp(ts_node_type(v), "binary_operator") != 0 || !cx_text_is(cx_node_text(w, field(v, "operator")), "+"))
        return;
    bool prepend = cx_text_eq(cx_node_text(w, field(v, "right")), name);
    bool append = cx_text_eq(cx_node_text(w, field(v, "left")), name) && w->kinds[k].kind == CX_KIND_LIST;
    if (!prepend && !append) return;
    char what[128];
    snprintf(what, sizeof what, "`%.*s = %s` (a new %s, copying the old one)", shown(name), name.s,
             prepend ? "... + itself" : "itself + ...", w->kinds[k].kind == CX_KIND_STR ? "string" : "list");
    linear_term(w, n, "copying_concatenation", what, (int)strlen(what));
}

static void note_assignment(struct cx_walk *w, TSNode n) {
    TSNode left = field(n, "left");
    if (ts_node_is_null(left) || strcmp(ts_node_type(left), "identifier") != 0) return;
    struct cx_text name = cx_node_text(w, left);
    int k = kind_of(w, name);
    note_copying_sum(w, n, name, k);
    int kind = value_kind(w, field(n, "right"));
    if (kind < 0) {
        if (k >= 0) w->kinds[k] = w->kinds[--w->nkinds]; /* reassigned to something unknown */
        return;
    }
    if (k < 0 && w->nkinds < CX_KINDS_MAX) k = (int)w->nkinds++;
    if (k >= 0) w->kinds[k] = (struct cx_kind){name, kind};
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
                      ts_node_eq(first_for_clause(loop), p);
        if (!ts_node_eq(p, loop) && !clause) continue;
        if (strcmp(ts_node_type(child), "range_clause") == 0) /* Go: for _, x := range xs */
            return ts_node_eq(field(child, "right"), prev);
        for (const char *const *f = iterables; *f; f++)
            if (ts_node_eq(field(p, *f), child)) return 1;
        return 0;
    }
    return 0;
}

static void linear_term(struct cx_walk *w, TSNode at, const char *rule, const char *what, int whatlen) {
    int depth = w->rdepth - in_loop_header(w, at);
    struct cx_cost c = cost_here(w, 1 + depth - w->rdepth);
    char cost[32];
    cx_consider(w, c);
    body_work(w, depth + 1);
    uint32_t line = cx_line(at);
    if (depth == 0)
        cx_refinement(w, rule, line, "%.*s at line %u is linear in its input: %s", whatlen, what, line,
                      cx_cost_text(c, cost, sizeof cost));
    else
        cx_refinement(w, rule, line, "%.*s at line %u is linear in its input, inside %d loop level(s): %s",
                      whatlen, what, line, depth, cx_cost_text(c, cost, sizeof cost));
}

/* x in items / x not in items, where items is known to be a list. */
static void note_membership(struct cx_walk *w, TSNode n) {
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i + 1 < c; i++) {
        TSNode op = ts_node_child(n, i);
        const char *t = ts_node_type(op);
        if (ts_node_is_named(op) || (strcmp(t, "in") != 0 && strcmp(t, "not in") != 0)) continue;
        TSNode right = ts_node_next_named_sibling(op);
        if (value_kind(w, right) != CX_KIND_LIST) return;
        struct cx_text r = cx_node_text(w, right);
        char what[96];
        snprintf(what, sizeof what, "`%s` on the list %.*s", t, shown(r), r.s);
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
        *name = field(n, forms[i][1]);
        *value = field(n, forms[i][2]);
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
    if (halving_text(flat, flatten(v, flat, sizeof flat))) remember(&w->halving, cx_node_text(w, name));
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
        if (type_is(n, comprehensions)) {
            for (uint32_t i = 0; i < ts_node_named_child_count(n) && !found; i++)
                found = strcmp(ts_node_type(ts_node_named_child(n, i)), "if_clause") == 0;
        } else if (type_is(n, calls)) {
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
    if (!type_is(name, tuples)) {
        remember(&w->split, cx_node_text(w, name));
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(name); i++)
        remember(&w->split, cx_node_text(w, ts_node_named_child(name, i)));
}

void cx_refine_node(struct cx_walk *w, TSNode n, const char *type) {
    TSNode name, value;
    if (name_and_value(n, type, &name, &value)) {
        note_halving(w, name, value);
        note_split(w, name, value);
    }
    if (!w->python) return;
    if (strcmp(type, "assignment") == 0) note_assignment(w, n);
    else if (strcmp(type, "comparison_operator") == 0) note_membership(w, n);
}

/* ---- calls ---- */


static uint32_t argument_count(TSNode call) {
    TSNode args = field(call, "arguments");
    return ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
}

static bool is_sort_call(const struct cx_walk *w, TSNode call, struct cx_text callee) {
    static const char *const sorts[] = {"sort", "sorted", "sort_by", "sort_by_key", "sort_unstable",
        "sort_unstable_by", "sort_unstable_by_key", "qsort", "stable_sort", NULL};
    if (in_list(callee, sorts)) return true;
    TSNode f = field(call, "function");
    if (ts_node_is_null(f)) return false;
    struct cx_text t = cx_node_text(w, f); /* Go: sort.Ints, sort.Slice, slices.Sort */
    return (t.n > 5 && memcmp(t.s, "sort.", 5) == 0) || cx_text_is(t, "slices.Sort");
}

/* The receiver of a method call (the callee text before its last
 * separator), or an empty text for a plain call. */
static struct cx_text receiver(const struct cx_walk *w, TSNode call, struct cx_text callee) {
    TSNode f = field(call, "function");
    if (ts_node_is_null(f) || callee.n == (size_t)-1) return (struct cx_text){"", 0};
    struct cx_text t = cx_node_text(w, f);
    size_t cut = (size_t)(callee.s - t.s);
    if (callee.s < t.s || cut > t.n) return (struct cx_text){"", 0};
    while (cut > 0 && (t.s[cut - 1] == '.' || t.s[cut - 1] == '>' || t.s[cut - 1] == ':' || t.s[cut - 1] == '-'))
        cut--;
    return (struct cx_text){t.s, cut};
}

static bool is_linear_call(struct cx_walk *w, TSNode call, struct cx_text callee) {
    static const char *const methods[] = {"index", "count", "remove", "insert", "join", "indexOf",
        "lastIndexOf", "includes", "splice", "shift", "unshift", "concat", "find", "findIndex", "filter",
        "map", "reduce", "some", "every", "slice", "copy", "deepcopy", "reverse", NULL};
    static const char *const builtins[] = {"sum", "min", "max", "any", "all", "list", "tuple", "reversed", "set",
        "frozenset", "dict", NULL};
    struct cx_text recv = receiver(w, call, callee);
    if (recv.n == 0) return in_list(callee, builtins) && argument_count(call) == 1;
    if (cx_text_is(callee, "pop")) {
        TSNode args = field(call, "arguments");
        return !ts_node_is_null(args) && ts_node_named_child_count(args) == 1 &&
               cx_text_is(cx_node_text(w, ts_node_named_child(args, 0)), "0");
    }
    if (!in_list(callee, methods)) return false;
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
    TSNode args = field(call, "arguments");
    if (ts_node_is_null(args)) return false;
    char flat[256];
    size_t n = flatten(cx_node_text(w, args), flat, sizeof flat);
    return halving_text(flat, n) || cx_has_word(flat, n, "mid") || cx_has_word(flat, n, "half") ||
           cx_has_word(flat, n, "middle") || mentions(&w->halving, flat, n);
}

/* f(left), f(a, lo, p - 1), f([x for x in a if x < p]): an argument that is
 * one side of a partition of the input. */
static bool splits(const struct cx_walk *w, TSNode call) {
    TSNode args = field(call, "arguments");
    if (ts_node_is_null(args)) return false;
    char flat[256];
    size_t n = flatten(cx_node_text(w, args), flat, sizeof flat);
    return mentions(&w->split, flat, n) || splitting_value(w, args);
}

/* A call that costs O(log n): a binary heap's push and pop, a binary
 * search. Only names that mean nothing else (Go's heap.Push by its
 * package); a plain push/pop/add is left alone. */
static bool is_log_call(const struct cx_walk *w, TSNode call, struct cx_text callee) {
    static const char *const names[] = {"heappush", "heappop", "heapreplace", "heappushpop", "bisect_left",
        "bisect_right", "push_heap", "pop_heap", "lower_bound", "upper_bound", "equal_range", "binary_search",
        "binarySearch", NULL};
    if (in_list(callee, names)) return true;
    if (cx_text_is(callee, "bisect")) return argument_count(call) >= 2; /* bisect.bisect(a, x), not a module */
    TSNode f = field(call, "function");
    if (ts_node_is_null(f)) return false;
    struct cx_text t = cx_node_text(w, f);
    return cx_text_is(t, "heap.Push") || cx_text_is(t, "heap.Pop") || cx_text_is(t, "heap.Fix");
}

static void log_term(struct cx_walk *w, TSNode call, struct cx_text callee) {
    struct cx_cost c = cost_here(w, 0);
    c.log++;
    char cost[32];
    cx_consider(w, c);
    uint32_t line = cx_line(call);
    int loops = w->rdepth + w->sdepth + w->ldepth;
    if (loops)
        cx_refinement(w, "log_call", line, "%.*s(...) at line %u takes O(log n), inside %d loop level(s): %s",
                      shown(callee), callee.s, line, loops, cx_cost_text(c, cost, sizeof cost));
    else
        cx_refinement(w, "log_call", line, "%.*s(...) at line %u takes O(log n): %s", shown(callee), callee.s, line,
                      cx_cost_text(c, cost, sizeof cost));
}

void cx_refine_call(struct cx_walk *w, TSNode call, struct cx_text callee) {
    struct cx_fn *f = enclosing(w, callee);
    if (f) {
        f->self_calls++;
        f->tail_calls += is_returned(call);
        f->halving_calls += halves(w, call);
        f->split_calls += splits(w, call);
        if (w->rdepth > f->rdepth_at_entry) f->self_call_in_loop = true;
        return;
    }
    if (is_sort_call(w, call, callee)) {
        w->any_sort_call = true;
        int depth = w->rdepth - in_loop_header(w, call);
        struct cx_cost c = cost_here(w, 1 + depth - w->rdepth);
        c.log++;
        cx_consider(w, c);
        body_work(w, depth + 1);
        if (depth > 0) {
            char cost[32];
            uint32_t line = cx_line(call);
            cx_refinement(w, "sort_in_loop", line, "%.*s(...) at line %u sorts inside %d loop level(s): %s",
                          shown(callee), callee.s, line, depth, cx_cost_text(c, cost, sizeof cost));
        }
        return;
    }
    if (is_log_call(w, call, callee)) {
        log_term(w, call, callee);
        return;
    }
    if (is_linear_call(w, call, callee)) {
        char what[96];
        snprintf(what, sizeof what, "%.*s(...)", shown(callee), callee.s);
        linear_term(w, call, "linear_call", what, (int)strlen(what));
    }
}

/* ---- functions and recursion ---- */

/* A hand-written memo table in the function: it looks a name up
 * (`n in memo`, `memo.get(`) and stores into it (`memo[n] = ...`). */
static bool memo_table(const struct cx_walk *w, TSNode fn) {
    struct cx_text t = cx_node_text(w, fn);
    if (t.n > 16384) return false;
    char flat[16384];
    size_t n = flatten(t, flat, sizeof flat);
    for (size_t i = 0; i + 1 < n; i++) {
        size_t l = cx_word_len(flat, n, i);
        if (l == 0 || l > 60 || (i > 0 && cx_is_word((unsigned char)flat[i - 1])) || flat[i + l] != '[') continue;
        size_t close = i + l;
        while (close < n && flat[close] != ']' && flat[close] != ';') close++;
        if (close + 1 >= n || flat[close] != ']' || flat[close + 1] != '=' || (close + 2 < n && flat[close + 2] == '='))
            continue;
        char name[64], lookup[72];
        memcpy(name, flat + i, l);
        name[l] = '\0';
        snprintf(lookup, sizeof lookup, "in %s", name);
        bool looked_up = false;
        for (size_t k = 0; k + strlen(lookup) <= n && !looked_up; k++)
            looked_up = memcmp(flat + k, lookup, strlen(lookup)) == 0 && (k == 0 || !cx_is_word((unsigned char)flat[k - 1])) &&
                        word_then(flat, n, k + 3, name, l, "");
        snprintf(lookup, sizeof lookup, "%s.get(", name);
        if (looked_up || cx_has_prefixed(flat, n, lookup)) return true;
    }
    return false;
}

void cx_refine_function(struct cx_walk *w, TSNode fn, struct cx_fn *f) {
    if (w->python && memo_table(w, fn)) f->memoized = true;
    TSNode p = ts_node_parent(fn);
    if (!w->python || ts_node_is_null(p) || strcmp(ts_node_type(p), "decorated_definition") != 0) return;
    uint32_t c = ts_node_named_child_count(p);
    for (uint32_t i = 0; i < c; i++) {
        TSNode d = ts_node_named_child(p, i);
        if (strcmp(ts_node_type(d), "decorator") != 0) continue;
        struct cx_text t = cx_node_text(w, d);
        if (cx_has_text(t.s, t.n, "cache") || cx_has_text(t.s, t.n, "memo")) f->memoized = true;
    }
}

/* T(n) = 2 T(n/2) + n^k, by the master theorem. */
static struct cx_cost halves_twice(int k) {
    if (k == 0) return (struct cx_cost){.k = 1, .log = 0, .exp = false};
    if (k == 1) return (struct cx_cost){.k = 1, .log = 1, .exp = false};
    return (struct cx_cost){.k = k, .log = 0, .exp = false};
}

void cx_refine_function_end(struct cx_walk *w, const struct cx_fn *f) {
    if (f->self_calls == 0) return;
    int name_len = shown(f->ref_name);
    const char *name = f->ref_name.s;
    char cost[32], work[32];
    if (f->named_by_declarator)
        cx_refinement(w, "declarator_name", f->line,
                      "'%.*s' (line %u) is named by its declarator, which the spec's reading does not look at "
                      "(it lists the function as <anonymous>); it calls itself",
                      name_len, name, f->line);
    cx_cost_text((struct cx_cost){.k = f->body_k, .log = 0, .exp = false}, work, sizeof work);
    /* Self-calls that are each a whole `return` are alternatives: one runs. */
    bool alternatives = f->self_calls > 1 && f->tail_calls == f->self_calls;
    int sites = alternatives ? 1 : f->self_calls;
    bool halving = f->halving_calls == f->self_calls;
    struct cx_cost c = {.exp = true};
    if (f->self_call_in_loop) {
        /* calls inside its own loop: no bound from this model */
    } else if (f->memoized) {
        c = (struct cx_cost){.k = 1 + f->body_k, .log = 0, .exp = false};
        cx_refinement(w, "memoized_recursion", f->line,
                      "'%.*s' is memoised by a cache decorator: each argument is computed once, so O(n) calls "
                      "with %s work each: %s", name_len, name, work, cx_cost_text(c, cost, sizeof cost));
    } else if (sites == 1 && halving) {
        c = f->body_k ? (struct cx_cost){.k = f->body_k, .log = 0, .exp = false} : (struct cx_cost){.k = 0, .log = 1, .exp = false};
        cx_refinement(w, "halving_recursion", f->line,
                      "'%.*s' calls itself once per call%s on half its input: O(log n) calls with %s work each: %s",
                      name_len, name, alternatives ? " (its self-calls are alternative returns)" : "", work,
                      cx_cost_text(c, cost, sizeof cost));
    } else if (sites == 1) {
        c = (struct cx_cost){.k = 1 + f->body_k, .log = 0, .exp = false};
        cx_refinement(w, "single_recursion", f->line,
                      "'%.*s' calls itself once per call%s: a chain of O(n) calls with %s work each, not a tree "
                      "of calls: %s", name_len, name, alternatives ? " (its self-calls are alternative returns)" : "",
                      work, cx_cost_text(c, cost, sizeof cost));
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
}

void cx_refine_finish(struct cx_walk *w, bool spec_sort) {
    if (spec_sort && !w->any_sort_call)
        cx_refinement(w, "sort_not_called", 0,
                      "the spec's sort match is not a sort call in the parsed code (a comment, a string or "
                      "another name): no O(n log n) term");
    w->r->refined = w->best;
    w->r->refined_valid = true;
}
#endif
