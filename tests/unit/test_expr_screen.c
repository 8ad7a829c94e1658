/* The safety screen (TOOLS.md 2.1, 2.2) and the explosive-shape check (2.4),
 * with the messages of the spec as vectors. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/common/expr_parse.h"

static struct cc_expr_error err;

static int screen(const char *s) {
    memset(&err, 0, sizeof err);
    return cc_expr_screen(s, strlen(s), &err);
}

#define REFUSED(src_, code_, msg_) do { \
    CHECK_INTEQ(screen(src_), -1); \
    CHECK_STREQ(err.code, code_); \
    if (msg_) CHECK_STREQ(err.message, (const char *)msg_); \
} while (0)

static void test_screen_table(void) {
    CHECK_INTEQ(screen("x**2 + 2*x + 1 == 0 and not True or False"), 0);
    CHECK_INTEQ(screen("a != b <= c >= d // e % f & g | h ^ ~i << j >> k"), 0);
    CHECK_INTEQ(screen("3! + 1.5 + 1e3 + 0x1f + 0o7 + 0b101 + 1_000"), 0);
    CHECK_INTEQ(screen(""), 0);
    REFUSED("__import__('os')", "permission_denied",
            "identifier '__import__' is not permitted: leading underscores reach Python internals");
    REFUSED("_x + 1", "permission_denied",
            "identifier '_x' is not permitted: leading underscores reach Python internals");
    REFUSED("lambda: 1", "permission_denied", "keyword 'lambda' is not permitted in an expression");
    REFUSED("1 if x else 2", "permission_denied", "keyword 'if' is not permitted in an expression");
    REFUSED("x in y", "permission_denied", "keyword 'in' is not permitted in an expression");
    REFUSED("x is y", "permission_denied", "keyword 'is' is not permitted in an expression");
    REFUSED("'abc'", "permission_denied", "string literals are not permitted in an expression");
    REFUSED("rb\"x\" + 1", "permission_denied", "string literals are not permitted in an expression");
    REFUSED("f'{x}'", "permission_denied", "string literals are not permitted in an expression");
    REFUSED("x.real", "permission_denied", "attribute access is not permitted in an expression");
    REFUSED("1.5.real", "permission_denied", "attribute access is not permitted in an expression");
    REFUSED("[1, 2]", "permission_denied", NULL);
    CHECK(strstr(err.message, "matrix") != NULL);
    CHECK(strstr(err.message, "det") != NULL);
    CHECK(strstr(err.message, "eigenvalues") != NULL);
    REFUSED("{1}", "permission_denied", "'{' is not permitted in an expression");
    REFUSED("a:b", "permission_denied", "':' is not permitted in an expression");
    REFUSED("a;b", "permission_denied", "';' is not permitted in an expression");
    REFUSED("x = 1", "permission_denied", "'=' is not permitted in an expression");
    REFUSED("(x := 1)", "permission_denied", "':=' is not permitted in an expression");
    REFUSED("a @ b", "permission_denied", "'@' is not permitted in an expression");
    REFUSED("a -> b", "permission_denied", "'->' is not permitted in an expression");
    REFUSED("...", "permission_denied", "'...' is not permitted in an expression");
    /* first hit decides, left to right */
    REFUSED("'s' + _x", "permission_denied", "string literals are not permitted in an expression");
    /* tokenisation failures */
    REFUSED("(1 + 2", "validation", NULL);
    CHECK(strncmp(err.message, "expression could not be tokenised: ", 35) == 0);
    REFUSED("'abc", "validation", NULL);
    CHECK(strncmp(err.message, "expression could not be tokenised: ", 35) == 0);
    REFUSED("1 $ 2", "validation", NULL);
    CHECK(strncmp(err.message, "expression could not be tokenised: ", 35) == 0);
}

static void test_length_cap(void) {
    char *s = malloc(120001);
    memset(s, 'x', 120000);
    s[120000] = '\0';
    REFUSED(s, "resource_exhausted", "expression too long (max 2000 chars)");
    s[2000] = '\0';
    CHECK_INTEQ(screen(s), 0);
    s[2000] = 'x';
    s[2001] = '\0';
    REFUSED(s, "resource_exhausted", "expression too long (max 2000 chars)");
    /* 2000 two-byte characters are 2000 characters, not 4000 */
    for (int i = 0; i < 2000; i++) memcpy(s + 2 * i, "\xc3\xa9", 2);
    CHECK_INTEQ(cc_expr_screen(s, 4000, &err), -1);
    CHECK_STREQ(err.code, "validation"); /* past the cap; refused by the tokeniser */
    free(s);
}

