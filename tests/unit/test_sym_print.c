/* The printer and the numeric formats of TOOLS.md 2.3, tested on trees
 * built by hand (no CAS involved), with the spec's examples as vectors. */
#include <mpfr.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/symbolic/sym_numeric.h"
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_tree.h"

static struct sym_node *S(const char *n) { return sym_symbol(n); }
static struct sym_node *N(long v) { return sym_int(v); }
static struct sym_node *Q(long p, long q) {
    mpq_t r;
    mpq_init(r);
    mpq_set_si(r, p, (unsigned long)q);
    mpq_canonicalize(r);
    struct sym_node *n = sym_num_q(r);
    mpq_clear(r);
    return n;
}
static struct sym_node *F(double d) { return sym_float(d); }
static struct sym_node *C(enum sym_const c) { return sym_const(c); }
static struct sym_node *P(struct sym_node *b, struct sym_node *e) { return sym_bin(SYM_POW, b, e); }

/* An n-ary node from a NULL-terminated list of children. */
static struct sym_node *nary(enum sym_kind k, ...) {
    struct sym_node *kids[16];
    size_t n = 0;
    va_list ap;
    va_start(ap, k);
    for (struct sym_node *c; n < 16 && (c = va_arg(ap, struct sym_node *));)
        kids[n++] = c;
    va_end(ap);
    return sym_nary(k, kids, n);
}
#define ADD(...) nary(SYM_ADD, __VA_ARGS__, NULL)
#define MUL(...) nary(SYM_MUL, __VA_ARGS__, NULL)

/* Normalises and prints t (consumed), comparing with want. */
static void expect(struct sym_node *t, const char *want) {
    t = sym_normalize(t);
    char *s = sym_print(t);
    CHECK_STREQ(s, want);
    free(s);
    sym_free(t);
}

static void test_sums_order(void) {
    /* x**3 + 3*x**2 + 3*x + 1, given scrambled */
    expect(ADD(N(1), MUL(N(3), S("x")), P(S("x"), N(3)), MUL(N(3), P(S("x"), N(2)))),
           "x**3 + 3*x**2 + 3*x + 1");
    expect(ADD(P(S("b"), N(2)), MUL(N(2), S("a"), S("b")), P(S("a"), N(2))),
           "a**2 + 2*a*b + b**2");
    expect(ADD(N(-2), MUL(N(4), S("x"))), "4*x - 2");
    expect(ADD(N(10), MUL(N(-1), S("y"))), "10 - y");
    expect(ADD(S("x"), N(1)), "x + 1");
}

static void test_rationals(void) {
    expect(Q(-1, 2), "-1/2");
    expect(MUL(Q(1, 3), P(S("x"), N(3))), "x**3/3");
    expect(MUL(Q(-1, 6), P(S("x"), N(3))), "-x**3/6");
    expect(MUL(S("a"), S("b"), P(S("c"), N(-1))), "a*b/c");
    expect(P(S("x"), N(-2)), "x**(-2)" /* sympy: x**(-2) */);
}

static void test_roots_and_constants(void) {
    expect(MUL(N(2), P(N(2), Q(1, 2))), "2*sqrt(2)");
    expect(ADD(Q(-1, 2), MUL(Q(1, 2), P(N(3), Q(1, 2)), C(SYM_I))), "-1/2 + sqrt(3)*I/2");
    expect(ADD(Q(-1, 2), MUL(Q(-1, 2), P(N(3), Q(1, 2)), C(SYM_I))), "-1/2 - sqrt(3)*I/2");
    expect(MUL(N(-1), C(SYM_I)), "-I");
    expect(C(SYM_OO), "oo");
    expect(C(SYM_NEG_OO), "-oo");
    expect(C(SYM_ZOO), "zoo");
    expect(C(SYM_NAN), "nan");
    expect(C(SYM_E), "E");
    expect(C(SYM_PI), "pi");
    expect(sym_bool(true), "True");
}

