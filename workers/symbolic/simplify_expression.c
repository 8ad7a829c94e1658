/* simplify_expression (TOOLS.md 3.3.18, extended by issue 12): simplified,
 * factored and expanded forms of one expression.
 *
 * `simplified` is chosen among candidate forms: giac's simplify and a set of
 * rewritings (trigonometric collection and linearisation, exponential and
 * hyperbolic conversions, combined exponentials, logarithm collection). The
 * candidates are ranked by sym_count_ops() (shorter text breaks ties); a
 * rewriting is accepted only when it agrees numerically with the input as
 * written at complex test points, and the answer is never larger than the
 * input. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "workers/common/expr_arena.h"
#include "workers/common/expr_parse.h"
#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_measure.h"
#include "workers/symbolic/sym_numcheck.h"
#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_tools.h"
#include "workers/symbolic/sym_profile.h"

/* Tried on the input and on simplify's result, each only when the printed
 * input holds one of its trigger names, and its `also` name when it has one
 * (a rewriting of a rational function by tlin costs time and finds
 * nothing). exp2trig turns complex exponentials into sin and cos: with no
 * I in the input it has none to turn, and an exponent holding a logarithm
 * becomes abs/sign/arg forms that simplify then grinds on for up to 0.1 s
 * (exp(log(x) + 1)) to yield something larger than the input. */
static const struct {
    enum cc_rw how;
    const char *triggers[4];
    const char *also;
    bool slow; /* tried after every quick one, on the input and on simplify's result */
    long max_ops; /* tried only on an input of at most this many operations (0: any) */
} REWRITES[] = {
    {CC_RW_TRIGSIMPLIFY, {"sin", "cos", "tan", "sec"}, NULL, true, 0},
    {CC_RW_TCOLLECT, {"sin", "cos", "tan", NULL}, NULL, false, 0},
    {CC_RW_TLIN, {"sin", "cos", NULL, NULL}, NULL, false, 0},
    {CC_RW_EXPCOLLECT, {"exp", NULL, NULL, NULL}, NULL, false, 0},
    {CC_RW_EXP2HYP, {"exp", "sinh", "cosh", "tanh"}, NULL, false, 0},
    {CC_RW_HYP2EXP, {"sinh", "cosh", "tanh", NULL}, NULL, false, 0},
    {CC_RW_HYPTCOLLECT, {"sinh", "cosh", "tanh", NULL}, NULL, false, 0},
    /* giac's simplify of the trigonometric form took 1.5 s on a sum of
     * five hyperbolic terms that it then left as it was */
    {CC_RW_HYPSIMPLIFY, {"sinh", "cosh", "tanh", NULL}, NULL, false, 12},
    /* each term alone, expanded too (sinh(2*x)/sinh(x) is 2*cosh(x)) */
    {CC_RW_HYPTERMS, {"sinh", "cosh", "tanh", NULL}, NULL, false, 12},
    {CC_RW_EXP2TRIG, {"exp", NULL, NULL, NULL}, "I", false, 0},
    {CC_RW_LNCOLLECT, {"log", NULL, NULL, NULL}, NULL, false, 0},
    {CC_RW_NORMAL, {"/", NULL, NULL, NULL}, NULL, false, 0},
};

static bool triggered(size_t i, const char *text) {
    if (REWRITES[i].also && !strstr(text, REWRITES[i].also))
        return false;
    for (size_t k = 0; k < 4 && REWRITES[i].triggers[k]; k++)
        if (strstr(text, REWRITES[i].triggers[k]))
            return true;
    return false;
}

struct pick {
    char *text;
    long ops;
};

static void pick_free(struct pick *p) {
    free(p->text);
    p->text = NULL;
}

/* Printed form and measure of g; false when it cannot be printed. */
static bool measure(const cc_gexpr *g, struct pick *out) {
    struct cc_sym_err se = {0};
    struct sym_node *t = cc_giac_tree(g, &se);
    out->text = t ? sym_print(t) : NULL;
    out->ops = t ? sym_count_ops(t) : 0;
    sym_free(t);
    return out->text != NULL;
}

