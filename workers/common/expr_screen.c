/* Token screen (see expr_screen.h). The rules are deliberately about tokens,
 * not grammar: they hold for every consumer of the text, whatever parser or
 * engine comes after. */
#include "workers/common/expr_screen.h"

#include <gmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_names.h"

/* All three tables are in strcmp order: every token is looked up by binary
 * search (cc_name_in). */
static const char *const banned_keywords[] = {
    "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
    "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "pass", "raise", "return", "try", "while", "with", "yield",
};

static const char *const banned_ops[] = {"->", "...", ":", ":=", ";", "=", "@", "{", "}"};

/* Functions whose cost explodes with the size of an integer argument. */
static const char *const heavy_functions[] = {
    "bernoulli", "binomial", "catalan", "divisor_sigma", "euler", "factorial", "factorial2",
    "ff", "fibonacci", "gamma", "harmonic", "loggamma", "lucas", "npartitions", "prime",
    "primepi", "primorial", "rf", "subfactorial", "totient", "tribonacci",
};

#define TOK_IN(src, t, table) \
    cc_name_in((src) + (t)->pos, (t)->len, (table), CC_NAMES_COUNT(table))

bool cc_expr_screen_tables_sorted(void) {
    return cc_names_sorted(banned_keywords, CC_NAMES_COUNT(banned_keywords)) &&
           cc_names_sorted(banned_ops, CC_NAMES_COUNT(banned_ops)) &&
           cc_names_sorted(heavy_functions, CC_NAMES_COUNT(heavy_functions));
}

static int length_cap(const char *src, size_t len, struct cc_expr_error *err) {
    /* A code point is at most 4 bytes, so past that no counting is needed. */
    size_t chars = 0;
    if (len <= 4u * CC_EXPR_MAX_CHARS)
        for (size_t i = 0; i < len; i++)
            chars += ((unsigned char)src[i] & 0xC0) != 0x80;
    if (len > 4u * CC_EXPR_MAX_CHARS || chars > CC_EXPR_MAX_CHARS) {
        cc_expr_set_error(err, "resource_exhausted", 0, "expression too long (max %d chars)",
                          CC_EXPR_MAX_CHARS);
        return -1;
    }
    return 0;
}

static int check_token(const char *src, const struct cc_token *t, struct cc_expr_error *err) {
    const char *text = src + t->pos;
    int n = (int)t->len;
    if (t->kind == CC_T_NAME && text[0] == '_') {
        cc_expr_set_error(err, "permission_denied", t->pos,
                          "identifier '%.*s' is not permitted: leading underscores reach Python internals",
                          n, text);
        return -1;
    }
    if (t->kind == CC_T_NAME && TOK_IN(src, t, banned_keywords)) {
        cc_expr_set_error(err, "permission_denied", t->pos,
                          "keyword '%.*s' is not permitted in an expression", n, text);
        return -1;
    }
    if (t->kind == CC_T_STRING) {
        cc_expr_set_error(err, "permission_denied", t->pos,
                          "string literals are not permitted in an expression");
        return -1;
    }
    if (t->kind != CC_T_OP) return 0;
    if (cc_tok_is(src, t, ".")) {
        cc_expr_set_error(err, "permission_denied", t->pos,
                          "attribute access is not permitted in an expression");
        return -1;
    }
    if (cc_tok_is(src, t, "[") || cc_tok_is(src, t, "]")) {
        cc_expr_set_error(err, "permission_denied", t->pos,
                          "'%.*s' is not permitted: matrices and lists cannot be written in the "
                          "expression tools; use the matrix tool for det, inverse, eigenvalues, "
                          "transpose, rank and trace",
                          n, text);
        return -1;
    }
    if (TOK_IN(src, t, banned_ops)) {
        cc_expr_set_error(err, "permission_denied", t->pos,
                          "'%.*s' is not permitted in an expression", n, text);
        return -1;
    }
    return 0;
}

/* Compare one integer literal with the limit; 1 when it is over. */
static int literal_over_limit(const char *src, const struct cc_token *t, const char *fname,
                              int fname_len, struct cc_expr_error *err) {
    mpz_t v;
    mpz_init(v);
    int over = 0;
    if (cc_lex_int_value(src + t->pos, t->len, v) == 0 && mpz_cmp_ui(v, CC_EXPR_HEAVY_LIMIT) > 0) {
        over = 1;
        size_t digits = mpz_sizeinbase(v, 10);
        /* TOOLS.md switches to "(~N digits)" past 4300 digits; the message
         * buffer of cc_expr_error holds 600 bytes, so we switch earlier. */
        char *shown = digits > 400 ? NULL : mpz_get_str(NULL, 10, v);
        if (shown)
            cc_expr_set_error(err, "resource_exhausted", t->pos,
                              "argument %s to %.*s() exceeds the limit of %d: computing it would "
                              "take an unbounded amount of time and memory",
                              shown, fname_len, fname,
                              CC_EXPR_HEAVY_LIMIT);
        else
            cc_expr_set_error(err, "resource_exhausted", t->pos,
                              "argument (~%zu digits) to %.*s() exceeds the limit of %d: computing "
                              "it would take an unbounded amount of time and memory",
                              digits, fname_len, fname, CC_EXPR_HEAVY_LIMIT);
        if (shown) {
            void (*gmp_free)(void *, size_t);
            mp_get_memory_functions(NULL, NULL, &gmp_free);
            gmp_free(shown, strlen(shown) + 1);
        }
    }
    mpz_clear(v);
    return over;
}

/* Heavy-argument check: every integer literal between "name(" and its ")". */
static int heavy_arguments(const char *src, const struct cc_token *t, size_t n,
                           struct cc_expr_error *err) {
    for (size_t k = 0; k + 1 < n; k++) {
        if (t[k].kind != CC_T_NAME || !TOK_IN(src, &t[k], heavy_functions)) continue;
        if (!cc_tok_is(src, &t[k + 1], "(")) continue;
        long depth = 0;
        for (size_t j = k + 1; j < n && t[j].kind != CC_T_END; j++) {
            if (cc_tok_is(src, &t[j], "(")) depth++;
            else if (cc_tok_is(src, &t[j], ")") && --depth == 0) break;
            else if (t[j].kind == CC_T_INT &&
                     literal_over_limit(src, &t[j], src + t[k].pos, (int)t[k].len, err))
                return -1;
        }
    }
    return 0;
}

int cc_expr_screen_keep(const char *src, size_t len, struct cc_token **toks, size_t *ntoks,
                        struct cc_expr_error *err) {
    *toks = NULL;
    *ntoks = 0;
    if (length_cap(src, len, err) != 0) return -1;
    struct cc_token *t;
    size_t n;
    if (cc_lex_all(src, len, &t, &n, err) != 0) return -1;
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) rc = check_token(src, &t[k], err);
    if (rc == 0) rc = heavy_arguments(src, t, n, err);
    if (rc != 0) {
        free(t);
        return -1;
    }
    *toks = t;
    *ntoks = n;
    return 0;
}

int cc_expr_screen(const char *src, size_t len, struct cc_expr_error *err) {
    struct cc_token *t;
    size_t n;
    if (cc_expr_screen_keep(src, len, &t, &n, err) != 0) return -1;
    free(t);
    return 0;
}
