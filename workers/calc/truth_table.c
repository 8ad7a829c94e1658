/* truth_table (TOOLS.md 3.3.23): tokenise and parse a boolean formula with
 * our own recursive-descent parser (nothing is evaluated as code), then
 * evaluate it for every assignment of its variables. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/tool_api.h"

json_t *cc_tool_truth_table(json_t *args, cc_wctx *ctx);

#define MAX_CHARS 2000
#define MAX_NESTING 100
#define MAX_VARS 16
/* A page of rows stays under this many bytes of JSON (the result travels
 * twice, as text and structuredContent): 16 variables make 65,536 rows and
 * 24 MB in one piece, which MCP clients refuse (issue 11 item 7). */
#define PAGE_BYTES (256u << 10)
#define PAGE_ROWS_MAX 4096

/* ---- tokens -------------------------------------------------------------- */

enum tok_kind { T_END, T_LPAREN, T_RPAREN, T_IDENT, T_AND, T_OR, T_NOT, T_XOR, T_IMPLIES,
                T_IFF, T_TRUE, T_FALSE };

struct token {
    enum tok_kind kind;
    char *text; /* lower-cased spelling (owned) */
};

static const struct {
    const char *word;
    enum tok_kind kind;
} keywords[] = {
    {"and", T_AND}, {"or", T_OR}, {"not", T_NOT}, {"xor", T_XOR},
    {"implies", T_IMPLIES}, {"iff", T_IFF}, {"true", T_TRUE}, {"false", T_FALSE},
};

struct lexer {
    struct token *toks;
    size_t n;
    char *error;  /* validation message when tokenising failed (owned) */
    char *remedy; /* what to write instead, when the character is known (owned) */
};

#define WORDS "the operators are the words and, or, not, xor, implies, iff (and true, false)"

/* Symbols agents write for the operators. The grammar (TOOLS.md 3.3.23)
 * has words only; a symbol is refused, and the remedy names the word.
 * Symbols are not taken as operators because their precedence differs
 * between languages (`a && b == c` is `a and (b iff c)` in C, and `iff`
 * is our loosest), and a formula read under the wrong one would be a
 * confident wrong table. Longest spelling first. */
static const struct {
    const char *symbol, *word, *why;
} symbol_words[] = {
    {"<->", "iff", ""}, {"<=>", "iff", ""}, {"->", "implies", ""}, {"=>", "implies", ""},
    {"&&", "and", ""}, {"||", "or", ""},
    {"==", "iff", ", with parentheses (iff binds loosest here, == tighter than && in C)"},
    {"!=", "xor", ", with parentheses (xor binds looser than or here)"},
    {"&", "and", ""}, {"|", "or", ""}, {"!", "not", ""}, {"~", "not", ""},
    {"\xe2\x88\xa7", "and", ""}, {"\xe2\x88\xa8", "or", ""}, {"\xc2\xac", "not", ""},
    {"\xe2\x86\x92", "implies", ""}, {"\xe2\x87\x92", "implies", ""}, {"\xe2\x86\x94", "iff", ""},
    {"\xe2\x87\x94", "iff", ""}, {"\xe2\x8a\x95", "xor", ""},
    {"^", "xor or and", " (xor in C and Python, and in logic notation)"},
    {"+", "or", " (Boolean algebra)"}, {"*", "and", " (Boolean algebra)"},
    {"=", "iff", " for equivalence"}, {"1", "true", ""}, {"0", "false", ""},
};

/* The remedy for the character at s[i], or NULL (allocation failed). */
static char *symbol_remedy(const char *s, size_t i, size_t n) {
    char *r = NULL;
    for (size_t k = 0; k < sizeof symbol_words / sizeof symbol_words[0]; k++) {
        size_t len = strlen(symbol_words[k].symbol);
        if (len <= n - i && memcmp(s + i, symbol_words[k].symbol, len) == 0) {
            if (asprintf(&r, "write %s for '%s'%s; " WORDS, symbol_words[k].word, symbol_words[k].symbol,
                         symbol_words[k].why) < 0)
                r = NULL;
            return r;
        }
    }
    if (asprintf(&r, "%s", WORDS "; parentheses group") < 0) r = NULL;
    return r;
}

static bool is_space(unsigned char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}
static bool is_ident_start(unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool is_ident_char(unsigned char c) {
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Length of the UTF-8 sequence starting with byte c (1 for stray bytes). */
static size_t utf8_len(unsigned char c) {
    if (c >= 0xf0 && c < 0xf8) return 4;
    if (c >= 0xe0) return c < 0xf0 ? 3 : 1;
    if (c >= 0xc0) return 2;
    return 1;
}

static size_t count_chars(const char *s, size_t n) {
    size_t chars = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80) chars++;
    return chars;
}

static enum tok_kind word_kind(const char *w) {
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strcmp(keywords[i].word, w) == 0) return keywords[i].kind;
    return T_IDENT;
}

