/* Shared front half of the CAS tools (see sym_input.h). */
#include "workers/symbolic/sym_input.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_parse.h"
#include "workers/common/tool_api.h"
#include "workers/symbolic/sym_derivcheck.h"
#include "workers/symbolic/sym_float.h"
#include "workers/symbolic/sym_numeric.h"
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_numcheck.h"
#include "workers/symbolic/sym_magnitude.h"
#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_nval.h"
#include "workers/symbolic/sym_profile.h"
#include "workers/symbolic/sym_written.h"

/* The name before the first keyword argument (name=value inside a call's
 * parentheses; not ==, <=, >=, !=) of text, its length in *n; NULL when
 * there is none (x = 2 at the top level is an equation). */
static const char *keyword_argument(const char *text, size_t len, int *n) {
    int depth = 0;
    for (size_t i = 1; i + 1 < len; i++) {
        depth += (text[i] == '(') - (text[i] == ')');
        if (depth <= 0 || text[i] != '=' || text[i + 1] == '=' || strchr("=<>!", text[i - 1]))
            continue;
        size_t end = i;
        while (end > 0 && text[end - 1] == ' ')
            end--;
        size_t start = end;
        while (start > 0 && (isalnum((unsigned char)text[start - 1]) || text[start - 1] == '_'))
            start--;
        if (start < end && !isdigit((unsigned char)text[start])) {
            *n = (int)(end - start);
            return text + start;
        }
    }
    return NULL;
}

/* The parser's error, or for two SymPy forms an agent writes and the
 * language lacks, an error that says what to write instead: Piecewise
 * (an unknown function to the parser, whose hint was to write a product)
 * and keyword arguments such as factor(p, extension=sqrt(2)) ('=' is
 * refused as permission_denied, "will not succeed on retry"). */
static json_t *expr_err(const struct cc_expr_error *e, const char *prefix, const char *text,
                        size_t len) {
    int n = 0;
    const char *kw = NULL;
    if (strstr(e->message, "unknown function 'Piecewise'"))
        return cc_err("validation",
                      "%sPiecewise is not supported: write the pieces with Heaviside (Piecewise((f, "
                      "x > c), (g, True)) is f*Heaviside(x - c) + g*Heaviside(c - x)), or with "
                      "Abs, sign, Max or Min, or evaluate each piece in its own call",
                      prefix);
    if (!strncmp(e->message, "'=' is not permitted", 20) &&
        (kw = keyword_argument(text, len, &n)) != NULL)
        return cc_err("validation",
                      "%skeyword arguments (%.*s=...) are not supported: every function takes "
                      "positional arguments only%s",
                      prefix, n, kw,
                      n == 9 && !strncmp(kw, "extension", 9)
                          ? "; factor() factors over the rationals, and solve_expression gives "
                            "the roots (x**2 - 2: -sqrt(2), sqrt(2)) from which the factors over "
                            "an extension are built"
                          : "");
    return cc_err(e->code ? e->code : "internal", "%s%s", prefix, e->message);
}

int sym_parse_expr(const char *text, size_t len, const char *prefix, struct sym_expr *e,
                   json_t **err) {
    struct cc_expr_error ee = {0};
    memset(e, 0, sizeof *e);
    e->arena = cc_arena_new();
    if (!e->arena) {
        *err = cc_err("resource_exhausted", "%sexpression exhausted the memory ceiling", prefix);
        return -1;
    }
    enum sym_phase prev = sym_prof_enter(SYM_PH_PARSE);
    struct cc_node *root = cc_expr_screen_parse(e->arena, text, len, CC_DIALECT_SYMBOLIC, &ee);
    bool shaped = root && cc_expr_shape_check(root, &ee) == 0;
    sym_prof_leave(prev);
    if (shaped) {
        e->root = root;
        return 0;
    }
    *err = expr_err(&ee, prefix, text, len);
    sym_expr_free(e);
    return -1;
}

int sym_build_expr(struct sym_expr *e, const char *prefix, json_t **err) {
    struct cc_sym_err se = {0};
    e->g = cc_giac_from_ast(e->root, &se);
    if (e->g)
        return 0;
    *err = sym_err_json(&se, prefix);
    sym_expr_free(e);
    return -1;
}

int sym_input_expr(const char *text, size_t len, const char *prefix, struct sym_expr *e,
                   json_t **err) {
    if (sym_parse_expr(text, len, prefix, e, err) < 0)
        return -1;
    return sym_build_expr(e, prefix, err);
}

void sym_expr_free(struct sym_expr *e) {
    cc_gexpr_free(e->g);
    cc_arena_free(e->arena);
    memset(e, 0, sizeof *e);
}

/* Points of the agreement check of a rewritten form (of an input without
 * branch cuts). */