static bool better(const struct pick *a, const struct pick *b) {
    return a->ops < b->ops || (a->ops == b->ops && strlen(a->text) < strlen(b->text));
}

/* Takes p (a measured candidate). agree: the agreement checks with the
 * input (sym_agrees_memo) */
static void consider_pick(struct sym_agree_memo *agree, struct pick p, struct pick *best) {
    if (better(&p, best) && sym_agrees_memo(agree, p.text)) {
        pick_free(best);
        *best = p;
    } else {
        pick_free(&p);
    }
}

static void consider(struct sym_agree_memo *agree, cc_gexpr *g, struct pick *best) {
    struct pick p = {0};
    if (g && measure(g, &p))
        consider_pick(agree, p, best);
}

/* consider() of g, which may be the input's value itself (a rewriting
 * that found nothing to do): that prints and measures as value did (an
 * exact value only: giac's == of floats may hold across precisions). */
static void consider_value(struct sym_agree_memo *agree, cc_gexpr *g, const cc_gexpr *input,
                           const struct pick *value, struct pick *best) {
    if (!value->text || strchr(value->text, '.') || !cc_giac_same(g, input)) {
        consider(agree, g, best);
        return;
    }
    struct pick p = {strdup(value->text), value->ops};
    if (p.text)
        consider_pick(agree, p, best);
}

/* The input's printed form and measure: as written when giac's value is a
 * real-only rewrite of it (written != NULL), else giac's value (measured
 * by the caller: value). */
static bool measure_input(const struct pick *value, const struct sym_node *written,
                          struct pick *out) {
    if (!written) {
        out->text = value->text ? strdup(value->text) : NULL;
        out->ops = value->ops;
        return out->text != NULL;
    }
    out->text = sym_print(written);
    out->ops = sym_count_ops(written);
    return out->text != NULL;
}

/* The rewritings stop being started once this much CPU time has gone (CPU
 * time, so that a loaded machine does not change the answer): giac's
 * trigsimplify spent 5 s on (cos(x)**2 + 2*cos(x)*tan(x) + tan(x)**2)/
 * (cos(x) + tan(x)) and 5 s more on simplify's tan(x/2) form of it, to give
 * both back unchanged, while cancel finds cos(x) + tan(x) at once. So the
 * quick rewritings run first, the slow one last; one already started is not
 * interrupted (giac's state after an interruption is not trusted); the
 * answer then says it stopped early. */
#define REWRITE_BUDGET_NS 1000000000ll

static int64_t cpu_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0; /* no CPU clock: no budget (every rewriting is tried) */
    return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* The quick rewritings of the input (REWRITES not slow), computed before
 * giac's simplify: when one of them is a non-negative integer that agrees
 * with the input (sin(x)**2 + cos(x)**2 is 1, sin(2*x) - 2*sin(x)*cos(x)
 * is 0, by tlin or tcollect in tens of microseconds) it is the answer, as
 * the full search would find: no form has fewer operations (0), and any
 * other form of that integer prints the same. giac's simplify of such a
 * sum costs 0.3 to 3 ms (tan(x/2) rewriting) and is then not needed.
 * Otherwise each result waits, with its CPU time, for its turn in the
 * search, so that the search and its budget see what they saw before.
 * Only a small input is tried so (the identities that reduce to an integer
 * are short), and only while the early rewritings have spent little: on a
 * large input one of them can take seconds, which the search would not
 * have spent once giac's simplify had used up its budget. */
#define EARLY_MAX_OPS 40
#define EARLY_BUDGET_NS 20000000ll

struct early {
    cc_gexpr *r[sizeof REWRITES / sizeof *REWRITES];
    int64_t ns[sizeof REWRITES / sizeof *REWRITES];
    bool done[sizeof REWRITES / sizeof *REWRITES];
    int64_t pending_ns; /* CPU time of the results not yet taken */
};

static bool quick_for_input(size_t i, const struct pick *input) {
    return !REWRITES[i].slow && triggered(i, input->text) &&
           !(REWRITES[i].max_ops && input->ops > REWRITES[i].max_ops);
}

