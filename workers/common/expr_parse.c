/* Recursive-descent parser for both expression dialects (see expr_parse.h).
 *
 * Binary operators of one level are parsed in a loop, so long flat chains
 * (1+1+...+1) never recurse; every construct that does recurse (brackets,
 * unary chains, right-associative powers, implicit application) goes through
 * enter(), which bounds the depth so hostile nesting cannot exhaust the
 * stack. */
#include "workers/common/expr_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_names.h"

struct parser {
    const char *src;
    const struct cc_token *t;
    size_t k;
    struct cc_arena *a;
    enum cc_dialect d;
    struct cc_expr_error *err;
    int depth;
};

typedef struct cc_node node;

static node *parse_or(struct parser *p);
static node *parse_unary(struct parser *p);
static node *parse_power(struct parser *p);

/* ---- token helpers ------------------------------------------------------ */

static const struct cc_token *cur(const struct parser *p) { return &p->t[p->k]; }

static bool at(const struct parser *p, const char *s) {
    const struct cc_token *t = cur(p);
    return (t->kind == CC_T_OP || t->kind == CC_T_NAME) && cc_tok_is(p->src, t, s);
}

static bool accept(struct parser *p, const char *s) {
    if (!at(p, s)) return false;
    p->k++;
    return true;
}

static bool symbolic(const struct parser *p) { return p->d == CC_DIALECT_SYMBOLIC; }

static node *fail_unexpected(struct parser *p) {
    const struct cc_token *t = cur(p);
    if (t->kind == CC_T_END)
        cc_expr_set_error(p->err, "validation", t->pos,
                          "parse error: unexpected end of expression at position %u", t->pos);
    else
        cc_expr_set_error(p->err, "validation", t->pos,
                          "parse error: unexpected '%.*s' at position %u",
                          (int)(t->len > 40 ? 40 : t->len), p->src + t->pos, t->pos);
    return NULL;
}

static node *fail_oom(struct parser *p) {
    cc_expr_set_error(p->err, "resource_exhausted", cur(p)->pos,
                      "expression exhausted the memory ceiling");
    return NULL;
}

static bool enter(struct parser *p) {
    if (++p->depth <= CC_EXPR_MAX_DEPTH) return true;
    cc_expr_set_error(p->err, "resource_exhausted", cur(p)->pos, "expression too deeply nested");
    return false;
}

/* Python's keywords can never start an operand (strcmp order, for the
 * binary search). */
static const char *const keywords[] = {"and", "else", "for", "if", "in", "is", "lambda", "not",
                                       "or"};

static bool is_keyword(const struct parser *p, const struct cc_token *t) {
    return cc_name_in(p->src + t->pos, t->len, keywords, CC_NAMES_COUNT(keywords));
}

/* Could the current token begin an operand (for implicit multiplication)? */
static bool starts_operand(const struct parser *p) {
    const struct cc_token *t = cur(p);
    switch (t->kind) {
    case CC_T_INT: case CC_T_FLOAT: case CC_T_IMAG: return true;
    case CC_T_NAME: return !is_keyword(p, t);
    case CC_T_OP: return cc_tok_is(p->src, t, "(");
    default: return false;
    }
}

/* ---- node builders ------------------------------------------------------ */

static node *mk(struct parser *p, enum cc_node_kind kind, enum cc_op op, uint32_t pos,
                uint32_t nchild) {
    node *n = cc_arena_node(p->a, kind, pos);
    if (!n) return fail_oom(p);
    n->op = op;
    n->nchild = nchild;
    if (nchild) {
        n->child = cc_arena_alloc(p->a, nchild * sizeof *n->child);
        if (!n->child) return fail_oom(p);
    }
    return n;
}

static node *mk_unary(struct parser *p, enum cc_op op, uint32_t pos, node *x) {
    if (!x) return NULL;
    node *n = mk(p, CC_N_UNARY, op, pos, 1);
    if (n) n->child[0] = x;
    return n;
}

