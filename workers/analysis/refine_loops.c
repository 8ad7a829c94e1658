/* The loop rules of the refinement model (docs/analysis.md
 * "Refinements"): what factor of n a loop is. A loop over n counts n; a
 * loop with a fixed number of iterations counts nothing; a loop whose
 * counter is scaled, bisected or replaced by a remainder counts log n; one
 * bounded by a square root counts sqrt n; one stepping by an enclosing
 * counter is a harmonic sum (log n); an inner while advancing a pointer
 * the outer loop never resets is amortised into the outer loop. */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/refine_text.h"
#include "workers/analysis/text_scan.h"
#include "workers/analysis/ts_walk.h"

enum { LOOP_LINEAR, LOOP_GEOMETRIC, LOOP_BISECTION, LOOP_REMAINDER, LOOP_BITS };

static bool is_literal(const struct cx_walk *w, TSNode n) {
    static const char *const others[] = {"float", "float_literal", "string", "string_literal",
        "char_literal", "true", "false", "none", "null", "interpreted_string_literal", NULL};
    return cx_is_int_literal(w, n) || cx_type_is(n, others);
}

/* range(3), range(1, 10), range(0, 10, 2): every argument an integer. */
static bool constant_range_call(const struct cx_walk *w, TSNode n) {
    if (strcmp(ts_node_type(n), "call") != 0) return false;
    TSNode f = cx_field(n, "function"), args = cx_field(n, "arguments");
    if (ts_node_is_null(f) || ts_node_is_null(args) || !cx_text_is(cx_node_text(w, f), "range")) return false;
    uint32_t c = ts_node_named_child_count(args);
    if (c == 0 || c > 3) return false;
    for (uint32_t i = 0; i < c; i++)
        if (!cx_is_int_literal(w, ts_node_named_child(args, i))) return false;
    return true;
}

/* [1, 2, 3], (a literal tuple), 0..10: a collection fixed in the source. */
static bool literal_collection(const struct cx_walk *w, TSNode n) {
    static const char *const colls[] = {"list", "tuple", "set", "array", "array_expression", NULL};
    static const char *const ranges[] = {"range_expression", "range", NULL};
    uint32_t c = ts_node_named_child_count(n);
    if (cx_type_is(n, ranges)) {
        if (c != 2) return false;
        return cx_is_int_literal(w, ts_node_named_child(n, 0)) && cx_is_int_literal(w, ts_node_named_child(n, 1));
    }
    if (!cx_type_is(n, colls) || c > 64) return false;
    for (uint32_t i = 0; i < c; i++)
        if (!is_literal(w, ts_node_named_child(n, i))) return false;
    return true;
}

/* The loop's initializer sets the name to an integer literal (i = 0,
 * int i = 0, i := 0). */
static bool literal_start(const struct cx_walk *w, TSNode init, TSNode name) {
    if (ts_node_is_null(init)) return false;
    struct cx_text t = cx_node_text(w, init), v = cx_node_text(w, name);
    for (size_t i = 0; i + v.n < t.n; i++) {
        if (!cx_word_then(t.s, t.n, i, v.s, v.n, "")) continue;
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
    TSNode l = cx_field(cond, "left"), r = cx_field(cond, "right");
    if (ts_node_is_null(l) || ts_node_is_null(r)) return false;
    bool li = cx_is_int_literal(w, l), ri = cx_is_int_literal(w, r);
    TSNode name = li ? r : l;
    return li != ri && strcmp(ts_node_type(name), "identifier") == 0 && literal_start(w, init, name);
}

/* Kotlin's `0 until 10`, `9 downTo 0`: an infix range of two integer
 * literals. */
static bool kotlin_literal_range(const struct cx_walk *w, TSNode n) {
    static const char *const ops[] = {"until", "downTo", NULL};
    return strcmp(ts_node_type(n), "infix_expression") == 0 && ts_node_named_child_count(n) == 3 &&
           cx_in_list(cx_node_text(w, ts_node_named_child(n, 1)), ops) &&
           cx_is_int_literal(w, ts_node_named_child(n, 0)) && cx_is_int_literal(w, ts_node_named_child(n, 2));
}

/* What a Kotlin for loop iterates over: its tree has no field names. */
static TSNode kotlin_iterable(TSNode loop) {
    for (uint32_t k = 0; k < ts_node_named_child_count(loop); k++) {
        TSNode ch = ts_node_named_child(loop, k);
        if (strcmp(ts_node_type(ch), "infix_expression") == 0 || strcmp(ts_node_type(ch), "range_expression") == 0)
            return ch;
    }
    return (TSNode){0};
}

/* What a constant-bound loop iterates over (for the note), else NULL. */
static const char *constant_bound(const struct cx_walk *w, TSNode loop, const char *type) {
    TSNode over = cx_field(loop, "right");
    if (ts_node_is_null(over)) over = cx_field(loop, "value");
    if (ts_node_is_null(over) && strcmp(type, "for_statement") == 0) over = kotlin_iterable(loop);
    if (!ts_node_is_null(over)) {
        if (kotlin_literal_range(w, over)) return "a range of integer literals";
        if (constant_range_call(w, over)) return "a range of integer literals";
        if (literal_collection(w, over)) return "a collection written in the source";
        if (cx_is_int_literal(w, over)) return "an integer literal";
    }
    if (strcmp(type, "for_statement") == 0) {
        TSNode init = cx_field(loop, "initializer");
        if (ts_node_is_null(init)) init = cx_field(loop, "init");
        if (constant_condition(w, cx_field(loop, "condition"), init)) return "a condition against an integer literal";
        uint32_t c = ts_node_named_child_count(loop);
        for (uint32_t i = 0; i < c; i++) { /* Go: the clause holds the bound */
            TSNode k = ts_node_named_child(loop, i);
            const char *kt = ts_node_type(k);
            if (strcmp(kt, "for_clause") == 0 && constant_condition(w, cx_field(k, "condition"), cx_field(k, "initializer")))
                return "a condition against an integer literal";
            if (strcmp(kt, "range_clause") == 0 && cx_is_int_literal(w, cx_field(k, "right")))
                return "an integer literal";
        }
    }
    return NULL;
}

/* The loop's bound is 2 to a power of a name: what it iterates over
 * (python's range(1 << n), Rust's 0..1 << n) or its condition (C-style
 * m < (1 << n), Go's for_clause). */
static bool power_of_two_bound(const struct cx_walk *w, TSNode loop) {
    TSNode h = cx_field(loop, "right");
    if (ts_node_is_null(h)) h = cx_field(loop, "value");
    if (ts_node_is_null(h)) h = cx_loop_condition(loop);
    if (ts_node_is_null(h)) return false;
    char flat[256];
    struct cx_text t = cx_node_text(w, h);
    return t.n < sizeof flat && cx_power_of_two_text(flat, cx_flatten(t, flat, sizeof flat));
}

/* How the loop text updates the name v: 1 only by a constant factor,
 * 0 not at all that way, -1 also by a step (then it is no geometric loop). */
static int geometric_update(const char *flat, size_t n, const char *v, size_t vl) {
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if (cx_step_update(flat, n, i, v, vl)) return -1;
        if (cx_scale_update(flat, n, i, v, vl)) found = 1;
    }
    return found;
}