static int push_token(struct lexer *lx, enum tok_kind kind, const char *s, size_t len) {
    char *text = strndup(s, len);
    if (!text) return -1;
    for (char *p = text; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    lx->toks[lx->n].kind = kind == T_IDENT ? word_kind(text) : kind;
    lx->toks[lx->n].text = text;
    lx->n++;
    return 0;
}

static void bad_char(struct lexer *lx, const char *s, size_t i, size_t n, size_t pos) {
    size_t len = utf8_len((unsigned char)s[i]);
    if (len > n - i) len = 1;
    char shown[8];
    if ((unsigned char)s[i] < 0x20) snprintf(shown, sizeof shown, "\\x%02x", (unsigned char)s[i]);
    else memcpy(shown, s + i, len), shown[len] = '\0';
    if (asprintf(&lx->error, "parse error: unexpected character '%s' at position %zu", shown, pos) < 0)
        lx->error = NULL;
    lx->remedy = symbol_remedy(s, i, n);
}

/* Fills lx; returns 0, or -1 with lx->error set (NULL error = OOM). The
 * token array has room for one token per byte plus the end marker. */
static int tokenise(struct lexer *lx, const char *s, size_t n) {
    lx->toks = calloc(n + 1, sizeof *lx->toks);
    if (!lx->toks) return -1;
    size_t pos = 0; /* character index, as the message reports it */
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t start = i;
        if (is_space(c)) {
            i++;
        } else if (c == '(' || c == ')') {
            if (push_token(lx, c == '(' ? T_LPAREN : T_RPAREN, s + i, 1) != 0) return -1;
            i++;
        } else if (is_ident_start(c)) {
            while (i < n && is_ident_char((unsigned char)s[i])) i++;
            if (push_token(lx, T_IDENT, s + start, i - start) != 0) return -1;
        } else {
            bad_char(lx, s, i, n, pos);
            return -1;
        }
        pos += count_chars(s + start, i - start);
    }
    lx->toks[lx->n].kind = T_END;
    return 0;
}

static void lexer_free(struct lexer *lx) {
    for (size_t i = 0; i < lx->n; i++) free(lx->toks[i].text);
    free(lx->toks);
    free(lx->error);
    free(lx->remedy);
}

/* ---- syntax tree ---------------------------------------------------------- */

enum node_op { N_VAR, N_CONST, N_NOT, N_AND, N_OR, N_XOR, N_IMPLIES, N_IFF };

struct node {
    enum node_op op;
    int a, b;         /* children (node indices) */
    int var;          /* N_VAR: index into the sorted variable list */
    bool value;       /* N_CONST */
    const char *name; /* N_VAR: borrowed from the token */
};

struct parser {
    const struct token *toks;
    size_t pos;
    struct node *nodes; /* at most one node per token, plus one */
    int n_nodes;
    int depth;          /* open parentheses */
    const char *code;   /* error code once failed, else NULL */
    char *error;        /* owned */
};

__attribute__((format(printf, 3, 4)))
static int fail(struct parser *p, const char *code, const char *fmt, ...) {
    if (!p->code) {
        p->code = code;
        va_list ap;
        va_start(ap, fmt);
        if (vasprintf(&p->error, fmt, ap) < 0) p->error = NULL;
        va_end(ap);
    }
    return -1;
}

static const struct token *peek(const struct parser *p) { return &p->toks[p->pos]; }

static int add_node(struct parser *p, enum node_op op, int a, int b) {
    struct node *nd = &p->nodes[p->n_nodes];
    memset(nd, 0, sizeof *nd);
    nd->op = op;
    nd->a = a;
    nd->b = b;
    return p->n_nodes++;
}

static int parse_iff(struct parser *p);

static int parse_primary(struct parser *p) {
    const struct token *t = peek(p);
    switch (t->kind) {
    case T_LPAREN: {
        if (++p->depth > MAX_NESTING)
            return fail(p, "resource_exhausted", "parse error: expression nesting too deep (max %d)", MAX_NESTING);
        p->pos++;
        int inner = parse_iff(p);
        if (inner < 0) return -1;
        if (peek(p)->kind != T_RPAREN) return fail(p, "validation", "parse error: missing closing parenthesis");
        p->pos++;
        p->depth--;
        return inner;
    }
    case T_TRUE:
    case T_FALSE: {
        p->pos++;
        int n = add_node(p, N_CONST, -1, -1);
        p->nodes[n].value = t->kind == T_TRUE;
        return n;
    }
    case T_IDENT: {
        p->pos++;
        int n = add_node(p, N_VAR, -1, -1);
        p->nodes[n].name = t->text;
        return n;
    }
    case T_END:
        return fail(p, "validation", "parse error: unexpected end of expression");
    default:
        return fail(p, "validation", "parse error: unexpected token '%s'", t->text);
    }
}