#define AGREE_POINTS 16
#define AGREE_POINTS_ENTIRE 4
#define GAP_POINTS 3
/* A float's own rounding moves a form by about 2^-53 of the float; a gap
 * this close to the smallest float written is that float, dropped ... */
#define DROPPED_FLOAT_SHARE_EXP (-30)
/* ... unless it is the rounding of the value itself (a 15-digit print of
 * 1/1e-13 is 3e-4 off, 3e-17 of the value): a lost term is far below it. */
#define DROPPED_VALUE_SHARE_EXP (-60)

/* n names nan or zoo */
static bool undefined_name(const struct cc_node *n) {
    return n->kind == CC_N_NAME && (!strcmp(n->v.name, "nan") || !strcmp(n->v.name, "zoo"));
}

/* c is the constant 0 (0, 0.0) */
static bool zero_constant(const struct cc_node *c) {
    if (c->kind == CC_N_INT)
        return mpz_sgn(c->v.z) == 0;
    return c->kind == CC_N_FLOAT && c->v.f.d == 0 && !(c->flags & CC_NF_IMAG);
}

/* A form 0 of an input that is not 0: giac's factor of 1e-30*x is 0 (its
 * zero test calls the float 0), and the agreement check, which measures a
 * difference against max(1, |value|), let it stand. The input is valued at
 * three points and measured against its own size before cancellation
 * (sym_magnitude): sin(x)**2 + cos(x)**2 - 1 is rounding there, 1e-30*x is
 * all of its size. */
static bool zero_form_refuted(const struct cc_node *input) {
    static const double PTS[3][2] = {{0.7, 0.2}, {-1.3, 0.5}, {2.1, -0.4}};
    const char *names[8];
    size_t count = 0;
    sym_numeval_symbols(input, names, &count, 8);
    if (count == 8)
        return false;
    mpc_t vals[8], v;
    mpc_srcptr ptrs[8];
    mpfr_t size, abs;
    mpc_init2(v, SYM_NUM_BITS);
    mpfr_inits2(SYM_NUM_BITS, size, abs, (mpfr_ptr)0);
    for (size_t i = 0; i < count; i++) {
        mpc_init2(vals[i], SYM_NUM_BITS);
        ptrs[i] = vals[i];
    }
    bool refuted = false;
    for (size_t k = 0; k < 3 && !refuted; k++) {
        for (size_t i = 0; i < count; i++)
            mpc_set_d_d(vals[i], PTS[(k + i) % 3][0], PTS[(k + i) % 3][1], MPC_RNDNN);
        struct sym_point p = {count, names, ptrs};
        if (sym_numeval(input, &p, v) != 0 || !sym_magnitude(input, &p, size))
            continue;
        mpc_abs(abs, v, MPFR_RNDN);
        mpfr_mul_d(size, size, 1e-25, MPFR_RNDN);
        refuted = mpfr_cmp(abs, size) > 0;
    }
    for (size_t i = 0; i < count; i++)
        mpc_clear(vals[i]);
    mpc_clear(v);
    mpfr_clears(size, abs, (mpfr_ptr)0);
    return refuted;
}

/* The smallest nonzero |float literal| in n; HUGE_VAL when it has none. */
static double smallest_float(const struct cc_node *n) {
    double m = n->kind == CC_N_FLOAT && n->v.f.d != 0 ? fabs(n->v.f.d) : HUGE_VAL;
    for (uint32_t i = 0; i < n->nchild; i++)
        if (n->child[i])
            m = fmin(m, smallest_float(n->child[i]));
    return m;
}

/* A form that lost a float term of the input too small for the check to
 * see (giac's simplify, within its float tolerance, read sin(x) - 5e-33
 * as sin(x), which is wrong by half near x = 1e-32): a difference seen at
 * 150 digits (sym_numcheck_hidden_gap) that is not far below the smallest
 * float written, and far below the value's own rounding. */
static bool dropped_a_float(const struct cc_node *input, const struct cc_node *form,
                            struct sym_num_verdict *g) {
    double m = smallest_float(input);
    if (m == HUGE_VAL)
        return false;
    struct sym_domains d = {0, NULL, NULL, CC_DOM_COMPLEX};
    if (!sym_numcheck_hidden_gap(input, form, &d, GAP_POINTS, g))
        return false;
    return strtod(g->gap, NULL) >= ldexp(m, DROPPED_FLOAT_SHARE_EXP) &&
           g->gap_share <= ldexp(1, DROPPED_VALUE_SHARE_EXP);
}

