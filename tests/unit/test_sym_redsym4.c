/* Regression tests of the fourth red-team round on the symbolic tools
 * (tests/crosscheck/independent/generated-redsym4.json): the functions
 * SymPy has and codecalc did not (fibonacci, bernoulli, uppergamma...),
 * floor and ceiling of exact constants, an infinite "root" of an equation
 * with no solution, the general solution
 * of exponential equations with parameters or a parenthesised exponent,
 * and simplify's time budget. Each asserts the value (mpmath's and
 * SymPy 1.14's). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void expect_refused(const char *expr) {
    json_t *r = sym_eval(expr);
    if (!sym_str(r, "code"))
        fprintf(stderr, "  %s: answered %s, want a refusal\n", expr, sym_str(r, "expression"));
    CHECK_STREQ(sym_str(r, "code"), "validation");
    json_decref(r);
}

/* fibonacci, lucas and bernoulli were unknown functions */
static void test_integer_sequences_were_unknown(void) {
    sym_expect("fibonacci(10)", "55");
    sym_expect("fibonacci(100)", "354224848179261915075");
    sym_expect("fibonacci(-4)", "-3");
    sym_expect("fibonacci(-3)", "2");
    sym_expect("lucas(5)", "11");
    sym_expect("bernoulli(1)", "1/2"); /* SymPy >= 1.12; giac's is -1/2 */
    sym_expect("bernoulli(10)", "5/66");
    sym_expect("bernoulli(3)", "0");
    sym_expect("bernoulli(1, x)", "x - 1/2");
    expect_refused("fibonacci(n)");
}

/* uppergamma, lowergamma, expint, Shi, Chi, elliptic_k and fresnels were
 * unknown functions; values from mpmath at 32 digits */
static void test_incomplete_gamma_family_was_unknown(void) {
    sym_expect("uppergamma(1, 2)", "1/exp(2)");
    sym_expect("lowergamma(1/2, 1)", "sqrt(pi)*erf(1)");
    sym_expect("N(uppergamma(1/2, 2), 30)", "0.0806471179603176907886260730213");
    sym_expect("N(lowergamma(3, 2), 20)", "0.64664716763387308106");
    sym_expect("expint(0, x)", "exp(-x)/x");
    sym_expect("N(expint(3, 1/2), 30)", "0.221604364275178457369299376162");
    sym_expect("N(expint(1, 2), 20)", "0.048900510708061119567");
    sym_expect("N(Shi(2), 30)", "2.50156743335497564147337248273");
    sym_expect("N(Shi(-1/2), 20)", "-0.50699674981966719583");
    sym_expect("N(Chi(3), 30)", "4.96039209476560976029791763669");
    sym_expect("elliptic_k(0)", "pi/2");
    sym_expect("fresnels(0)", "0");
    sym_expect("Shi(0)", "0");
    /* no closed form here: refused by name, never guessed */
    expect_refused("uppergamma(1/3, 2)");
    expect_refused("Chi(-1)"); /* Chi's branch cut: (Ei(x) + Ei(-x))/2 is not it there */
    expect_refused("expint(1, x)");
    expect_refused("elliptic_k(1/2)");
}

/* digamma and Ei of a complex number were refused by N (MPFR's are
 * real-only); values from mpmath at 30 digits */
static void test_complex_digamma_and_ei(void) {
    sym_expect("N(digamma(1/2 + I/3), 30)",
           "-1.30378934177825558033203014827 + 1.22634336733808947865715967326*I");
    sym_expect("N(digamma(-3/2 + 2*I))", "1.03983375817295 + 2.36137360631809*I");
    sym_expect("N(Ei(3 + I/3), 30)",
           "9.68738956525773400525931863835 + 2.20885950181989586400104065505*I");
    sym_expect("N(Ei(-2 + I), 20)", "-0.0093881613104844667173 + 3.0971296594484078529*I");
    sym_expect("N(Ei(50*I), 20)", "-0.0056283863241163054402 + 3.122413399280832514*I");
    /* the exact input keeps its form; its value is ours */
    json_t *r = sym_eval("digamma(1/2 + I/3)");
    CHECK_STREQ(sym_str(r, "expression"), "digamma(1/2 + I/3)");
    CHECK_STREQ(sym_str(r, "value"), "-1.30378934178 + 1.22634336734*I");
    json_decref(r);
    sym_expect("N(zeta(2 + I))", "1.1503557032549 - 0.437530865919608*I"); /* ours since redsym5 */
    expect_refused("N(LambertW(0, 1))"); /* -oo: no branch-1 root */
}

/* floor(exp(100) + 1 - exp(100)) was 0 (giac's floor evaluates numerically
 * and lost the 1 to cancellation); floor(2*sin(pi/6)) kept as written with
 * value 0.0 and a note calling giac's right 1 wrong (the 128-bit value
 * 0.999... floored); floor(exp(pi*sqrt(163))) stayed unevaluated (mpmath:
 * 262537412640768743.99999999999925) */
