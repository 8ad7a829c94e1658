/* The regex fallback of TOOLS.md 3.5.1: loops and their nesting by
 * indentation, recursion by a declared name reappearing in its body, and
 * the sort/hash scans that apply in both reading modes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/analysis/complexity.h"
#include "workers/analysis/text_scan.h"

void cx_reading_init(struct cx_reading *r) {
    memset(r, 0, sizeof *r);
    r->functions = json_array();
    r->refinements = json_array();
}

void cx_reading_free(struct cx_reading *r) {
    json_decref(r->functions);
    json_decref(r->refinements);
    r->functions = r->refinements = NULL;
}

struct line {
    const char *s;   /* start of the line */
    size_t n;        /* length without the newline */
    size_t indent;   /* leading whitespace characters */
};

static struct line line_at(const char *code, size_t len, size_t at) {
    const char *nl = memchr(code + at, '\n', len - at);
    struct line l = {code + at, nl ? (size_t)(nl - (code + at)) : len - at, 0};
    while (l.indent < l.n && (l.s[l.indent] == ' ' || l.s[l.indent] == '\t' || l.s[l.indent] == '\r' ||
                              l.s[l.indent] == '\f' || l.s[l.indent] == '\v'))
        l.indent++;
    return l;
}

static bool starts(const struct line *l, const char *lit) {
    size_t k = strlen(lit);
    return l->n - l->indent >= k && memcmp(l->s + l->indent, lit, k) == 0;
}

/* Blank lines and lines that start with a comment marker are skipped. */
static bool skipped(const struct line *l) {
    return l->indent == l->n || starts(l, "#") || starts(l, "//") || starts(l, "/*") || starts(l, "*");
}

/* `for <w> in`, `for <w> :=`, `for <w> of` (all covered by \bfor\b, kept
 * for the letter of the spec) and the loop keywords and methods. */
static bool is_loop_line(const struct line *l) {
    static const char *const words[] = {"for", "while", "foreach", "until", "loop", "repeat"};
    static const char *const methods[] = {".forEach(", ".map(", ".filter(", ".reduce("};
    if (starts(l, "}") || starts(l, ")")) return false;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (cx_has_word(l->s, l->n, words[i])) return true;
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (cx_has_text(l->s, l->n, methods[i])) return true;
    return false;
}

/* The name of a function header on this line, or 0:
 * `(def|func|function|fn|sub) <name>(` or `public [static] <type> <name>(`. */
static size_t header_name(const struct line *l, size_t *at) {
    static const char *const kws[] = {"def", "func", "function", "fn", "sub"};
    const char *s = l->s;
    size_t n = l->n;
    for (size_t i = 0; i < n; i++) {
        if (!cx_boundary(s, n, i) || !cx_is_word((unsigned char)s[i])) continue;
        size_t w = cx_word_len(s, n, i);
        for (size_t k = 0; k < sizeof kws / sizeof kws[0]; k++) {
            if (w != strlen(kws[k]) || memcmp(s + i, kws[k], w) != 0) continue;
            size_t j = cx_skip_blanks(s, n, i + w);
            if (j == i + w) continue;
            size_t nl = cx_word_len(s, n, j);
            size_t p = cx_skip_blanks(s, n, j + nl);
            if (nl && p < n && s[p] == '(') return *at = j, nl;
        }
        if (w == 6 && memcmp(s + i, "public", 6) == 0) {
            size_t j = cx_skip_blanks(s, n, i + w);
            if (j == i + w) continue;
            size_t t = cx_word_len(s, n, j);
            if (t == 6 && memcmp(s + j, "static", 6) == 0) {
                size_t j2 = cx_skip_blanks(s, n, j + t);
                if (j2 > j + t && cx_word_len(s, n, j2)) j = j2, t = cx_word_len(s, n, j2);
            }
            size_t k2 = cx_skip_blanks(s, n, j + t);
            if (!t || k2 == j + t) continue;
            size_t nl = cx_word_len(s, n, k2);
            size_t p = cx_skip_blanks(s, n, k2 + nl);
            if (nl && p < n && s[p] == '(') return *at = k2, nl;
        }
    }
    return 0;
}

/* Every `<identifier>(` of the source (a word boundary before the name),
 * sorted by name then position: one pass, so looking up whether a body
 * calls its own name costs a binary search rather than a scan of the body
 * (bodies of indented headers overlap, and rescanning them is quadratic). */
struct site {
    const char *name;
    size_t len, pos;
};