static node *mk_binary(struct parser *p, enum cc_op op, uint32_t pos, node *l, node *r) {
    if (!l || !r) return NULL;
    node *n = mk(p, CC_N_BINARY, op, pos, 2);
    if (!n) return NULL;
    n->child[0] = l;
    n->child[1] = r;
    return n;
}

static node *mk_name(struct parser *p, const char *name, uint32_t pos) {
    node *n = mk(p, CC_N_NAME, CC_OP_NONE, pos, 0);
    if (n) n->v.name = name;
    return n;
}

/* A growable list of children, kept in the arena (old arrays are simply
 * abandoned; the arena frees them). */
struct nodelist {
    node **items;
    uint32_t n, cap;
};

static bool list_push(struct parser *p, struct nodelist *l, node *x) {
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 4;
        node **items = cc_arena_alloc(p->a, cap * sizeof *items);
        if (!items) return fail_oom(p), false;
        if (l->n) memcpy(items, l->items, l->n * sizeof *items);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = x;
    return true;
}

/* ---- literals ----------------------------------------------------------- */

static node *parse_int(struct parser *p, const struct cc_token *t) {
    const char *s = p->src + t->pos;
    bool leading_zero = t->len > 1 && s[0] == '0' && strchr("xXoObB", s[1]) == NULL;
    for (uint32_t i = 0; leading_zero && i < t->len; i++)
        if (s[i] != '0' && s[i] != '_') {
            cc_expr_set_error(p->err, "validation", t->pos,
                              "parse error: leading zeros in decimal integer literals are not "
                              "permitted (position %u); use 0o for octal", t->pos);
            return NULL;
        }
    node *n = mk(p, CC_N_INT, CC_OP_NONE, t->pos, 0);
    if (!n) return NULL;
    if (cc_lex_int_value(s, t->len, n->v.z) != 0) return fail_oom(p);
    return n;
}

/* Value and as-written text of a decimal literal; the j suffix is dropped
 * from the value (it is the imaginary part). */
static node *parse_float(struct parser *p, const struct cc_token *t, bool imag) {
    node *n = mk(p, CC_N_FLOAT, CC_OP_NONE, t->pos, 0);
    if (!n) return NULL;
    char *text = cc_arena_strndup(p->a, p->src + t->pos, t->len);
    char *clean = cc_arena_alloc(p->a, (size_t)t->len + 1);
    if (!text || !clean) return fail_oom(p);
    size_t k = 0;
    for (uint32_t i = 0; i < t->len; i++)
        if (text[i] != '_' && text[i] != 'j' && text[i] != 'J') clean[k++] = text[i];
    clean[k] = '\0';
    n->v.f.d = strtod(clean, NULL);
    n->v.f.text = text;
    if (imag) n->flags |= CC_NF_IMAG;
    return n;
}

/* Symbolic dialect: 2j is the number 2.0 times the imaginary unit. */
static node *parse_imag_symbolic(struct parser *p, const struct cc_token *t) {
    node *coef = parse_float(p, t, false);
    if (!coef) return NULL;
    return mk_binary(p, CC_OP_MUL, t->pos, coef, mk_name(p, "I", t->pos));
}

/* ---- atoms and postfix -------------------------------------------------- */

static node *parse_paren(struct parser *p) {
    uint32_t pos = cur(p)->pos;
    p->k++; /* '(' */
    if (accept(p, ")")) return mk(p, CC_N_TUPLE, CC_OP_NONE, pos, 0);
    node *first = parse_or(p);
    if (!first) return NULL;
    if (!at(p, ",")) {
        if (!accept(p, ")")) return fail_unexpected(p);
        return first;
    }
    struct nodelist l = {0};
    if (!list_push(p, &l, first)) return NULL;
    while (accept(p, ",")) {
        if (at(p, ")")) break;
        node *x = parse_or(p);
        if (!x || !list_push(p, &l, x)) return NULL;
    }
    if (!accept(p, ")")) return fail_unexpected(p);
    node *tup = mk(p, CC_N_TUPLE, CC_OP_NONE, pos, 0);
    if (!tup) return NULL;
    tup->child = l.items;
    tup->nchild = l.n;
    return tup;
}

