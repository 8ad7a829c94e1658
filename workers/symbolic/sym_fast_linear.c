/* solve_linear without the CAS for a square system of linear equations
 * with rational coefficients (see sym_fast.h): exact Gaussian elimination
 * over the rationals gives its unique solution, or shows it has none (the
 * CAS's answer is then the empty list). Everything else declines: a
 * system with a family of solutions (its answer is parametric), a parameter, a
 * power, a float, a function, implicit multiplication, more than
 * SYM_POLY_VARS variables. The CAS's answer to a system with one solution
 * is that solution, each value a rational number, printed by the same
 * printer. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_arena.h"
#include "workers/common/expr_funcs.h"
#include "workers/common/expr_parse.h"
#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_poly.h"
#include "workers/symbolic/sym_print.h"

#define N SYM_POLY_VARS

struct lsys {
    size_t n;
    char *var[N];      /* the variables as given, trimmed */
    mpq_t a[N][N + 1]; /* row i: a[i][0..n) . x = a[i][n] */
};

/* Only what this path reads the same way the CAS's reader does: names,
 * integers, + - * / ( ), one '=' per equation. No '**', '^', '.', and no
 * implicit multiplication (2x, (x)(y), 2(x)). */
static bool plain_text(const char *s) {
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p, d = (unsigned char)p[1];
        if (!isalnum(c) && !strchr("_ \t+-*/()=;", c))
            return false;
        if (c == '*' && d == '*')
            return false;
        if (isdigit(c) && (isalpha(d) || d == '_' || d == '('))
            return false;
        if (c == ')' && (isalnum(d) || d == '_' || d == '('))
            return false;
    }
    return true;
}

static void lsys_clear(struct lsys *s) {
    for (size_t i = 0; i < N; i++) {
        free(s->var[i]);
        for (size_t j = 0; j <= N; j++)
            mpq_clear(s->a[i][j]);
    }
}

/* the variables: distinct plain names, neither a constant nor a function */
static int read_vars(const char *text, struct lsys *s) {
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char *piece = strndup(p, len);
        char *name = piece ? sym_trim(piece) : NULL;
        free(piece);
        if (!name || !*name || s->n == N || !sym_valid_name(name) || cc_expr_is_constant(name) ||
            cc_expr_is_function(name)) {
            free(name);
            return -1;
        }
        for (size_t i = 0; i < s->n; i++)
            if (!strcmp(s->var[i], name)) {
                free(name);
                return -1;
            }
        s->var[s->n++] = name;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

static int var_index(const struct lsys *s, const char *name) {
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->var[i], name))
            return (int)i;
    return -1;
}

/* p = 0 as row `row`: every term of degree at most 1 in the variables */
static int add_row(struct lsys *s, size_t row, const struct sym_poly *p, const struct sym_vars *v) {
    int col[N];
    for (size_t j = 0; j < v->n; j++)
        if ((col[j] = var_index(s, v->name[j])) < 0)
            return -1; /* a parameter: the CAS's answer is symbolic */
    for (size_t t = 0; t < p->n; t++) {
        int deg = 0, which = -1;
        for (size_t j = 0; j < v->n; j++) {
            deg += p->t[t].e[j];
            if (p->t[t].e[j])
                which = (int)j;
        }
        if (deg > 1)
            return -1;
        if (deg == 0)
            mpq_sub(s->a[row][s->n], s->a[row][s->n], p->t[t].c);
        else
            mpq_add(s->a[row][col[which]], s->a[row][col[which]], p->t[t].c);
    }
    return 0;
}

/* One equation "lhs = rhs" or "expr" (= 0) read into row `row`. */
static int read_equation(struct lsys *s, size_t row, const char *text, size_t len) {
    const char *eq = memchr(text, '=', len);
    if (eq && memchr(eq + 1, '=', len - (size_t)(eq - text) - 1))
        return -1;
    struct cc_arena *ar = cc_arena_new();
    if (!ar)
        return -1;
    struct cc_expr_error ee = {0};
    size_t llen = eq ? (size_t)(eq - text) : len;
    struct cc_node *l = cc_expr_screen_parse(ar, text, llen, CC_DIALECT_SYMBOLIC, &ee);
    struct cc_node *r = !l || !eq ? NULL
                                  : cc_expr_screen_parse(ar, eq + 1, len - llen - 1,
                                                         CC_DIALECT_SYMBOLIC, &ee);
    int rc = -1;
    struct sym_vars v = {0};
    struct sym_poly pl, pr, d;
    if (l && (r || !eq) && sym_poly_from_ast(l, &v, &pl) == 0) {
        if (!r) {
            rc = add_row(s, row, &pl, &v);
        } else if (sym_poly_from_ast(r, &v, &pr) == 0) {
            if (sym_poly_add(&pl, &pr, -1, &d) == 0) {
                rc = add_row(s, row, &d, &v);
                sym_poly_clear(&d);
            }
            sym_poly_clear(&pr);
        }
        sym_poly_clear(&pl);
    }
    cc_arena_free(ar);
    return rc;
}

