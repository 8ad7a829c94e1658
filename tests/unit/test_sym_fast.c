/* The symbolic fast paths' own arithmetic, without the CAS: the polynomial
 * reader (what it takes, what it declines), the expanded-as-written shape,
 * the univariate factorisation (and its declines: a quadratic the CAS
 * splits with square roots, a remainder of degree 4), the derivative, and
 * the exact difference algebraic_equiv uses. That the answers equal the
 * CAS path's is tests/crosscheck/fastpath.py's job. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/common/expr_arena.h"
#include "workers/common/expr_parse.h"
#include "workers/symbolic/sym_factor.h"
#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_poly.h"
#include "workers/symbolic/sym_print.h"

static struct cc_arena *arena;

static const struct cc_node *parse(const char *text) {
    struct cc_expr_error err = {0};
    return cc_expr_screen_parse(arena, text, strlen(text), CC_DIALECT_SYMBOLIC, &err);
}

/* The fast value of text printed, or "(declined)". */
static char *value(const char *text) {
    const struct cc_node *n = parse(text);
    struct sym_node *t = n ? sym_fast_value(n) : NULL;
    char *s = t ? sym_print(t) : strdup("(declined)");
    sym_free(t);
    return s;
}

/* got (malloc'd, freed here) is want. */
#define CHECK_OWNED(got, want) do { \
    char *got_ = (got); \
    CHECK_STREQ(got_, want); \
    free(got_); \
} while (0)
#define CHECK_VALUE(text, want) CHECK_OWNED(value(text), want)

static void values(void) {
    CHECK_VALUE("1/3 + 1/6", "1/2");
    CHECK_VALUE("2**64", "18446744073709551616");
    CHECK_VALUE("2**-3", "(declined)"); /* -3 is written as a negation: left to the CAS */
    CHECK_VALUE("(1/2)**3", "1/8");
    CHECK_VALUE("(-2)**3", "-8");
    CHECK_VALUE("x**2 - 5*x + 6", "x**2 - 5*x + 6");
    CHECK_VALUE("6 - 5*x + x**2", "x**2 - 5*x + 6");
    CHECK_VALUE("2*x + 3*x", "5*x");
    CHECK_VALUE("x - x", "0");
    CHECK_VALUE("x/2 + 1", "(declined)"); /* a quotient is not a monomial as written */
    CHECK_VALUE("x**0 + y**1", "(declined)"); /* x**0 is not a monomial as written */
    CHECK_VALUE("diff(x**3 - 2*x, x)", "3*x**2 - 2");
    CHECK_VALUE("diff(x**2*y + 3*y, y)", "x**2 + 3");
    CHECK_VALUE("diff(7, x)", "0");
    /* declined: the CAS keeps these as written, or they are not polynomials */
    CHECK_VALUE("(x + 1)**2", "(declined)");
    CHECK_VALUE("x*x", "(declined)");
    CHECK_VALUE("diff((x + 1)**2, x)", "(declined)");
    CHECK_VALUE("diff(x**2, x, 2)", "(declined)");
    CHECK_VALUE("diff(x**2, pi)", "(declined)");
    CHECK_VALUE("pi*x", "(declined)");
    CHECK_VALUE("x + 0.5", "(declined)");
    CHECK_VALUE("1/0", "(declined)");
    CHECK_VALUE("0**0", "(declined)");
    CHECK_VALUE("sin + 1", "(declined)");
    CHECK_VALUE("x**100", "(declined)"); /* beyond SYM_POLY_MAX_DEGREE */
    CHECK_VALUE("2**100000", "(declined)"); /* beyond SYM_POLY_MAX_BITS */
    CHECK_VALUE("a + b + c + d + e", "(declined)"); /* more symbols than SYM_POLY_VARS */
}