/* r as a non-negative integer's text that agrees with the input, or NULL */
static char *agreed_integer(cc_gexpr *r, struct sym_agree_memo *agree) {
    if (!r || !cc_giac_is_number(r))
        return NULL;
    struct cc_sym_err se = {0};
    struct sym_node *t = cc_giac_tree(r, &se);
    char *text = NULL;
    if (t && t->kind == SYM_NUM && mpz_cmp_ui(mpq_denref(t->q), 1) == 0 && mpq_sgn(t->q) >= 0)
        text = sym_print(t);
    sym_free(t);
    if (text && !sym_agrees_memo(agree, text)) {
        free(text);
        text = NULL;
    }
    return text;
}

/* Fills e with the quick rewritings of the input; returns the text of the
 * first that is an agreeing non-negative integer (e then holds nothing). */
static char *early_integer(const struct sym_expr *in, const struct pick *input,
                           struct sym_agree_memo *agree, struct early *e) {
    memset(e, 0, sizeof *e);
    if (input->ops > EARLY_MAX_OPS)
        return NULL;
    for (size_t i = 0; i < sizeof REWRITES / sizeof *REWRITES; i++) {
        if (!quick_for_input(i, input))
            continue;
        if (e->pending_ns > EARLY_BUDGET_NS)
            break; /* the rest in the search's own turn */
        int64_t t0 = cpu_ns();
        struct cc_sym_err se = {0};
        e->r[i] = cc_giac_rewrite(REWRITES[i].how, in->g, &se);
        e->ns[i] = cpu_ns() - t0;
        e->done[i] = true;
        e->pending_ns += e->ns[i];
        char *text = agreed_integer(e->r[i], agree);
        if (text) {
            for (size_t k = 0; k <= i; k++)
                cc_gexpr_free(e->r[k]);
            memset(e, 0, sizeof *e);
            return text;
        }
    }
    return NULL;
}

static void early_free(struct early *e) {
    for (size_t i = 0; i < sizeof REWRITES / sizeof *REWRITES; i++)
        cc_gexpr_free(e->r[i]);
    memset(e, 0, sizeof *e);
}

/* The simplified form: the smallest candidate that agrees with the input
 * (giac's own simplify included: it combines log(x) + log(y), which is
 * wrong at x = y = -1), and never larger than the input. *stopped is set
 * when rewritings were left untried for time. */
static json_t *simplified(const struct sym_expr *in, const struct pick *value,
                          const struct sym_node *written, struct sym_agree_memo *agree,
                          json_t **err, bool *stopped) {
    int64_t t0 = cpu_ns();
    struct cc_sym_err se = {0};
    cc_gexpr *g = in->g;
    struct pick input = {0}, best = {0};
    if (!measure_input(value, written, &input)) {
        *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
        return NULL;
    }
    struct early early;
    char *integer = early_integer(in, &input, agree, &early);
    if (integer) {
        json_t *j = json_string(integer);
        free(integer);
        pick_free(&input);
        return j;
    }
    /* giac may throw on an input it is valid for ("Not implemented, e.g.
     * for multivariate mod/approx polynomials" for cos(x)**2 + sin(x)**2 +
     * 0.5): the other rewritings are tried from the input. A resource or
     * time limit ends the call. */
    cc_gexpr *base = cc_giac_apply(CC_G_SIMPLIFY, &g, 1, &se);
    if (!base && !se.declined) {
        early_free(&early);
        pick_free(&input);
        *err = se.code ? sym_err_json(&se, "") : cc_err("resource_exhausted",
                                                        "expression exhausted the memory ceiling");
        return NULL;
    }
    /* giac's simplify is the reference; a rewriting must beat it */
    best.ops = LONG_MAX;
    best.text = strdup("");
    struct pick p = {0};
    /* simplify often gives the input back: its rewritings would then be
     * the input's again, same candidates in the same order */
    bool unchanged = !base || (measure(base, &p) && !written && !strcmp(p.text, input.text) &&
                               cc_giac_same(base, in->g));
    /* giac's == of two floats may hold across precisions that print
     * differently: only an exact value stands for its print */
    bool base_exact = p.text && !strchr(p.text, '.');
    if (p.text)
        consider_pick(agree, p, &best);
    cc_gexpr *from[2] = {in->g, base};
    for (int slow = 0; slow < 2; slow++)
        for (size_t k = 0; best.text && k < (unchanged ? 1 : 2); k++)
            for (size_t i = 0; i < sizeof REWRITES / sizeof *REWRITES; i++) {
                if (REWRITES[i].slow != (slow == 1) || !triggered(i, input.text) ||
                    (REWRITES[i].max_ops && input.ops > REWRITES[i].max_ops))
                    continue;
                /* the budget counts what the search has done so far: an
                 * early result's time once it is taken */
                if (cpu_ns() - t0 - early.pending_ns > REWRITE_BUDGET_NS) {
                    *stopped = true;
                    break;
                }
                cc_gexpr *r;
                if (k == 0 && early.done[i]) {
                    r = early.r[i];
                    early.r[i] = NULL;
                    early.done[i] = false;
                    early.pending_ns -= early.ns[i];
                } else {
                    r = cc_giac_rewrite(REWRITES[i].how, from[k], &se);
                }
                /* one that gives simplify's value back prints as that did,
                 * and a text considered before never changes the pick (best
                 * only improves; its check has the same outcome) */
                if (r && !(base_exact && cc_giac_same(r, base)))
                    consider_value(agree, r, in->g, value, &best);
                cc_gexpr_free(r);
            }
    early_free(&early);
    cc_gexpr_free(base);
    /* never larger than the input (nor a form that failed the check) */
    struct pick *win = !best.text || best.ops == LONG_MAX || input.ops < best.ops ? &input : &best;
    json_t *j = json_string(win->text);
    pick_free(&best);
    pick_free(&input);
    return j;
}