bool sym_agrees(const struct cc_node *input, const char *text) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error ee = {0};
    struct cc_node *c = a ? cc_expr_screen_parse(a, text, strlen(text), CC_DIALECT_SYMBOLIC, &ee)
                          : NULL;
    /* an undefined form of a defined input never agrees with it (giac
     * evaluates 0**x to undef, though it is 0 wherever Re(x) > 0), even
     * where the numbers could not tell (no point evaluates) */
    if (c && cc_node_any(c, undefined_name) && !cc_node_any(input, undefined_name)) {
        cc_arena_free(a);
        return false;
    }
    if (c && zero_constant(c) && !zero_constant(input) && zero_form_refuted(input)) {
        cc_arena_free(a);
        return false;
    }
    bool ok = false;
    if (c) {
        /* an input without branch cuts is checked too, at fewer points: its
         * rewritings hold everywhere or (a CAS bug: tan(2) + I simplified
         * to 0) almost nowhere */
        struct sym_domains d = {0, NULL, NULL, CC_DOM_COMPLEX};
        struct sym_num_verdict v;
        sym_numcheck_until(input, c, &d,
                           sym_numeval_branch_free(input) ? AGREE_POINTS_ENTIRE : AGREE_POINTS,
                           SYM_NC_DISAGREEMENT, &v);
        struct sym_num_verdict gap;
        ok = v.mismatches == 0 && v.a_only == 0 && !dropped_a_float(input, c, &gap);
    }
    cc_arena_free(a);
    return ok;
}

bool sym_text_agrees(const char *input, const char *text) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error ee = {0};
    struct cc_node *in =
        a ? cc_expr_screen_parse(a, input, strlen(input), CC_DIALECT_SYMBOLIC, &ee) : NULL;
    bool ok = in && sym_agrees(in, text);
    cc_arena_free(a);
    return ok;
}

void sym_agree_memo_init(struct sym_agree_memo *m, const struct cc_node *input) {
    memset(m, 0, sizeof *m);
    m->input = input;
}

/* parsed at the first check: a call whose forms all print as the input
 * checks nothing */
void sym_agree_memo_init_text(struct sym_agree_memo *m, const char *input) {
    memset(m, 0, sizeof *m);
    m->pending = input;
}

static void parse_pending(struct sym_agree_memo *m) {
    if (!m->pending)
        return;
    struct cc_expr_error ee = {0};
    m->arena = cc_arena_new();
    if (m->arena)
        m->input =
            cc_expr_screen_parse(m->arena, m->pending, strlen(m->pending), CC_DIALECT_SYMBOLIC, &ee);
    m->pending = NULL;
}

bool sym_agrees_memo(struct sym_agree_memo *m, const char *text) {
    parse_pending(m);
    if (!m->input)
        return false; /* as sym_text_agrees of an input that does not parse */
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->text[i], text))
            return m->ok[i];
    bool ok = sym_agrees(m->input, text);
    char *copy = m->n < SYM_AGREE_MEMO ? strdup(text) : NULL;
    if (copy) {
        m->text[m->n] = copy;
        m->ok[m->n++] = ok;
    }
    return ok;
}

void sym_agree_memo_clear(struct sym_agree_memo *m) {
    for (size_t i = 0; i < m->n; i++)
        free(m->text[i]);
    cc_arena_free(m->arena);
    memset(m, 0, sizeof *m);
}

/* true when g (giac's value of the AST root) differs from root at a complex
 * point, or is undefined where root has a value (floor(x) for asin(sin(x))
 * at complex x): a rewriting that holds for real values only. *text gets
 * g printed (malloc'd, also when false; may be NULL), v the evidence. */
static bool inexact(const struct cc_node *n);

/* g printed: a copy of printed when the caller has it (the same text: it
 * is sym_print_str(g)), else printed here. malloc'd; NULL on failure. */
static char *printed_copy(const cc_gexpr *g, const char *printed) {
    if (printed)
        return strdup(printed);
    json_t *err = NULL;
    char *s = sym_print_str(g, &err);
    json_decref(err);
    return s;
}

static bool real_only(const struct cc_node *root, const cc_gexpr *g, const char *printed,
                      char **text, struct sym_num_verdict *v) {
    memset(v, 0, sizeof *v);
    *text = printed_copy(g, printed);
    struct cc_arena *a = *text ? cc_arena_new() : NULL;
    struct cc_expr_error ee = {0};
    struct cc_node *built =
        a ? cc_expr_screen_parse(a, *text, strlen(*text), CC_DIALECT_SYMBOLIC, &ee) : NULL;
    bool r = false;
    if (built) {
        struct sym_domains d = {0, NULL, NULL, CC_DOM_COMPLEX};
        sym_numcheck_float_tolerance(cc_node_any(root, inexact));
        sym_numcheck_until(root, built, &d, 16, SYM_NC_MISMATCH, v);
        sym_numcheck_float_tolerance(false);
        r = v->mismatches > 0 || v->a_only > 0;
    }
    cc_arena_free(a);
    return r;
}

/* A constant has no domain to be wrong on (a difference there is the
 * rounding of a float, N(E, 20)), and an expression without branch cuts
 * cannot be rewritten wrongly off the positive reals. */