/* The factorisation of a one-variable polynomial, or "(declined)". */
static char *factored(const char *text) {
    struct sym_vars v = {0};
    struct sym_poly p;
    const struct cc_node *n = parse(text);
    if (!n || sym_poly_from_ast(n, &v, &p) < 0)
        return strdup("(unreadable)");
    struct sym_node *t = sym_factor_univariate(&p, &v, 0);
    char *s = t ? sym_print(t) : strdup("(declined)");
    sym_free(t);
    sym_poly_clear(&p);
    return s;
}

#define CHECK_FACTOR(text, want) CHECK_OWNED(factored(text), want)

static void factorisation(void) {
    CHECK_FACTOR("x**2 - 5*x + 6", "(x - 2)*(x - 3)");
    CHECK_FACTOR("6*x**2 - x - 1", "(2*x - 1)*(3*x + 1)");
    CHECK_FACTOR("3*x**3 - 12*x", "3*x*(x + 2)*(x - 2)");
    CHECK_FACTOR("x**2 + 2*x + 1", "(x + 1)**2");
    CHECK_FACTOR("x**4 - 16", "(x + 2)*(x - 2)*(x**2 + 4)");
    CHECK_FACTOR("2*x**3 - 2", "2*(x - 1)*(x**2 + x + 1)");
    CHECK_FACTOR("-x**2 + 1", "-(x + 1)*(x - 1)");
    CHECK_FACTOR("2*x + 4", "2*x + 4"); /* the content distributes over one sum */
    CHECK_FACTOR("x**2 + 1", "x**2 + 1");
    CHECK_FACTOR("x**5", "x**5");
    CHECK_FACTOR("x**2 - 2", "(declined)");      /* the CAS splits it with sqrt(2) */
    CHECK_FACTOR("x**3 - 2", "(declined)");      /* a cubic remainder */
    CHECK_FACTOR("x**6 - 1", "(declined)");      /* x**4 + x**2 + 1 remains */
    CHECK_FACTOR("x**4 + 2*x**2 + 1", "(declined)");
    CHECK_FACTOR("7", "(declined)");
    CHECK_FACTOR("x**2 - 1000003", "(declined)"); /* divisors beyond the bound */
    CHECK_FACTOR("x/2 + 1", "(declined)");       /* not integral */
}

static void difference(void) {
    struct sym_fast_diff f;
    CHECK(sym_fast_difference(parse("(a + b)**2"), parse("a**2 + 2*a*b + b**2"), &f) == 0);
    CHECK(f.zero);
    CHECK(f.a == NULL); /* written as a power: the CAS prints it */
    CHECK_STREQ(f.b, "a**2 + 2*a*b + b**2");
    CHECK_STREQ(f.d, "0");
    sym_fast_diff_free(&f);
    CHECK(sym_fast_difference(parse("(x - y)**2"), parse("x**2 - y**2"), &f) == 0);
    CHECK(!f.zero);
    CHECK_STREQ(f.d, "-2*x*y + 2*y**2");
    sym_fast_diff_free(&f);
    CHECK(sym_fast_difference(parse("x/2"), parse("x"), &f) < 0); /* -x/2 is not integral */
    /* equal rational functions: 0, both sides left to the CAS to print */
    CHECK(sym_fast_difference(parse("(x**2 - 1)/(x - 1)"), parse("x + 1"), &f) == 0);
    CHECK(f.zero && !f.a && !f.b);
    CHECK_STREQ(f.d, "0");
    sym_fast_diff_free(&f);
    CHECK(sym_fast_difference(parse("x**3*x**-1"), parse("x**2"), &f) == 0);
    sym_fast_diff_free(&f);
    CHECK(sym_fast_difference(parse("1/(x + y)"), parse("1/x + 1/y"), &f) < 0); /* unequal */
    CHECK(sym_fast_difference(parse("1/(x - x)"), parse("0"), &f) < 0);         /* 1/0 */
    CHECK(sym_fast_difference(parse("0**-1"), parse("0"), &f) < 0);
    CHECK(sym_fast_difference(parse("sin(x)"), parse("x"), &f) < 0);
}

/* The fast roots of lhs = rhs (rhs "" for = 0) for var as JSON text, or
 * "(declined)". */
