#include "workers/analysis/text_scan.h"

#include <string.h>

bool cx_is_word(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c >= 0x80;
}

bool cx_boundary(const char *s, size_t n, size_t i) {
    bool before = i > 0 && cx_is_word((unsigned char)s[i - 1]);
    bool after = i < n && cx_is_word((unsigned char)s[i]);
    return before != after;
}

/* Each occurrence of lit in s[0..n), from position *from; SIZE_MAX when none. */
static size_t find_from(const char *s, size_t n, const char *lit, size_t from) {
    size_t l = strlen(lit);
    if (l == 0 || l > n) return (size_t)-1;
    for (const char *p = s + from; (size_t)(p - s) + l <= n;) {
        const char *hit = memchr(p, lit[0], n - l + 1 - (size_t)(p - s));
        if (!hit) return (size_t)-1;
        if (memcmp(hit, lit, l) == 0) return (size_t)(hit - s);
        p = hit + 1;
    }
    return (size_t)-1;
}

bool cx_has_text(const char *s, size_t n, const char *lit) {
    return find_from(s, n, lit, 0) != (size_t)-1;
}

bool cx_has_prefixed(const char *s, size_t n, const char *lit) {
    for (size_t i = 0; (i = find_from(s, n, lit, i)) != (size_t)-1; i++)
        if (cx_boundary(s, n, i)) return true;
    return false;
}

bool cx_has_word(const char *s, size_t n, const char *word) {
    size_t l = strlen(word);
    for (size_t i = 0; (i = find_from(s, n, word, i)) != (size_t)-1; i++)
        if (cx_boundary(s, n, i) && cx_boundary(s, n, i + l)) return true;
    return false;
}

size_t cx_word_len(const char *s, size_t n, size_t i) {
    size_t j = i;
    while (j < n && cx_is_word((unsigned char)s[j])) j++;
    return j - i;
}

size_t cx_skip_blanks(const char *s, size_t n, size_t i) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v')) i++;
    return i;
}