static void test_relations_and_containers(void) {
    expect(sym_rel(SYM_EQ, ADD(P(S("x"), N(2)), N(-4)), N(0)), "Eq(x**2 - 4, 0)");
    expect(sym_rel(SYM_GT, S("x"), N(1)), "x > 1");
    expect(nary(SYM_LIST, N(2), N(3), N(5), NULL), "[2, 3, 5]");
    expect(nary(SYM_DICT, N(2), N(2), N(3), N(1), NULL), "{2: 2, 3: 1}");
    struct sym_node *integ = sym_func("Integral", NULL, 0);
    sym_append(integ, S("x"));
    sym_append(integ, S("x"));
    expect(integ, "Integral(x, x)");
}

/* Like terms and like bases combine as sympy's automatic evaluation does;
 * fractions are not cancelled. */
static void test_collection(void) {
    expect(ADD(MUL(N(2), S("x")), MUL(N(3), S("x"))), "5*x");
    expect(ADD(S("x"), MUL(N(-1), S("x"))), "0");
    expect(MUL(S("x"), S("x")), "x**2");
    expect(MUL(S("x"), P(S("x"), N(-1))), "1");
    expect(MUL(P(N(2), Q(1, 2)), P(N(2), Q(1, 2))), "2");
    expect(MUL(ADD(P(S("x"), N(2)), N(-1)), P(ADD(S("x"), N(-1)), N(-1))),
           "(x**2 - 1)/(x - 1)");
    expect(ADD(MUL(F(2.0), S("x")), MUL(N(3), S("x"))), "5.0*x");
    expect(MUL(N(2), ADD(S("x"), N(1))), "2*x + 2");
}

static void test_floats(void) {
    expect(F(2.5), "2.50000000000000");
    expect(F(1500.0), "1500.00000000000");
    expect(F(0.30000000000000004), "0.300000000000000");
    expect(F(-0.5), "-0.500000000000000");
    expect(MUL(F(2.5), S("x")), "2.5*x");
    expect(MUL(F(0.5), S("x")), "0.5*x");
}

static void test_series_order(void) {
    struct sym_node *o = sym_func("O", NULL, 0);
    sym_append(o, P(S("x"), N(4)));
    expect(ADD(S("x"), MUL(Q(-1, 6), P(S("x"), N(3))), o), "x - x**3/6 + O(x**4)");
    o = sym_func("O", NULL, 0);
    sym_append(o, P(S("x"), N(3)));
    expect(ADD(N(1), S("x"), MUL(Q(1, 2), P(S("x"), N(2))), o), "1 + x + x**2/2 + O(x**3)");
}

static void value_is(const char *re, const char *im, bool zero, const char *want) {
    char *s = sym_numeric_value(re, im, zero);
    CHECK_STREQ(s, want);
    free(s);
}

/* The 12-digit `value` of evaluate_expression (2.3). */
static void test_numeric_value(void) {
    value_is("1036", NULL, false, "1036.00000000");
    value_is("0.33333333333333333333", NULL, false, "0.333333333333");
    value_is("0.0001", NULL, false, "0.000100000000000");
    value_is("100000000000", NULL, false, "100000000000.");
    value_is("1000000000000", NULL, false, "1.00000000000e+12");
    value_is("3.0414093201713378043612608166064768844377641568960512e+64", NULL, false,
             "3.04140932017e+64");
    value_is("0.00001", NULL, false, "1.00000000000e-5");
    value_is("0", NULL, true, "0");
    value_is("1", "1", false, "1.0 + 1.0*I");
    value_is("0", "1.41421356237309504880", false, "1.41421356237*I");
    value_is("2", "-0.5", false, "2.0 - 0.5*I");
}

/* The value of an integer as evaluate_expression computed it before
 * sym_integer_value: 160 bits, 41 digits of text, then sym_numeric_value. */
