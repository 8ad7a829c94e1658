/* Text matchers of the refinement rules (refine_text.h). */
#if CC_HAVE_TREE_SITTER
#include "workers/analysis/refine_text.h"

#include <stdio.h>
#include <string.h>

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