static bool may_rewrite(const struct cc_node *n) {
    const char *names[1];
    size_t nsyms = 0;
    sym_numeval_symbols(n, names, &nsyms, 1);
    return nsyms > 0 && !sym_numeval_branch_free(n);
}

/* The operators whose first argument giac evaluates (and may rewrite)
 * before applying them; the evaluator cannot compute the whole call, so
 * the argument is checked on its own. */
static bool operator_call(const struct cc_node *n) {
    static const char *const OPS[] = {"diff", "integrate", "limit", "series", "summation",
                                      "Sum", "Integral", "Derivative", "product", "Product"};
    if (n->kind != CC_N_CALL || n->nchild == 0)
        return false;
    for (size_t i = 0; i < sizeof OPS / sizeof *OPS; i++)
        if (!strcmp(n->v.name, OPS[i]))
            return true;
    return false;
}

/* floor or ceiling: a 128-bit value of their argument that lost digits to
 * cancellation or sits just below an integer gives the wrong integer
 * (floor(2*sin(pi/6)) was 0 at 128 bits), so only N's loop values them */
static bool integer_part_call(const struct cc_node *n) {
    return n->kind == CC_N_CALL &&
           (!strcmp(n->v.name, "floor") || !strcmp(n->v.name, "ceiling"));
}

/* The first operator argument of n (depth-first) that giac rewrites in a
 * real-only way: adds the note and returns true. Depth is bounded by the
 * parser's nesting limit. */
static bool inner_rewrite(const struct cc_node *n, json_t *out) {
    if (operator_call(n) && may_rewrite(n->child[0])) {
        struct cc_sym_err se = {0};
        cc_gexpr *g = cc_giac_from_ast(n->child[0], &se);
        char *text = NULL;
        struct sym_num_verdict v;
        bool hit = g && real_only(n->child[0], g, NULL, &text, &v);
        if (hit)
            json_object_set_new(out, "domain_note",
                                json_sprintf("the CAS rewrote the argument of %s as %s, which "
                                             "equals it for real (or positive) values only (over "
                                             "the complex numbers they differ at %s): the result "
                                             "holds for real values only",
                                             n->v.name, text, v.witness));
        free(text);
        cc_gexpr_free(g);
        if (hit)
            return true;
    }
    for (uint32_t i = 0; i < n->nchild; i++)
        if (inner_rewrite(n->child[i], out))
            return true;
    return false;
}

/* integrate(f, x) answered F: F' must be f at complex points. giac
 * integrates some integrands as if x were real (sqrt(4*x**2) as
 * 2*x*Abs(x)/2 = x**2*sign(x)); such an F is flagged, not refused. */
static void check_antiderivative(const struct cc_node *call, const cc_gexpr *g,
                                 const char *printed, json_t *out) {
    const struct cc_node *f = call->child[0], *x = call->child[1];
    json_t *err = NULL;
    char *F = printed_copy(g, printed), *dtext = NULL, *dprinted = NULL;
    struct cc_arena *a = F ? cc_arena_new() : NULL;
    struct cc_expr_error ee = {0};
    struct cc_node *dn = NULL;
    if (a && asprintf(&dtext, "diff(%s, %s)", F, x->v.name) >= 0)
        dn = cc_expr_screen_parse(a, dtext, strlen(dtext), CC_DIALECT_SYMBOLIC, &ee);
    struct cc_sym_err se = {0};
    cc_gexpr *dg = dn ? cc_giac_from_ast(dn, &se) : NULL;
    dprinted = dg ? sym_print_str(dg, &err) : NULL;
    json_decref(err);
    struct cc_node *dF = dprinted ? cc_expr_screen_parse(a, dprinted, strlen(dprinted),
                                                         CC_DIALECT_SYMBOLIC, &ee)
                                  : NULL;
    if (dF) {
        struct sym_domains d = {0, NULL, NULL, CC_DOM_COMPLEX};
        struct sym_num_verdict v;
        sym_numcheck_until(f, dF, &d, 12, SYM_NC_MISMATCH, &v);
        if (v.mismatches > 0)
            json_object_set_new(out, "domain_note",
                                json_sprintf("the antiderivative holds for real values only: its "
                                             "derivative differs from the integrand over the "
                                             "complex numbers (at %s)",
                                             v.witness));
    }
    cc_gexpr_free(dg);
    cc_arena_free(a);
    free(F);
    free(dtext);
    free(dprinted);
}

/* diff(f, x) answered D: D must be f' at complex points (sym_derivcheck.h);
 * a real-only formula (giac's d/dx asec(x) = 1/(Abs(x)*sqrt(x**2 - 1))) is
 * flagged, as an antiderivative is. */