static int site_cmp(const void *a, const void *b) {
    const struct site *x = a, *y = b;
    size_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, m);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static struct site *call_sites(const char *code, size_t len, size_t *count) {
    size_t n = 0, cap = 0;
    struct site *v = NULL;
    for (size_t i = 0; i < len; i++) {
        if (!cx_is_word((unsigned char)code[i]) || !cx_boundary(code, len, i)) continue;
        size_t w = cx_word_len(code, len, i);
        if (i + w < len && code[i + w] == '(') {
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 64;
                struct site *nv = realloc(v, nc * sizeof *nv);
                if (!nv) break;
                v = nv, cap = nc;
            }
            v[n++] = (struct site){code + i, w, i};
        }
        i += w - 1;
    }
    if (n) qsort(v, n, sizeof *v, site_cmp);
    *count = n;
    return v;
}

/* Is there a call site of name at a position in [from, to)? */
static bool called_between(const struct site *v, size_t n, const char *name, size_t nl, size_t from,
                           size_t to) {
    struct site key = {name, nl, from};
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (site_cmp(&v[mid], &key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && v[lo].len == nl && memcmp(v[lo].name, name, nl) == 0 && v[lo].pos < to;
}

/* End of a header's body: the start of the next line that starts in column
 * 0 (a non-blank first character), or the end of the source. */
static size_t body_end(const char *code, size_t len, size_t body_at) {
    size_t end = body_at;
    while (end < len) {
        struct line l = line_at(code, len, end);
        if (l.n > 0 && l.indent == 0) break;
        end += l.n + 1;
    }
    return end > len ? len : end;
}

/* What the recursion check needs across lines: the call-site index and the
 * body end found last, which is still the answer for any later body start up
 * to it, so every line is walked once however headers nest. */
struct rec_scan {
    struct site *sites;
    size_t nsites;
    size_t end_cache;
    bool have_end;
};

/* Is l the header of a function whose body calls it? Records the name. */
static void check_header(const char *code, size_t len, const struct line *l, size_t body_at,
                         struct rec_scan *rs, struct cx_reading *r) {
    size_t name_at, nl = header_name(l, &name_at);
    if (!nl) return;
    if (!rs->have_end || body_at > rs->end_cache) {
        rs->end_cache = body_end(code, len, body_at);
        rs->have_end = true;
    }
    if (!called_between(rs->sites, rs->nsites, l->s + name_at, nl, body_at, rs->end_cache)) return;
    r->recursion = true;
    snprintf(r->rec_name, sizeof r->rec_name, "%.*s", (int)(nl < CX_NAME_MAX ? nl : CX_NAME_MAX - 1),
             l->s + name_at);
}

void cx_read_lines(const char *code, size_t len, struct cx_reading *r) {
    size_t *stack = NULL, depth = 0, cap = 0;
    struct rec_scan rs = {0};
    rs.sites = call_sites(code, len, &rs.nsites);
    for (size_t at = 0; at < len;) {
        struct line l = line_at(code, len, at);
        size_t next = at + l.n + 1;
        if (!skipped(&l)) {
            while (depth > 0 && stack[depth - 1] >= l.indent) depth--;
            if (is_loop_line(&l)) {
                if (depth == cap) {
                    size_t nc = cap ? cap * 2 : 16;
                    size_t *ns = realloc(stack, nc * sizeof *ns);
                    if (!ns) break;
                    stack = ns, cap = nc;
                }
                stack[depth++] = l.indent;
                r->loops++;
                if ((int)depth > r->max_nesting) r->max_nesting = (int)depth;
            }
        }
        if (!r->recursion) check_header(code, len, &l, next < len ? next : len, &rs, r);
        at = next;
    }
    free(stack);
    free(rs.sites);
}
bool cx_scan_sort(const char *code, size_t len) {
    return cx_has_text(code, len, ".sort(") || cx_has_text(code, len, ".sort_by(") ||
           cx_has_prefixed(code, len, "sort(") || cx_has_prefixed(code, len, "sorted(") ||
           cx_has_prefixed(code, len, "sort_by");
}

/* `\b{}`: "{}" right after a word character (a boundary before "{" needs
 * one), as in Go's map[string]int{}. */
static bool word_then_braces(const char *code, size_t len) {
    for (size_t i = 1; i + 1 < len; i++)
        if (code[i] == '{' && code[i + 1] == '}' && cx_is_word((unsigned char)code[i - 1])) return true;
    return false;
}

bool cx_scan_hash(const char *code, size_t len) {
    static const char *const words[] = {"dict", "HashMap", "Map", "HashSet", "Set", "Hash"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (cx_has_word(code, len, words[i])) return true;
    return word_then_braces(code, len);
}