static void test_floor_of_exact_constants(void) {
    sym_expect("floor(exp(100) + 1 - exp(100))", "1");
    sym_expect("floor(2*sin(pi/6))", "1");
    json_t *r = sym_eval("floor(2*sin(pi/6))");
    CHECK_STREQ(sym_str(r, "value"), "1.00000000000");
    CHECK(json_object_get(r, "note") == NULL);
    json_decref(r);
    sym_expect("floor(exp(pi*sqrt(163)))", "262537412640768743");
    sym_expect("ceiling(exp(pi*sqrt(163)))", "262537412640768744");
    sym_expect("floor(-exp(pi*sqrt(163)))", "-262537412640768744");
    sym_expect("floor(10**20*pi)", "314159265358979323846");
    sym_expect("ceiling(log(2)/log(3)*10**30)", "630929753571457437099527114343");
    sym_expect("floor(sqrt(10**40 + 1))", "100000000000000000000");
    sym_expect("floor(2.0)", "2");
    sym_expect("floor(-7/2)", "-4");
    sym_expect("floor(x + 1)", "floor(x + 1)");
    sym_expect("floor(pi + I)", "floor(pi + I)"); /* not real: not ours to decide */
}

/* 1000**x = 10**(3*x + 1) has no solution; giac's logarithms divided by
 * the coefficient 3*log(10) - log(1000) = 0 and the answer was x = zoo */
static void test_infinite_root_of_no_solution(void) {
    const char *eqs[] = {"1000**x = 10**(3*x + 1)", "4**x = 2**(2*x + 1)", "8**x - 2**(3*x + 1)"};
    for (size_t i = 0; i < sizeof eqs / sizeof *eqs; i++) {
        json_t *r = sym_solve(eqs[i]);
        CHECK(json_is_true(json_object_get(r, "ok")));
        CHECK_INTEQ(json_array_size(json_object_get(r, "solutions")), 0);
        json_decref(r);
    }
}

/* 10**(3*x) = 10000 and exp(a*x) = b had no general_solution: giac reads
 * the first as (10**x)**3, and a coefficient holding a parameter was
 * refused */
static void test_exponential_general_solution_gaps(void) {
    json_t *r = sym_solve("10**(3*x) = 10000");
    CHECK_STREQ(sym_general(r, 0), "2*I*pi*k/(3*log(10)) + 4/3");
    json_decref(r);
    r = sym_solve("exp(a*x) = b");
    CHECK_STREQ(sym_general(r, 0), "2*I*pi*k/a + log(b)/a");
    json_decref(r);
    r = sym_solve("a**x = b");
    CHECK_STREQ(sym_general(r, 0), "2*I*pi*k/log(a) + log(b)/log(a)");
    json_decref(r);
}

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* simplify ran giac's trigsimplify on the input and on simplify's tan(x/2)
 * form (seconds each, both given back unchanged) before trying cancel,
 * which finds cos(x) + tan(x) at once. The quick rewritings now come
 * first: the answer is the short form whatever the budget allows. */
static void test_simplify_quick_rewrites_first(void) {
    json_t *args = json_pack("{s:s}", "expr",
                             "(cos(x)**2 + 2*cos(x)*tan(x) + tan(x)**2)/(cos(x) + tan(x))");
    double t0 = cpu_seconds();
    json_t *r = cc_tool_simplify_expression(args, NULL);
    fprintf(stderr, "  simplify: %.2f s of CPU\n", cpu_seconds() - t0);
    CHECK_STREQ(sym_str(r, "simplified"), "cos(x) + tan(x)");
    json_decref(r);
    json_decref(args);
}

/* floor_at_rounded_integer_refuted_identity: the numeric check floored
 * a 128-bit 0.999... that is exactly 1, found a "mismatch" and answered
 * identical: false, with a counterexample, for identities that hold */
static void test_floor_at_rounded_integer_refuted_identity(void) {
    static const char *const holds[][2] = {
        {"floor(sin(x)**2 + cos(x)**2)", "1"},
        {"ceiling(sin(x)**2 + cos(x)**2)", "1"},
        {"floor(exp(log(x)))", "floor(x)"},
        {"floor(2*sin(x)*cos(x)/sin(2*x))", "1"},
        {"Mod(x, 1)", "x - floor(x)"},
        {"sign(sin(x)**2 + cos(x)**2 - 1)", "0"}, /* 1 at x = -1 + 4*I: a rounding's sign */
    };
    for (size_t i = 0; i < sizeof holds / sizeof holds[0]; i++) {
        json_t *r = sym_equiv(holds[i][0], holds[i][1]);
        if (!json_is_true(json_object_get(r, "identical")))
            fprintf(stderr, "  %s vs %s: identical is not true\n", holds[i][0], holds[i][1]);
        CHECK(json_is_true(json_object_get(r, "identical")));
        CHECK(json_object_get(r, "counterexample") == NULL);
        json_decref(r);
    }
    /* real counterexamples still refute */
    static const char *const fails[][2] = {
        {"floor(x) + floor(-x)", "-1"}, /* 0 at an integer */
        {"floor(x)", "x"},
        {"floor(sqrt(x**2))", "floor(abs(x))"}, /* x = I */
        {"sign(exp(x))", "1"},                  /* x = I */
    };
    for (size_t i = 0; i < sizeof fails / sizeof fails[0]; i++) {
        json_t *r = sym_equiv(fails[i][0], fails[i][1]);
        CHECK(json_is_false(json_object_get(r, "identical")));
        CHECK(json_object_get(r, "counterexample") != NULL);
        json_decref(r);
    }
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_integer_sequences_were_unknown);
    RUN(test_incomplete_gamma_family_was_unknown);
    RUN(test_complex_digamma_and_ei);
    RUN(test_floor_of_exact_constants);
    RUN(test_infinite_root_of_no_solution);
    RUN(test_exponential_general_solution_gaps);
    RUN(test_simplify_quick_rewrites_first);
    RUN(test_floor_at_rounded_integer_refuted_identity);
    return check_summary("sym_redsym4");
}
