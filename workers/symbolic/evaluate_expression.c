/* evaluate_expression (TOOLS.md 3.3.22): evaluate a symbolic expression and
 * report its printed, simplified and expanded forms, its kind and, for a
 * number, a 12-digit approximation. */
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/tool_api.h"
#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_measure.h"
#include "workers/symbolic/sym_trig.h"
#include "workers/symbolic/sym_nanswer.h"
#include "workers/symbolic/sym_numeric.h"
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_tools.h"
#include "workers/symbolic/sym_profile.h"

static const char *num_kind(const struct sym_node *t) {
    if (sym_is_int_value(t, 0)) return "Zero";
    if (sym_is_int_value(t, 1)) return "One";
    if (sym_is_int_value(t, -1)) return "NegativeOne";
    if (mpz_cmp_ui(mpq_denref(t->q), 1) == 0) return "Integer";
    if (mpz_cmp_ui(mpq_denref(t->q), 2) == 0 && mpz_cmp_ui(mpq_numref(t->q), 1) == 0)
        return "Half";
    return "Rational";
}

/* sympy's class name for the top node of t. */
static const char *kind_name(const struct sym_node *t) {
    static const char *const consts[] = {"Pi", "Exp1", "ImaginaryUnit", "Infinity",
                                         "NegativeInfinity", "ComplexInfinity", "NaN"};
    static const char *const rels[] = {"Equality", "Unequality", "StrictLessThan",
                                       "LessThan", "StrictGreaterThan", "GreaterThan"};
    switch (t->kind) {
    case SYM_NUM: return num_kind(t);
    case SYM_FLOAT: return "Float";
    case SYM_SYMBOL: return strcmp(t->name, "EulerGamma") ? "Symbol" : "EulerGamma";
    case SYM_CONST: return consts[t->ival];
    case SYM_ADD: return "Add";
    case SYM_MUL: return "Mul";
    case SYM_POW: return "Pow";
    case SYM_FUNC: return t->name;
    case SYM_REL: return rels[t->ival];
    case SYM_BOOL: return t->ival ? "BooleanTrue" : "BooleanFalse";
    case SYM_LIST: return "list";
    case SYM_TUPLE: return "tuple";
    case SYM_DICT: return "dict";
    }
    return "Expr";
}

/* Functions whose result sympy hands back as a plain Python int. */
static bool returns_plain_int(const char *expr) {
    static const char *const names[] = {"nextprime(", "prevprime(", "prime("};
    while (*expr == ' ')
        expr++;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strncmp(expr, names[i], strlen(names[i])))
            return true;
    return false;
}

static json_t *plain_result(const char *printed, const char *type) {
    return json_pack("{s:b, s:s, s:s, s:s, s:s}", "ok", 1, "expression", printed,
                     "simplified", printed, "type", type, "value", printed);
}

/* Adds "<key>": printed(op(g)) when op succeeds; silently skips otherwise.
 * A form that turned an exact expression into floats (giac evaluates some
 * special functions numerically as it simplifies) is not a simplification:
 * the exact text stays; likewise a form that disagrees with the value at
 * complex points. */
static void add_form(json_t *out, const char *key, enum cc_giac_op op, cc_gexpr *g,
                     const char *exact, struct sym_agree_memo *agree) {
    struct cc_sym_err se;
    cc_gexpr *r = cc_giac_apply(op, &g, 1, &se);
    if (!r)
        return;
    json_t *err = NULL;
    /* a form that is the value itself prints as the value did (exact; giac's
     * == of floats may hold across precisions that print differently) */
    json_t *s = !strchr(exact, '.') && cc_giac_same(r, g) ? json_string(exact)
                                                          : sym_print_json(r, &err);
    cc_gexpr_free(r);
    if (s && strchr(json_string_value(s), '.') && !strchr(exact, '.')) {
        json_decref(s);
        s = json_string(exact);
    }
    /* nor is a form that holds for real values only (giac simplifies
     * sqrt(4*x**2) to 2*Abs(x)): it must agree with the value at complex
     * points */
    if (s && strcmp(json_string_value(s), exact) && !sym_agrees_memo(agree, json_string_value(s))) {
        json_decref(s);
        s = json_string(exact);
    }
    if (s)
        json_object_set_new(out, key, s);
    json_decref(err);
}

