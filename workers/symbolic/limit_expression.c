/* limit_expression (TOOLS.md 3.3.17, extended by issue 12): a limit at
 * +-oo, or at a finite point from the side `direction` names (the right by
 * default) plus the left-, right- and two-sided limits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_limcheck.h"
#include "workers/symbolic/sym_tools.h"
#include "workers/symbolic/sym_profile.h"

/* giac answers an oscillating limit (sin(x) at oo, sin(1/x) at 0) with a
 * placeholder bounded_function(k) that no caller can read: the limit does
 * not exist. Replaces such a text (malloc'd, may be NULL) in place. */
static char *readable_limit(char *text) {
    if (!text || !strstr(text, "bounded_function("))
        return text;
    free(text);
    return strdup("does not exist");
}

/* giac's undef (printed nan, which reads as a number): the limit is
 * undefined, as for an unbounded oscillation (x*sin(x) at oo, where SymPy
 * answers AccumBounds(-oo, oo)); said in words, with the note. */
static bool undetermined(const char *text) {
    return text && (!strcmp(text, "nan") || !strcmp(text, "undefined"));
}

#define UNDETERMINED_NOTE                                                                  \
    "undefined: the CAS finds no value the expression approaches here (it may oscillate " \
    "without bound, as x*sin(x) at oo)"

static json_t *side_json(const char *text) {
    return json_string(undetermined(text) ? "undefined" : text);
}

/* Sets out's note to why (the shim's word on a refuted infinite limit),
 * naming the side at a finite point (side NULL at +-oo), or adds it to a
 * note the other side left. */
static void refuted_note(json_t *out, const char *side, const char *why) {
    const char *old = json_string_value(json_object_get(out, "note"));
    char *text = NULL;
    int n = !side       ? asprintf(&text, "%s", why)
            : old && strcmp(old, UNDETERMINED_NOTE)
                  ? asprintf(&text, "%s; from the %s: %s", old, side, why)
                  : asprintf(&text, "from the %s: %s", side, why);
    if (n >= 0)
        json_object_set_new(out, "note", json_string(text));
    free(text);
}

/* At a finite point: the side the caller asked for ("+" by default, as
 * TOOLS.md 3.3.17), the left-sided limit, and the two-sided one ("does not
 * exist" when the sides differ or one fails). With direction "-" the
 * `limit` field is the left-sided limit, with "+-" the two-sided one. */
static void add_sides(json_t *out, cc_gexpr *args[3], const char *dir, const char *fast_left) {
    struct cc_sym_err se = {0};
    json_t *err = NULL;
    char *right = strdup(json_string_value(json_object_get(out, "limit")));
    cc_gexpr *left = fast_left ? NULL : cc_giac_apply(CC_G_LIMIT_LEFT, args, 3, &se);
    char *why = cc_giac_take_note(); /* a refuted infinity's (see limit()) */
    char *ls = fast_left ? strdup(fast_left)
                         : readable_limit(left ? sym_print_str(left, &err) : NULL);
    cc_gexpr_free(left);
    json_decref(err);
    bool unknown = !ls || !right || undetermined(ls) || undetermined(right);
    bool same = !unknown && !strcmp(ls, right) && strcmp(right, "does not exist");
    json_t *two = json_string(unknown ? "undefined" : same ? right : "does not exist");
    json_object_set_new(out, "direction", json_string(dir));
    if (ls)
        json_object_set_new(out, "left", side_json(ls));
    if (right)
        json_object_set_new(out, "right", side_json(right));
    json_object_set_new(out, "two_sided", json_copy(two));
    if (why && ls && undetermined(ls))
        refuted_note(out, "left", why);
    else if (unknown && !json_object_get(out, "note"))
        json_object_set_new(out, "note", json_string(UNDETERMINED_NOTE));
    free(why);
    if (!strcmp(dir, "-"))
        json_object_set_new(out, "limit", ls ? side_json(ls) : json_string("does not exist"));
    else if (!strcmp(dir, "+-"))
        json_object_set_new(out, "limit", json_copy(two));
    json_decref(two);
    free(ls);
    free(right);
}

/* The expression and the point as parsed (their ASTs), and which
 * infinity the point is (+1, -1; 0 for a finite point). */
struct limit_at {
    const struct sym_expr *e, *pt;
    int infinity;
};

/* A finite limit at +-oo that the expression's own values refute (they
 * grow without bound: sym_limcheck.h) becomes "undefined", with a note
 * naming the CAS's answer and the size of the values. */
static void refute_finite(json_t *out, const struct limit_at *at, const char *name) {
    const char *l = json_string_value(json_object_get(out, "limit"));
    long ex = 0;
    if (!at->infinity || !l || !strcmp(l, "oo") || !strcmp(l, "-oo") || !strcmp(l, "zoo") ||
        !strcmp(l, "undefined") || !strcmp(l, "does not exist") ||
        !sym_limit_grows(at->e->root, name, at->infinity, &ex))
        return;
    char note[512];
    snprintf(note, sizeof note,
             "undefined: the CAS answered %.200s, but the expression's values grow without bound "
             "(|f| is about 10**%ld at %s = %s10**16); at %s the expression may take non-real "
             "values (sqrt or log of a negative number)",
             l, ex, name, at->infinity < 0 ? "-" : "", at->infinity < 0 ? "-oo" : "oo");
    json_object_set_new(out, "note", json_string(note));
    json_object_set_new(out, "limit", json_string("undefined"));
}

/* The limit of at->e: the CAS's, or a fast path's for a rational function
 * (sym_fast.h: its right and left limits, the CAS's limit calls skipped). */
