/* Python-style tokeniser (see expr_lex.h). Hand-written rather than
 * regex-driven so every step is bounded by the input length. */
#include "workers/common/expr_lex.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cc_expr_set_error(struct cc_expr_error *err, const char *code, uint32_t pos,
                       const char *fmt, ...) {
    if (!err) return;
    err->code = code;
    err->pos = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

struct lexer {
    const char *s;
    size_t len, i;
    struct cc_expr_error *err;
};

static int peek(const struct lexer *lx, size_t k) {
    return lx->i + k < lx->len ? (unsigned char)lx->s[lx->i + k] : -1;
}

static bool is_name_start(int c) { return c == '_' || (c >= 0 && isalpha(c)); }
static bool is_name_char(int c) { return c == '_' || (c >= 0 && isalnum(c)); }

static bool is_digit_in(int c, int base) {
    if (c < 0) return false;
    switch (base) {
    case 2: return c == '0' || c == '1';
    case 8: return c >= '0' && c <= '7';
    case 16: return isxdigit(c) != 0;
    default: return isdigit(c) != 0;
    }
}

/* Digits with single underscores between them, Python style. Consumes
 * nothing and returns false when no digit starts here. */
static bool digit_part(struct lexer *lx, int base) {
    if (!is_digit_in(peek(lx, 0), base)) return false;
    lx->i++;
    for (;;) {
        if (is_digit_in(peek(lx, 0), base)) lx->i++;
        else if (peek(lx, 0) == '_' && is_digit_in(peek(lx, 1), base)) lx->i += 2;
        else return true;
    }
}

/* An exponent is only part of the number when digits follow it, as in
 * Python's tokenizer: "2e" is the number 2 and the name e. */
static void exponent_part(struct lexer *lx, bool *is_float) {
    int c = peek(lx, 0);
    if (c != 'e' && c != 'E') return;
    size_t save = lx->i;
    lx->i++;
    if (peek(lx, 0) == '+' || peek(lx, 0) == '-') lx->i++;
    if (digit_part(lx, 10)) *is_float = true;
    else lx->i = save;
}

static enum cc_tok_kind lex_number(struct lexer *lx) {
    int c1 = peek(lx, 1);
    if (peek(lx, 0) == '0' && c1 >= 0 && strchr("xXoObB", c1)) {
        int base = (c1 == 'x' || c1 == 'X') ? 16 : (c1 == 'o' || c1 == 'O') ? 8 : 2;
        size_t save = lx->i;
        lx->i += 2;
        if (peek(lx, 0) == '_') lx->i++;
        if (digit_part(lx, base)) return CC_T_INT;
        lx->i = save; /* "0x" alone: the number 0 then the name x */
    }
    bool is_float = false;
    if (peek(lx, 0) == '.') {
        lx->i++;
        digit_part(lx, 10);
        is_float = true;
    } else {
        digit_part(lx, 10);
        if (peek(lx, 0) == '.') {
            lx->i++;
            digit_part(lx, 10);
            is_float = true;
        }
    }
    exponent_part(lx, &is_float);
    if (peek(lx, 0) == 'j' || peek(lx, 0) == 'J') {
        lx->i++;
        return CC_T_IMAG;
    }
    return is_float ? CC_T_FLOAT : CC_T_INT;
}

/* Python string prefixes: any case of r, u, b, f and the two-letter
 * combinations of r with b or f. */
static size_t string_prefix_len(const struct lexer *lx) {
    for (size_t k = 0; k < 3; k++) {
        int c = peek(lx, k);
        if (c == '\'' || c == '"') return k;
        if (c < 0 || !strchr("rRuUbBfF", c)) return SIZE_MAX;
    }
    return SIZE_MAX;
}

static int lex_string(struct lexer *lx, size_t prefix) {
    size_t start = lx->i;
    lx->i += prefix;
    int q = peek(lx, 0);
    bool triple = peek(lx, 1) == q && peek(lx, 2) == q;
    lx->i += triple ? 3 : 1;
    while (lx->i < lx->len) {
        int c = peek(lx, 0);
        if (c == '\\') {
            lx->i += 2;
            continue;
        }
        if (c == q && (!triple || (peek(lx, 1) == q && peek(lx, 2) == q))) {
            lx->i += triple ? 3 : 1;
            return 0;
        }
        if (c == '\n' && !triple) break;
        lx->i++;
    }
    cc_expr_set_error(lx->err, "validation", (uint32_t)start,
                      "expression could not be tokenised: unterminated string literal at position %zu",
                      start);
    return -1;
}

/* Longest operator first, so "**=" is one token and "**" beats "*". */
static const char *const ops3[] = {"**=", "//=", ">>=", "<<=", "...", NULL};
static const char *const ops2[] = {"**", "//", "<<", ">>", "<=", ">=", "==", "!=", ":=", "->",
                                   "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", NULL};
static const char ops1[] = "+-*/%&|^~<>()[]{},:;.=@!";

/* true when the n characters at lx->i spell op (n <= 3, compared inline:
 * this runs for every operator token). */
static bool spells(const struct lexer *lx, const char *op, size_t n) {
    if (lx->len - lx->i < n) return false;
    const char *s = lx->s + lx->i;
    for (size_t k = 0; k < n; k++)
        if (s[k] != op[k]) return false;
    return true;
}

static size_t op_len(const struct lexer *lx) {
    int c = peek(lx, 0), c1 = peek(lx, 1);
    if (c <= 0 || !strchr(ops1, c)) return 0;
    /* Every longer operator has one of these as its second character, so
     * most operators end here without scanning the tables. */
    if (c1 <= 0 || !strchr("*/<>=.", c1)) return 1;
    for (int k = 0; ops3[k]; k++)
        if (spells(lx, ops3[k], 3)) return 3;
    for (int k = 0; ops2[k]; k++)
        if (spells(lx, ops2[k], 2)) return 2;
    return 1;
}

static void skip_space(struct lexer *lx) {
    for (;;) {
        int c = peek(lx, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') lx->i++;
        else if (c == '\\' && (peek(lx, 1) == '\n' || peek(lx, 1) == '\r')) lx->i += 2;
        else if (c == '#') {
            while (lx->i < lx->len && lx->s[lx->i] != '\n') lx->i++;
        } else return;
    }
}

/* One token at lx->i (after blanks). 0 ok, -1 error. */
static int lex_one(struct lexer *lx, struct cc_token *t) {
    skip_space(lx);
    t->pos = (uint32_t)lx->i;
    if (lx->i >= lx->len) {
        t->kind = CC_T_END;
        t->len = 0;
        return 0;
    }
    int c = peek(lx, 0);
    size_t prefix = string_prefix_len(lx);
    if (prefix != SIZE_MAX) {
        t->kind = CC_T_STRING;
        if (lex_string(lx, prefix) != 0) return -1;
    } else if (isdigit(c) || (c == '.' && isdigit(peek(lx, 1)))) {
        t->kind = lex_number(lx);
    } else if (is_name_start(c)) {
        t->kind = CC_T_NAME;
        while (is_name_char(peek(lx, 0))) lx->i++;
    } else {
        size_t n = op_len(lx);
        if (n == 0) {
            if (c >= 0x20 && c < 0x7f)
                cc_expr_set_error(lx->err, "validation", t->pos,
                                  "expression could not be tokenised: unexpected character '%c' at position %u",
                                  c, t->pos);
            else
                cc_expr_set_error(lx->err, "validation", t->pos,
                                  "expression could not be tokenised: unexpected character (byte 0x%02x) at position %u",
                                  (unsigned)c, t->pos);
            return -1;
        }
        t->kind = CC_T_OP;
        lx->i += n;
    }
    t->len = (uint32_t)(lx->i - t->pos);
    return 0;
}

/* Bracket balance, as Python's tokenizer reports it at end of input. */
static int check_brackets(const char *src, const struct cc_token *t, size_t n,
                          struct cc_expr_error *err) {
    long depth = 0;
    for (size_t k = 0; k < n; k++) {
        if (t[k].kind != CC_T_OP || t[k].len != 1) continue;
        char c = src[t[k].pos];
        if (c == '(' || c == '[' || c == '{') depth++;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
    }
    if (depth == 0) return 0;
    /* Name the innermost bracket left open: walk back to it. */
    long need = 1;
    for (size_t k = n; k-- > 0;) {
        if (t[k].kind != CC_T_OP || t[k].len != 1) continue;
        char c = src[t[k].pos];
        if (c == ')' || c == ']' || c == '}') need++;
        else if ((c == '(' || c == '[' || c == '{') && --need == 0) {
            cc_expr_set_error(err, "validation", t[k].pos,
                              "expression could not be tokenised: '%c' at position %u is never closed",
                              c, t[k].pos);
            return -1;
        }
    }
    cc_expr_set_error(err, "validation", 0,
                      "expression could not be tokenised: unclosed bracket at end of input");
    return -1;
}

int cc_lex_all(const char *src, size_t len, struct cc_token **out, size_t *n,
               struct cc_expr_error *err) {
    *out = NULL;
    *n = 0;
    if (len >= UINT32_MAX) {
        cc_expr_set_error(err, "resource_exhausted", 0, "expression too long (max 2000 chars)");
        return -1;
    }
    /* Every token but END consumes at least one byte. */
    struct cc_token *t = malloc((len + 1) * sizeof *t);
    if (!t) {
        cc_expr_set_error(err, "resource_exhausted", 0, "expression exhausted the memory ceiling");
        return -1;
    }
    struct lexer lx = {.s = src, .len = len, .i = 0, .err = err};
    size_t k = 0;
    for (;;) {
        if (lex_one(&lx, &t[k]) != 0) {
            free(t);
            return -1;
        }
        if (t[k++].kind == CC_T_END) break;
    }
    if (check_brackets(src, t, k, err) != 0) {
        free(t);
        return -1;
    }
    *out = t;
    *n = k;
    return 0;
}

/* Plain decimal digits that fit an unsigned long: the common literal, set
 * without the copy mpz_set_str needs. false when the text is anything else. */
static bool small_decimal(const char *text, size_t n, mpz_t out) {
    if (n == 0 || n > 18) return false;
    unsigned long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] < '0' || text[i] > '9') return false;
        v = v * 10 + (unsigned long)(text[i] - '0');
    }
    mpz_set_ui(out, v);
    return true;
}

int cc_lex_int_value(const char *text, size_t n, mpz_t out) {
    if (small_decimal(text, n, out)) return 0;
    int base = 10;
    if (n > 2 && text[0] == '0' && strchr("xXoObB", text[1])) {
        base = (text[1] == 'x' || text[1] == 'X') ? 16 : (text[1] == 'o' || text[1] == 'O') ? 8 : 2;
        text += 2;
        n -= 2;
    }
    char *digits = malloc(n + 1);
    if (!digits) return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (text[i] != '_') digits[k++] = text[i];
    digits[k] = '\0';
    int rc = (k > 0 && mpz_set_str(out, digits, base) == 0) ? 0 : -1;
    free(digits);
    return rc;
}
