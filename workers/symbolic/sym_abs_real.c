/* Abs(u) -> +u or -u in an equation's text (sym_abs_real.h). */
#include "workers/symbolic/sym_abs_real.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The call abs( or Abs( at p, not the tail of a longer name (fabs). */
static bool abs_call_at(const char *text, const char *p) {
    if (strncmp(p, "abs(", 4) && strncmp(p, "Abs(", 4))
        return false;
    return p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
}

/* The index of the ')' closing the '(' at open, or 0 when unbalanced. */
static size_t closing(const char *s, size_t open) {
    int depth = 0;
    for (size_t i = open; s[i]; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0)
            return i;
    }
    return 0;
}

/* The first Abs call of s written "(+(u))" or "(-(u))"; *none set and NULL
 * when there is none; NULL alone on failure. */
static char *rewrite_first(const char *s, bool negative, bool *none) {
    *none = false;
    for (const char *p = s; *p; p++) {
        if (!abs_call_at(s, p))
            continue;
        size_t open = (size_t)(p - s) + 3, close = closing(s, open);
        if (!close)
            return NULL;
        size_t head = (size_t)(p - s), inner = close - open - 1, len = strlen(s);
        /* "abs(" inner ")" (inner + 5 bytes) becomes "(+(" inner "))" (inner + 5) */
        char *out = malloc(len + 1);
        if (!out)
            return NULL;
        memcpy(out, s, head);
        char *q = out + head;
        memcpy(q, negative ? "(-(" : "(+(", 3);
        memcpy(q + 3, s + open + 1, inner);
        memcpy(q + 3 + inner, "))", 2);
        strcpy(q + 5 + inner, s + close + 1);
        return out;
    }
    *none = true;
    return NULL;
}

char *sym_abs_case(const char *text, unsigned signs) {
    char *cur = strdup(text);
    for (int i = 0; cur; i++) {
        bool none = false;
        char *next = rewrite_first(cur, (signs >> i) & 1u, &none);
        if (none)
            return cur;
        free(cur);
        cur = next;
    }
    return NULL;
}

int sym_abs_count(const char *text) {
    char *cur = strdup(text);
    int n = 0;
    while (cur && n <= SYM_ABS_MAX_CASES) {
        bool none = false;
        char *next = rewrite_first(cur, false, &none);
        free(cur);
        cur = next;
        if (none)
            break;
        n++;
    }
    free(cur);
    return n;
}