static char *roots(const char *lhs, const char *rhs, const char *var) {
    const struct cc_node *l = parse(lhs), *r = *rhs ? parse(rhs) : NULL;
    json_t *a = l ? sym_fast_roots(l, r, var) : NULL;
    char *s = a ? json_dumps(a, JSON_COMPACT) : strdup("(declined)");
    json_decref(a);
    return s;
}

#define CHECK_ROOTS(lhs, rhs, var, want) CHECK_OWNED(roots(lhs, rhs, var), want)

static void solving(void) {
    CHECK_ROOTS("2*x + 1", "7", "x", "[\"3\"]");
    CHECK_ROOTS("x/2 + 3", "7", "x", "[\"8\"]");
    CHECK_ROOTS("x**2 - 4", "", "x", "[\"-2\",\"2\"]");
    CHECK_ROOTS("x**2 - 2*x + 1", "", "x", "[\"1\"]"); /* a double root once */
    CHECK_ROOTS("x**2 - x - 1", "", "x", "[\"1/2 - sqrt(5)/2\",\"1/2 + sqrt(5)/2\"]");
    CHECK_ROOTS("x**2 - 12", "", "x", "[\"-2*sqrt(3)\",\"2*sqrt(3)\"]");
    CHECK_ROOTS("x**2 + 2*x + 5", "", "x", "[\"-1 - 2*I\",\"-1 + 2*I\"]");
    CHECK_ROOTS("3*x**2 + 2*x + 7", "", "x",
                "[\"-1/3 - 2*sqrt(5)*I/3\",\"-1/3 + 2*sqrt(5)*I/3\"]");
    CHECK_ROOTS("t*(t - 4)", "5", "t", "[\"-1\",\"5\"]");
}

/* Degree 3 and above: every root rational but at most two, which a
 * quadratic rest gives in closed form; the CAS path's order (real first,
 * by value, then by real and imaginary part), a multiple root once. */
static void solving_higher_degree(void) {
    CHECK_ROOTS("x**4 - 5*x**2 + 4", "", "x", "[\"-2\",\"-1\",\"1\",\"2\"]");
    CHECK_ROOTS("2*x**3 - 3*x**2 - 3*x + 2", "", "x", "[\"-1\",\"1/2\",\"2\"]");
    CHECK_ROOTS("(x - 1)**2*(x + 2)", "", "x", "[\"-2\",\"1\"]");
    CHECK_ROOTS("(x - 1)**3", "", "x", "[\"1\"]");
    CHECK_ROOTS("x**3/6 - x/6", "", "x", "[\"-1\",\"0\",\"1\"]");
    CHECK_ROOTS("x**5 - x", "", "x", "[\"-1\",\"0\",\"1\",\"-I\",\"I\"]");
    CHECK_ROOTS("x**3", "8", "x", "[\"2\",\"-1 - sqrt(3)*I\",\"-1 + sqrt(3)*I\"]");
    CHECK_ROOTS("x**4 - 2*x**2", "", "x", "[\"-sqrt(2)\",\"0\",\"sqrt(2)\"]");
    CHECK_ROOTS("x**4 + x**2 - 2", "", "x",
                "[\"-1\",\"1\",\"-sqrt(2)*I\",\"sqrt(2)*I\"]");
    /* an irrational root between rational ones */
    CHECK_ROOTS("(x - 2)*(x + 2)*(x**2 - 3)", "", "x",
                "[\"-2\",\"-sqrt(3)\",\"sqrt(3)\",\"2\"]");
    CHECK_ROOTS("x**3 - 2", "", "x", "(declined)");        /* an irreducible cubic */
    /* a quartic rest that splits into two quadratics */
    CHECK_ROOTS("x**6 - 1", "", "x",
                "[\"-1\",\"1\",\"-1/2 - sqrt(3)*I/2\",\"-1/2 + sqrt(3)*I/2\",\"1/2 - "
                "sqrt(3)*I/2\",\"1/2 + sqrt(3)*I/2\"]");
    CHECK_ROOTS("x**5 + 4*x", "", "x", "[\"0\",\"-1 - I\",\"-1 + I\",\"1 - I\",\"1 + I\"]");
    CHECK_ROOTS("(2*x**2 + 3*x + 5)*(x**2 - x - 1)", "", "x",
                "[\"1/2 - sqrt(5)/2\",\"1/2 + sqrt(5)/2\",\"-3/4 - sqrt(31)*I/4\",\"-3/4 + "
                "sqrt(31)*I/4\"]");
    CHECK_ROOTS("x**4 + 1", "", "x", "(declined)");           /* irreducible over Q */
    CHECK_ROOTS("x**4 - 10*x**2 + 1", "", "x", "(declined)"); /* irreducible over Q */
    /* two quadratics' roots with one real part: the CAS path's doubles
     * decide their order, which is not guessed */
    CHECK_ROOTS("x**4 + 5*x**2 + 4", "", "x", "(declined)");
    CHECK_ROOTS("x**9 - x", "", "x", "(declined)");        /* beyond SOLVE_MAX_DEGREE */
    CHECK_ROOTS("x**3 - 70000*x", "", "x", "(declined)");  /* a large literal */
    CHECK_ROOTS("x**3 - a*x", "", "x", "(declined)");      /* a parameter */
    CHECK_ROOTS("x**3 + 0.5", "", "x", "(declined)");      /* a float */
}