/* The condition of a while or C-style for loop (Go: its for_clause's, or
 * the bare expression of `for n > 0 { ... }`, which has no field name). */
TSNode cx_loop_condition(TSNode loop) {
    TSNode c = cx_field(loop, "condition");
    if (!ts_node_is_null(c)) return c;
    bool go_for = strcmp(ts_node_type(loop), "for_statement") == 0 && ts_node_is_null(cx_field(loop, "initializer")) &&
                  ts_node_is_null(cx_field(loop, "left"));
    uint32_t k = ts_node_named_child_count(loop);
    for (uint32_t i = 0; ts_node_is_null(c) && i < k; i++) {
        TSNode ch = ts_node_named_child(loop, i);
        const char *t = ts_node_type(ch);
        if (strcmp(t, "for_clause") == 0) c = cx_field(ch, "condition");
        else if (go_for && i == 0 && k == 2 && strcmp(t, "range_clause") != 0 && strcmp(t, "block") != 0 &&
                 strcmp(t, "comment") != 0)
            c = ch;
    }
    return c;
}

/* The loop assigns name = (something halved): mid = (lo + hi) // 2. */
static bool halved_in(const char *flat, size_t n, const char *name, size_t nl) {
    for (size_t i = 0; i < n; i++) {
        size_t end, r = cx_word_then(flat, n, i, name, nl, "=") ? cx_assignment_rhs(flat, n, i, &end) : 0;
        if (r && cx_halving_text(flat + r, end - r)) return true;
    }
    return false;
}

/* The loop sets v from a name it halved (lo = mid + 1, hi = mid): a
 * bisection, whose range halves each time round. */
static bool bisection_update(const char *flat, size_t n, const char *v, size_t vl) {
    for (size_t i = 0; i < n; i++) {
        size_t end, r = cx_word_then(flat, n, i, v, vl, "=") ? cx_assignment_rhs(flat, n, i, &end) : 0;
        size_t ml = r ? cx_word_len(flat, end, r) : 0;
        if (ml && !(flat[r] >= '0' && flat[r] <= '9') && halved_in(flat, n, flat + r, ml)) return true;
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
static bool direct_remainder(const char *flat, size_t n, const char *v, size_t vl) {
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (cx_is_word((unsigned char)flat[i - 1]) || flat[i - 1] == '.')) continue;
        if (cx_word_then(flat, n, i, v, vl, "%=")) return true;
        size_t end, r = cx_word_then(flat, n, i, v, vl, "=") ? cx_assignment_rhs(flat, n, i, &end) : 0;
        if (r && plain_remainder(flat + r, end - r)) return true;
        if (cx_word_then(flat, n, i, v, vl, ":=")) { /* Go's t := a % b */
            size_t e = i + vl + 2;
            while (e < n && flat[e] != ';' && flat[e] != '}') e++;
            if (plain_remainder(flat + i + vl + 2, e - (i + vl + 2))) return true;
        }
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
        if (cx_list_item(flat, j + 1, e, pos, &from, &to) && plain_remainder(flat + from, to - from)) return true;
    }
    return false;
}

/* Past a Rust borrow before a name: `&mut a`, `&a` (std::mem::swap). */
static size_t skip_borrow(const char *flat, size_t n, size_t i) {
    if (i < n && flat[i] == '&') i++;
    if (n - i > 4 && memcmp(flat + i, "mut ", 4) == 0) i += 4;
    return i;
}

/* v takes a remainder through one other name: `let t = a % b; ...; b = t`
 * (Rust, C), or `a %= b; std::swap(a, b)` (C++). */
