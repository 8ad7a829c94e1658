/* Text matchers of the refinement rules (refine_text.h). */
#if CC_HAVE_TREE_SITTER
#include "workers/analysis/refine_text.h"

#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/text_scan.h"

/* Text without blanks, at most cap - 1 bytes of it; a line end becomes
 * `;` so tokens of two lines never run together (`i *= 2` then `for`). */
size_t cx_flatten(struct cx_text t, char *flat, size_t cap) {
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

/* At flat[i]: an integer literal of at least min, not followed by more of
 * a number or a name (2, not 2.5 or 2x). */
bool cx_literal_at_least(const char *flat, size_t n, size_t i, long min) {
    size_t j = i;
    long v = 0;
    while (j < n && flat[j] >= '0' && flat[j] <= '9' && v < 1000000) v = v * 10 + (flat[j++] - '0');
    return j > i && v >= min && (j == n || !(cx_is_word((unsigned char)flat[j]) || flat[j] == '.'));
}

/* flat[i..] is the name v (a whole word) followed by lit. */
bool cx_word_then(const char *flat, size_t n, size_t i, const char *v, size_t vl, const char *lit) {
    size_t l = strlen(lit);
    if (i + vl + l > n || memcmp(flat + i, v, vl) != 0 || (i > 0 && cx_is_word((unsigned char)flat[i - 1])))
        return false;
    if (l == 0) return i + vl == n || !cx_is_word((unsigned char)flat[i + vl]);
    return memcmp(flat + i + vl, lit, l) == 0;
}

/* `lit` occurs in flat and no digit or point continues it (/2, not /20). */
bool cx_has_operator(const char *flat, size_t n, const char *lit) {
    size_t l = strlen(lit);
    for (size_t i = 0; i + l <= n; i++)
        if (memcmp(flat + i, lit, l) == 0 && (i + l == n || !strchr("0123456789.", flat[i + l])))
            return true;
    return false;
}

/* A division by a constant factor: / k or // k with k >= 2, >> k with
 * k >= 1, * 0.5. (The name says half; a third shrinks as fast, up to a
 * constant in the logarithm.) */
bool cx_halving_text(const char *flat, size_t n) {
    for (size_t i = 0; i + 1 < n; i++) {
        if (flat[i] == '/' && cx_literal_at_least(flat, n, i + 1 + (flat[i + 1] == '/'), 2)) return true;
        if (flat[i] == '>' && flat[i + 1] == '>' && cx_literal_at_least(flat, n, i + 2, 1)) return true;
    }
    return cx_has_operator(flat, n, "*0.5");
}

/* At flat[i]: v steps by addition (v += 1, v -= k, v++, ++v, v = v + 1). */
bool cx_step_update(const char *flat, size_t n, size_t i, const char *v, size_t vl) {
    static const char *const after[] = {"+=", "-=", "++", "--", NULL};
    for (const char *const *a = after; *a; a++)
        if (cx_word_then(flat, n, i, v, vl, *a)) return true;
    if (i >= 2 && (memcmp(flat + i - 2, "++", 2) == 0 || memcmp(flat + i - 2, "--", 2) == 0) &&
        cx_word_then(flat, n, i, v, vl, ""))
        return true;
    size_t j = i + vl + 1; /* v = v + ..., v = v - ... */
    return cx_word_then(flat, n, i, v, vl, "=") && j < n && flat[j] != '=' &&
           (cx_word_then(flat, n, j, v, vl, "+") || cx_word_then(flat, n, j, v, vl, "-"));
}

/* At flat[i]: v scales by a constant (v *= 2, v //= 2, v >>= 1, v = v * 2). */
bool cx_scale_update(const char *flat, size_t n, size_t i, const char *v, size_t vl) {
    static const struct { const char *op; long min; } ops[] = {
        {"*", 2}, {"//", 2}, {"/", 2}, {">>", 1}, {"<<", 1}};
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        char compound[8];
        size_t ol = strlen(ops[k].op);
        snprintf(compound, sizeof compound, "%s=", ops[k].op);
        if (cx_word_then(flat, n, i, v, vl, compound) && cx_literal_at_least(flat, n, i + vl + ol + 1, ops[k].min))
            return true;
        size_t j = i + vl + 1;
        if (cx_word_then(flat, n, i, v, vl, "=") && j < n && flat[j] != '=' && cx_word_then(flat, n, j, v, vl, ops[k].op) &&
            cx_literal_at_least(flat, n, j + vl + ol, ops[k].min))
            return true;
    }
    return false;
}

/* Where the assignment `name = rhs` at flat[i] has its right side (and
 * its end at ';' or the text's end), or 0 when flat[i] starts none. */
size_t cx_assignment_rhs(const char *flat, size_t n, size_t i, size_t *end) {
    if (i > 0 && cx_is_word((unsigned char)flat[i - 1])) return 0;
    size_t l = cx_word_len(flat, n, i), j = i + l;
    if (l == 0 || j + 1 >= n || flat[j] != '=' || flat[j + 1] == '=') return 0;
    size_t e = j + 1;
    while (e < n && flat[e] != ';') e++;
    *end = e;
    return j + 1;
}