static void check_derivative(const struct cc_node *call, const cc_gexpr *g, const char *printed,
                             json_t *out) {
    char *D = printed_copy(g, printed);
    struct cc_arena *a = D ? cc_arena_new() : NULL;
    struct cc_expr_error ee = {0};
    struct cc_node *dn = a ? cc_expr_screen_parse(a, D, strlen(D), CC_DIALECT_SYMBOLIC, &ee) : NULL;
    char witness[96];
    if (dn && !sym_numeval_never(dn) &&
        sym_derivative_mismatch(call->child[0], call->child[1]->v.name, dn, witness, sizeof witness))
        json_object_set_new(out, "domain_note",
                            json_sprintf("the derivative holds for real values only: it differs "
                                         "from the derivative of the input over the complex "
                                         "numbers (at %s)",
                                         witness));
    cc_arena_free(a);
    free(D);
}

static bool first_derivative(const struct cc_node *n) {
    return n->kind == CC_N_CALL && !strcmp(n->v.name, "diff") && n->nchild == 2 &&
           n->child[1]->kind == CC_N_NAME;
}

static bool indefinite_integral(const struct cc_node *n) {
    return n->kind == CC_N_CALL && !strcmp(n->v.name, "integrate") && n->nchild == 2 &&
           n->child[1]->kind == CC_N_NAME;
}

/* n is a float literal or an N(...) call: its value is a rounding, which
 * the CAS's may differ from in the last digits */
static bool inexact(const struct cc_node *n) {
    return n->kind == CC_N_FLOAT || (n->kind == CC_N_CALL && !strcmp(n->v.name, "N"));
}

/* text parsed and evaluated at no point into v; false when it does not
 * parse or evaluate */
bool sym_text_value(const char *text, mpc_t v) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error ee = {0};
    struct cc_node *n = a ? cc_expr_screen_parse(a, text, strlen(text), CC_DIALECT_SYMBOLIC, &ee)
                          : NULL;
    struct sym_point none = {0, NULL, NULL};
    bool ok = n && sym_numeval(n, &none, v) == 0;
    cc_arena_free(a);
    return ok;
}

/* v as evaluate_expression's `value` (malloc'd) */
static char *value_text(const mpc_t v) {
    char *re = NULL, *im = NULL, *out = NULL;
    if (mpfr_asprintf(&re, "%.40Re", mpc_realref(v)) >= 0 &&
        mpfr_asprintf(&im, "%.40Re", mpc_imagref(v)) >= 0)
        out = sym_numeric_value(re, mpfr_zero_p(mpc_imagref(v)) ? NULL : im, false);
    mpfr_free_str(re);
    mpfr_free_str(im);
    return out;
}

/* giac evaluates some special functions at complex arguments only
 * numerically, and wrongly (gamma(1 + I) = 0.5 - 0.2*I, for 0.498 -
 * 0.155*I): a float answer to an exact constant without an operator, which
 * our evaluator cannot check (it has gamma for real arguments only), is not
 * shown; the input is kept as written, as SymPy keeps gamma(1 + I). */
static struct sym_node *unverified_float(const struct sym_expr *e, const char *text,
                                         json_t *out) {
    if (!text || !strchr(text, '.') || cc_node_any(e->root, operator_call))
        return NULL;
    struct sym_node *w = sym_written_tree(e->root);
    if (!w)
        return NULL;
    json_object_del(out, "value");
    json_object_set_new(out, "note",
                        json_sprintf("the CAS evaluates the input only numerically, to %s, "
                                     "which could not be checked: the input is kept as written",
                                     text));
    return w;
}

/* wrong_constant's note when the CAS gave only a float for an exact input */
static json_t *float_answer_note(const char *text) {
    return json_sprintf("the CAS evaluates the input only numerically, to %s: the input is "
                        "kept as written, its value is `value`",
                        text);
}

/* wrong_constant's note when the CAS's value (text, numerically theirs) is
 * not the input's (ours) */
static json_t *differs_note(const char *text, const mpc_t theirs, const char *ours) {
    char *tv = value_text(theirs);
    json_t *note = json_sprintf("the CAS evaluates the input to %s, which is %s, not the "
                                "input's value %s: the input is kept as written",
                                text, tv ? tv : "?", ours ? ours : "?");
    free(tv);
    return note;
}

/* The input's value again at four times the bits agrees with the CAS's
 * exact text (at 128) to 1e-30. At a branch point the input's value is
 * ill-conditioned (LambertW(-exp(-1)) is -1, but W at -1/e rounded to 128
 * bits is -1 + 7e-20, a square root of the rounding), so the 128-bit gap
 * is no difference; a different value keeps its gap at any precision. */