/* x, x**3 (a positive integer power of a symbol) */
static bool power_of_symbol(const struct sym_node *t) {
    if (t->kind == SYM_SYMBOL)
        return true;
    return t->kind == SYM_POW && t->kid[0]->kind == SYM_SYMBOL && t->kid[1]->kind == SYM_NUM &&
           mpz_cmp_ui(mpq_denref(t->kid[1]->q), 1) == 0 && mpq_sgn(t->kid[1]->q) > 0;
}

/* 3, x, -x**2*y/3: a rational coefficient times powers of symbols */
static bool monomial(const struct sym_node *t) {
    if (t->kind == SYM_NUM || power_of_symbol(t))
        return true;
    if (t->kind != SYM_MUL)
        return false;
    for (size_t i = 0; i < t->n; i++)
        if (!power_of_symbol(t->kid[i]) && !(i == 0 && t->kid[i]->kind == SYM_NUM))
            return false;
    return true;
}

/* Exact numbers, named constants and expanded polynomials are already in
 * canonical form: simplifying or expanding them gives back the same text,
 * so the two CAS passes (most of the cost of such an answer) are skipped. */
static bool canonical_atom(const struct sym_node *t) {
    if (t->kind == SYM_CONST || monomial(t))
        return true;
    if (t->kind != SYM_ADD)
        return false;
    for (size_t i = 0; i < t->n; i++)
        if (!monomial(t->kid[i]))
            return false;
    return true;
}

/* sqrt(n) of a square-free integer 2 <= n < 2**20: giac's value takes the
 * square factors out (sqrt(8) is 2*sqrt(2)), the bound keeps the check short */
static bool squarefree_root(const struct sym_node *t) {
    if (t->kind != SYM_POW || t->kid[0]->kind != SYM_NUM || t->kid[1]->kind != SYM_NUM ||
        mpz_cmp_ui(mpq_denref(t->kid[0]->q), 1) || mpz_cmp_ui(mpq_numref(t->kid[1]->q), 1) ||
        mpz_cmp_ui(mpq_denref(t->kid[1]->q), 2))
        return false;
    const mpz_srcptr n = mpq_numref(t->kid[0]->q);
    if (mpz_cmp_ui(n, 2) < 0 || mpz_cmp_ui(n, 1UL << 20) >= 0)
        return false;
    unsigned long v = mpz_get_ui(n);
    for (unsigned long p = 2; p * p <= v; p++)
        if (v % (p * p) == 0)
            return false;
    return true;
}

/* pi or E, to a positive integer power or to the power 1/2 (giac's
 * simplify writes pi**(-2) as 1/pi**2) */
static bool constant_power(const struct sym_node *t, int *which) {
    const struct sym_node *b = t->kind == SYM_POW ? t->kid[0] : t;
    if (b->kind != SYM_CONST || (b->ival != SYM_PI && b->ival != SYM_E))
        return false;
    *which = b->ival;
    if (t->kind != SYM_POW)
        return true;
    const struct sym_node *e = t->kid[1];
    return e->kind == SYM_NUM && mpq_sgn(e->q) > 0 &&
           (mpz_cmp_ui(mpq_denref(e->q), 1) == 0 ||
            (mpz_cmp_ui(mpq_denref(e->q), 2) == 0 && mpz_cmp_ui(mpq_numref(e->q), 1) == 0));
}

/* 3*pi/4, -sqrt(2)/2, pi**2/6, 3*sqrt(pi)/4, 1/E: a rational times at most
 * one power of pi, one of E and one square-free root (two roots would
 * merge, sqrt(2)*sqrt(3) into sqrt(6), as would two powers of pi). giac's
 * simplify and expand give such a value back unchanged; its simplify of a
 * root is costly (sqrt(2): 0.4 M instructions, NTL factoring x**2 - 2).
 * Locked by tests/crosscheck/fastpath.py (constant_form_cases). */
static bool constant_monomial(const struct sym_node *t) {
    if (!sym_fast_enabled())
        return false;
    struct sym_node *const *k = t->kind == SYM_MUL ? t->kid : (struct sym_node *const[]){(struct sym_node *)t};
    size_t n = t->kind == SYM_MUL ? t->n : 1;
    bool seen[2] = {false, false}, root = false;
    for (size_t i = 0; i < n; i++) {
        int which;
        if (i == 0 && n > 1 && k[i]->kind == SYM_NUM)
            continue;
        if (constant_power(k[i], &which) && !seen[which])
            seen[which] = true;
        else if (squarefree_root(k[i]) && !root)
            root = true;
        else
            return false;
    }
    return true;
}