static json_t *limit(const struct limit_at *at, cc_gexpr *var, const char *name, const char *dir) {
    json_t *err = NULL;
    struct cc_sym_err se = {0};
    cc_gexpr *e = at->e->g, *pt = at->pt->g;
    cc_gexpr *args[3] = {e, var, pt};
    char *fast_right = NULL, *fast_left = NULL;
    bool fast = sym_fast_enabled() &&
                sym_fast_limits(at->e->root, name, at->pt->root, at->infinity, &fast_right,
                                &fast_left) == 0;
    if (fast)
        sym_prof_mark_fast();
    free(cc_giac_take_note()); /* one the parse left: not the limit's */
    cc_gexpr *lim = fast ? NULL : cc_giac_apply(CC_G_LIMIT, args, 3, &se);
    /* the shim's word on an infinite limit it refuted (giac_shim.cc,
     * infinity_refuted: cos(x)**2*exp(x) at oo was oo) */
    char *why = cc_giac_take_note();
    /* The `expression` field: the input reduced as a rational function of
     * its non-rational parts (giac's ratnormal: n*log(n)/n**2 is log(n)/n,
     * (x**2 - 1)/(x - 1) is x + 1), not giac's simplify, which rewrote the
     * functions at up to 87% of the call's cost (sin(3*x)/sin(2*x) became
     * (4*cos(x)**2 - 1)/(2*cos(x)): 15.5 M instructions) for a field that
     * only restates the input (docs/contract.md, "limit_expression: the
     * `expression` field"). */
    cc_gexpr *simp = fast || lim ? cc_giac_rewrite(CC_RW_RATNORMAL, e, &se) : NULL;
    if (!simp) {
        cc_gexpr_free(lim);
        free(why);
        free(fast_right);
        free(fast_left);
        return sym_err_json(&se, "");
    }
    json_t *js = sym_print_json(simp, &err);
    json_t *jp = js ? sym_print_json(pt, &err) : NULL;
    json_t *jl = !jp ? NULL : fast ? json_string(fast_right) : sym_print_json(lim, &err);
    free(fast_right);
    cc_gexpr_free(lim);
    cc_gexpr_free(simp);
    if (!jl) {
        json_decref(js);
        json_decref(jp);
        free(fast_left);
        free(why);
        return err;
    }
    char *lt = readable_limit(strdup(json_string_value(jl)));
    bool oscillates = lt && strcmp(lt, json_string_value(jl)) != 0;
    if (oscillates) {
        json_decref(jl);
        jl = json_string(lt);
    }
    free(lt);
    json_t *out = json_pack("{s:b, s:o, s:s, s:o, s:o}", "ok", 1, "expression", js, "variable",
                            name, "point", jp, "limit", jl);
    if (oscillates)
        json_object_set_new(out, "note", json_string("the expression oscillates between bounds "
                                                     "without approaching a value: the limit does "
                                                     "not exist"));
    if (undetermined(json_string_value(jl))) {
        json_object_set_new(out, "limit", json_string("undefined"));
        if (why)
            refuted_note(out, dir ? "right" : NULL, why);
        else
            json_object_set_new(out, "note", json_string(UNDETERMINED_NOTE));
    }
    free(why);
    refute_finite(out, at, name);
    if (dir)
        add_sides(out, args, dir, fast_left);
    free(fast_left);
    return out;
}

/* The direction argument: NULL (absent) means "+"; anything but +, -, +-
 * is refused. */
static int read_direction(json_t *args, const char **dir, json_t **err) {
    const char *d = sym_arg_str(args, "direction", "+", err);
    if (!d)
        return -1;
    if (strcmp(d, "+") && strcmp(d, "-") && strcmp(d, "+-")) {
        *err = cc_err("validation", "'direction' must be \"+\" (from the right, the default), "
                                    "\"-\" (from the left) or \"+-\" (two-sided)");
        return -1;
    }
    *dir = d;
    return 0;
}

/* The point's trimmed text as an infinity: +1 ("oo"), -1 ("-oo"), else 0. */
static int infinity_of(const char *trimmed) {
    if (trimmed && !strcmp(trimmed, "oo"))
        return 1;
    return trimmed && !strcmp(trimmed, "-oo") ? -1 : 0;
}

static json_t *limit_expression_handler(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *text = sym_arg_str(args, "expr", NULL, &err);
    const char *ptext = text ? sym_arg_str(args, "point", "oo", &err) : NULL;
    const char *dir = NULL;
    if (!ptext || read_direction(args, &dir, &err) < 0)
        return err;
    char *name = NULL;
    cc_gexpr *var = sym_var(args, "var", &name, &err);
    if (!var)
        return err;
    json_t *out = NULL;
    struct sym_expr e = {0}, pt = {0};
    bool have_e = sym_input_expr(text, strlen(text), "expr: ", &e, &err) == 0;
    char *trimmed = have_e ? sym_trim(ptext) : NULL;
    if (have_e && !trimmed)
        err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    if (trimmed) {
        struct cc_sym_err se = {0};
        /* the literal "oo" means +infinity without parsing (3.3.17) */
        if (strcmp(trimmed, "oo") == 0)
            pt.g = cc_giac_infinity(&se);
        else
            sym_input_expr(ptext, strlen(ptext), "point: ", &pt, &err);
        if (!pt.g && !err)
            err = sym_err_json(&se, "point: ");
    }
    struct limit_at at = {&e, &pt, infinity_of(trimmed)};
    out = pt.g ? limit(&at, var, name, at.infinity ? NULL : dir) : err;
    free(trimmed);
    sym_expr_free(&e);
    sym_expr_free(&pt);
    cc_gexpr_free(var);
    free(name);
    return out;
}

SYM_PROFILED_TOOL(limit_expression, limit_expression_handler)