static char *integer_value_through_text(const mpz_t n) {
    mpfr_t x;
    mpfr_init2(x, 160);
    mpfr_set_z(x, n, MPFR_RNDN);
    char *d = NULL;
    CHECK(mpfr_asprintf(&d, "%.40Re", x) > 0);
    char *v = sym_numeric_value(d, NULL, mpz_sgn(n) == 0);
    mpfr_free_str(d);
    mpfr_clear(x);
    return v;
}

/* sym_integer_value skips the decimal text for integers below 2**132: the
 * same digits at every size up to the bound, in both signs, and where the
 * twelfth digit rounds up a decade. */
static void test_integer_value_matches_the_text_path(void) {
    static const char *const edges[] = {"0", "1", "-1", "999999999999", "1000000000000",
                                        "999999999999499", "999999999999500", "-999999999999999",
                                        "100000000000", "5444517870735015415413993718908291383295"};
    mpz_t n;
    mpz_init(n);
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        mpz_set_str(n, edges[i], 10);
        char *want = integer_value_through_text(n), *got = sym_integer_value(n);
        CHECK_STREQ(got, want);
        free(want);
        free(got);
    }
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 20261202);
    for (int i = 0; i < 4000; i++) {
        mpz_urandomb(n, rs, 1 + (unsigned long)(i % 132));
        if (i & 1) mpz_neg(n, n);
        char *want = integer_value_through_text(n), *got = sym_integer_value(n);
        CHECK_STREQ(got, want);
        free(want);
        free(got);
    }
    gmp_randclear(rs);
    mpz_clear(n);
}

static void fmt_is(const char *dec, int dps, bool strip, const char *want) {
    char *s = sym_fmt_decimal(dec, dps, strip);
    CHECK_STREQ(s, want);
    free(s);
}

static void test_float_formats(void) {
    fmt_is("2.5", 15, false, "2.50000000000000");
    fmt_is("1500", 15, false, "1500.00000000000");
    fmt_is("1e20", 15, false, "1.00000000000000e+20");
    fmt_is("-0.000012345", 15, false, "-1.23450000000000e-5");
    fmt_is("0.5", 15, true, "0.5");
    char *s = sym_fmt_double(0.1 + 0.2, 15, false);
    CHECK_STREQ(s, "0.300000000000000");
    free(s);
}

/* Found by fuzz_symbolic (a timeout): products and sums printed each factor
 * once to sort and once to write, so every level of nesting doubled the
 * work; x*sin(x*sin(...)) forty deep would take 2^40 prints. Each node is
 * now printed once, and the text is the same. */
static void regression_printing_nested_products_is_linear(void) {
    struct sym_node *t = S("x");
    for (int i = 0; i < 40; i++) {
        struct sym_node *k[1] = {t};
        t = MUL(S("y"), P(S("x"), N(-2)), sym_func("sin", k, 1));
    }
    char want[1024] = "";
    for (int i = 0; i < 40; i++) strcat(want, "y*sin(");
    strcat(want, "x");
    for (int i = 0; i < 40; i++) strcat(want, ")/x**2");
    char *got = sym_print(t);
    CHECK_STREQ(got, want);
    /* 40 levels of 5 nodes, each printed once, plus the two temporaries of
     * the denominator per level: 7 a level, far from 2^40. */
    CHECK_INTEQ(sym_print_work(), 7 * 40 + 1);
    free(got);
    sym_free(t);
}

int main(void) {
    RUN(test_sums_order);
    RUN(test_rationals);
    RUN(test_roots_and_constants);
    RUN(test_relations_and_containers);
    RUN(test_collection);
    RUN(test_floats);
    RUN(test_series_order);
    RUN(test_numeric_value);
    RUN(test_integer_value_matches_the_text_path);
    RUN(test_float_formats);
    RUN(regression_printing_nested_products_is_linear);
    return check_summary("sym_print");
}
