/* Regression tests: an irreducible cubic with rational coefficients was
 * answered with three floats flagged approximate ("numeric roots: no
 * closed form was found"). With three real roots (casus irreducibilis: no
 * real radical form) they are exact in Viete's trigonometric form, with
 * one in Cardano's radicals; values are asserted against SymPy 1.12's
 * roots (the forms differ: SymPy's are radicals of complex numbers). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

/* solve_expression(expr): exactly the printed roots want[0..2], exact (no
 * approximate flag) */
static void expect_roots(const char *expr, const char *const want[3]) {
    json_t *r = sym_solve(expr);
    json_t *sol = json_object_get(r, "solutions");
    CHECK_INTEQ((long long)json_array_size(sol), 3);
    for (size_t i = 0; i < 3; i++) {
        const char *got = json_string_value(json_array_get(sol, i));
        if (!got || strcmp(got, want[i]))
            fprintf(stderr, "  %s root %zu: got %s, want %s\n", expr, i, got ? got : "(none)", want[i]);
        CHECK_STREQ(got, want[i]);
    }
    CHECK(json_object_get(r, "approximate") == NULL);
    json_decref(r);
}

static void test_casus_irreducibilis_was_approximate(void) {
    /* SymPy: -1.87938524157182, 0.347296355333861, 1.53208888623796 */
    static const char *const a[3] = {"-2*cos(pi/9)", "2*cos(4*pi/9)", "2*cos(2*pi/9)"};
    expect_roots("x**3 - 3*x + 1", a);
    static const char *const b[3] = {"-cos(2*pi/9)", "-cos(4*pi/9)", "cos(pi/9)"};
    expect_roots("8*x**3 - 6*x - 1 = 0", b);
    /* SymPy: -3.04891733952231, 1.35689586789221, 1.69202147163010 */
    static const char *const c[3] = {"2*sqrt(21)*cos(-4*pi/3 + acos(-3*sqrt(21)/14)/3)/3",
                                     "2*sqrt(21)*cos(-2*pi/3 + acos(-3*sqrt(21)/14)/3)/3",
                                     "2*sqrt(21)*cos(acos(-3*sqrt(21)/14)/3)/3"};
    expect_roots("x**3 - 7*x + 7", c);
    /* SymPy: -0.801937735804838, 0.554958132087371, 2.24697960371747 */
    static const char *const d[3] = {"2/3 + 2*sqrt(7)*cos(-4*pi/3 + acos(sqrt(7)/14)/3)/3",
                                     "2/3 + 2*sqrt(7)*cos(-2*pi/3 + acos(sqrt(7)/14)/3)/3",
                                     "2/3 + 2*sqrt(7)*cos(acos(sqrt(7)/14)/3)/3"};
    expect_roots("x**3 - 2*x**2 - x + 1", d);
}

/* one real root: giac's complex solve gave floats too; Cardano's formula
 * with real cube roots (SymPy: 1.32471795724475, -0.662358978622373 -+
 * 0.562279512062301*I) */
static void test_cubic_with_one_real_root_was_approximate(void) {
    static const char *const a[3] = {
        "(1/2 + sqrt(69)/18)**(1/3) + (1/2 - sqrt(69)/18)**(1/3)",
        "-(1/2 + sqrt(69)/18)**(1/3)/2 - (1/2 - sqrt(69)/18)**(1/3)/2 - "
        "sqrt(3)*I*((1/2 + sqrt(69)/18)**(1/3) - (1/2 - sqrt(69)/18)**(1/3))/2",
        "-(1/2 + sqrt(69)/18)**(1/3)/2 - (1/2 - sqrt(69)/18)**(1/3)/2 + "
        "sqrt(3)*I*((1/2 + sqrt(69)/18)**(1/3) - (1/2 - sqrt(69)/18)**(1/3))/2"};
    expect_roots("x**3 - x - 1", a);
    json_t *r = sym_eval(a[0]);
    CHECK_STREQ(sym_str(r, "value"), "1.32471795724");
    json_decref(r);
    r = sym_eval(a[2]);
    CHECK_STREQ(sym_str(r, "value"), "-0.662358978622 + 0.562279512062*I");
    json_decref(r);
    /* a negative radicand takes the real cube root: x**3 + x + 1 = 0 at
     * -0.682327803828019 (SymPy) */
    r = sym_solve("x**3 + x + 1");
    json_t *v = sym_eval(json_string_value(json_array_get(json_object_get(r, "solutions"), 0)));
    CHECK_STREQ(sym_str(v, "value"), "-0.682327803828");
    json_decref(v);
    json_decref(r);
}

/* the values, through evaluate_expression, are SymPy's roots */
static void test_trigonometric_roots_are_the_roots(void) {
    json_t *r = sym_eval("2*sqrt(21)*cos(-4*pi/3 + acos(-3*sqrt(21)/14)/3)/3");
    CHECK_STREQ(sym_str(r, "value"), "-3.04891733952");
    json_decref(r);
    r = sym_eval("2/3 + 2*sqrt(7)*cos(-2*pi/3 + acos(sqrt(7)/14)/3)/3");
    CHECK_STREQ(sym_str(r, "value"), "0.554958132087");
    json_decref(r);
}

/* unchanged: a float equation keeps float roots; a cubic with one real
 * root, and a factor beside the cubic, keep their forms */
static void test_other_cubics_unchanged(void) {
    json_t *r = sym_solve("x**3 - 3*x + 1.0");
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "solutions"), 0)), "-1.87938524157182");
    json_decref(r);
    r = sym_solve("(x**3 - 3*x + 1)*(x**2 - 2)");
    json_t *sol = json_object_get(r, "solutions");
    CHECK_INTEQ((long long)json_array_size(sol), 5);
    CHECK_STREQ(json_string_value(json_array_get(sol, 0)), "-2*cos(pi/9)");
    CHECK_STREQ(json_string_value(json_array_get(sol, 1)), "-sqrt(2)");
    json_decref(r);
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_casus_irreducibilis_was_approximate);
    RUN(test_cubic_with_one_real_root_was_approximate);
    RUN(test_trigonometric_roots_are_the_roots);
    RUN(test_other_cubics_unchanged);
    return check_summary("test_sym_casus_irreducibilis");
}
