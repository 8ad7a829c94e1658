/* solve_linear (TOOLS.md 3.3.24): a system of equations separated by ';'
 * solved for named variables; solutions printed as {x: 6, y: 4}. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_ast.h"
#include "workers/common/expr_funcs.h"
#include "workers/symbolic/sym_decimals.h"
#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_tools.h"
#include "workers/symbolic/sym_profile.h"

#define MAX_PIECES 256

struct gvec {
    cc_gexpr *v[MAX_PIECES];
    char *name[MAX_PIECES];
    size_t n;
};

static void gvec_free(struct gvec *g) {
    for (size_t i = 0; i < g->n; i++) {
        cc_gexpr_free(g->v[i]);
        free(g->name[i]);
    }
    g->n = 0;
}

static bool blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            return false;
    return true;
}

/* The '=' that makes a piece lhs = rhs (*width 1, or 2 for "==", which
 * reads as "="); NULL when there is none. The '=' of <=, >= and != belongs
 * to an inequality: splitting there read x + y != 10 as x + y! = 10, a
 * factorial, and answered three numeric "solutions" (solve_expression's
 * equals_sign learnt this in redsym7). */
static const char *equals_sign(const char *s, size_t n, size_t *width) {
    for (const char *p = memchr(s, '=', n); p; p = memchr(p + 1, '=', n - (size_t)(p + 1 - s))) {
        if (p > s && (p[-1] == '<' || p[-1] == '>' || p[-1] == '!'))
            continue;
        *width = p + 1 < s + n && p[1] == '=' ? 2 : 1;
        return p;
    }
    return NULL;
}

/* true when the tree holds a comparison (< <= > >= != ==, Ne(a, b)). The
 * parser bounds the depth, so the recursion is bounded too. */
static bool has_comparison(const struct cc_node *n) {
    if (!n)
        return false;
    if (n->kind == CC_N_COMPARE)
        return true;
    for (uint32_t i = 0; i < n->nchild; i++)
        if (has_comparison(n->child[i]))
            return true;
    return false;
}

/* One side of a piece in the CAS. A comparison is refused: the system is
 * solved as equations lhs - rhs = 0, and giac read x + y < 10; x - y = 2
 * as an empty set (answered [], "inconsistent", for a system every x =
 * y + 2 with y < 4 satisfies) and x < 3; x = 1 alike. */
static cc_gexpr *side(const char *s, size_t n, const char *whole, size_t wn, json_t **err) {
    struct sym_expr e;
    if (sym_input_expr(s, n, "", &e, err) < 0)
        return NULL;
    cc_gexpr *g = NULL;
    if (has_comparison(e.root)) {
        char *w = strndup(whole, wn), *t = w ? sym_trim(w) : NULL;
        *err = cc_err("validation",
                      "solve_linear solves equations, and '%.200s' is an inequality (or holds one); "
                      "write each piece as lhs = rhs, or solve one inequality in one variable with "
                      "solve_expression", t ? t : "");
        free(t);
        free(w);
    } else {
        g = e.g;
        e.g = NULL;
    }
    sym_expr_free(&e);
    return g;
}

/* One piece "lhs = rhs" or "expr" as the expression lhs - rhs. */
static cc_gexpr *piece(const char *s, size_t n, json_t **err) {
    size_t w = 0;
    const char *eq = equals_sign(s, n, &w);
    if (!eq)
        return side(s, n, s, n, err);
    cc_gexpr *l = side(s, (size_t)(eq - s), s, n, err);
    cc_gexpr *r = l ? side(eq + w, n - (size_t)(eq - s) - w, s, n, err) : NULL;
    cc_gexpr *lr[2] = {l, r}, *d = NULL;
    if (r) {
        struct cc_sym_err se = {0};
        if (!(d = cc_giac_apply(CC_G_SUB, lr, 2, &se)))
            *err = sym_err_json(&se, "");
    }
    cc_gexpr_free(l);
    cc_gexpr_free(r);
    return d;
}

/* A piece read with its decimals exact; as written when that rewriting
 * cannot be read (the length cap, say: the first error is then the one of
 * the text as given). */
static cc_gexpr *exact_piece(const char *s, size_t n, bool *had_float, json_t **err) {
    bool had = false;
    char *ex = sym_exact_decimals(s, n, &had);
    if (ex) {
        json_t *e2 = NULL;
        cc_gexpr *g = piece(ex, strlen(ex), &e2);
        free(ex);
        if (g) {
            *had_float |= had;
            return g;
        }
        json_decref(e2);
    }
    return piece(s, n, err);
}