static bool agree_closer(const struct cc_node *root, const char *text) {
    mpc_t mine, theirs;
    mpc_init2(mine, 4 * SYM_NUM_BITS);
    mpc_init2(theirs, SYM_NUM_BITS);
    struct sym_strict info;
    bool agree = !cc_node_any(root, integer_part_call) &&
                 sym_numeval_strict(root, mine, &info) == 0 && sym_text_value(text, theirs) &&
                 !sym_far_apart(mine, theirs, 1e-30);
    mpc_clear(mine);
    mpc_clear(theirs);
    return agree;
}

/* The CAS's text, valued at N's precision, is still far from mine: when
 * the input was ill-conditioned (its 128-bit value did not settle), so is
 * the same text at 128 bits (tan(-1/10**40 + pi/2) there is 1.06e39, the
 * input 1e40), and that gap is no difference. true when the text cannot
 * be valued so (the 128-bit gap stands). */
static bool settled_apart(const char *text, const mpc_t mine, double tol) {
    struct cc_arena *a = cc_arena_new();
    struct cc_expr_error ee = {0};
    struct cc_node *n = a ? cc_expr_screen_parse(a, text, strlen(text), CC_DIALECT_SYMBOLIC, &ee)
                          : NULL;
    mpc_t v;
    mpc_init2(v, SYM_NUM_BITS);
    bool apart = !n || !sym_nvalue_mpc_bits(n, 30, SYM_NV_MAX_BITS, v) || sym_far_apart(mine, v, tol);
    mpc_clear(v);
    cc_arena_free(a);
    return apart;
}

/* An exact constant (no symbol, no float, no N) is also evaluated by our
 * own 128-bit evaluator, which follows SymPy's branch conventions; giac's
 * answer must agree with it. When giac's value is a different number
 * (((-1)**(1/3))**(1/2) evaluated to the real -1/2 + sqrt(3)/2; gamma(1 + I)
 * to a wrong float) the input as written is returned, with a note; when
 * only giac's numeric approximation is wrong (its complex tanh:
 * tanh(2 + I) = 0.984 - 0.033*I for 1.015 + 0.034*I), `value` is ours.
 * NULL when the written form stands. */
static struct sym_node *wrong_constant(const struct sym_expr *e, const char *printed,
                                       json_t *out) {
    const char *names[1];
    size_t nsyms = 0;
    sym_numeval_symbols(e->root, names, &nsyms, 1);
    if (nsyms > 0 || cc_node_any(e->root, inexact))
        return NULL;
    mpc_t mine, theirs;
    mpc_init2(mine, SYM_NUM_BITS);
    mpc_init2(theirs, SYM_NUM_BITS);
    struct sym_point none = {0, NULL, NULL};
    /* N's correctly rounded loop first: the 128-bit evaluation alone lost
     * exp(100) + 2 - exp(100) to cancellation (0.0) and took giac's right 2
     * for a wrong value */
    bool precise = sym_nvalue_mpc(e->root, 30, mine);
    bool evaluated = precise || (!cc_node_any(e->root, integer_part_call) &&
                                 sym_numeval(e->root, &none, mine) == 0);
    /* The 128-bit evaluation is ill-conditioned near a pole: it made
     * tan(pi/2 - 10**-40) 1.06e39 (it is 1e40; the check's 4x cap of bits
     * did not settle it) and replaced the correctly rounded value given.
     * Before it disagrees with that value, it is settled at N's precision
     * (left as it is when that fails too). */
    const char *given = json_string_value(json_object_get(out, "value"));
    if (evaluated && !precise && given && sym_text_value(given, theirs) && sym_far_apart(mine, theirs, 1e-9))
        sym_nvalue_mpc_bits(e->root, 30, SYM_NV_MAX_BITS, mine);
    char *text = printed_copy(e->g, printed);
    if (!evaluated) {
        struct sym_node *w = unverified_float(e, text, out);
        free(text);
        mpc_clear(mine);
        mpc_clear(theirs);
        return w;
    }
    struct sym_node *written = NULL;
    /* a float is good to ~15 digits, an exact value to the check's */
    double tol = text && strchr(text, '.') ? 1e-9 : 1e-20;
    if (text && sym_text_value(text, theirs) && sym_far_apart(mine, theirs, tol) &&
        (tol > 1e-20 || !agree_closer(e->root, text)) && (precise || settled_apart(text, mine, tol)))
        written = sym_written_tree(e->root);
    char *v = text ? value_text(mine) : NULL;
    /* an exact input the CAS answered with a float (erf(1 + I)), now that
     * our evaluator has its value: exact stays exact, the value is ours (it
     * was kept as written, unchecked, before) */
    bool float_answer = !written && text && strchr(text, '.') &&
                        !cc_node_any(e->root, operator_call);
    if (float_answer)
        written = sym_written_tree(e->root);
    if (written)
        json_object_set_new(out, "note", float_answer ? float_answer_note(text)
                                                      : differs_note(text, theirs, v));
    const char *gv = json_string_value(json_object_get(out, "value"));
    bool ours = float_answer ? written != NULL
                             : gv && (written || !sym_text_value(gv, theirs) ||
                                      sym_far_apart(mine, theirs, 1e-9));
    if (v && ours)
        json_object_set_new(out, "value", json_string(v));
    free(v);
    free(text);
    mpc_clear(mine);
    mpc_clear(theirs);
    return written;
}