static bool remainder_update(const char *flat, size_t n, const char *v, size_t vl) {
    if (direct_remainder(flat, n, v, vl)) return true;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (cx_is_word((unsigned char)flat[i - 1]) || flat[i - 1] == '.')) continue;
        size_t end, r = cx_word_then(flat, n, i, v, vl, "=") ? cx_assignment_rhs(flat, n, i, &end) : 0;
        size_t tl = r ? cx_word_len(flat, end, r) : 0;
        if (tl && r + tl == end && !(flat[r] >= '0' && flat[r] <= '9') && !(tl == vl && memcmp(flat + r, v, vl) == 0) &&
            direct_remainder(flat, n, flat + r, tl))
            return true;
        if (n - i > 5 && memcmp(flat + i, "swap(", 5) == 0) { /* swap(a,b): either name a remainder */
            size_t a = skip_borrow(flat, n, i + 5), al = cx_word_len(flat, n, a);
            if (!al || a + al >= n || flat[a + al] != ',') continue;
            size_t b = skip_borrow(flat, n, a + al + 1), bl = cx_word_len(flat, n, b);
            if (!bl || b + bl >= n || flat[b + bl] != ')') continue;
            bool va = al == vl && memcmp(flat + a, v, vl) == 0, vb = bl == vl && memcmp(flat + b, v, vl) == 0;
            if ((va && direct_remainder(flat, n, flat + b, bl)) || (vb && direct_remainder(flat, n, flat + a, al)))
                return true;
        }
    }
    return false;
}

/* v clears its lowest set bit: `v &= v - 1`, `v = v & (v - 1)`
 * (Kernighan's bit count): one iteration per set bit, at most log n + 1,
 * and no other update of v. */
static bool bit_clear_update(const char *flat, size_t n, const char *v, size_t vl) {
    bool found = false;
    char a[80], b[80];
    if (vl > 60) return false;
    snprintf(a, sizeof a, "%.*s&=%.*s-1", (int)vl, v, (int)vl, v);
    snprintf(b, sizeof b, "%.*s=%.*s&(%.*s-1)", (int)vl, v, (int)vl, v, (int)vl, v);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (cx_is_word((unsigned char)flat[i - 1]) || flat[i - 1] == '.')) continue;
        if (cx_step_update(flat, n, i, v, vl)) return false;
        size_t la = strlen(a), lb = strlen(b);
        if ((n - i >= la && memcmp(flat + i, a, la) == 0 && (i + la == n || !cx_is_word((unsigned char)flat[i + la]))) ||
            (n - i >= lb && memcmp(flat + i, b, lb) == 0))
            found = true;
    }
    return found;
}

/* A loop whose condition's counter only grows or shrinks by a constant
 * factor (`while i < n: i *= 2`, `for (; n > 0; n /= 2)`), or whose bound
 * is set from a midpoint it halved (binary search), runs O(log n) times. */
