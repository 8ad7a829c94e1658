/* Tokeniser for expression text, following Python's token rules (TOOLS.md
 * 2.2): names, numbers (1.5, 1e3, 0x1f, 0o7, 0b101, 1_000, 1j), string
 * literals with any prefix, and operators. Postfix '!' of the symbolic
 * dialect is an operator here too.
 *
 * Also home of struct cc_expr_error, the error every stage of the expression
 * front end (screen, parse, shape check) fills in.
 */
#ifndef CC_EXPR_LEX_H
#define CC_EXPR_LEX_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cc_expr_error {
    const char *code;  /* one of the 8 codes of TOOLS.md 1.10 (static string) */
    char message[600];
    uint32_t pos;      /* 0-based character offset the error refers to */
};

/* Fill err (code, position, printf-style message; truncated to fit). */
void cc_expr_set_error(struct cc_expr_error *err, const char *code, uint32_t pos,
                       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

enum cc_tok_kind {
    CC_T_END,
    CC_T_NAME,
    CC_T_INT,    /* integer literal, any base */
    CC_T_FLOAT,  /* decimal literal with '.' or exponent */
    CC_T_IMAG,   /* number with a j/J suffix */
    CC_T_STRING, /* string literal, prefix and quotes included */
    CC_T_OP,     /* operator or delimiter */
};

struct cc_token {
    enum cc_tok_kind kind;
    uint32_t pos; /* offset of the first character */
    uint32_t len; /* length in bytes */
};

/* Tokenise src[0..len). On success *out is a malloc'd array of *n tokens,
 * the last of kind CC_T_END; the caller frees it with free(). On failure
 * returns -1 with err set (validation, "expression could not be tokenised:
 * ...") and *out NULL. Inputs longer than UINT32_MAX are refused. */
int cc_lex_all(const char *src, size_t len, struct cc_token **out, size_t *n,
               struct cc_expr_error *err);

/* The value of an integer literal token's text (any base, underscores
 * allowed). out must be initialised. 0, or -1 on allocation failure or a
 * malformed literal. */
int cc_lex_int_value(const char *text, size_t n, mpz_t out);

/* true when token t of src is the operator/name spelled exactly s. Inline
 * because the parser asks this for every token against literal spellings:
 * the compiler then folds strlen(s) and the comparison to a few
 * instructions. */
static inline bool cc_tok_is(const char *src, const struct cc_token *t, const char *s) {
    size_t n = strlen(s);
    return t->len == n && memcmp(src + t->pos, s, n) == 0;
}

#endif