/* The item at index k of a comma list flat[i..end) at bracket depth 0,
 * as [*from, *to); false when the list is shorter. */
bool cx_list_item(const char *flat, size_t i, size_t end, size_t k, size_t *from, size_t *to) {
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

/* Remembers an identifier; anything longer or not a plain word is left out. */
bool cx_remember(struct cx_names *names, struct cx_text t) {
    if (names->n == CX_NAMES_MAX || t.n == 0 || t.n >= CX_NAME_LEN || cx_word_len(t.s, t.n, 0) != t.n) return false;
    memcpy(names->v[names->n], t.s, t.n);
    names->v[names->n++][t.n] = '\0';
    return true;
}

bool cx_mentions(const struct cx_names *names, const char *flat, size_t n) {
    for (size_t i = 0; i < names->n; i++)
        if (cx_has_word(flat, n, names->v[i])) return true;
    return false;
}
bool cx_assigns(const char *flat, size_t n, size_t i, const char *v, size_t vl) {
    static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "//=", "%=", "<<=", ">>=", "&=", "|=", "^=",
                                      "++", "--", ":=", NULL};
    if (!cx_word_then(flat, n, i, v, vl, "")) return false;
    if (i >= 2 && (memcmp(flat + i - 2, "++", 2) == 0 || memcmp(flat + i - 2, "--", 2) == 0)) return true;
    if (i >= 4 && memcmp(flat + i - 4, "for ", 4) == 0) return true;
    if (cx_tuple_target(flat, n, i)) return true;
    for (const char *const *o = ops; *o; o++)
        if (cx_word_then(flat, n, i, v, vl, *o) && !(strcmp(*o, "=") == 0 && i + vl + 1 < n && flat[i + vl + 1] == '='))
            return true;
    return false;
}

size_t cx_unit_step(const char *flat, size_t n, size_t *at, bool *up) {
    while (n > 0 && flat[n - 1] == ';') n--;
    size_t i = 0;
    if (n > 2 && (memcmp(flat, "++", 2) == 0 || memcmp(flat, "--", 2) == 0)) i = 2;
    size_t l = cx_word_len(flat, n, i);
    if (l == 0 || (flat[i] >= '0' && flat[i] <= '9')) return 0;
    *at = i;
    const char *rest = flat + i + l;
    size_t rn = n - i - l;
    char sign;
    if (i == 2) {
        if (rn != 0) return 0;
        sign = flat[0];
    } else if ((rn == 2 && (memcmp(rest, "++", 2) == 0 || memcmp(rest, "--", 2) == 0)) ||
               (rn == 3 && (memcmp(rest, "+=1", 3) == 0 || memcmp(rest, "-=1", 3) == 0))) {
        sign = rest[0];
    } else if (rn == l + 3 && rest[0] == '=' && memcmp(rest + 1, flat + i, l) == 0 &&
               (memcmp(rest + 1 + l, "+1", 2) == 0 || memcmp(rest + 1 + l, "-1", 2) == 0)) {
        sign = rest[1 + l];
    } else {
        return 0;
    }
    if (up) *up = sign == '+';
    return l;
}

/* At flat[i], where v is assigned: a step by a literal (v++, ++v, v += 3,
 * v -= 1, v = v + 1, v = v - 1), which moves v without resetting it. */
static bool literal_step(const char *flat, size_t n, size_t i, const char *v, size_t vl) {
    if (i >= 2 && (memcmp(flat + i - 2, "++", 2) == 0 || memcmp(flat + i - 2, "--", 2) == 0)) return true;
    if (cx_word_then(flat, n, i, v, vl, "++") || cx_word_then(flat, n, i, v, vl, "--")) return true;
    if (cx_word_then(flat, n, i, v, vl, "+=") || cx_word_then(flat, n, i, v, vl, "-="))
        return cx_literal_at_least(flat, n, i + vl + 2, 0);
    size_t e = i + vl + 1;
    return cx_word_then(flat, n, i, v, vl, "=") && e < n && flat[e] != '=' &&
           (cx_word_then(flat, n, e, v, vl, "+1") || cx_word_then(flat, n, e, v, vl, "-1"));
}

bool cx_reassigned(const char *flat, size_t n, const char *v, size_t vl) {
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (cx_is_word((unsigned char)flat[i - 1]) || flat[i - 1] == '.')) continue;
        if (cx_assigns(flat, n, i, v, vl) && !literal_step(flat, n, i, v, vl)) return true;
    }
    return false;
}