struct sym_node *sym_real_rewrite(const struct sym_expr *e, json_t *out) {
    return sym_real_rewrite_printed(e, NULL, out);
}

/* giac's value of an input with a float dropped a term of it within its
 * float tolerance (factor(x**2 - 1e-30) is x**2): the input as written,
 * with a note. NULL when the value stands. */
static struct sym_node *dropped_float_value(const struct sym_expr *e, const char *printed,
                                            json_t *out) {
    if (!cc_node_any(e->root, cc_node_is_float))
        return NULL;
    char *text = printed_copy(e->g, printed);
    struct cc_arena *a = text ? cc_arena_new() : NULL;
    struct cc_expr_error ee = {0};
    struct cc_node *value =
        a ? cc_expr_screen_parse(a, text, strlen(text), CC_DIALECT_SYMBOLIC, &ee) : NULL;
    struct sym_num_verdict g;
    struct sym_node *written = NULL;
    if (value && dropped_a_float(e->root, value, &g) &&
        (written = sym_written_tree(sym_numeval_value_of(e->root))))
        json_object_set_new(out, "note",
                            json_sprintf("the CAS's value %s differs from the input by %s%s%s, a float "
                                         "term of the input lost below its floating-point tolerance, "
                                         "so the input is kept as written", text, g.gap,
                                         g.witness[0] ? " at " : "", g.witness));
    cc_arena_free(a);
    free(text);
    return written;
}

struct sym_node *sym_real_rewrite_printed(const struct sym_expr *e, const char *printed,
                                          json_t *out) {
    if (!json_is_object(out))
        return NULL;
    struct sym_node *kept = dropped_float_value(e, printed, out);
    if (kept)
        return kept;
    if (!may_rewrite(e->root))
        return wrong_constant(e, printed, out);
    char *text = NULL;
    struct sym_num_verdict v;
    struct sym_node *written = NULL;
    if (real_only(e->root, e->g, printed, &text, &v)) {
        written = sym_written_tree(sym_numeval_value_of(e->root));
        json_object_set_new(out, "domain_note",
                            json_sprintf("the CAS rewrites the input as %s, which equals it "
                                         "for real (or positive) values only; over the "
                                         "complex numbers they differ (at %s)%s",
                                         text, v.witness,
                                         written ? ", so the input is kept as written" : ""));
    } else if (v.points == 0) {
        /* nothing of the whole could be evaluated (a derivative, an
         * integral): the operators' arguments are checked instead */
        if (!inner_rewrite(e->root, out) && indefinite_integral(e->root))
            check_antiderivative(e->root, e->g, printed, out);
        else if (!json_object_get(out, "domain_note") && first_derivative(e->root))
            check_derivative(e->root, e->g, printed, out);
    }
    free(text);
    return written;
}

cc_gexpr *sym_input(const char *text, size_t len, const char *prefix, json_t **err) {
    struct sym_expr e;
    if (sym_input_expr(text, len, prefix, &e, err) < 0)
        return NULL;
    cc_gexpr *g = e.g;
    e.g = NULL;
    sym_expr_free(&e);
    return g;
}

json_t *sym_err_json(const struct cc_sym_err *e, const char *prefix) {
    return cc_err(e->code ? e->code : "internal", "%s%s", prefix, e->msg);
}

static char *print_tree(const cc_gexpr *g, bool floats, json_t **err);

/* A symbol-free value as a float tree (re, or re + im*I); NULL when it is
 * not a finite number or on OOM. */
static struct sym_node *float_tree(const cc_gexpr *g) {
    char *re = NULL, *im = NULL;
    struct cc_sym_err se = {0};
    if (!cc_giac_is_number(g) || cc_giac_approx(g, 30, &re, &im, &se) < 0)
        return NULL;
    /* the decimals, not strtod's doubles: 1e-400 is not 0.0 */
    bool real = sym_decimal_is_zero(im), zero_re = sym_decimal_is_zero(re);
    struct sym_node *fr = real || !zero_re ? sym_float_decimal(re) : NULL;
    struct sym_node *fi = real ? NULL : sym_float_decimal(im);
    free(re);
    free(im);
    if (real)
        return fr;
    struct sym_node *it = sym_bin(SYM_MUL, fi, sym_const(SYM_I));
    return zero_re ? it : sym_bin(SYM_ADD, fr, it);
}

