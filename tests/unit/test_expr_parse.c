/* The expression parser in both dialects: tree shapes, precedence, literals,
 * unknown functions and hostile nesting. Trees are compared through a small
 * S-expression dump. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/common/expr_parse.h"

static const char *op_name(enum cc_op op) {
    static const char *const names[] = {
        [CC_OP_NONE] = "?", [CC_OP_POS] = "+", [CC_OP_NEG] = "neg", [CC_OP_INVERT] = "~",
        [CC_OP_NOT] = "not", [CC_OP_FACT] = "!", [CC_OP_ADD] = "+", [CC_OP_SUB] = "-",
        [CC_OP_MUL] = "*", [CC_OP_DIV] = "/", [CC_OP_FLOORDIV] = "//", [CC_OP_MOD] = "%",
        [CC_OP_POW] = "**", [CC_OP_BITAND] = "&", [CC_OP_BITOR] = "|", [CC_OP_BITXOR] = "^",
        [CC_OP_LSHIFT] = "<<", [CC_OP_RSHIFT] = ">>", [CC_OP_AND] = "and", [CC_OP_OR] = "or",
        [CC_OP_EQ] = "==", [CC_OP_NE] = "!=", [CC_OP_LT] = "<", [CC_OP_LE] = "<=",
        [CC_OP_GT] = ">", [CC_OP_GE] = ">=",
    };
    return names[op];
}

static void put(char **o, const char *s) {
    size_t n = strlen(s);
    memcpy(*o, s, n);
    *o += n;
}

static void dump(const struct cc_node *n, char **o) {
    char tmp[64];
    switch (n->kind) {
    case CC_N_INT: {
        char *s = mpz_get_str(NULL, 10, n->v.z);
        put(o, s);
        free(s);
        return;
    }
    case CC_N_FLOAT:
        snprintf(tmp, sizeof tmp, "%s%s", (n->flags & CC_NF_IMAG) ? "imag:" : "f:", n->v.f.text);
        put(o, tmp);
        return;
    case CC_N_BOOL: put(o, n->v.b ? "True" : "False"); return;
    case CC_N_NAME: put(o, n->v.name); return;
    case CC_N_UNARY: put(o, "("); put(o, op_name(n->op)); break;
    case CC_N_BINARY: put(o, "("); put(o, op_name(n->op)); break;
    case CC_N_COMPARE:
        put(o, "(cmp");
        for (uint32_t i = 0; i + 1 < n->nchild; i++) {
            put(o, " ");
            put(o, op_name(n->cmp_ops[i]));
        }
        put(o, " |");
        break;
    case CC_N_CALL: put(o, "(call "); put(o, n->v.name); break;
    case CC_N_TUPLE: put(o, "(tuple"); break;
    }
    for (uint32_t i = 0; i < n->nchild; i++) {
        put(o, " ");
        dump(n->child[i], o);
    }
    put(o, ")");
}

static char out[4096];

/* The dump of a parse, or "ERR <code>: <message>". */
static const char *parse(const char *src, enum cc_dialect d) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error err = {0};
    const struct cc_node *n = cc_expr_parse(a, src, strlen(src), d, &err);
    if (n) {
        char *o = out;
        dump(n, &o);
        *o = '\0';
    } else {
        snprintf(out, sizeof out, "ERR %s: %s", err.code, err.message);
    }
    cc_arena_free(a);
    return out;
}

#define PY(src, want) CHECK_STREQ(parse(src, CC_DIALECT_PYTHON), want)
#define SY(src, want) CHECK_STREQ(parse(src, CC_DIALECT_SYMBOLIC), want)

static void test_python(void) {
    PY("-2**2", "(neg (** 2 2))");
    PY("2**-1", "(** 2 (neg 1))");
    PY("2**3**2", "(** 2 (** 3 2))");
    PY("1+2*3-4", "(- (+ 1 (* 2 3)) 4)");
    PY("a < b < c", "(cmp < < | a b c)");
    PY("1 | 2 ^ 3 & 4 << 5 + 6", "(| 1 (^ 2 (& 3 (<< 4 (+ 5 6)))))");
    PY("not a == b", "(not (cmp == | a b))");
    PY("a or b and c", "(or a (and b c))");
    PY("~-x", "(~ (neg x))");
    PY("7 // 2 % 3", "(% (// 7 2) 3)");
    PY("f(1, 2)", "(call f 1 2)");
    PY("f(1, k=2)", "(call f 1)");
    PY("(1, 2)", "(tuple 1 2)");
    PY("(1,)", "(tuple 1)");
    PY("()", "(tuple)");
    PY("1, 2", "(tuple 1 2)");
    PY("1_000 + 0xff + 0o17 + 0b101", "(+ (+ (+ 1000 255) 15) 5)");
    PY("1e3 + .5 + 1.", "(+ (+ f:1e3 f:.5) f:1.)");
    PY("1j", "imag:1j");
    PY("True", "True");
    PY("2x", "ERR validation: parse error: unexpected 'x' at position 1");
    PY("x y", "ERR validation: parse error: unexpected 'y' at position 2");
    PY("3!", "ERR validation: parse error: unexpected '!' at position 1");
    PY("1 +", "ERR validation: parse error: unexpected end of expression at position 3");
    PY("", "ERR validation: parse error: empty expression");
    PY("012", "ERR validation: parse error: leading zeros in decimal integer literals are not "
              "permitted (position 0); use 0o for octal");
    PY("2 ^ 3", "(^ 2 3)");
}