static void test_heavy_arguments(void) {
    CHECK_INTEQ(screen("factorial(1463)"), 0);
    CHECK_INTEQ(screen("factorial(1463.5) + gamma(3000.0)"), 0);
    CHECK_INTEQ(screen("factorial (5) + 100000"), 0);
    REFUSED("factorial(100000)", "resource_exhausted",
            "argument 100000 to factorial() exceeds the limit of 1463: computing it would take an "
            "unbounded amount of time and memory");
    REFUSED("binomial(10, 2) + prime(0x10000)", "resource_exhausted",
            "argument 65536 to prime() exceeds the limit of 1463: computing it would take an "
            "unbounded amount of time and memory");
    REFUSED("totient((2 + 1464))", "resource_exhausted", NULL);
    CHECK(strstr(err.message, "argument 1464 to totient()") != NULL);
    CHECK_INTEQ(screen("totient(2) + 1464"), 0);
}

static int shape(const char *s) {
    struct cc_arena *a = cc_arena_new();
    memset(&err, 0, sizeof err);
    const struct cc_node *n = cc_expr_parse(a, s, strlen(s), CC_DIALECT_SYMBOLIC, &err);
    int rc = n ? cc_expr_shape_check(n, &err) : -2;
    cc_arena_free(a);
    return rc;
}

#define SHAPE_REFUSED(src_, msg_) do { \
    CHECK_INTEQ(shape(src_), -1); \
    CHECK_STREQ(err.code, "resource_exhausted"); \
    CHECK_STREQ(err.message, msg_); \
} while (0)

static void test_shape(void) {
    const char *tower = "a power tower (an exponent that is itself a power) is not evaluated: the "
                        "result grows faster than any useful bound";
    SHAPE_REFUSED("9**9**9", tower);
    SHAPE_REFUSED("9^9^9^9", tower);
    SHAPE_REFUSED("(x+1)**300", "a symbolic power with an exponent of about 3 digits exceeds the "
                                "limit of 200: expanding it is superlinear in the exponent");
    /* monomial_power_refused: exp(x)/x**1000 at oo (SymPy: oo) and
     * x**1000/x**998 were refused as if x**1000 expanded superlinearly;
     * a power of a product of symbols is one term */
    CHECK_INTEQ(shape("exp(x)/x**1000"), 0);
    CHECK_INTEQ(shape("x**1000/x**998"), 0);
    CHECK_INTEQ(shape("(-2*x*y/z**3)**5000"), 0);
    SHAPE_REFUSED("x**10001", "a symbolic power with an exponent of about 5 digits exceeds the "
                              "limit of 10000: expanding it is superlinear in the exponent");
    SHAPE_REFUSED("x**1000000000000", "a symbolic power with an exponent of about 13 digits exceeds the "
                                      "limit of 10000: expanding it is superlinear in the exponent");
    SHAPE_REFUSED("(x*y + 1)**201", "a symbolic power with an exponent of about 3 digits exceeds the "
                                    "limit of 200: expanding it is superlinear in the exponent");
    SHAPE_REFUSED("sin(x)**1000", "a symbolic power with an exponent of about 4 digits exceeds the "
                                  "limit of 200: expanding it is superlinear in the exponent");
    SHAPE_REFUSED("2**100000", "the result would have about 30103 digits, over the limit of 4000: "
                               "it cannot be rendered as a decimal string");
    SHAPE_REFUSED("10**4000", "the result would have about 4001 digits, over the limit of 4000: it "
                              "cannot be rendered as a decimal string");
    SHAPE_REFUSED("2**(2**1001)", tower);
    CHECK_INTEQ(shape("10**3999"), 0);
    /* symbolic_tower_allowed: x**y**z was refused as resource_exhausted
     * although nothing numeric is evaluated */
    CHECK_INTEQ(shape("x**y**z"), 0);
    CHECK_INTEQ(shape("2**x**2"), 0);
    SHAPE_REFUSED("9**9**9**9 - x", tower);
    SHAPE_REFUSED("x**9**9", tower);
    SHAPE_REFUSED("x**x**x**x**x**x**x**x**x**x", "a power tower more than 8 levels high is not evaluated");
    CHECK_INTEQ(shape("(x+1)**200"), 0);
    CHECK_INTEQ(shape("pi**5000 + E**300"), 0); /* constants are not symbols */
    CHECK_INTEQ(shape("x**-1000"), 0);
    CHECK_INTEQ(shape("1**100000 + 0.5**100000"), 0);
    CHECK_INTEQ(shape("(2+3)**100000"), 0); /* base not a literal: not this check's business */
    CHECK_INTEQ(shape("2**y"), 0);
    /* small_numeric_tower_refused: x**2**3 (x**8) was refused as a tower
     * growing "faster than any useful bound" */
    CHECK_INTEQ(shape("x**2**3"), 0);
    CHECK_INTEQ(shape("x**(1/3)**3"), 0);
    CHECK_INTEQ(shape("2**2**2 + (1/2)**2**-2"), 0);
    CHECK_INTEQ(shape("(x+1)**2**7"), 0);
    SHAPE_REFUSED("(x+1)**2**8", tower);      /* 256 > 200, as (x+1)**256 */
    SHAPE_REFUSED("10**10**4", tower);        /* 10001 digits */
    CHECK_INTEQ(shape("10**2**11"), 0);       /* 2049 digits */
}