static bool blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            return false;
    return true;
}

static int read_system(struct lsys *s, const char *text) {
    size_t rows = 0;
    for (const char *p = text;;) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        if (!blank(p, len) && (rows == s->n || read_equation(s, rows++, p, len) < 0))
            return -1;
        if (!semi)
            break;
        p = semi + 1;
    }
    return rows == s->n ? 0 : -1;
}

/* Gauss-Jordan elimination in place. 1 when the system has no solution
 * (a row reduces to 0 = c with c non-zero), 0 when it has one (then
 * a[i][n] = x_i), -1 when it has many (a free variable: the CAS's answer
 * is parametric, left to it). */
static int eliminate(struct lsys *s) {
    size_t n = s->n, r = 0;
    mpq_t f, t;
    mpq_inits(f, t, NULL);
    for (size_t c = 0; c < n && r < n; c++) {
        size_t piv = r;
        while (piv < n && mpq_sgn(s->a[piv][c]) == 0)
            piv++;
        if (piv == n)
            continue; /* no pivot: column c is free, unless the system is inconsistent */
        for (size_t j = 0; j <= n && piv != r; j++)
            mpq_swap(s->a[piv][j], s->a[r][j]);
        for (size_t j = c + 1; j <= n; j++)
            mpq_div(s->a[r][j], s->a[r][j], s->a[r][c]);
        mpq_set_ui(s->a[r][c], 1, 1);
        for (size_t i = 0; i < n; i++) {
            if (i == r || mpq_sgn(s->a[i][c]) == 0)
                continue;
            mpq_set(f, s->a[i][c]);
            for (size_t j = c; j <= n; j++) {
                mpq_mul(t, f, s->a[r][j]);
                mpq_sub(s->a[i][j], s->a[i][j], t);
            }
        }
        r++;
    }
    mpq_clears(f, t, NULL);
    /* rows r.. have no coefficient left: 0 = a[i][n] */
    for (size_t i = r; i < n; i++)
        if (mpq_sgn(s->a[i][n]) != 0)
            return 1;
    return r == n ? 0 : -1;
}

/* {ok, solutions: [], count: 0}: the CAS's answer to an inconsistent
 * system */
static json_t *no_solution(void) {
    return json_pack("{s:b, s:[], s:i}", "ok", 1, "solutions", "count", 0);
}

/* {ok, solutions: ["{x: 6, y: 4}"], count: 1}, or NULL */
static json_t *answer(const struct lsys *s) {
    struct sym_node *d = sym_nary(SYM_DICT, NULL, 0);
    for (size_t i = 0; d && i < s->n; i++)
        if (sym_append(d, sym_symbol(s->var[i])) < 0 || sym_append(d, sym_num_q(s->a[i][s->n])) < 0) {
            sym_free(d);
            d = NULL;
        }
    char *text = d ? sym_print(d) : NULL;
    sym_free(d);
    json_t *out = text ? json_pack("{s:b, s:[s], s:i}", "ok", 1, "solutions", text, "count", 1)
                       : NULL;
    free(text);
    return out;
}

json_t *sym_fast_linear(const char *system, const char *variables) {
    if (!plain_text(system))
        return NULL;
    struct lsys s = {0};
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j <= N; j++)
            mpq_init(s.a[i][j]);
    json_t *out = NULL;
    if (read_vars(variables, &s) == 0 && read_system(&s, system) == 0) {
        int rc = eliminate(&s);
        out = rc == 0 ? answer(&s) : rc == 1 ? no_solution() : NULL;
    }
    lsys_clear(&s);
    return out;
}