/* Functions whose call on a positive monomial argument (x, 2*x, x**2*y/3)
 * giac's simplify and expand give back unchanged. Left out, as the CAS
 * path showed: exp of a negative argument (simplify writes 1/exp(x)),
 * sqrt (sqrt(2*x) splits), gamma and loggamma (factorial forms), erfc,
 * cot and the other reciprocal and inverse-reciprocal functions, asinh,
 * and the functions giac rewrites for real arguments (Abs, sign, floor,
 * re, im, arg: their forms are checked against the value and fall back). */
static bool plain_function_name(const char *name) {
    static const char *const names[] = {"sin",   "cos",   "tan",   "sinh", "cosh", "tanh",
                                        "asin",  "acos",  "atan",  "acosh", "atanh", "exp",
                                        "log",   "erf",   "Si",    "Ci",   "Ei",   "LambertW",
                                        "digamma", "zeta"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

/* x, 2*x, x**2*y/3: a positive rational times positive integer powers of
 * symbols */
static bool positive_monomial(const struct sym_node *t) {
    if (power_of_symbol(t))
        return true;
    if (t->kind != SYM_MUL || !monomial(t))
        return false;
    return t->kid[0]->kind != SYM_NUM || mpq_sgn(t->kid[0]->q) > 0;
}

/* sin(x), -cos(x)/2, x**2*exp(2*x)/3, y*log(x): a rational times powers of
 * symbols and one call of a plain_function_name on a positive monomial.
 * giac's simplify and expand give such a value back unchanged (0.1 to
 * 0.9 M instructions for the two passes on what integrate and diff
 * return), so they are skipped. Locked by tests/crosscheck/fastpath.py
 * (function_form_cases). */
static bool function_monomial(const struct sym_node *t) {
    if (!sym_fast_enabled())
        return false;
    struct sym_node *const *k = t->kind == SYM_MUL ? t->kid : (struct sym_node *const[]){(struct sym_node *)t};
    size_t n = t->kind == SYM_MUL ? t->n : 1;
    bool call = false;
    for (size_t i = 0; i < n; i++) {
        if ((i == 0 && n > 1 && k[i]->kind == SYM_NUM) || power_of_symbol(k[i]))
            continue;
        if (call || k[i]->kind != SYM_FUNC || k[i]->n != 1 || !plain_function_name(k[i]->name) ||
            !positive_monomial(k[i]->kid[0]))
            return false;
        call = true;
    }
    return call;
}

/* Structural equality (numbers by value) of the trees one_atom_sum
 * compares: numbers, symbols, constants, sums, products, powers, calls. */
static bool same_tree(const struct sym_node *a, const struct sym_node *b) {
    if (a->kind != b->kind || a->n != b->n)
        return false;
    switch (a->kind) {
    case SYM_NUM: return mpq_equal(a->q, b->q);
    case SYM_SYMBOL: return !strcmp(a->name, b->name);
    case SYM_CONST: return a->ival == b->ival;
    case SYM_FUNC:
        if (strcmp(a->name, b->name))
            return false;
        break;
    case SYM_ADD:
    case SYM_MUL:
    case SYM_POW: break;
    default: return false;
    }
    for (size_t i = 0; i < a->n; i++)
        if (!same_tree(a->kid[i], b->kid[i]))
            return false;
    return true;
}

/* The transcendental factor of a term of one_atom_sum: pi or E to a
 * positive integer power (its base), a square-free root, or one call of a
 * plain function other than sin, cos and tan (those take the
 * trigonometric forms) on a positive monomial. NULL when f is none. */
static const struct sym_node *sum_atom(const struct sym_node *f) {
    int which;
    if (constant_power(f, &which))
        return f->kind == SYM_POW && mpz_cmp_ui(mpq_denref(f->kid[1]->q), 1) == 0 ? f->kid[0] : f;
    if (squarefree_root(f))
        return f;
    if (f->kind == SYM_FUNC && f->n == 1 && plain_function_name(f->name) &&
        strcmp(f->name, "sin") && strcmp(f->name, "cos") && strcmp(f->name, "tan") &&
        positive_monomial(f->kid[0]))
        return f;
    return NULL;
}

/* A term of one_atom_sum: a rational times positive integer powers of
 * symbols and at most one transcendental factor, which must be *atom when
 * one was seen (set here otherwise). */
static bool atom_term(const struct sym_node *t, const struct sym_node **atom) {
    struct sym_node *const *k = t->kind == SYM_MUL ? t->kid : (struct sym_node *const[]){(struct sym_node *)t};
    size_t n = t->kind == SYM_MUL ? t->n : 1;
    bool own = false;
    for (size_t i = 0; i < n; i++) {
        if ((i == 0 && k[i]->kind == SYM_NUM) || power_of_symbol(k[i]))
            continue;
        const struct sym_node *a = sum_atom(k[i]);
        if (!a || own || (*atom && !same_tree(a, *atom)))
            return false;
        *atom = a;
        own = true;
    }
    return true;
}

/* 1 + sqrt(2), 2*E - 2, pi**2 + pi, x*exp(x) - exp(x), x**2*log(x)/2 -
 * x**2/4: an expanded polynomial, with rational coefficients, in symbols
 * and one transcendental (sum_atom). giac's simplify of such a value is
 * its normal form, the same polynomial (possibly in another order, which
 * the simplified form's rule does not take: it is not smaller), and expand
 * gives it back (0.3 to 0.6 M instructions for the two passes on what
 * integrate and diff return). Locked by tests/crosscheck/fastpath.py
 * (atom_sum_cases). */
static bool one_atom_sum(const struct sym_node *t) {
    if (!sym_fast_enabled() || t->kind != SYM_ADD)
        return false;
    const struct sym_node *atom = NULL;
    for (size_t i = 0; i < t->n; i++)
        if (!atom_term(t->kid[i], &atom))
            return false;
    return atom != NULL;
}

/* 1 + x + x**2/2 + O(x**3): a truncated series, a sum holding its order
 * term (giac_shim.cc order_term). giac's simplify and expand give it back
 * unchanged (series(atan(x), x, 0, 6): 1.4 M instructions for the two
 * passes). Locked by tests/crosscheck/fastpath.py (series_cases). */
static bool series_value(const struct sym_node *t) {
    if (!sym_fast_enabled() || t->kind != SYM_ADD)
        return false;
    for (size_t i = 0; i < t->n; i++)
        if (t->kid[i]->kind == SYM_FUNC && !strcmp(t->kid[i]->name, "O"))
            return true;
    return false;
}

/* A result longer than this is not simplified or expanded again: giac's
 * simplify of a large closed form can run past the time limit (the
 * 700-character value of integrate(sqrt(x + 3)/(x**2 + 2), (x, 0, pi))
 * took over 15 s, and the answer was lost to a timeout). */
#define SYM_FORMS_MAX_CHARS 400

/* A candidate for the simplified form: its print and measure. */
struct form {
    char *text; /* NULL: the value as printed */
    long ops;
};

/* Keeps r (a form of the value g, which prints as exact) in *best when it
 * agrees with the value at complex points and is smaller: fewer
 * operations (sym_count_ops) than the value, or as many and no longer;
 * fewer, or as many and shorter, than another form. Takes r. A
 * form that turned an exact value into floats (giac evaluates some special
 * functions numerically as it simplifies) is not a simplification, nor is
 * the value itself (giac's == of floats may hold across precisions that
 * print differently: only exact text stands). */
static void consider_form(struct form *best, cc_gexpr *r, cc_gexpr *g, const char *exact,
                          struct sym_agree_memo *agree) {
    struct cc_sym_err se = {0};
    struct sym_node *t = r && !(!strchr(exact, '.') && cc_giac_same(r, g)) ? cc_giac_tree(r, &se)
                                                                          : NULL;
    cc_gexpr_free(r);
    char *text = t ? sym_print(t) : NULL;
    long ops = t ? sym_count_ops(t) : 0;
    sym_free(t);
    if (text && !strcmp(text, exact)) { /* the value, as it prints */
        free(text);
        return;
    }
    /* as many operations: no longer than the value, shorter than a form */
    size_t now = strlen(best->text ? best->text : exact);
    bool smaller = text && (ops < best->ops || (ops == best->ops && (best->text ? strlen(text) < now
                                                                               : strlen(text) <= now)));
    if (smaller && !(strchr(text, '.') && !strchr(exact, '.')) && sym_agrees_memo(agree, text)) {
        free(best->text);
        best->text = text;
        best->ops = ops;
        return;
    }
    free(text);
}

/* The simplified form: the smallest of the value and its rewritings that
 * agrees with the value, never larger than the value (giac's simplify
 * expands factored results: 6*x*(x**2 + 1)**2, exp(x)*(x - 1)).
 * A trigonometric value is not given to giac's simplify: it rewrites sin
 * and cos through tan(x/2) (1.6 ms for x*cos(x) + sin(x), 3.2 ms for
 * cos(x)*exp(x) - exp(x)*sin(x)) and the fraction it builds is larger than
 * the value for 63 of the 68 trigonometric results of the cross-check
 * corpora; linearisation (tlin) and the normal form find the reductions
 * that matter (sin(x)**2 + cos(x)**2 is 1, cos(x)**2 - sin(x)**2 is
 * cos(2*x), -cos(pi*a)/a + 1/a is (1 - cos(pi*a))/a) in tens of
 * microseconds. docs/contract.md, "evaluate_expression: a simplified form
 * is never larger than the expression". */
static void add_simplified(json_t *out, const struct sym_node *t, const char *printed,
                           cc_gexpr *g, struct sym_agree_memo *agree) {
    struct form best = {NULL, sym_count_ops(t)};
    struct cc_sym_err se = {0};
    if (sym_calls_trig(printed)) {
        if (sym_calls_sin_cos_only(printed))
            consider_form(&best, cc_giac_rewrite(CC_RW_TLIN, g, &se), g, printed, agree);
        consider_form(&best, cc_giac_rewrite(CC_RW_RATNORMAL, g, &se), g, printed, agree);
    } else {
        consider_form(&best, cc_giac_apply(CC_G_SIMPLIFY, &g, 1, &se), g, printed, agree);
    }
    json_object_set_new(out, "simplified", json_string(best.text ? best.text : printed));
    free(best.text);
}

/* The simplified and expanded forms of a symbolic result. */
static void add_forms(json_t *out, const struct sym_node *t, const char *printed, cc_gexpr *g) {
    /* giac's passes would give these back unchanged: fast answers */
    bool unchanged = !canonical_atom(t) && (constant_monomial(t) || function_monomial(t) ||
                                                series_value(t) || one_atom_sum(t));
    if (unchanged)
        sym_prof_mark_fast(); /* fastpath.py counts the answers it gave */
    bool atom = canonical_atom(t) || unchanged || strlen(printed) > SYM_FORMS_MAX_CHARS;
    /* the two forms are checked against the value as printed: one that
     * prints as the other is checked once */
    struct sym_agree_memo agree;
    sym_agree_memo_init_text(&agree, printed);
    if (!atom)
        add_simplified(out, t, printed, g, &agree);
    else
        json_object_set_new(out, "simplified", json_string(printed));
    if (!atom)
        add_form(out, "expanded", CC_G_EXPAND, g, printed, &agree);
    else
        json_object_set_new(out, "expanded", json_string(printed));
    sym_agree_memo_clear(&agree);
}

/* A rational's value to 40 digits, without the CAS. */
static char *rational_decimal(const mpq_t q) {
    mpfr_t x;
    mpfr_init2(x, 160);
    mpfr_set_q(x, q, MPFR_RNDN);
    char *s = NULL;
    if (mpfr_asprintf(&s, "%.40Re", x) < 0)
        s = NULL;
    mpfr_clear(x);
    return s;
}

/* root: the input's tree when it may be a constant our evaluator values
 * (sym_n_value), else NULL */
static void add_value(json_t *out, const struct sym_node *t, cc_gexpr *g,
                      const struct cc_node *root) {
    char *re = NULL, *im = NULL, *v = NULL;
    if (t->kind == SYM_NUM) {
        if (sym_fast_enabled() && mpz_cmp_ui(mpq_denref(t->q), 1) == 0 &&
            mpz_sizeinbase(mpq_numref(t->q), 2) <= 132) {
            v = sym_integer_value(mpq_numref(t->q));
        } else {
            char *d = rational_decimal(t->q);
            v = d ? sym_numeric_value(d, NULL, mpq_sgn(t->q) == 0) : NULL;
            mpfr_free_str(d);
        }
        if (v)
            json_object_set_new(out, "value", json_string(v));
        free(v);
        return;
    }
    if (!g || !cc_giac_is_number(g)) /* no CAS value: a fast-path polynomial */
        return;
    enum sym_nv_rc why = SYM_NV_DECLINE;
    if (root && sym_n_value(root, out, &why))
        return;
    struct cc_sym_err se;
    if (cc_giac_approx(g, 30, &re, &im, &se) == 0)
        v = sym_numeric_value(re, im, false);
    const char *gap = !v || strcmp(v, "0.0") ? NULL
                      : why == SYM_NV_RANGE ? "no value: its magnitude, or a step of its evaluation, is below "
                                              "10**-39456, and the CAS's approximation 0.0 is not its value"
                      : why == SYM_NV_UNRESOLVED ? "no value: its digits did not settle at 32768 bits (it may be "
                                                   "0, or nonzero below 2**-32768), so the CAS's approximation "
                                                   "0.0 is not given as its value"
                                                 : NULL;
    if (gap) {
        /* erfc(5000), 1 - erf(26000) and exp(-10**10) are positive;
         * giac's evalf answered 0.0 (the difference cancels, the power
         * underflows): a wrong number, so none is given */
        json_object_set_new(out, "note", json_string(gap));
    } else if (v) {
        json_object_set_new(out, "value", json_string(v));
    }
    free(re);
    free(im);
    free(v);
}

/* The result for t, the value of text; g is its CAS value, or NULL when t
 * came from a fast path (then t is a number or an expanded polynomial, for
 * which neither the forms nor the value need the CAS). Takes t. */
static json_t *describe(const char *text, struct sym_node *t, cc_gexpr *g,
                        const struct cc_node *root) {
    char *printed = sym_print(t);
    json_t *out = NULL;
    if (!printed) {
        out = cc_err("resource_exhausted",
                     "expression exceeded a resource limit while evaluating: out of memory");
    } else if (t->kind == SYM_LIST || t->kind == SYM_DICT || t->kind == SYM_TUPLE) {
        out = plain_result(printed, kind_name(t));
    } else if (t->kind == SYM_BOOL && strstr(text, "isprime")) {
        out = plain_result(printed, "bool");
    } else if (t->kind == SYM_NUM && returns_plain_int(text)) {
        out = plain_result(printed, "int");
    } else {
        out = json_pack("{s:b, s:s, s:s}", "ok", 1, "expression", printed, "type", kind_name(t));
        if (out) {
            add_forms(out, t, printed, g);
            add_value(out, t, g, root);
        }
    }
    free(printed);
    sym_free(t);
    return out;
}

/* A float answer to an input written without a float (giac evaluates some
 * definite integrals by quadrature: integrate(exp(x**2), (x, 0, 1)) is
 * 1.46265174590717) is a value, not the exact answer: it says so, as
 * solve_expression's numeric roots do. */
/* root: the parsed input; a float literal without a point (1e308*10) is a
 * float the caller wrote, as 1.5 is */
static void flag_approximate(const char *text, const struct cc_node *root, json_t *out) {
    const char *type = json_string_value(json_object_get(out, "type"));
    if (!type || strcmp(type, "Float") || cc_node_any(root, cc_node_is_float) ||
        strstr(text, "N(") || strstr(text, "evalf"))
        return;
    json_object_set_new(out, "approximate", json_true());
    if (!json_object_get(out, "note"))
        json_object_set_new(out, "note",
                            json_string("a numeric value: the CAS found no closed form and "
                                        "evaluated the input numerically (about 15 significant "
                                        "digits)"));
}

/* A float value of a constant written with float literals is our
 * evaluator's, correctly rounded (sym_float_answer), not giac's evalf. An
 * exact answer (floor(-3.5) is -4) stands. */
static void replace_float_value(json_t **out, const struct cc_node *root) {
    const char *type = json_string_value(json_object_get(*out, "type"));
    if (!type || (strcmp(type, "Float") && strcmp(type, "Add") && strcmp(type, "Mul")))
        return;
    const char *e = json_string_value(json_object_get(*out, "expression"));
    if (!e || !strchr(e, '.'))
        return;
    json_t *mine = sym_float_answer(root);
    if (!mine)
        return;
    json_decref(*out);
    *out = mine;
}

/* An infinite or undefined answer to a constant written with floats, where
 * our evaluator finds a finite value: giac's zero test took a float
 * expression that cancels in binary64 for 0, and 1/(sin(1e-20) - 1e-20)
 * was zoo and log(sin(1e-20) - 1e-20) was -oo (the literals' values
 * differ by -1.7e-61: -6e60 and -139.6 + pi*I). Our evaluator declines a
 * true 0 (1/(1e-20 - 1e-20) stays zoo). */
static void replace_float_infinity(json_t **out, const struct cc_node *root) {
    const char *type = json_string_value(json_object_get(*out, "type"));
    if (!type || (strcmp(type, "ComplexInfinity") && strcmp(type, "Infinity") &&
                  strcmp(type, "NegativeInfinity") && strcmp(type, "NaN")))
        return;
    json_t *mine = sym_float_answer(root);
    if (!mine)
        return;
    json_decref(*out);
    *out = mine;
}

/* giac gave no tree: for a constant written with floats whose binary64
 * evaluation is nan or inf (asin(2.0), acosh(0.5), exp(1000.0)), our
 * evaluator's value is the answer (1.5707963267949 - 1.31695789692482*I,
 * as SymPy); otherwise giac's error. */
static json_t *no_tree(const struct cc_sym_err *se, const struct cc_node *root) {
    json_t *mine = sym_float_answer(root);
    return mine ? mine : sym_err_json(se, "");
}

static json_t *evaluate_expression_handler(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *text = sym_arg_str(args, "expression", NULL, &err);
    if (!text)
        return err;
    struct sym_expr in;
    if (sym_parse_expr(text, strlen(text), "", &in, &err) < 0)
        return err;
    /* N(constant): our own evaluator, correctly rounded (sym_nval.h) */
    json_t *numeric = sym_n_answer(in.root);
    if (numeric) {
        free(cc_giac_take_note());
        sym_expr_free(&in);
        return numeric;
    }
    struct sym_node *fast = sym_fast_enabled() ? sym_fast_value(in.root) : NULL;
    if (fast) {
        /* no CAS value, and a polynomial has no branch cut for giac to
         * rewrite across (sym_real_rewrite has nothing to say); building
         * one would have dropped a note an earlier call left unread */
        free(cc_giac_take_note());
        json_t *out = describe(text, fast, NULL, NULL);
        sym_expr_free(&in);
        return out;
    }
    if (sym_build_expr(&in, "", &err) < 0)
        return err;
    char *note = cc_giac_take_note();
    struct cc_sym_err se = {0};
    struct sym_node *t = cc_giac_tree(in.g, &se);
    json_t *out = t ? describe(text, t, in.g, in.root) : no_tree(&se, in.root);
    /* in.g as printed (describe's "expression"), for sym_real_rewrite's
     * checks to read rather than print it again */
    const char *shown = json_string_value(json_object_get(out, "expression"));
    char *printed = shown ? strdup(shown) : NULL;
    replace_float_value(&out, in.root);
    replace_float_infinity(&out, in.root);
    if (note && json_is_true(json_object_get(out, "ok"))) {
        /* after describe's own note (why no value is given), not over it */
        const char *had = json_string_value(json_object_get(out, "note"));
        json_object_set_new(out, "note", had ? json_sprintf("%s; %s", note, had) : json_string(note));
    }
    free(note);
    flag_approximate(text, in.root, out);
    if (json_is_true(json_object_get(out, "ok")) && json_object_get(out, "expanded")) {
        /* a real-only rewrite by giac: the answer is the input as written */
        struct sym_node *w = sym_real_rewrite_printed(&in, printed, out);
        char *wtext = w ? sym_print(w) : NULL;
        if (wtext) {
            json_object_set_new(out, "expression", json_string(wtext));
            json_object_set_new(out, "simplified", json_string(wtext));
            json_object_set_new(out, "expanded", json_string(wtext));
            json_object_set_new(out, "type", json_string(kind_name(w)));
        }
        free(wtext);
        sym_free(w);
    }
    free(printed);
    sym_expr_free(&in);
    return out;
}

SYM_PROFILED_TOOL(evaluate_expression, evaluate_expression_handler)