bool cx_is_int_literal(const struct cx_walk *w, TSNode n) {
    static const char *const int_types[] = {"integer", "integer_literal", "number_literal", "number",
                                            "decimal_integer_literal", "int_literal", NULL};
    if (ts_node_is_null(n) || !cx_type_is(n, int_types)) return false;
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

#define POWER_MAX 4 /* the highest power of n a bound is read as */

/* The name f[0..n) is the counter of a loop over n open around this
 * point: at most n, whatever the input is. */
static bool counter_of(const struct cx_walk *w, const char *f, size_t n) {
    for (size_t i = 0; w && i < w->counters.n; i++)
        if (strlen(w->counters.v[i]) == n && memcmp(w->counters.v[i], f, n) == 0) return true;
    return false;
}

/* The degree of flat[0..n) as a product of one non-literal factor and
 * the counters of loops over n around this point: 2 for n*n, n**2,
 * n*n//2 or n*i (i such a counter), 3 for n*n*n, else 0 (a single
 * factor, a literal, two different factors neither a counter, a sum). */
int cx_power_degree(const struct cx_walk *w, const char *s, size_t n) {
    for (size_t i = n; i-- > 1;) { /* n * n + 1, n * n - 1: the literal term adds nothing */
        if (s[i] >= '0' && s[i] <= '9') continue;
        if ((s[i] == '+' || s[i] == '-') && i + 1 < n && s[i - 1] != '*' && s[i - 1] != '/') n = i;
        break;
    }
    int depth = 0, degree = 0;
    const char *base = NULL;
    size_t bl = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? s[i] : '\0';
        if (c == '(' || c == '[') depth++;
        else if (c == ')' || c == ']') depth--;
        if (depth < 0) return 0;
        if (depth > 0) continue;
        if (c == '+' || c == '-' || c == '?' || c == '<' || c == '>' || c == '&' || c == '|') return 0;
        if (c != '\0' && !(c == '*' && !(i + 1 < n && s[i + 1] == '*') && !(i > 0 && s[i - 1] == '*'))) continue;
        /* a factor s[start..i): name, call or index, optionally ** k or // k */
        const char *f = s + start;
        size_t fl = i - start, el = fl;
        int power = 1;
        for (size_t k = 0; k + 1 < fl; k++)
            if (f[k] == '*' && f[k + 1] == '*') {
                if (!cx_literal_at_least(f, fl, k + 2, 2) || fl - k - 2 > 1) return 0;
                power = f[k + 2] - '0';
                el = k;
                break;
            }
        for (size_t k = 0; k + 1 < el; k++) /* n // 2 keeps n's degree */
            if (f[k] == '/' && (cx_literal_at_least(f, el, k + 1, 1) ||
                                (f[k + 1] == '/' && cx_literal_at_least(f, el, k + 2, 1)))) {
                el = k;
                break;
            }
        if (el == 0) return 0;
        if (f[0] >= '0' && f[0] <= '9') { /* a literal factor: no degree, but no operator in it either */
            for (size_t k = 0; k < el; k++)
                if (!(f[k] >= '0' && f[k] <= '9')) return 0;
        } else {
            for (size_t k = 0; k < el; k++)
                if (!cx_is_word((unsigned char)f[k]) && !strchr(".()[]", f[k])) return 0;
            if (!counter_of(w, f, el)) {
                if (base && (bl != el || memcmp(base, f, el) != 0)) return 0;
                base = f, bl = el;
            }
            degree += power;
        }
        start = i + 1;
    }
    return degree >= 2 && degree <= POWER_MAX ? degree : 0;
}

#endif

/* 2 to a power that is not a literal: `1<<n`, `1u<<len(a)`, `1ULL<<n`,
 * `1usize<<n`, `2**n`, `pow(2,n)`, `Math.pow(2,n)`. A literal exponent
 * (`1<<10`) is a constant. */
bool cx_power_of_two_text(const char *flat, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (cx_is_word((unsigned char)flat[i - 1]) || flat[i - 1] == '.')) continue;
        size_t j = i, e = 0;
        if (flat[i] == '1') { /* 1 with an integer suffix, then << */
            j = i + 1;
            while (j < n && cx_is_word((unsigned char)flat[j]) && !(flat[j] >= '0' && flat[j] <= '9') && j - i < 8) j++;
            if (j + 1 < n && flat[j] == '<' && flat[j + 1] == '<' && (j + 2 >= n || flat[j + 2] != '=')) e = j + 2;
        } else if (flat[i] == '2' && i + 2 < n && flat[i + 1] == '*' && flat[i + 2] == '*') {
            e = i + 3;
        } else if (n - i > 6 && memcmp(flat + i, "pow(2,", 6) == 0) {
            e = i + 6;
        }
        if (!e || e >= n) continue;
        if (flat[e] == '(') e++;
        if (e < n && cx_is_word((unsigned char)flat[e]) && !(flat[e] >= '0' && flat[e] <= '9')) return true;
    }
    return false;
}

bool cx_tuple_target(const char *flat, size_t n, size_t i) {
    size_t a = i, b = i;
    while (a > 0 && (cx_is_word((unsigned char)flat[a - 1]) || flat[a - 1] == ',' || flat[a - 1] == '[' ||
                     flat[a - 1] == '('))
        a--;
    while (b < n && (cx_is_word((unsigned char)flat[b]) || flat[b] == ',' || flat[b] == ']' || flat[b] == ')')) b++;
    return memchr(flat + a, ',', b - a) && b + 1 < n && flat[b] == '=' && flat[b + 1] != '=';
}
