/* solve_linear without the CAS for a square system of linear equations
 * with rational coefficients and a unique solution (see sym_fast.h): exact
 * Gaussian elimination over the rationals. Everything else declines: a
 * singular system (no solution, or a family of them), a parameter, a
 * power, a float, a function, implicit multiplication, more than
 * SYM_POLY_VARS variables. The CAS's answer to such a system is its unique
 * solution, each value a rational number, printed by the same printer. */
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

/* Gauss-Jordan elimination in place: 0 with a[i][n] = x_i, or -1 when the
 * matrix is singular. */
static int eliminate(struct lsys *s) {
    size_t n = s->n;
    mpq_t f;
    mpq_init(f);
    int rc = 0;
    for (size_t c = 0; c < n && rc == 0; c++) {
        size_t piv = c;
        while (piv < n && mpq_sgn(s->a[piv][c]) == 0)
            piv++;
        if (piv == n) {
            rc = -1;
            break;
        }
        for (size_t j = 0; j <= n && piv != c; j++)
            mpq_swap(s->a[piv][j], s->a[c][j]);
        for (size_t j = c + 1; j <= n; j++)
            mpq_div(s->a[c][j], s->a[c][j], s->a[c][c]);
        mpq_set_ui(s->a[c][c], 1, 1);
        for (size_t i = 0; i < n; i++) {
            if (i == c || mpq_sgn(s->a[i][c]) == 0)
                continue;
            mpq_set(f, s->a[i][c]);
            for (size_t j = c; j <= n; j++) {
                mpq_t t;
                mpq_init(t);
                mpq_mul(t, f, s->a[c][j]);
                mpq_sub(s->a[i][j], s->a[i][j], t);
                mpq_clear(t);
            }
        }
    }
    mpq_clear(f);
    return rc;
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
    if (read_vars(variables, &s) == 0 && read_system(&s, system) == 0 && eliminate(&s) == 0)
        out = answer(&s);
    lsys_clear(&s);
    return out;
}
