/* Text handling of the verification rules: normalisation (3.4.3),
 * character prefixes, line multisets. */
#include "supervisor/verify/rules.h"

#include <stdlib.h>
#include <string.h>

/* ASCII whitespace as Python's str.strip() sees it inside a line. The
 * Unicode spaces it also strips are kept: stripping less can only make a
 * difference visible, never hide one. */
static bool ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n'; }

/* A NUL byte of the output as the normalised text carries it: the
 * overlong pair C0 80, which never occurs in the valid UTF-8 the exec
 * workers send, so C-string comparisons see past it. */
static const char nul_pair[2] = {(char)0xC0, (char)0x80};

char *cc_verify_normalise(const char *s, size_t len) {
    char *out = malloc(2 * len + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i <= len;) {
        const char *nl = i < len ? memchr(s + i, '\n', len - i) : NULL;
        size_t end = nl ? (size_t)(nl - s) : len, e = end;
        while (e > i && ws(s[e - 1])) e--;
        for (size_t k = i; k < e; k++) {
            if (s[k]) out[o++] = s[k];
            else memcpy(out + o, nul_pair, 2), o += 2;
        }
        if (!nl) break;
        out[o++] = '\n';
        i = end + 1;
    }
    size_t a = 0;
    while (a < o && ws(out[a])) a++;
    while (o > a && ws(out[o - 1])) o--;
    memmove(out, out + a, o - a);
    out[o - a] = '\0';
    return out;
}

bool cc_verify_differ_in_raw_bytes(const char *a, const char *b) {
    const char *ta = strstr(a, CC_RAW_TAG), *tb = strstr(b, CC_RAW_TAG);
    if (!ta && !tb) return false;
    size_t la = ta ? (size_t)(ta - a) : strlen(a), lb = tb ? (size_t)(tb - b) : strlen(b);
    return la == lb && memcmp(a, b, la) == 0;
}

char *cc_verify_prefix(const char *s, size_t max_chars) {
    size_t i = 0, chars = 0;
    while (s[i] && chars < max_chars) {
        i++;
        while ((s[i] & 0xC0) == 0x80) i++; /* continuation bytes */
        chars++;
    }
    return strndup(s, i);
}

json_t *cc_verify_text_json(const char *s) {
    size_t n = strlen(s), o = 0;
    char *buf = malloc(n + 1);
    if (!buf) return NULL;
    for (size_t i = 0; i < n; i++) {
        bool pair = i + 1 < n && s[i] == nul_pair[0] && s[i + 1] == nul_pair[1];
        buf[o++] = pair ? '\0' : s[i];
        i += pair;
    }
    json_t *j = json_stringn(buf, o);
    free(buf);
    return j;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of a text, sorted: pointers into a private copy. */
struct lines {
    char *copy;
    char **v;
    size_t n;
};

static int split_sorted(const char *s, struct lines *l) {
    size_t cap = 1;
    for (const char *p = s; *p; p++) cap += *p == '\n';
    l->copy = strdup(s);
    l->v = malloc(cap * sizeof *l->v);
    l->n = 0;
    if (!l->copy || !l->v) return -1;
    for (char *p = l->copy; p; ) {
        l->v[l->n++] = p;
        if ((p = strchr(p, '\n'))) *p++ = '\0';
    }
    qsort(l->v, l->n, sizeof *l->v, cmp_str);
    return 0;
}

bool cc_verify_same_lines_sorted(const char *a, const char *b) {
    struct lines x = {0}, y = {0};
    bool same = split_sorted(a, &x) == 0 && split_sorted(b, &y) == 0 && x.n == y.n;
    for (size_t i = 0; same && i < x.n; i++) same = strcmp(x.v[i], y.v[i]) == 0;
    free(x.copy), free(x.v), free(y.copy), free(y.v);
    return same;
}