static node *mk_small_int(struct parser *p, const char *digits, uint32_t pos) {
    node *n = mk(p, CC_N_INT, CC_OP_NONE, pos, 0);
    if (n && cc_lex_int_value(digits, (uint32_t)strlen(digits), n->v.z) != 0) return fail_oom(p);
    return n;
}

/* SymPy's GoldenRatio is the constant (1 + sqrt(5))/2. Read as a free
 * symbol, algebraic_equiv called GoldenRatio**2 and GoldenRatio + 1 not
 * identical, and N(GoldenRatio) had no value. */
static node *golden_ratio(struct parser *p, uint32_t pos) {
    node *sqrt5 = mk(p, CC_N_CALL, CC_OP_NONE, pos, 1);
    if (!sqrt5) return NULL;
    sqrt5->v.name = "sqrt";
    if (!(sqrt5->child[0] = mk_small_int(p, "5", pos))) return NULL;
    node *sum = mk_binary(p, CC_OP_ADD, pos, mk_small_int(p, "1", pos), sqrt5);
    return mk_binary(p, CC_OP_DIV, pos, sum, mk_small_int(p, "2", pos));
}

static node *parse_atom(struct parser *p) {
    const struct cc_token *t = cur(p);
    switch (t->kind) {
    case CC_T_INT: p->k++; return parse_int(p, t);
    case CC_T_FLOAT: p->k++; return parse_float(p, t, false);
    case CC_T_IMAG:
        p->k++;
        return symbolic(p) ? parse_imag_symbolic(p, t) : parse_float(p, t, true);
    case CC_T_NAME: {
        if (is_keyword(p, t)) return fail_unexpected(p);
        p->k++;
        if (cc_tok_is(p->src, t, "True") || cc_tok_is(p->src, t, "False")) {
            node *b = mk(p, CC_N_BOOL, CC_OP_NONE, t->pos, 0);
            if (b) b->v.b = p->src[t->pos] == 'T';
            return b;
        }
        if (symbolic(p) && cc_tok_is(p->src, t, "GoldenRatio")) return golden_ratio(p, t->pos);
        char *name = cc_arena_strndup(p->a, p->src + t->pos, t->len);
        if (!name) return fail_oom(p);
        return mk_name(p, name, t->pos);
    }
    case CC_T_OP:
        /* the depth of brackets is counted by parse_or inside */
        if (cc_tok_is(p->src, t, "(")) return parse_paren(p);
        return fail_unexpected(p);
    default:
        return fail_unexpected(p);
    }
}

/* Call arguments after '('; keyword arguments are parsed and dropped. */
static node *parse_call(struct parser *p, const char *name, uint32_t pos) {
    p->k++; /* '(' */
    struct nodelist l = {0};
    while (!at(p, ")")) {
        if (cur(p)->kind == CC_T_NAME && cc_tok_is(p->src, &p->t[p->k + 1], "=")) {
            p->k += 2;
            if (!parse_or(p)) return NULL;
        } else {
            node *x = parse_or(p);
            if (!x || !list_push(p, &l, x)) return NULL;
        }
        if (!accept(p, ",")) break;
    }
    if (!accept(p, ")")) return fail_unexpected(p);
    node *call = mk(p, CC_N_CALL, CC_OP_NONE, pos, 0);
    if (!call) return NULL;
    call->v.name = name;
    call->child = l.items;
    call->nchild = l.n;
    return call;
}

static node *unknown_function(struct parser *p, const node *callee) {
    const char *sugg[6];
    size_t ns = cc_expr_suggest(callee->v.name, sugg, 6);
    char list[200] = "";
    for (size_t i = 0; i < ns; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", sugg[i]);
    }
    if (ns)
        cc_expr_set_error(p->err, "validation", callee->pos,
                          "unknown function '%.100s'; did you mean: %s?", callee->v.name, list);
    else
        cc_expr_set_error(p->err, "validation", callee->pos,
                          "unknown function '%.100s'; write '%.100s*(...)' if you meant a product",
                          callee->v.name, callee->v.name);
    return NULL;
}

/* Symbolic: a name followed by '(' is a call of a known function, an
 * implicit product for a constant (pi(2) = pi*2, left to the product loop),
 * and an error for anything else. Returns 1 to call, 0 to leave, -1 error. */