static int log_loop(const struct cx_walk *w, TSNode loop, char *counter, size_t cap) {
    TSNode cond = cx_loop_condition(loop);
    if (ts_node_is_null(cond)) return LOOP_LINEAR;
    struct cx_text body = cx_node_text(w, loop), c = cx_node_text(w, cond);
    if (body.n > 8192) return LOOP_LINEAR; /* a long loop: no claim */
    char flat[8192];
    size_t n = cx_flatten(body, flat, sizeof flat);
    int kind = LOOP_LINEAR;
    for (size_t i = 0; i < c.n;) {
        size_t l = cx_word_len(c.s, c.n, i);
        if (l == 0) { i++; continue; }
        if (!(c.s[i] >= '0' && c.s[i] <= '9') && l < cap) {
            int g = geometric_update(flat, n, c.s + i, l);
            if (g < 0) return LOOP_LINEAR;
            int k = g > 0                                     ? LOOP_GEOMETRIC
                    : bit_clear_update(flat, n, c.s + i, l)   ? LOOP_BITS
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
    TSNode body = cx_field(loop, "body");
    if (!ts_node_is_null(body) && ts_node_start_byte(body) >= ts_node_start_byte(loop))
        t.n = ts_node_start_byte(body) - ts_node_start_byte(loop);
    return t;
}

/* v only ever steps by addition in the loop text (i += 1, i++). */
static bool additive_counter(const char *flat, size_t n, const char *v, size_t vl) {
    bool stepped = false;
    for (size_t i = 0; i < n; i++) {
        if (cx_scale_update(flat, n, i, v, vl)) return false;
        stepped |= cx_step_update(flat, n, i, v, vl);
    }
    return stepped;
}

/* A counter squared in the header (`i * i <= n`, `i*i < n`), stepped by
 * addition: how the loop is bounded, copied into why, or NULL. */
static bool squared_counter(const char *head, size_t hn, const char *flat, size_t n, char *why, size_t cap,
                            char *name, size_t ncap) {
    for (size_t i = 0; i < hn; i++) {
        size_t l = cx_word_len(head, hn, i);
        if (l == 0 || (i > 0 && cx_is_word((unsigned char)head[i - 1]))) continue;
        bool operand = !(head[i] >= '0' && head[i] <= '9') && i + 2 * l + 1 <= hn && head[i + l] == '*' &&
                       memcmp(head + i + l + 1, head + i, l) == 0 &&
                       (i + 2 * l + 1 == hn || !cx_is_word((unsigned char)head[i + 2 * l + 1]));
        if (operand && additive_counter(flat, n, head + i, l)) {
            snprintf(why, cap, "%.*s*%.*s is within the bound", (int)l, head + i, (int)l, head + i);
            if (l < ncap) snprintf(name, ncap, "%.*s", (int)l, head + i);
            return true;
        }
        i += l - 1;
    }
    return false;
}

/* A loop bounded by a square root: the header takes sqrt(n), isqrt(n) or
 * n**0.5, or squares a counter it steps by addition (its name goes into
 * name). The reason, or NULL. */
static const char *sqrt_loop(const struct cx_walk *w, TSNode loop, char *why, size_t cap, char *name, size_t ncap) {
    static const char *const roots[] = {"sqrt(", "isqrt(", "**0.5", "**.5", "**(1/2)", NULL};
    struct cx_text h = loop_header(w, loop), body = cx_node_text(w, loop);
    if (body.n > 8192) return NULL;
    char head[512], flat[8192];
    size_t hn = cx_flatten(h, head, sizeof head), n = cx_flatten(body, flat, sizeof flat);
    for (const char *const *r = roots; *r; r++)
        if (cx_has_text(head, hn, *r)) {
            snprintf(why, cap, "its bound is a square root (%s...)", *r);
            return why;
        }
    return squared_counter(head, hn, flat, n, why, cap, name, ncap) ? why : NULL;
}

/* The update clause of a C-style for loop (JavaScript names it increment;
 * Go: its for_clause's). */
static TSNode loop_update(TSNode loop) {
    TSNode u = cx_field(loop, "update");
    if (ts_node_is_null(u)) u = cx_field(loop, "increment");
    uint32_t k = ts_node_named_child_count(loop);
    for (uint32_t i = 0; ts_node_is_null(u) && i < k; i++) {
        TSNode ch = ts_node_named_child(loop, i);
        if (strcmp(ts_node_type(ch), "for_clause") == 0) u = cx_field(ch, "update");
    }
    return u;
}

/* The loop's counter: the name a for-in loop binds, or the first name its
 * update clause changes (i++, ++i, i += 2). Empty when there is none. */
static void loop_counter(const struct cx_walk *w, TSNode loop, char *buf, size_t cap) {
    buf[0] = '\0';
    TSNode bound = cx_field(loop, "left");
    if (ts_node_is_null(bound)) bound = cx_field(loop, "pattern");
    struct cx_text t = {"", 0};
    if (!ts_node_is_null(bound) && strcmp(ts_node_type(bound), "identifier") == 0) t = cx_node_text(w, bound);
    else if (!ts_node_is_null(loop_update(loop))) {
        char flat[128];
        size_t n = cx_flatten(cx_node_text(w, loop_update(loop)), flat, sizeof flat), i = 0;
        while (i < n && (flat[i] == '+' || flat[i] == '-')) i++;
        t = (struct cx_text){flat + i, cx_word_len(flat, n, i)};
        if (t.n && t.n < cap && !(t.s[0] >= '0' && t.s[0] <= '9')) snprintf(buf, cap, "%.*s", (int)t.n, t.s);
        return;
    }
    if (t.n && t.n < cap) snprintf(buf, cap, "%.*s", (int)t.n, t.s);
}

/* The single-name list of Go's assignment, or n itself. */
static TSNode unwrap_list(TSNode n) {
    if (!ts_node_is_null(n) && strcmp(ts_node_type(n), "expression_list") == 0 && ts_node_named_child_count(n) == 1)
        return ts_node_named_child(n, 0);
    return n;
}

/* What an update clause adds to its name, read from the tree: `j += i`,
 * `j = j + i`, `j = i + j` (C, JavaScript, Java, Go) give the name i; an
 * empty text otherwise (a literal, an expression, several updates). */
static struct cx_text update_step(const struct cx_walk *w, TSNode u) {
    struct cx_text none = {"", 0};
    TSNode l = unwrap_list(cx_field(u, "left")), r = unwrap_list(cx_field(u, "right"));
    if (ts_node_is_null(l) || ts_node_is_null(r) || strcmp(ts_node_type(l), "identifier") != 0) return none;
    struct cx_text name = cx_node_text(w, l);
    if (!cx_has_token(u, "+=")) {
        if (!cx_has_token(u, "=") || !cx_has_token(r, "+") || ts_node_named_child_count(r) != 2) return none;
        TSNode a = ts_node_named_child(r, 0), b = ts_node_named_child(r, 1);
        if (cx_text_eq(cx_node_text(w, a), name)) r = b;
        else if (cx_text_eq(cx_node_text(w, b), name)) r = a;
        else return none;
    }
    return strcmp(ts_node_type(r), "identifier") == 0 ? cx_node_text(w, r) : none;
}

/* A step that is an enclosing loop's counter: `range(i, n + 1, i)`,
 * `j += i`, `j = j + i`. The step's name goes into step; the index of that
 * counter in w->counters, or -1. */
static int harmonic_step(const struct cx_walk *w, TSNode loop, char *step, size_t cap) {
    char flat[256];
    size_t n = 0;
    TSNode right = cx_field(loop, "right");
    if (!ts_node_is_null(right) && strcmp(ts_node_type(right), "call") == 0 &&
        cx_text_is(cx_callee(w, right), "range")) {
        TSNode args = cx_field(right, "arguments");
        if (ts_node_is_null(args) || ts_node_named_child_count(args) != 3) return -1;
        TSNode s = ts_node_named_child(args, 2);
        if (strcmp(ts_node_type(s), "identifier") != 0) return -1;
        n = cx_flatten(cx_node_text(w, s), flat, sizeof flat);
    } else if (!ts_node_is_null(loop_update(loop))) {
        struct cx_text st = update_step(w, loop_update(loop));
        if (st.n == 0 || st.n >= sizeof flat) return -1;
        memcpy(flat, st.s, st.n);
        n = st.n;
    } else {
        return -1;
    }
    if (n == 0 || n >= cap || (flat[0] >= '0' && flat[0] <= '9')) return -1;
    for (size_t i = w->counters.n; i-- > 0;)
        if (strlen(w->counters.v[i]) == n && memcmp(w->counters.v[i], flat, n) == 0) {
            snprintf(step, cap, "%.*s", (int)n, flat);
            return (int)i;
        }
    return -1;
}

/* A while loop inside a loop over n whose body steps a pointer by one on
 * every iteration (a statement of its body, not under a condition), that
 * its condition tests or its body indexes with, and that the outer loop
 * never resets: the pointer crosses the input once over all outer
 * iterations (two pointers, a sliding window, a merge). */
static bool amortized_pointer(const struct cx_walk *w, TSNode loop, char *name, size_t cap) {
    static const char *const whiles[] = {"while_statement", "while_expression", NULL};
    if (w->nnloops == 0 || !cx_type_is(loop, whiles)) return false;
    TSNode body = cx_field(loop, "body"), cond = cx_loop_condition(loop);
    if (ts_node_is_null(body) || ts_node_is_null(cond)) return false;
    struct cx_text outer = cx_node_text(w, w->nloops[w->nnloops - 1]), inner = cx_node_text(w, body);
    if (outer.n > 8192 || inner.n > 8192) return false;
    char oflat[8192], bflat[8192], cflat[512], stmt[128];
    size_t on = cx_flatten(outer, oflat, sizeof oflat), bn = cx_flatten(inner, bflat, sizeof bflat);
    size_t cn = cx_flatten(cx_node_text(w, cond), cflat, sizeof cflat);
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        size_t at, sn = cx_flatten(cx_node_text(w, ts_node_named_child(body, i)), stmt, sizeof stmt);
        size_t l = cx_unit_step(stmt, sn, &at, NULL);
        if (!l || l >= cap) continue;
        char v[64];
        snprintf(v, sizeof v, "%.*s", (int)l, stmt + at);
        char idx[70];
        snprintf(idx, sizeof idx, "[%s]", v);
        bool used = cx_has_word(cflat, cn, v) || cx_has_text(bflat, bn, idx);
        if (used && !cx_reassigned(oflat, on, v, l)) {
            snprintf(name, cap, "%s", v);
            return true;
        }
    }
    return false;
}

/* flat[i..] is `<v>=<T>[<x>-1]` with <T> and <x> names: the length, and
 * T and x through the out parameters (x empty when it is v itself). */
static size_t table_step(const char *flat, size_t n, size_t i, const char *v, size_t vl, size_t *t, size_t *tl,
                         size_t *x, size_t *xl) {
    if (!cx_word_then(flat, n, i, v, vl, "=") || i + vl + 1 >= n || flat[i + vl + 1] == '=') return 0;
    size_t j = i + vl + 1, l = cx_word_len(flat, n, j);
    if (!l || j + l >= n || flat[j + l] != '[') return 0;
    *t = j, *tl = l;
    size_t k = j + l + 1, m = cx_word_len(flat, n, k);
    if (!m || k + m + 2 >= n || memcmp(flat + k + m, "-1]", 3) != 0) return 0;
    *x = k, *xl = m;
    return k + m + 3 - i;
}

/* KMP's failure link: a while loop in a loop over n whose condition tests
 * k and whose body is only `k = T[k - 1]` (k strictly falls), while the
 * outer loop raises k by at most one (`k++`, `k += 1`) and otherwise sets
 * it only from T (`k = T[k - 1]`, or `k = T[i - 1]` where it stores
 * `T[i] = k`, the value k had). k falls no more often than it rose: O(n)
 * iterations in all, amortised O(1) per outer iteration. */
static bool failure_link(const struct cx_walk *w, TSNode loop, char *name, size_t cap) {
    static const char *const whiles[] = {"while_statement", "while_expression", NULL};
    if (w->nnloops == 0 || !cx_type_is(loop, whiles)) return false;
    TSNode body = cx_field(loop, "body"), cond = cx_loop_condition(loop);
    struct cx_text outer = cx_node_text(w, w->nloops[w->nnloops - 1]), bt = cx_node_text(w, body);
    if (ts_node_is_null(cond) || outer.n > 8192 || bt.n > 256) return false;
    char oflat[8192], bflat[256], cflat[256];
    size_t on = cx_flatten(outer, oflat, sizeof oflat), bn = cx_flatten(bt, bflat, sizeof bflat);
    size_t cn = cx_flatten(cx_node_text(w, cond), cflat, sizeof cflat);
    size_t b0 = 0;
    while (b0 < bn && (bflat[b0] == '{' || bflat[b0] == ':' || bflat[b0] == ';')) b0++;
    while (bn > b0 && (bflat[bn - 1] == '}' || bflat[bn - 1] == ';')) bn--;
    size_t vl = cx_word_len(bflat, bn, b0), t, tl, x, xl;
    char v[64];
    if (!vl || vl >= sizeof v || vl >= cap) return false;
    memcpy(v, bflat + b0, vl), v[vl] = '\0';
    if (table_step(bflat, bn, b0, v, vl, &t, &tl, &x, &xl) != bn - b0 || xl != vl || memcmp(bflat + x, v, vl) != 0 ||
        !cx_has_word(cflat, cn, v))
        return false;
    char tab[64];
    if (tl >= sizeof tab) return false;
    memcpy(tab, bflat + t, tl), tab[tl] = '\0';
    /* every change of v in the outer loop */
    int raises = 0;
    for (size_t i = 0; i < on; i++) {
        if (i > 0 && (cx_is_word((unsigned char)oflat[i - 1]) || oflat[i - 1] == '.')) continue;
        size_t t2, tl2, x2, xl2, l = table_step(oflat, on, i, v, vl, &t2, &tl2, &x2, &xl2);
        if (l) {
            if (tl2 != tl || memcmp(oflat + t2, tab, tl) != 0) return false;
            if (!(xl2 == vl && memcmp(oflat + x2, v, vl) == 0)) { /* k = T[i - 1]: T[i] = k stored? */
                char store[160];
                snprintf(store, sizeof store, "%s[%.*s]=%s", tab, (int)xl2, oflat + x2, v);
                if (!cx_has_text(oflat, on, store)) return false;
            }
            i += l - 1;
            continue;
        }
        if (cx_step_update(oflat, on, i, v, vl)) {
            char inc[3][140];
            snprintf(inc[0], sizeof inc[0], "%s++", v);
            snprintf(inc[1], sizeof inc[1], "%s+=1", v);
            snprintf(inc[2], sizeof inc[2], "%s=%s+1", v, v);
            bool one = false;
            for (int k = 0; k < 3 && !one; k++) one = on - i >= strlen(inc[k]) && memcmp(oflat + i, inc[k], strlen(inc[k])) == 0;
            if (!one || ++raises > 1) return false;
            continue;
        }
        if (cx_word_then(oflat, on, i, v, vl, "=") && i + vl + 1 < on && oflat[i + vl + 1] != '=') return false;
    }
    snprintf(name, cap, "%s", v);
    return true;
}

static void add_factor(struct cx_walk *w, struct cx_factor *f, struct cx_factor d) {
    *f = d;
    w->rdepth += d.r, w->ldepth += d.l, w->sdepth += d.s, w->lldepth += d.ll, w->fdepth += d.f, w->gdepth += d.g, w->edepth += d.e;
}

/* The note's cost at this point, considered as a term. */
static const char *here(struct cx_walk *w, char *cost, size_t cap) {
    struct cx_cost c = cx_cost_here(w, 0);
    cx_consider(w, c);
    return cx_cost_text(c, cost, cap);
}

/* A loop stepping by an enclosing counter (its index ci): a harmonic sum
 * over that loop, a sieve's sum over primes when only unmarked counters
 * reach it. Under a loop to sqrt n the sum still reaches n (n/2 + ... +
 * n/sqrt n): the sqrt loop's factor becomes n. */
static void harmonic(struct cx_walk *w, TSNode loop, int ci, const char *step, struct cx_factor *fac) {
    uint32_t line = cx_line(loop);
    bool sieve = cx_sieve_guard(w, loop, w->cloops[ci], step);
    bool sq = w->csqrt[ci];
    add_factor(w, fac, (struct cx_factor){.s = sq, .l = !sieve, .ll = sieve});
    char cost[64];
    here(w, cost, sizeof cost);
    if (sieve)
        cx_refinement(w, "sieve_loop", line,
                      "the loop at line %u steps by %s and runs only for a %s the loop at line %u has not marked "
                      "(a sieve): n/p summed over the primes p is O(n log log n) in all%s: %s",
                      line, step, step, cx_line(w->cloops[ci]),
                      sq ? " (its outer loop stops at sqrt n, the inner ones still reach n)" : "", cost);
    else
        cx_refinement(w, "harmonic_loop", line,
                      "the loop at line %u steps by %s, the counter of an enclosing loop: n/1 + n/2 + ... + n/n "
                      "= O(n log n) iterations in all%s, a factor log n here: %s", line, step,
                      sq ? " (the enclosing loop stops at sqrt n; the inner one still reaches n)" : "", cost);
}

static struct cx_factor loop_factor(struct cx_walk *w, TSNode loop, const char *type, struct cx_factor *fac,
                                    char *sqname, size_t sqcap) {
    uint32_t line = cx_line(loop);
    char cost[64];
    if (strcmp(type, "for_in_clause") == 0) {
        TSNode parent = ts_node_parent(loop);
        if (!ts_node_is_null(parent) && cx_is_comprehension_loop(ts_node_type(parent)) &&
            ts_node_eq(cx_first_for_clause(parent), loop)) {
            cx_refinement(w, "comprehension_clause", line,
                          "the for clause at line %u is the comprehension's own loop: one loop level, not two",
                          line);
            return *fac;
        }
        /* A later clause: counted when the comprehension was entered, since
         * its element and filters (visited outside the clause) run inside it. */
        if (!ts_node_is_null(parent) && cx_is_comprehension_loop(ts_node_type(parent))) return *fac;
    }
    TSNode bound_by = loop;
    const char *bt = type;
    if (cx_is_comprehension_loop(type)) { /* its bound is its first clause's */
        bound_by = cx_first_for_clause(loop);
        bt = "for_in_clause";
    }
    int power = 0, comb = ts_node_is_null(bound_by) ? CX_COMB_NONE : cx_combinatorial_over(w, bound_by, &power);
    if (comb == CX_COMB_FACTORIAL) {
        add_factor(w, fac, (struct cx_factor){.f = 1});
        cx_refinement(w, "permutations_loop", line,
                      "the loop at line %u runs over every permutation of its input: n! iterations: %s", line,
                      here(w, cost, sizeof cost));
        return *fac;
    }
    if (comb == CX_COMB_POWER) {
        add_factor(w, fac, (struct cx_factor){.r = power});
        if (power) cx_body_work(w, w->rdepth);
        cx_refinement(w, "permutations_loop", line,
                      "the loop at line %u runs over the %d-element choices (or the %d-fold product) of its input: "
                      "O(n^%d) iterations: %s", line, power, power, power, here(w, cost, sizeof cost));
        return *fac;
    }
    if (comb == CX_COMB_SUBSETS || comb == CX_COMB_NPOWN) {
        struct cx_cost c = comb == CX_COMB_SUBSETS ? (struct cx_cost){.exp = true} : (struct cx_cost){.fact = 2};
        cx_consider(w, c);
        add_factor(w, fac, (struct cx_factor){.r = 1});
        cx_refinement(w, "permutations_loop", line,
                      "the loop at line %u runs over choices of its input of a size the source does not fix: at most "
                      "%s iterations", line, comb == CX_COMB_SUBSETS ? "2^n" : "n^n");
        return *fac;
    }
    if (!ts_node_is_null(bound_by) && power_of_two_bound(w, bound_by)) {
        add_factor(w, fac, (struct cx_factor){.e = 1});
        cx_refinement(w, "exponential_loop", line,
                      "the loop at line %u runs to 2 to a power of the input (1 << n, 2 ** n): 2^n iterations, "
                      "every subset of n bits: %s", line, here(w, cost, sizeof cost));
        return *fac;
    }
    char pb[16];
    int pd = ts_node_is_null(bound_by) ? 0 : cx_power_bound(w, bound_by, pb, sizeof pb);
    if (pd) {
        add_factor(w, fac, (struct cx_factor){.r = pd});
        cx_consider(w, cx_cost_here(w, 0));
        cx_body_work(w, w->rdepth);
        cx_refinement(w, "power_bound", line, "the loop at line %u runs to %s, not n: %s", line, pb,
                      here(w, cost, sizeof cost));
        return *fac;
    }
    const char *why = ts_node_is_null(bound_by) ? NULL : constant_bound(w, bound_by, bt);
    if (why) {
        cx_refinement(w, "constant_bound_loop", line,
                      "the loop at line %u runs a fixed number of times (%s); it is not a factor of n", line, why);
        return *fac;
    }
    char counter[64];
    bool copies = false;
    if (cx_growing_collection(w, loop, counter, sizeof counter, &copies)) {
        struct cx_cost c = {.exp = true, .k = copies};
        cx_consider(w, c);
        cx_refinement(w, "growing_collection", line,
                      "the loop at line %u runs over %s and adds to it, once per iteration of the loop around it: "
                      "the collection doubles each time round, 2^n iterations in all%s: %s", line, counter,
                      copies ? ", each adding a new list built from an old one (up to n items)" : "",
                      cx_cost_text(c, cost, sizeof cost));
        add_factor(w, fac, (struct cx_factor){.r = 1});
        return *fac;
    }
    if (failure_link(w, loop, counter, sizeof counter)) {
        uint32_t outer = cx_line(w->nloops[w->nnloops - 1]);
        cx_refinement(w, "failure_link", line,
                      "the loop at line %u only lowers %s through its table (a failure link, as in KMP), and the "
                      "loop at line %u raises it by at most one per iteration: it cannot fall more often than it "
                      "rose, O(n) iterations in all, amortised O(1) per outer iteration", line, counter, outer);
        return *fac;
    }
    if (amortized_pointer(w, loop, counter, sizeof counter)) {
        uint32_t outer = cx_line(w->nloops[w->nnloops - 1]);
        cx_refinement(w, "amortized_pointer", line,
                      "the loop at line %u advances %s by one each time, and the loop at line %u around it never "
                      "resets it: O(n) iterations over the whole outer loop, amortised O(1) per outer iteration",
                      line, counter, outer);
        return *fac;
    }
    if (cx_amortized_stack(w, loop, counter, sizeof counter)) {
        uint32_t outer = cx_line(w->nloops[w->nnloops - 1]);
        cx_refinement(w, "amortized_stack", line,
                      "the loop at line %u pops %s on every iteration, and the loop at line %u around it pushes "
                      "onto it at most a fixed number of times per iteration: O(n) pops in all, amortised O(1) "
                      "per outer iteration", line, counter, outer);
        return *fac;
    }
    int graph = cx_adjacency_loop(w, loop, counter, sizeof counter);
    if (graph == 2) {
        cx_consider(w, (struct cx_cost){.exp = true});
        cx_refinement(w, "unguarded_worklist", line,
                      "the loop at line %u pushes every neighbour back onto the worklist %s with no test of what was "
                      "already seen: a vertex comes back once per path to it, up to 2^n times (forever on a "
                      "cycle): O(2^n) at least", line, counter);
    } else if (graph == 1) {
        uint32_t outer = cx_line(w->nloops[w->nnloops - 1]);
        add_factor(w, fac, (struct cx_factor){.g = 1});
        cx_refinement(w, "graph_traversal", line,
                      "the loop at line %u runs over the neighbours of a vertex taken from the worklist %s of the "
                      "loop at line %u, which pushes a vertex only under a test of what it has seen, or skips it "
                      "at the pop once seen: every edge is looked at O(1) times, O(V + E) over the whole "
                      "traversal: %s", line, counter, outer, here(w, cost, sizeof cost));
        return *fac;
    }
    uint32_t outer;
    int gd = cx_geometric_sum(w, loop, counter, sizeof counter, &outer);
    if (gd) {
        /* the pair is O(bound): n^gd here, the outer loop's log n taken back */
        add_factor(w, fac, (struct cx_factor){.r = gd, .l = -1});
        cx_consider(w, cx_cost_here(w, 0));
        cx_body_work(w, w->rdepth);
        char b[16] = "n";
        if (gd > 1) snprintf(b, sizeof b, "n^%d", gd);
        cx_refinement(w, "geometric_sum", line,
                      "the loop at line %u runs up to %s, which the loop at line %u around it multiplies by a "
                      "constant up to its bound %s: 1 + 2 + 4 + ... stays under twice the bound, O(%s) iterations "
                      "over the whole outer loop: %s", line, counter, outer, b, b, here(w, cost, sizeof cost));
        return *fac;
    }
    int ci = harmonic_step(w, loop, counter, sizeof counter);
    if (ci >= 0) {
        harmonic(w, loop, ci, counter, fac);
        return *fac;
    }
    int kind = log_loop(w, loop, counter, sizeof counter);
    if (kind != LOOP_LINEAR) {
        add_factor(w, fac, (struct cx_factor){.l = 1});
        here(w, cost, sizeof cost);
        if (kind == LOOP_GEOMETRIC)
            cx_refinement(w, "geometric_loop", line,
                          "the loop at line %u changes its counter %s only by a constant factor: O(log n) "
                          "iterations, not O(n): %s", line, counter, cost);
        else if (kind == LOOP_BITS)
            cx_refinement(w, "geometric_loop", line,
                          "the loop at line %u clears the lowest set bit of %s each time (%s &= %s - 1): one "
                          "iteration per set bit, at most log n + 1, not O(n): %s", line, counter, counter, counter, cost);
        else if (kind == LOOP_REMAINDER)
            cx_refinement(w, "remainder_loop", line,
                          "the loop at line %u replaces %s by a remainder (Euclid's algorithm): it at least halves "
                          "every two iterations, O(log n) iterations, not O(n): %s", line, counter, cost);
        else
            cx_refinement(w, "bisection_loop", line,
                          "the loop at line %u sets its bound %s from a midpoint it halves: the range halves "
                          "each iteration, O(log n) iterations, not O(n): %s", line, counter, cost);
        return *fac;
    }
    const char *root = sqrt_loop(w, loop, counter, sizeof counter, sqname, sqcap);
    if (root) {
        add_factor(w, fac, (struct cx_factor){.s = 1});
        cx_refinement(w, "sqrt_loop", line, "the loop at line %u runs while %s: O(sqrt n) iterations, not O(n): %s",
                      line, root, here(w, cost, sizeof cost));
        return *fac;
    }
    add_factor(w, fac, (struct cx_factor){.r = 1});
    cx_consider(w, cx_cost_here(w, 0));
    cx_body_work(w, w->rdepth);
    return *fac;
}

/* The comprehension's for clauses after its first: each a loop over n
 * (unless over a fixed collection) around its element and its filters. */
static void later_clauses(struct cx_walk *w, TSNode comp, struct cx_factor *fac) {
    TSNode first = cx_first_for_clause(comp);
    int extra = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(comp); i++) {
        TSNode k = ts_node_named_child(comp, i);
        if (strcmp(ts_node_type(k), "for_in_clause") != 0 || ts_node_eq(k, first)) continue;
        if (constant_bound(w, k, "for_in_clause")) continue;
        extra++;
    }
    if (!extra) return;
    fac->r += extra;
    w->rdepth += extra;
    cx_consider(w, cx_cost_here(w, 0));
    cx_body_work(w, w->rdepth);
}