static void solving_declines(void) {
    CHECK_ROOTS("x**2 + a", "", "x", "(declined)");          /* a parameter */
    CHECK_ROOTS("x**2 - 1", "", "y", "(declined)");          /* not in the variable */
    CHECK_ROOTS("x - x", "", "x", "(declined)");             /* no equation left */
    CHECK_ROOTS("x + 0.5", "", "x", "(declined)");           /* a float */
    CHECK_ROOTS("x + 70000", "", "x", "(declined)");         /* a large literal */
    CHECK_ROOTS("x**2 - 16777259", "", "x", "(declined)");   /* a large radicand */
    CHECK_ROOTS("1/x - 2", "", "x", "(declined)");           /* not a polynomial */
}

/* The fast limits of e at point ("oo", "-oo" or a number) as
 * "right|left", or "(declined)". */
static char *limits(const char *e, const char *point) {
    int inf = !strcmp(point, "oo") ? 1 : !strcmp(point, "-oo") ? -1 : 0;
    const struct cc_node *n = parse(e), *p = inf ? NULL : parse(point);
    char *r = NULL, *l = NULL, *s = NULL;
    if (n && sym_fast_limits(n, "x", p, inf, &r, &l) == 0) {
        if (asprintf(&s, "%s|%s", r, l ? l : "") < 0)
            s = NULL;
    } else {
        s = strdup("(declined)");
    }
    free(r);
    free(l);
    return s;
}

#define CHECK_LIMITS(e, point, want) CHECK_OWNED(limits(e, point), want)

static void limiting(void) {
    CHECK_LIMITS("(x**2 - 1)/(x - 1)", "1", "2|2");
    CHECK_LIMITS("1/x", "0", "oo|-oo");
    CHECK_LIMITS("1/x**2", "0", "oo|oo");
    CHECK_LIMITS("-x/(x - 2)**2", "2", "-oo|-oo");
    CHECK_LIMITS("(x - 1)**2/(x - 1)", "1", "0|0");
    CHECK_LIMITS("x**2 + 1", "1/2", "5/4|5/4");
    CHECK_LIMITS("(3*x**2 + 1)/(x**2 - 5)", "oo", "3|");
    CHECK_LIMITS("(2*x + 3)/(5*x - 1)", "-oo", "2/5|");
    CHECK_LIMITS("x**3/(x + 1)", "-oo", "oo|");
    CHECK_LIMITS("x**2/(1 - x)", "-oo", "oo|");
    CHECK_LIMITS("x/(x**2 + 1)", "oo", "0|");
    CHECK_LIMITS("sin(x)/x", "0", "(declined)");
    CHECK_LIMITS("y/x", "1", "(declined)");
    CHECK_LIMITS("1/(x - pi)", "pi", "(declined)");
    CHECK_LIMITS("0.5/x", "oo", "(declined)");
    CHECK_LIMITS("x - x", "0", "(declined)");
}