/* The 64-bit interval decides digit counts away from an integer boundary;
 * these sit just either side of 4000 digits. */
static void test_shape_digit_boundaries(void) {
    CHECK_INTEQ(shape("2**13287"), 0);   /* 4000 digits */
    SHAPE_REFUSED("2**13290", "the result would have about 4001 digits, over the limit of 4000: "
                              "it cannot be rendered as a decimal string");
    CHECK_INTEQ(shape("1.5**22715"), 0); /* 3999.91: 4000 digits */
    SHAPE_REFUSED("1.5**22716", "the result would have about 4001 digits, over the limit of 4000: "
                                "it cannot be rendered as a decimal string");
    SHAPE_REFUSED("7**(10**299)", "a power tower (an exponent that is itself a power) is not "
                                  "evaluated: the result grows faster than any useful bound");
}

/* Sorted word tables (binary search) and the one-tokenisation front end,
 * which must give exactly what screen-then-parse gives. */
static void test_tables_and_screen_parse(void) {
    CHECK(cc_expr_screen_tables_sorted());
    CHECK(cc_expr_function_tables_agree());
    CHECK(cc_expr_is_constant("zoo"));
    CHECK(!cc_expr_is_constant("zo"));
    CHECK(cc_expr_is_function_n("sinh", 3)); /* "sin" */
    CHECK(!cc_expr_is_function_n("atan2x", 6));
    static const char *const cases[] = {"x.real", "lambda: 1", "factorial(1464)", "1 +", "2*x + 1",
                                        "(1", "sin x"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct cc_expr_error e1 = {0}, e2 = {0};
        size_t n = strlen(cases[i]);
        struct cc_arena *a1 = cc_arena_new(), *a2 = cc_arena_new();
        const struct cc_node *r1 = cc_expr_screen_parse(a1, cases[i], n, CC_DIALECT_SYMBOLIC, &e1);
        const struct cc_node *r2 = cc_expr_screen(cases[i], n, &e2) == 0
                                       ? cc_expr_parse(a2, cases[i], n, CC_DIALECT_SYMBOLIC, &e2)
                                       : NULL;
        CHECK_INTEQ(r1 != NULL, r2 != NULL);
        if (!r1 && !r2) {
            CHECK_STREQ(e1.code, e2.code);
            CHECK_STREQ(e1.message, e2.message);
        }
        if (r1 && r2) CHECK_INTEQ((int)r1->kind, (int)r2->kind);
        cc_arena_free(a1);
        cc_arena_free(a2);
    }
    struct cc_expr_error e = {0};
    struct cc_arena *a = cc_arena_new();
    CHECK(cc_expr_screen_parse(a, "x.real", 6, CC_DIALECT_PYTHON, &e) == NULL);
    CHECK_STREQ(e.code, "permission_denied");
    CHECK_STREQ(e.message, "attribute access is not permitted in an expression");
    cc_arena_free(a);
}

int main(void) {
    RUN(test_screen_table);
    RUN(test_length_cap);
    RUN(test_heavy_arguments);
    RUN(test_shape);
    RUN(test_shape_digit_boundaries);
    RUN(test_tables_and_screen_parse);
    return check_summary("test_expr_screen");
}