static int symbolic_callee(struct parser *p, const node *x, bool bare) {
    if (x->kind != CC_N_NAME || !bare) return 0;
    if (cc_expr_is_function(x->v.name)) return 1;
    if (cc_expr_is_constant(x->v.name)) return 0;
    unknown_function(p, x);
    return -1;
}

/* Symbolic: Ne(a, b) is how results print a != b (sym_print.c, as SymPy
 * does); it reads back as that comparison, so any printed result can be
 * sent again. */
static node *parse_ne(struct parser *p, uint32_t pos) {
    node *c = parse_call(p, "Ne", pos);
    if (!c) return NULL;
    if (c->nchild != 2) {
        cc_expr_set_error(p->err, "validation", pos, "parse error: Ne() takes 2 arguments (%u given)",
                          (unsigned)c->nchild);
        return NULL;
    }
    enum cc_op *op = cc_arena_alloc(p->a, sizeof *op);
    if (!op) return fail_oom(p);
    *op = CC_OP_NE;
    c->kind = CC_N_COMPARE;
    c->v.name = NULL;
    c->cmp_ops = op;
    return c;
}

/* Symbolic implicit application: "sin x" = sin(x), the argument being the
 * next power-level operand. */
static node *parse_application(struct parser *p, const node *f) {
    if (!enter(p)) return NULL;
    node *arg = parse_power(p);
    p->depth--;
    if (!arg) return NULL;
    node *call = mk(p, CC_N_CALL, CC_OP_NONE, f->pos, 1);
    if (!call) return NULL;
    call->v.name = cc_expr_canonical_function(f->v.name);
    call->child[0] = arg;
    return call;
}

static node *parse_postfix(struct parser *p) {
    /* (a)(b) is a product, a(b) a call: only a bare name can be called. */
    bool bare = cur(p)->kind == CC_T_NAME;
    node *x = parse_atom(p);
    while (x) {
        if (at(p, "(")) {
            if (!symbolic(p)) {
                x = parse_call(p, x->kind == CC_N_NAME ? x->v.name : "", x->pos);
                continue;
            }
            if (bare && x->kind == CC_N_NAME && strcmp(x->v.name, "Ne") == 0) {
                x = parse_ne(p, x->pos);
                bare = false;
                continue;
            }
            int r = symbolic_callee(p, x, bare);
            if (r < 0) return NULL;
            if (r == 0) break;
            x = parse_call(p, cc_expr_canonical_function(x->v.name), x->pos);
            bare = false;
        } else if (symbolic(p) && at(p, "!")) {
            x = mk_unary(p, CC_OP_FACT, cur(p)->pos, x);
            p->k++;
            bare = false;
        } else if (symbolic(p) && bare && x->kind == CC_N_NAME &&
                   cc_expr_is_function(x->v.name) && starts_operand(p)) {
            x = parse_application(p, x);
            bare = false;
        } else {
            break;
        }
    }
    return x;
}

/* ---- operators ---------------------------------------------------------- */

/* power: postfix ['**' unary]; right-associative, and binds tighter than a
 * unary minus on its left (-2**2 = -4) but not on its right (2**-1). */
static node *parse_power(struct parser *p) {
    node *base = parse_postfix(p);
    if (!base) return NULL;
    if (!at(p, "**") && !(symbolic(p) && at(p, "^"))) return base;
    uint32_t pos = cur(p)->pos;
    p->k++;
    if (!enter(p)) return NULL;
    node *e = parse_unary(p);
    p->depth--;
    return mk_binary(p, CC_OP_POW, pos, base, e);
}

static node *parse_unary(struct parser *p) {
    enum cc_op op = at(p, "-") ? CC_OP_NEG : at(p, "+") ? CC_OP_POS : at(p, "~") ? CC_OP_INVERT
                                                                             : CC_OP_NONE;
    if (op == CC_OP_NONE) return parse_power(p);
    uint32_t pos = cur(p)->pos;
    p->k++;
    if (!enter(p)) return NULL;
    node *x = parse_unary(p);
    p->depth--;
    return mk_unary(p, op, pos, x);
}