/* Prefix not is a loop, not recursion: "not not ... x" costs no stack. */
static int parse_not(struct parser *p) {
    int nots = 0;
    while (peek(p)->kind == T_NOT) p->pos++, nots++;
    int n = parse_primary(p);
    while (n >= 0 && nots--) n = add_node(p, N_NOT, n, -1);
    return n;
}

/* One left-associative level: operand (op operand)*. */
static int parse_left(struct parser *p, enum tok_kind tok, enum node_op op, int (*operand)(struct parser *)) {
    int left = operand(p);
    while (left >= 0 && peek(p)->kind == tok) {
        p->pos++;
        int right = operand(p);
        if (right < 0) return -1;
        left = add_node(p, op, left, right);
    }
    return left;
}

static int parse_and(struct parser *p) { return parse_left(p, T_AND, N_AND, parse_not); }
static int parse_or(struct parser *p) { return parse_left(p, T_OR, N_OR, parse_and); }
static int parse_xor(struct parser *p) { return parse_left(p, T_XOR, N_XOR, parse_or); }

/* implies is right-associative: a implies b implies c = a -> (b -> c). */
static int parse_implies(struct parser *p) {
    int left = parse_xor(p);
    if (left < 0 || peek(p)->kind != T_IMPLIES) return left;
    p->pos++;
    int right = parse_implies(p);
    return right < 0 ? -1 : add_node(p, N_IMPLIES, left, right);
}

static int parse_iff(struct parser *p) { return parse_left(p, T_IFF, N_IFF, parse_implies); }

/* Whole formula; returns the root node or -1 with p->code set. */
static int parse_formula(struct parser *p) {
    if (peek(p)->kind == T_END) return fail(p, "validation", "parse error: empty expression");
    int root = parse_iff(p);
    if (root >= 0 && peek(p)->kind != T_END)
        return fail(p, "validation", "parse error: unexpected token '%s'", peek(p)->text);
    return root;
}

/* ---- variables and evaluation --------------------------------------------- */

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Collect the distinct variable names, sorted, into vars (room for every
 * node) and bind each N_VAR node to its index. Returns the count. */
static size_t bind_variables(struct node *nodes, int n_nodes, const char **vars) {
    size_t n = 0;
    for (int i = 0; i < n_nodes; i++)
        if (nodes[i].op == N_VAR) vars[n++] = nodes[i].name;
    qsort(vars, n, sizeof *vars, cmp_str);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (distinct == 0 || strcmp(vars[distinct - 1], vars[i]) != 0) vars[distinct++] = vars[i];
    for (int i = 0; i < n_nodes; i++) {
        if (nodes[i].op != N_VAR) continue;
        const char **hit = bsearch(&nodes[i].name, vars, distinct, sizeof *vars, cmp_str);
        nodes[i].var = (int)(hit - vars);
    }
    return distinct;
}

/* Recursion depth is bounded by the parse: at most 100 parentheses and a
 * 2000-character formula. */
static bool eval(const struct node *nodes, int i, const bool *assign) {
    const struct node *nd = &nodes[i];
    switch (nd->op) {
    case N_VAR: return assign[nd->var];
    case N_CONST: return nd->value;
    case N_NOT: return !eval(nodes, nd->a, assign);
    case N_AND: return eval(nodes, nd->a, assign) && eval(nodes, nd->b, assign);
    case N_OR: return eval(nodes, nd->a, assign) || eval(nodes, nd->b, assign);
    case N_XOR: return eval(nodes, nd->a, assign) != eval(nodes, nd->b, assign);
    case N_IMPLIES: return !eval(nodes, nd->a, assign) || eval(nodes, nd->b, assign);
    case N_IFF: return eval(nodes, nd->a, assign) == eval(nodes, nd->b, assign);
    }
    return false;
}

/* Rows per page: as many as fit PAGE_BYTES, at least one. */
static size_t page_rows(const char **vars, size_t nv) {
    size_t row_bytes = sizeof "{\"result\":false}";
    for (size_t i = 0; i < nv; i++) row_bytes += strlen(vars[i]) + sizeof "\"\":false,";
    size_t n = PAGE_BYTES / row_bytes;
    return n < 1 ? 1 : n > PAGE_ROWS_MAX ? PAGE_ROWS_MAX : n;
}