void cx_refine_loop(struct cx_walk *w, TSNode loop, const char *type, struct cx_factor *fac, bool *pushed,
                    bool *held) {
    *fac = (struct cx_factor){0};
    char counter[CX_NAME_LEN], sq[CX_NAME_LEN] = "";
    loop_factor(w, loop, type, fac, sq, sizeof sq);
    if (cx_is_comprehension_loop(type)) later_clauses(w, loop, fac);
    bool over_n = fac->r >= 1 && fac->l == 0 && fac->s == 0 && fac->f == 0 && fac->g == 0;
    bool root = fac->s == 1 && fac->r == 0 && fac->l == 0 && fac->ll == 0;
    *held = over_n && w->nnloops < CX_NAMES_MAX;
    if (*held) w->nloops[w->nnloops++] = loop;
    loop_counter(w, loop, counter, sizeof counter);
    if (root && !counter[0]) snprintf(counter, sizeof counter, "%s", sq);
    /* Only a loop over n (or to sqrt n) makes a harmonic sum of an inner
     * loop stepping by its counter (a fixed list of steps, or doubling
     * ones, does not). */
    size_t at = w->counters.n;
    *pushed = (over_n || root) && counter[0] && cx_remember(&w->counters, (struct cx_text){counter, strlen(counter)});
    if (*pushed) {
        w->cloops[at] = loop;
        w->csqrt[at] = root;
    }
}
#endif