static int split_system(const char *text, struct gvec *eqs, bool *had_float, json_t **err) {
    const char *p = text;
    for (;;) {
        const char *semi = strchr(p, ';');
        size_t n = semi ? (size_t)(semi - p) : strlen(p);
        if (!blank(p, n)) {
            if (eqs->n == MAX_PIECES) {
                *err = cc_err("resource_exhausted", "too many equations (max %d)", MAX_PIECES);
                return -1;
            }
            if (!(eqs->v[eqs->n] = exact_piece(p, n, had_float, err)))
                return -1;
            eqs->n++;
        }
        if (!semi)
            return 0;
        p = semi + 1;
    }
}

static int split_vars(const char *text, struct gvec *vars, json_t **err) {
    char *copy = strdup(text), *save = NULL;
    if (!copy) {
        *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
        return -1;
    }
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
        char *name = sym_trim(tok);
        struct cc_sym_err se = {0};
        if (!name || !*name) {
            free(name);
            continue;
        }
        if (!sym_valid_name(name) || vars->n == MAX_PIECES) {
            *err = cc_err("validation", "variables must be a comma-separated list of names");
            free(name);
            rc = -1;
        } else if (!(vars->v[vars->n] = cc_giac_symbol(name, &se))) {
            *err = sym_err_json(&se, "");
            free(name);
            rc = -1;
        } else {
            vars->name[vars->n++] = name;
        }
    }
    free(copy);
    if (rc == 0 && vars->n == 0) {
        *err = cc_err("validation", "variables must name at least one variable");
        rc = -1;
    }
    return rc;
}

/* The names in `variables`, checked before either path reads them (the
 * fast path reads the text itself). A constant of the language (E, I, pi,
 * oo, EulerGamma) or a function name (gamma, N, S) inside an equation is
 * that constant, not the unknown: `E + I = 3; E - I = 1` for "E, I" read as
 * e + i = 3 had no unknown to solve for and answered [], "inconsistent",
 * for a system whose solution is E = 2, I = 1. A name listed twice was
 * solved as two unknowns: "x, y, x" answered {x: 2, y: 1 - y}. Both are
 * refused, as solve_expression refuses such a `var`. */
static json_t *check_var_names(const char *text) {
    char *copy = strdup(text), *save = NULL, *seen[MAX_PIECES];
    size_t n = 0;
    json_t *err = copy ? NULL : cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && !err; tok = strtok_r(NULL, ",", &save)) {
        char *name = sym_trim(tok);
        if (!name || !*name || !sym_valid_name(name)) {
            free(name); /* blank items are dropped; split_vars words a bad name */
            continue;
        }
        if (cc_expr_is_constant(name) || cc_expr_is_function(name))
            err = cc_err("validation", "variables: '%s' is a %s of the expression language, not a variable "
                                       "name; rename it in the system and in variables",
                         name, cc_expr_is_constant(name) ? "constant" : "function");
        for (size_t i = 0; i < n && !err; i++)
            if (!strcmp(seen[i], name))
                err = cc_err("validation", "variables: '%s' is listed twice", name);
        if (n < MAX_PIECES)
            seen[n++] = name;
        else
            free(name);
    }
    while (n)
        free(seen[--n]);
    free(copy);
    return err;
}

/* "{x: 6, y: 4}" for one solution; marks solved[] for each variable set. */
static char *solution_text(cc_gexpr *sol, const struct gvec *vars, bool floats, bool *solved,
                           json_t **err) {
    struct sym_node *d = sym_nary(SYM_DICT, NULL, 0);
    for (size_t i = 0; d && i < vars->n && (long)i < cc_giac_len(sol); i++) {
        struct cc_sym_err se = {0};
        cc_gexpr *v = cc_giac_item(sol, i, &se);
        struct sym_node *t = !v ? NULL : floats ? sym_float_tree(v, &se) : cc_giac_tree(v, &se);
        bool free_var = v && cc_giac_is_symbol(v, vars->name[i]);
        cc_gexpr_free(v);
        if (!t) {
            *err = sym_err_json(&se, "");
            sym_free(d);
            return NULL;
        }
        if (free_var) { /* the system leaves this one undetermined */
            sym_free(t);
            continue;
        }
        solved[i] = true;
        if (sym_append(d, sym_symbol(vars->name[i])) < 0 || sym_append(d, t) < 0) {
            sym_free(d);
            d = NULL;
        }
    }
    char *s = d ? sym_print(d) : NULL;
    sym_free(d);
    if (!s && !*err)
        *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    return s;
}