/* n is a complex rational: numbers and I under + and * only. */
static bool rational_complex(const struct sym_node *n) {
    if (n->kind == SYM_NUM)
        return true;
    if (n->kind == SYM_CONST)
        return n->ival == SYM_I;
    if (n->kind != SYM_ADD && n->kind != SYM_MUL)
        return false;
    for (size_t i = 0; i < n->n; i++)
        if (!rational_complex(n->kid[i]))
            return false;
    return true;
}

/* The tree of a float answer: a complex rational converted number by
 * number (giac's evalf drops a part below its epsilon: the determinant
 * I/10^20 came out 0.0, (1 + I)/10^20 as 1e-20), anything else evaluated
 * by float_tree(). NULL with *se on failure. */
static struct sym_node *float_answer(const cc_gexpr *g, struct cc_sym_err *se) {
    struct sym_node *t = cc_giac_tree(g, se);
    if (t && rational_complex(t))
        return t;
    struct sym_node *f = float_tree(g);
    if (!f)
        return t;
    sym_free(t);
    return f;
}

struct sym_node *sym_float_tree(const cc_gexpr *g, struct cc_sym_err *se) {
    struct sym_node *t = float_answer(g, se);
    if (t)
        sym_to_float(t);
    return t;
}

static char *print_as(const cc_gexpr *g, bool floats, json_t **err) {
    enum sym_phase prev = sym_prof_enter(SYM_PH_PRINT);
    char *s = print_tree(g, floats, err);
    sym_prof_leave(prev);
    return s;
}

static char *print_tree(const cc_gexpr *g, bool floats, json_t **err) {
    struct cc_sym_err se = {0};
    struct sym_node *t = floats ? sym_float_tree(g, &se) : cc_giac_tree(g, &se);
    if (!t) {
        *err = sym_err_json(&se, "");
        return NULL;
    }
    char *s = sym_print(t);
    sym_free(t);
    if (!s)
        *err = cc_err("resource_exhausted",
                      "expression exceeded a resource limit while evaluating: out of memory");
    return s;
}

char *sym_print_str(const cc_gexpr *g, json_t **err) { return print_as(g, false, err); }

json_t *sym_print_json(const cc_gexpr *g, json_t **err) { return sym_print_json_as(g, false, err); }

json_t *sym_print_list(const cc_gexpr *list, json_t **err) {
    return sym_print_list_as(list, false, err);
}

json_t *sym_print_json_as(const cc_gexpr *g, bool floats, json_t **err) {
    char *s = print_as(g, floats, err);
    if (!s)
        return NULL;
    json_t *j = json_string(s);
    free(s);
    if (!j)
        *err = cc_err("internal", "could not build the result string");
    return j;
}

const char *sym_arg_str(json_t *args, const char *key, const char *dflt, json_t **err) {
    json_t *v = json_is_object(args) ? json_object_get(args, key) : NULL;
    if (!v || json_is_null(v)) {
        if (!dflt)
            *err = cc_err("validation", "'%s' is required (a string)", key);
        return dflt;
    }
    if (!json_is_string(v)) {
        *err = cc_err("validation", "'%s' must be a string", key);
        return NULL;
    }
    return json_string_value(v);
}

char *sym_trim(const char *s) {
    while (*s && isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return strndup(s, n);
}

bool sym_valid_name(const char *s) {
    if (!*s || !(isalpha((unsigned char)*s)))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

cc_gexpr *sym_var(json_t *args, const char *key, char **name_out, json_t **err) {
    const char *raw = sym_arg_str(args, key, "x", err);
    if (!raw)
        return NULL;
    char *name = sym_trim(raw);
    if (!name) {
        *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
        return NULL;
    }
    if (!sym_valid_name(name) || cc_expr_is_function(name) || cc_expr_is_constant(name)) {
        *err = cc_err("validation", "'%s' must be a variable name (letters, digits, '_')", key);
        free(name);
        return NULL;
    }
    struct cc_sym_err se = {0};
    cc_gexpr *v = cc_giac_symbol(name, &se);
    if (!v) {
        *err = sym_err_json(&se, "");
        free(name);
        return NULL;
    }
    *name_out = name;
    return v;
}

/* Printed items of a CAS list, as a JSON array. */
json_t *sym_print_list_as(const cc_gexpr *list, bool floats, json_t **err) {
    json_t *arr = json_array();
    long n = cc_giac_len(list);
    for (long i = 0; arr && i < n; i++) {
        struct cc_sym_err se = {0};
        cc_gexpr *it = cc_giac_item(list, (size_t)i, &se);
        json_t *s = it ? sym_print_json_as(it, floats, err) : NULL;
        if (!it)
            *err = sym_err_json(&se, "");
        cc_gexpr_free(it);
        if (!s) {
            json_decref(arr);
            return NULL;
        }
        json_array_append_new(arr, s);
    }
    if (!arr)
        *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    return arr;
}

