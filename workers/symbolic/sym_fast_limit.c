/* limit_expression without the CAS's limit for a rational function of the
 * variable alone (see sym_fast.h). At +-oo the degrees decide: the ratio
 * of the leading coefficients, 0, or an infinity whose sign is the leading
 * coefficients' (times (-1)**(degree difference) at -oo). At a finite
 * rational point a, (x - a) is divided out of numerator and denominator as
 * often as it goes: a factor left in the denominator k times makes both
 * one-sided limits infinite, of the reduced quotient's sign at a on the
 * right and that sign times (-1)**k on the left; otherwise the reduced
 * quotient's value at a (0 when the numerator kept more factors). */
#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_poly.h"
#include "workers/symbolic/sym_print.h"

/* A dense polynomial c[0] + c[1]*x + ... + c[deg]*x**deg (deg -1: zero). */
struct dense {
    int deg;
    mpq_t c[SYM_POLY_MAX_DEGREE + 1];
};

static void dense_init(struct dense *d) {
    d->deg = -1;
    for (int i = 0; i <= SYM_POLY_MAX_DEGREE; i++)
        mpq_init(d->c[i]);
}

static void dense_clear(struct dense *d) {
    for (int i = 0; i <= SYM_POLY_MAX_DEGREE; i++)
        mpq_clear(d->c[i]);
}

/* p (in variable 0 alone) into d. */
static void to_dense(const struct sym_poly *p, struct dense *d) {
    for (size_t i = 0; i < p->n; i++) {
        int e = p->t[i].e[0];
        mpq_set(d->c[e], p->t[i].c);
        if (e > d->deg)
            d->deg = e;
    }
}

/* d(a) into v. */
static void eval_at(const struct dense *d, const mpq_t a, mpq_t v) {
    mpq_set_ui(v, 0, 1);
    for (int i = d->deg; i >= 0; i--) {
        mpq_mul(v, v, a);
        mpq_add(v, v, d->c[i]);
    }
}

/* Divides (x - a) out of d as often as it goes (d not zero); how often. */
static int divide_out(struct dense *d, const mpq_t a) {
    int m = 0;
    mpq_t v;
    mpq_init(v);
    for (;;) {
        eval_at(d, a, v);
        if (d->deg <= 0 || mpq_sgn(v) != 0)
            break;
        /* synthetic division, top down: each step's value is the
         * quotient's coefficient one power lower */
        mpq_t carry, t;
        mpq_inits(carry, t, NULL);
        for (int i = d->deg; i >= 0; i--) {
            mpq_mul(t, carry, a);
            mpq_add(t, t, d->c[i]);
            mpq_set(d->c[i], carry);
            mpq_set(carry, t);
        }
        /* c[i] now holds the quotient's x**i coefficient, c[deg] 0 and
         * carry the remainder, 0 */
        d->deg--;
        mpq_clears(carry, t, NULL);
        m++;
    }
    mpq_clear(v);
    return m;
}

static char *number_text(const mpq_t q) {
    struct sym_node *t = sym_num_q(q);
    char *s = t ? sym_print(t) : NULL;
    sym_free(t);
    return s;
}

static char *infinity_text(int sign) { return strdup(sign > 0 ? "oo" : "-oo"); }

/* The limit at infinity (side +1 or -1) of n/d, both non-zero. */
static char *at_infinity(const struct dense *n, const struct dense *d, int side) {
    int diff = n->deg - d->deg;
    if (diff < 0)
        return strdup("0");
    int sign = mpq_sgn(n->c[n->deg]) * mpq_sgn(d->c[d->deg]);
    if (diff > 0)
        return infinity_text(side < 0 && diff % 2 ? -sign : sign);
    mpq_t q;
    mpq_init(q);
    mpq_div(q, n->c[n->deg], d->c[d->deg]);
    char *s = number_text(q);
    mpq_clear(q);
    return s;
}

/* The right and left limits of n/d at a (n, d non-zero; d reduced in
 * place with n). 0, or -1 on OOM. */
static int at_point(struct dense *n, struct dense *d, const mpq_t a, char **right, char **left) {
    int k = divide_out(d, a) - divide_out(n, a);
    mpq_t vn, vd;
    mpq_inits(vn, vd, NULL);
    eval_at(n, a, vn);
    eval_at(d, a, vd);
    if (k > 0) {
        int sign = mpq_sgn(vn) * mpq_sgn(vd);
        *right = infinity_text(sign);
        *left = infinity_text(k % 2 ? -sign : sign);
    } else {
        if (k < 0)
            mpq_set_ui(vn, 0, 1);
        else
            mpq_div(vn, vn, vd);
        *right = number_text(vn);
        *left = *right ? strdup(*right) : NULL;
    }
    mpq_clears(vn, vd, NULL);
    if (*right && *left)
        return 0;
    free(*right);
    free(*left);
    return -1;
}

/* The value of a symbol-free point, into a. */
static bool rational_point(const struct cc_node *point, mpq_t a) {
    struct sym_vars v = {0};
    struct sym_poly p;
    if (sym_poly_from_ast(point, &v, &p) < 0)
        return false;
    bool ok = sym_poly_constant(&p, a);
    sym_poly_clear(&p);
    return ok;
}

int sym_fast_limits(const struct cc_node *e, const char *var, const struct cc_node *point,
                    int infinity, char **right, char **left) {
    *right = *left = NULL;
    struct sym_vars v = {0};
    struct sym_rat r;
    if (sym_rat_from_ast(e, &v, &r) < 0)
        return -1;
    mpq_t a;
    mpq_init(a);
    int rc = -1;
    bool at = infinity || rational_point(point, a);
    if (at && v.n == 1 && !strcmp(v.name[0], var) && r.num.n > 0) {
        struct dense n, d;
        dense_init(&n);
        dense_init(&d);
        to_dense(&r.num, &n);
        to_dense(&r.den, &d);
        if (infinity) {
            *right = at_infinity(&n, &d, infinity);
            rc = *right ? 0 : -1;
        } else {
            rc = at_point(&n, &d, a, right, left);
        }
        dense_clear(&n);
        dense_clear(&d);
    }
    mpq_clear(a);
    sym_rat_clear(&r);
    return rc;
}