struct binop {
    const char *text;
    enum cc_op op;
};

static const struct binop term_ops[] = {{"*", CC_OP_MUL}, {"/", CC_OP_DIV},
                                        {"//", CC_OP_FLOORDIV}, {"%", CC_OP_MOD}, {NULL, 0}};
static const struct binop arith_ops[] = {{"+", CC_OP_ADD}, {"-", CC_OP_SUB}, {NULL, 0}};
static const struct binop shift_ops[] = {{"<<", CC_OP_LSHIFT}, {">>", CC_OP_RSHIFT}, {NULL, 0}};
static const struct binop and_ops[] = {{"&", CC_OP_BITAND}, {NULL, 0}};
static const struct binop xor_ops[] = {{"^", CC_OP_BITXOR}, {NULL, 0}};
static const struct binop or_ops[] = {{"|", CC_OP_BITOR}, {NULL, 0}};
static const struct binop cmp_ops[] = {{"==", CC_OP_EQ}, {"!=", CC_OP_NE}, {"<", CC_OP_LT},
                                       {"<=", CC_OP_LE}, {">", CC_OP_GT}, {">=", CC_OP_GE},
                                       {NULL, 0}};

/* Operators are one or two characters, so the table is matched on the
 * characters themselves: no strlen/memcmp per candidate. */
static enum cc_op match_op(const struct parser *p, const struct binop *ops) {
    const struct cc_token *t = cur(p);
    if (t->kind != CC_T_OP || t->len > 2) return CC_OP_NONE;
    char c0 = p->src[t->pos], c1 = t->len == 2 ? p->src[t->pos + 1] : '\0';
    for (size_t i = 0; ops[i].text; i++)
        if (ops[i].text[0] == c0 && ops[i].text[1] == c1) return ops[i].op;
    return CC_OP_NONE;
}

/* term: unary (('*'|'/'|'//'|'%') unary | <implicit> unary)* */
static node *parse_term(struct parser *p) {
    node *x = parse_unary(p);
    while (x) {
        enum cc_op op = match_op(p, term_ops);
        uint32_t pos = cur(p)->pos;
        if (op != CC_OP_NONE) {
            p->k++;
            x = mk_binary(p, op, pos, x, parse_unary(p));
        } else if (symbolic(p) && starts_operand(p)) {
            x = mk_binary(p, CC_OP_MUL, pos, x, parse_unary(p));
            if (x) x->flags |= CC_NF_IMPLICIT;
        } else {
            break;
        }
    }
    return x;
}

/* One left-associative level: next (op next)*. */
static node *parse_level(struct parser *p, node *(*next)(struct parser *),
                         const struct binop *ops) {
    node *x = next(p);
    while (x) {
        enum cc_op op = match_op(p, ops);
        if (op == CC_OP_NONE) break;
        uint32_t pos = cur(p)->pos;
        p->k++;
        x = mk_binary(p, op, pos, x, next(p));
    }
    return x;
}

static node *parse_arith(struct parser *p) { return parse_level(p, parse_term, arith_ops); }
static node *parse_shift(struct parser *p) { return parse_level(p, parse_arith, shift_ops); }
static node *parse_bitand(struct parser *p) { return parse_level(p, parse_shift, and_ops); }
static node *parse_bitxor(struct parser *p) {
    /* In the symbolic dialect '^' is power, so this level is empty. */
    return symbolic(p) ? parse_bitand(p) : parse_level(p, parse_bitand, xor_ops);
}
static node *parse_bitor(struct parser *p) { return parse_level(p, parse_bitxor, or_ops); }