static void test_symbolic(void) {
    SY("2x", "(* 2 x)");
    SY("sin x", "(call sin x)");
    SY("x y", "(* x y)");
    SY("3!", "(! 3)");
    SY("-2**2", "(neg (** 2 2))");
    SY("-2^2", "(neg (** 2 2))");
    SY("a < b < c", "(cmp < < | a b c)");
    SY("2(x+1)", "(* 2 (+ x 1))");
    SY("(a)(b)", "(* a b)");
    SY("2sin(x)", "(* 2 (call sin x))");
    SY("2 sin x", "(* 2 (call sin x))");
    SY("x^2 + 2x + 1", "(+ (+ (** x 2) (* 2 x)) 1)");
    SY("rate*time", "(* rate time)");
    SY("alpha", "alpha");
    SY("x1", "x1");
    SY("abs(x) + ln(x)", "(+ (call Abs x) (call log x))");
    SY("ln x", "(call log x)");
    SY("(n+1)!", "(! (+ n 1))");
    SY("2x!", "(* 2 (! x))");
    SY("pi(2)", "(* pi 2)");
    SY("2j", "(* f:2j I)");
    SY("x & y | ~z", "(| (& x y) (~ z))");
    SY("x > 1", "(cmp > | x 1)");
    SY("sinx(2)", "ERR validation: unknown function 'sinx'; did you mean: sin, sinh?");
    SY("min(1, 2)", "ERR validation: unknown function 'min'; did you mean: Min?");
    const char *r = parse("foo(3)", CC_DIALECT_SYMBOLIC);
    CHECK(strncmp(r, "ERR validation: unknown function 'foo'", 38) == 0);
}

/* Found by fuzz_symbolic: results print a != b as Ne(a, b), as SymPy does,
 * but the symbolic dialect refused Ne ("unknown function"), so a result
 * could not be sent back. */
static void regression_printed_ne_parses_back(void) {
    SY("Ne(4*25.0, q)", "(cmp != | (* 4 f:25.0) q)");
    SY("Ne(x, 1) + 0", "(+ (cmp != | x 1) 0)");
    SY("Ne(x)", "ERR validation: parse error: Ne() takes 2 arguments (1 given)");
    SY("Ne", "Ne");
    PY("Ne(x, 1)", "(call Ne x 1)");
}

static void test_functions_list(void) {
    CHECK(cc_expr_is_function("sin"));
    CHECK(cc_expr_is_function("Abs"));
    CHECK(cc_expr_is_function("abs"));
    CHECK(cc_expr_is_function("ln"));
    CHECK(cc_expr_is_function("Derivative"));
    CHECK(!cc_expr_is_function("sinx"));
    CHECK(!cc_expr_is_function("abS"));
    CHECK(!cc_expr_is_function(""));
    const char *s[4];
    CHECK_INTEQ(cc_expr_suggest("sinx", s, 4), 2);
    CHECK_STREQ(s[0], "sin");
    CHECK_STREQ(s[1], "sinh");
    CHECK_INTEQ(cc_expr_suggest("integrat", s, 4), 2);
    CHECK_STREQ(s[0], "Integral");
    CHECK_STREQ(s[1], "integrate");
    CHECK_INTEQ(cc_expr_suggest("zzzzzzzzzzzz", s, 4), 0);
    CHECK_INTEQ(cc_expr_suggest("sinx", s, 1), 1);
}

static void test_hostile(void) {
    /* 25,000 balanced brackets straight into the parser (no screen):
     * refused by depth, not by a stack overflow */
    size_t n = 50001;
    char *src = malloc(n + 1);
    memset(src, '(', 25000);
    src[25000] = 'x';
    memset(src + 25001, ')', 25000);
    src[n] = '\0';
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error err = {0};
    CHECK(cc_expr_parse(a, src, n, CC_DIALECT_PYTHON, &err) == NULL);
    CHECK_STREQ(err.code, "resource_exhausted");
    CHECK_STREQ(err.message, "expression too deeply nested");
    cc_arena_free(a);
    /* 300 unary minus / power chain / nested calls */
    const char *units[] = {"-", "2**", "sin(", "not "};
    for (size_t u = 0; u < 4; u++) {
        size_t ul = strlen(units[u]);
        char *p = src;
        for (int i = 0; i < 300; i++, p += ul) memcpy(p, units[u], ul);
        *p++ = '1';
        for (int i = 0; u == 2 && i < 300; i++) *p++ = ')';
        *p = '\0';
        a = cc_arena_new();
        CHECK(cc_expr_parse(a, src, strlen(src), CC_DIALECT_SYMBOLIC, &err) == NULL);
        CHECK_STREQ(err.code, "resource_exhausted");
        cc_arena_free(a);
    }
    /* 190 levels is fine, 201 is not */
    memset(src, '(', 190);
    src[190] = 'x';
    memset(src + 191, ')', 190);
    src[381] = '\0';
    CHECK_STREQ(parse(src, CC_DIALECT_SYMBOLIC), "x");
    memset(src, '(', 201);
    src[201] = 'x';
    memset(src + 202, ')', 201);
    src[403] = '\0';
    CHECK_STREQ(parse(src, CC_DIALECT_PYTHON), "ERR resource_exhausted: expression too deeply nested");
    free(src);
}

int main(void) {
    RUN(test_python);
    RUN(test_symbolic);
    RUN(regression_printed_ne_parses_back);
    RUN(test_functions_list);
    RUN(test_hostile);
    return check_summary("test_expr_parse");
}