static json_t *build_table(const json_t *expr, const struct node *nodes, int root,
                           const char **vars, size_t nv, size_t first) {
    json_t *rows = json_array(), *jvars = json_array();
    if (!rows || !jvars) {
        json_decref(rows);
        json_decref(jvars);
        return NULL;
    }
    for (size_t i = 0; i < nv; i++) json_array_append_new(jvars, json_string(vars[i]));
    size_t n_rows = (size_t)1 << nv, end = first + page_rows(vars, nv);
    bool assign[MAX_VARS], any = false, all = true;
    /* Every row is evaluated (satisfiable and tautology speak of all of
     * them); only the page's rows are returned. */
    for (size_t r = 0; r < n_rows; r++) {
        /* first variable is the most significant bit of the row number */
        for (size_t i = 0; i < nv; i++) assign[i] = (r >> (nv - 1 - i)) & 1;
        bool v = eval(nodes, root, assign);
        any |= v;
        all &= v;
        if (r < first || r >= end) continue;
        json_t *row = json_object();
        for (size_t i = 0; i < nv; i++) json_object_set_new(row, vars[i], json_boolean(assign[i]));
        json_object_set_new(row, "result", json_boolean(v));
        json_array_append_new(rows, row);
    }
    json_t *res = cc_ok();
    json_object_set(res, "expression", (json_t *)expr);
    json_object_set_new(res, "variables", jvars);
    json_object_set_new(res, "row_count", json_integer((json_int_t)n_rows));
    json_object_set_new(res, "rows", rows);
    json_object_set_new(res, "satisfiable", json_boolean(any));
    json_object_set_new(res, "tautology", json_boolean(all));
    if (end < n_rows) {
        char c[24];
        snprintf(c, sizeof c, "%zu", end);
        json_object_set_new(res, "next_cursor", json_string(c));
    } else {
        json_object_set_new(res, "next_cursor", json_null());
    }
    return res;
}

/* ---- handler --------------------------------------------------------------- */

static json_t *table_for(const json_t *expr, const struct token *toks, size_t n_toks, size_t first) {
    struct parser p = {.toks = toks};
    p.nodes = calloc(n_toks + 1, sizeof *p.nodes);
    const char **vars = calloc(n_toks + 1, sizeof *vars);
    json_t *r = NULL;
    if (p.nodes && vars) {
        int root = parse_formula(&p);
        if (root < 0) {
            r = p.error ? cc_err(p.code, "%s", p.error) : NULL;
        } else {
            size_t nv = bind_variables(p.nodes, p.n_nodes, vars);
            if (nv > MAX_VARS)
                r = cc_err("resource_exhausted", "too many variables (%zu > %d); table would have 2^%zu rows",
                           nv, MAX_VARS, nv);
            else if (first > 0 && first >= (size_t)1 << nv)
                r = cc_err("validation", "cursor %zu is past the table's %zu rows", first, (size_t)1 << nv);
            else
                r = build_table(expr, p.nodes, root, vars, nv, first);
        }
    }
    free(p.error);
    free(p.nodes);
    free(vars);
    return r;
}

json_t *cc_tool_truth_table(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *expr = json_object_get(args, "expression");
    if (!json_is_string(expr)) return cc_err("validation", "expression must be a string");
    const char *s = json_string_value(expr);
    size_t n = json_string_length(expr);
    if (count_chars(s, n) > MAX_CHARS)
        return cc_err("resource_exhausted", "expression too long (max %d chars)", MAX_CHARS);

    /* The cursor is the next_cursor of the previous page: a row number. */
    json_t *cu = json_object_get(args, "cursor");
    const char *c = json_string_value(cu);
    size_t first = 0;
    if (cu && !json_is_null(cu)) {
        if (!c || !*c || strlen(c) > 6 || strspn(c, "0123456789") != strlen(c))
            return cc_err("validation", "cursor must be the next_cursor of a previous page");
        first = (size_t)strtoul(c, NULL, 10);
    }
    struct lexer lx = {0};
    json_t *r;
    if (tokenise(&lx, s, n) != 0) {
        r = lx.error ? cc_err("validation", "%s", lx.error) : NULL;
        if (r && lx.remedy) json_object_set_new(r, "remedy", json_string(lx.remedy));
    }
    else
        r = table_for(expr, lx.toks, lx.n, first);
    lexer_free(&lx);
    return r;
}