/* comparison: bitor (cmp bitor)*, kept as one chain node */
static node *parse_comparison(struct parser *p) {
    node *first = parse_bitor(p);
    if (!first || match_op(p, cmp_ops) == CC_OP_NONE) return first;
    struct nodelist l = {0};
    enum cc_op *ops = NULL;
    uint32_t nops = 0, cap = 0;
    if (!list_push(p, &l, first)) return NULL;
    enum cc_op op;
    while ((op = match_op(p, cmp_ops)) != CC_OP_NONE) {
        p->k++;
        if (nops == cap) {
            cap = cap ? cap * 2 : 4;
            enum cc_op *grown = cc_arena_alloc(p->a, cap * sizeof *grown);
            if (!grown) return fail_oom(p);
            if (nops) memcpy(grown, ops, nops * sizeof *ops);
            ops = grown;
        }
        ops[nops++] = op;
        node *x = parse_bitor(p);
        if (!x || !list_push(p, &l, x)) return NULL;
    }
    node *c = mk(p, CC_N_COMPARE, CC_OP_NONE, first->pos, 0);
    if (!c) return NULL;
    c->child = l.items;
    c->nchild = l.n;
    c->cmp_ops = ops;
    return c;
}

static node *parse_not(struct parser *p) {
    if (!at(p, "not")) return parse_comparison(p);
    uint32_t pos = cur(p)->pos;
    p->k++;
    if (!enter(p)) return NULL;
    node *x = parse_not(p);
    p->depth--;
    return mk_unary(p, CC_OP_NOT, pos, x);
}

static node *parse_and(struct parser *p) {
    node *x = parse_not(p);
    while (x && at(p, "and")) {
        uint32_t pos = cur(p)->pos;
        p->k++;
        x = mk_binary(p, CC_OP_AND, pos, x, parse_not(p));
    }
    return x;
}

static node *parse_or(struct parser *p) {
    if (!enter(p)) return NULL;
    node *x = parse_and(p);
    while (x && at(p, "or")) {
        uint32_t pos = cur(p)->pos;
        p->k++;
        x = mk_binary(p, CC_OP_OR, pos, x, parse_and(p));
    }
    p->depth--;
    return x;
}

/* Top level: an expression, or a bare tuple "1, 2", then the end. */
static node *parse_top(struct parser *p) {
    if (cur(p)->kind == CC_T_END) {
        cc_expr_set_error(p->err, "validation", 0, "parse error: empty expression");
        return NULL;
    }
    node *x = parse_or(p);
    if (x && at(p, ",")) {
        struct nodelist l = {0};
        uint32_t pos = x->pos;
        if (!list_push(p, &l, x)) return NULL;
        while (accept(p, ",") && cur(p)->kind != CC_T_END) {
            node *y = parse_or(p);
            if (!y || !list_push(p, &l, y)) return NULL;
        }
        x = mk(p, CC_N_TUPLE, CC_OP_NONE, pos, 0);
        if (!x) return NULL;
        x->child = l.items;
        x->nchild = l.n;
    }
    if (x && cur(p)->kind != CC_T_END) return fail_unexpected(p);
    return x;
}

static bool have_input(const struct cc_arena *a, const char *src, struct cc_expr_error *err) {
    if (a && src) return true;
    cc_expr_set_error(err, "internal", 0, "parse called without an arena or text");
    return false;
}

/* Parses a token array and frees it (the array is malloc'd by the lexer). */
static node *parse_tokens(struct cc_arena *a, const char *src, struct cc_token *toks,
                          enum cc_dialect d, struct cc_expr_error *err) {
    struct parser p = {.src = src, .t = toks, .k = 0, .a = a, .d = d, .err = err, .depth = 0};
    node *root = parse_top(&p);
    free(toks);
    return root;
}

struct cc_node *cc_expr_parse(struct cc_arena *a, const char *src, size_t len,
                              enum cc_dialect d, struct cc_expr_error *err) {
    struct cc_token *toks;
    size_t n;
    if (!have_input(a, src, err) || cc_lex_all(src, len, &toks, &n, err) != 0) return NULL;
    return parse_tokens(a, src, toks, d, err);
}

struct cc_node *cc_expr_screen_parse(struct cc_arena *a, const char *src, size_t len,
                                     enum cc_dialect d, struct cc_expr_error *err) {
    struct cc_token *toks;
    size_t n;
    if (!have_input(a, src, err) || cc_expr_screen_keep(src, len, &toks, &n, err) != 0)
        return NULL;
    return parse_tokens(a, src, toks, d, err);
}