/* solve_linear's exact elimination: the solution printed, or "(declined)" */
static void linear_case(const char *system, const char *vars, const char *want) {
    json_t *r = sym_fast_linear(system, vars);
    json_t *sols = r ? json_object_get(r, "solutions") : NULL;
    json_t *sol = json_array_get(sols, 0);
    const char *got = !r ? "(declined)" : sol ? json_string_value(sol) : "(none)";
    if (r)
        CHECK_INTEQ(json_integer_value(json_object_get(r, "count")), json_array_size(sols));
    CHECK_STREQ(got, want);
    json_decref(r);
}

static void linear_systems(void) {
    linear_case("x + y = 10; x - y = 2", "x, y", "{x: 6, y: 4}");
    linear_case("x/2 + y/3 = 1; x - y = 1", "x, y", "{x: 8/5, y: 3/5}");
    linear_case("x/2 + y/3 = 1; x - y = 1", "y, x", "{y: 3/5, x: 8/5}");
    linear_case("2*x = 4", "x", "{x: 2}");
    linear_case("3*x + 2 = 11", "x", "{x: 3}");
    linear_case("x + y + z = 1; x - y = 0; (x + z)/2 = -3", "x, y, z", "{x: 7, y: 7, z: -13}");
    linear_case(" x + y = 0 ;; x - y = 0 ; ", "x, y", "{x: 0, y: 0}");
    /* singular (none or many solutions), parameters, non-linear terms,
     * floats, implicit products, constants as coefficients or names */
    /* inconsistent: no solution, the CAS's empty list */
    linear_case("x + y = 1; x + y = 2", "x, y", "(none)");
    linear_case("x + y + z = 6; x - y = 0; 2*x + z = 5", "z, x, y", "(none)");
    linear_case("2*x + y = 3; 4*x + 2*y = 5", "x, y", "(none)");
    linear_case("0 = 1", "x", "(none)");
    /* a family of solutions: parametric, the CAS's */
    linear_case("3*x + 4*y = 10; 6*x + 8*y = 20", "x, y", "(declined)");
    linear_case("x + y + z = 1; 2*x + 2*y + 2*z = 2; x - z = 0", "x, y, z", "(declined)");
    linear_case("0 = 0", "x", "(declined)");
    linear_case("x + y = a; x - y = b", "x, y", "(declined)");
    linear_case("x + y = 5; x*y = 6", "x, y", "(declined)");
    linear_case("0.5*x + y = 2; x - y = 1", "x, y", "(declined)");
    linear_case("2x + y = 3; x - y = 0", "x, y", "(declined)");
    linear_case("x**1 + y = 3; x - y = 0", "x, y", "(declined)");
    linear_case("pi*x = 1", "x", "(declined)");
    linear_case("x = 1", "pi", "(declined)");
    linear_case("x + y = 10", "x, y", "(declined)");
    linear_case("x = 1; y = 2; x + y = 3", "x, y", "(declined)");
    linear_case("x + y = 1; x - y = 0", "x, x", "(declined)");
    linear_case("x = 1 = 2", "x", "(declined)");
    linear_case("x = 1", "x,", "(declined)");
    linear_case("a + b + c + d + e = 1; a = 1; b = 1; c = 1; d = 1", "a, b, c, d, e", "(declined)");
}

int main(void) {
    arena = cc_arena_new();
    RUN(values);
    RUN(factorisation);
    RUN(difference);
    RUN(solving);
    RUN(solving_higher_degree);
    RUN(solving_declines);
    RUN(limiting);
    RUN(linear_systems);
    cc_arena_free(arena);
    return check_summary("test_sym_fast");
}