static json_t *report(cc_gexpr *sols, const struct gvec *vars, bool floats) {
    json_t *err = NULL, *arr = json_array();
    bool solved[MAX_PIECES] = {false};
    long n = cc_giac_len(sols);
    for (long i = 0; arr && i < n; i++) {
        struct cc_sym_err se = {0};
        cc_gexpr *sol = cc_giac_item(sols, (size_t)i, &se);
        char *s = sol ? solution_text(sol, vars, floats, solved, &err) : NULL;
        if (!sol)
            err = sym_err_json(&se, "");
        cc_gexpr_free(sol);
        if (!s) {
            json_decref(arr);
            return err;
        }
        json_array_append_new(arr, json_string(s));
        free(s);
    }
    json_t *out = json_pack("{s:b, s:o, s:i}", "ok", 1, "solutions", arr, "count", (json_int_t)n);
    json_t *uns = json_array();
    for (size_t i = 0; n > 0 && uns && i < vars->n; i++)
        if (!solved[i])
            json_array_append_new(uns, json_string(vars->name[i]));
    if (out && uns && json_array_size(uns) > 0) {
        char *names = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&names, &len);
        for (size_t i = 0; f && i < json_array_size(uns); i++)
            fprintf(f, "%s%s", i ? ", " : "", json_string_value(json_array_get(uns, i)));
        if (f)
            fclose(f);
        json_object_set_new(out, "unsolved", uns);
        uns = NULL;
        json_object_set_new(out, "note", json_sprintf("the system does not determine %s; the "
                                                      "solution covers the remaining variable(s) only",
                                                      names ? names : ""));
        free(names);
    }
    json_decref(uns);
    return out;
}

/* Solutions some of whose values are numeric roots (a polynomial system
 * with a root the CAS has no closed form for: giac_shim's
 * polynomial_solutions) say so as solve_expression does: approximate: true
 * and the shim's note, beside any note of the report's own. Other notes
 * (the parse's) are not the solve's word and are dropped. Takes note. */
static void mark_numeric(json_t *out, char *note) {
    if (out && note && !strncmp(note, "numeric roots:", 14) && json_is_true(json_object_get(out, "ok"))) {
        json_t *had = json_object_get(out, "note");
        json_object_set_new(out, "approximate", json_true());
        json_object_set_new(out, "note", had ? json_sprintf("%s; %s", note, json_string_value(had))
                                             : json_string(note));
    }
    free(note);
}

static json_t *solve_linear_handler(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *sys = sym_arg_str(args, "system", NULL, &err);
    const char *vtext = sys ? sym_arg_str(args, "variables", NULL, &err) : NULL;
    if (!vtext)
        return err;
    if (strlen(sys) > 2000) /* the cap applies to the whole system (2.1) */
        return cc_err("resource_exhausted", "expression too long (max 2000 chars)");
    if ((err = check_var_names(vtext)))
        return err;
    /* a square rational system with one solution: exact elimination
     * (sym_fast.h); no CAS value is built, so a note an earlier call left
     * unread is dropped here as the CAS path's reading would drop it */
    json_t *fast = sym_fast_enabled() ? sym_fast_linear(sys, vtext) : NULL;
    if (fast) {
        free(cc_giac_take_note());
        sym_prof_mark_fast();
        return fast;
    }
    struct gvec *eqs = calloc(1, sizeof *eqs), *vars = calloc(1, sizeof *vars);
    json_t *out = NULL;
    bool had_float = false;
    if (!eqs || !vars) {
        out = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    } else if (split_system(sys, eqs, &had_float, &err) < 0 || split_vars(vtext, vars, &err) < 0) {
        out = err;
    } else if (eqs->n == 0) {
        out = cc_err("validation", "system must contain at least one equation");
    } else {
        struct cc_sym_err se = {0};
        cc_gexpr *le = cc_giac_list(eqs->v, eqs->n, &se);
        cc_gexpr *lv = le ? cc_giac_list(vars->v, vars->n, &se) : NULL;
        cc_gexpr *ab[2] = {le, lv};
        cc_gexpr *sols = lv ? cc_giac_apply(CC_G_SOLVE_SYSTEM, ab, 2, &se) : NULL;
        out = sols ? report(sols, vars, had_float) : sym_err_json(&se, "");
        mark_numeric(out, cc_giac_take_note());
        cc_gexpr_free(sols);
        cc_gexpr_free(le);
        cc_gexpr_free(lv);
    }
    if (eqs)
        gvec_free(eqs);
    if (vars)
        gvec_free(vars);
    free(eqs);
    free(vars);
    return out;
}

SYM_PROFILED_TOOL(solve_linear, solve_linear_handler)