/* Sets out[key] = printed(op(g)), or the original form when that does not
 * agree with the input at complex points (giac's factor and expand rewrite
 * sqrt(x**2*y**2) as Abs(x)*Abs(y) and asin(sin(x)) with floor, which hold
 * for real values only) or when giac declines the operation; returns 0,
 * or -1 with *err. */
static int set_form(json_t *out, const char *key, enum cc_giac_op op, const struct sym_expr *in,
                    const struct pick *value, struct sym_agree_memo *agree, json_t **err) {
    struct cc_sym_err se = {0};
    cc_gexpr *g = in->g;
    cc_gexpr *r = cc_giac_apply(op, &g, 1, &se);
    if (!r && se.declined) {
        json_object_set(out, key, json_object_get(out, "original"));
        return 0;
    }
    if (!r) {
        *err = sym_err_json(&se, "");
        return -1;
    }
    /* a form that is the value itself prints as the value did */
    json_t *s = value->text && !strchr(value->text, '.') && cc_giac_same(r, in->g)
                    ? json_string(value->text)
                    : sym_print_json(r, err);
    cc_gexpr_free(r);
    if (!s)
        return -1;
    const char *orig = json_string_value(json_object_get(out, "original"));
    if (orig && strcmp(orig, json_string_value(s)) && !sym_agrees_memo(agree, json_string_value(s))) {
        json_decref(s);
        s = json_string(orig);
    }
    json_object_set_new(out, key, s);
    return 0;
}

/* out[key] (when it differs from out.original) goes through the check the
 * CAS path puts every form through (set_form, consider): a form that does
 * not agree with the input at the test points (rounding in a large
 * expansion) is replaced by the original, as the CAS path does. */
static void agreed_form(json_t *out, const char *key, struct sym_agree_memo *agree) {
    const char *orig = json_string_value(json_object_get(out, "original"));
    const char *form = json_string_value(json_object_get(out, key));
    if (orig && form && strcmp(orig, form) && !sym_agrees_memo(agree, form))
        json_object_set_new(out, key, json_string(orig));
}

/* A fast path's answer checked as the CAS path checks its own: simplified
 * (the expanded form or the input) and the forms it gives itself. */
static void agreed_forms(json_t *out, struct sym_agree_memo *agree, bool factored) {
    agreed_form(out, "simplified", agree);
    agreed_form(out, "expanded", agree);
    if (factored)
        agreed_form(out, "factored", agree);
}

/* A fast path's forms for a polynomial (sym_fast_forms) with the CAS
 * value's print orig: 1 with *out the result (orig taken; a factored form
 * the fast path is not sure of is the CAS's, as on the CAS path), 0 when
 * the fast path declines (orig untouched), -1 with *err when the CAS's
 * factor fails (orig taken). */
static int fast_forms(const struct sym_expr *in, const struct pick *value, json_t *orig,
                      struct sym_agree_memo *agree, json_t **out, json_t **err) {
    if (!sym_fast_enabled() || !sym_fast_forms_apply(in->root))
        return 0;
    json_t *f = value->text ? sym_fast_forms(in->root, value->text, value->ops) : NULL;
    if (!f)
        return 0;
    *out = json_pack("{s:b, s:o, s:O}", "ok", 1, "original", orig, "simplified",
                     json_object_get(f, "simplified"));
    json_t *factored = json_object_get(f, "factored");
    int rc = 1;
    if (*out && factored)
        json_object_set(*out, "factored", factored);
    else if (*out && set_form(*out, "factored", CC_G_FACTOR, in, value, agree, err) < 0)
        rc = -1;
    if (rc > 0 && *out) {
        json_object_set(*out, "expanded", json_object_get(f, "expanded"));
        agreed_forms(*out, agree, factored != NULL);
    }
    json_decref(f);
    if (rc < 0 || !*out) {
        json_decref(*out);
        *out = NULL;
        if (!*err)
            *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
        return -1;
    }
    sym_prof_mark_fast();
    return 1;
}

static json_t *simplify_expression_handler(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *text = sym_arg_str(args, "expr", NULL, &err);
    if (!text)
        return err;
    struct sym_expr in;
    if (sym_parse_expr(text, strlen(text), "", &in, &err) < 0)
        return err;
    /* every form is checked against the input as written; a text that
     * comes up again (x + 1 simplified, factored and expanded) once */
    struct sym_agree_memo agree;
    sym_agree_memo_init(&agree, in.root);
    json_t *fast = sym_fast_enabled() ? sym_fast_simplify(in.root) : NULL;
    if (fast)
        agreed_forms(fast, &agree, true);
    if (fast || sym_build_expr(&in, "", &err) < 0) {
        sym_agree_memo_clear(&agree);
        sym_expr_free(&in);
        return fast ? fast : err;
    }
    /* giac's value printed and measured once: the original (unless
     * rewritten, below), the real-only check's text, the fast forms' and
     * the candidates' reference */
    struct pick value = {0};
    measure(in.g, &value);
    /* giac's value may be a real-only rewrite of the input: then the input
     * as written is the original, and every form must agree with it */
    json_t *notes = json_object();
    struct sym_node *written = sym_real_rewrite_printed(&in, value.text, notes);
    char *wtext = written ? sym_print(written) : NULL;
    json_t *orig = wtext ? json_string(wtext)
                   : value.text ? json_string(value.text) : sym_print_json(in.g, &err);
    free(wtext);
    json_t *out = NULL;
    int forms = orig && !written ? fast_forms(&in, &value, orig, &agree, &out, &err) : 0;
    bool stopped = false;
    json_t *simp =
        orig && !forms ? simplified(&in, &value, written, &agree, &err, &stopped) : NULL;
    sym_free(written);
    if (simp)
        out = json_pack("{s:b, s:o, s:o}", "ok", 1, "original", orig, "simplified", simp);
    else if (!forms)
        json_decref(orig);
    if (simp && out && (set_form(out, "factored", CC_G_FACTOR, &in, &value, &agree, &err) < 0 ||
                        set_form(out, "expanded", CC_G_EXPAND, &in, &value, &agree, &err) < 0)) {
        json_decref(out);
        out = NULL;
    }
    if (out && stopped)
        json_object_set_new(out, "note",
                            json_string("simplify stopped early: the rewritings left after "
                                        "1 s of computing were not tried, so a shorter form "
                                        "may exist; the simplified form is the shortest "
                                        "found, checked against the input"));
    if (out)
        json_object_update(out, notes);
    json_decref(notes);
    pick_free(&value);
    sym_agree_memo_clear(&agree);
    sym_expr_free(&in);
    return out ? out : err;
}

SYM_PROFILED_TOOL(simplify_expression, simplify_expression_handler)
