/* solve_expression without the CAS for a linear or quadratic polynomial
 * equation in the variable alone, with small rational coefficients (see
 * sym_fast.h): the roots in closed form, p +- q*sqrt(d) (times I under a
 * negative discriminant), d square-free, sorted as the CAS path sorts
 * them (real first, then by real and imaginary part), a double root once.
 *
 * The CAS path also checks each root numerically against the equation as
 * written and drops one the numbers refute; with small literals and small
 * coefficients its check cannot fail on an exact root, and this path runs
 * the same check with a tolerance 10**10 times tighter, declining on any
 * doubt rather than guessing which way the CAS path's check would go. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_factor.h"
#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_poly.h"
#include "workers/symbolic/sym_print.h"

/* Literals and coefficients beyond this decline: the CAS path's numeric
 * check (1e-20 of the residual's scale at 128 bits) stays far from its
 * tolerance below it. */
#define SOLVE_MAX_LITERAL 65536
/* The discriminant's square-free part is found by trial division below
 * this (giac's factorisation is complete there too). */
#define SOLVE_MAX_RADICAND (1L << 24)

/* n is an integer literal above SOLVE_MAX_LITERAL in size */
static bool big_literal(const struct cc_node *n) {
    return n->kind == CC_N_INT && mpz_cmpabs_ui(n->v.z, SOLVE_MAX_LITERAL) > 0;
}

static bool small_q(const mpq_t q) {
    return mpz_cmpabs_ui(mpq_numref(q), SOLVE_MAX_LITERAL) <= 0 &&
           mpz_cmp_ui(mpq_denref(q), SOLVE_MAX_LITERAL) <= 0;
}

/* The coefficients c[0..2] of d, a polynomial in v->name[0] alone (v->n is
 * 1), of degree 1 or 2. The degree, or -1. */
static int coefficients(const struct sym_poly *d, mpq_t c[3]) {
    for (size_t i = 0; i < d->n; i++) {
        unsigned e = d->t[i].e[0];
        if (e > 2 || !small_q(d->t[i].c))
            return -1;
        mpq_set(c[e], d->t[i].c);
    }
    return mpq_sgn(c[2]) ? 2 : mpq_sgn(c[1]) ? 1 : -1;
}

/* k = s**2 * r with r square-free (k > 0, below SOLVE_MAX_RADICAND). */
static void square_part(long k, long *s, long *r) {
    *s = 1;
    *r = 1;
    for (long i = 2; i * i <= k; i++) {
        while (k % (i * i) == 0) {
            k /= i * i;
            *s *= i;
        }
        if (k % i == 0) {
            k /= i;
            *r *= i;
        }
    }
    *r *= k;
}

/* The roots p + s*q*sqrt(r) (times I when imag), s = -1 then +1; one
 * root p when q is 0. */
struct roots {
    mpq_t p, q;
    long r;
    bool imag;
};

/* The roots of c[2]*x**2 + c[1]*x + c[0] (degree deg); 0, or -1 when the
 * discriminant is too large to take its square-free part. */
static int closed_form(mpq_t c[3], int deg, struct roots *out) {
    out->r = 1;
    out->imag = false;
    if (deg == 1) { /* -c0/c1 */
        mpq_div(out->p, c[0], c[1]);
        mpq_neg(out->p, out->p);
        return 0;
    }
    mpq_t two_a, disc, t;
    mpq_inits(two_a, disc, t, NULL);
    mpq_add(two_a, c[2], c[2]);
    mpq_div(out->p, c[1], two_a); /* p = -b/(2a) */
    mpq_neg(out->p, out->p);
    mpq_mul(disc, c[1], c[1]);
    mpq_mul(t, c[2], c[0]);
    mpq_mul_2exp(t, t, 2);
    mpq_sub(disc, disc, t); /* b**2 - 4ac = N/M */
    int rc = 0;
    if (mpq_sgn(disc) != 0) {
        /* sqrt(|N|/M) = sqrt(|N|*M)/M = s*sqrt(r)/M */
        mpz_t k;
        mpz_init(k);
        mpz_mul(k, mpq_numref(disc), mpq_denref(disc));
        mpz_abs(k, k);
        out->imag = mpq_sgn(disc) < 0;
        if (mpz_cmp_si(k, SOLVE_MAX_RADICAND) >= 0) {
            rc = -1;
        } else {
            long sq;
            square_part(mpz_get_si(k), &sq, &out->r);
            mpq_set_si(out->q, sq, 1);
            mpq_div(out->q, out->q, two_a);
            mpz_set(mpq_numref(t), mpq_denref(disc));
            mpz_set_ui(mpq_denref(t), 1);
            mpq_div(out->q, out->q, t);
            mpq_abs(out->q, out->q);
        }
        mpz_clear(k);
    }
    mpq_clears(two_a, disc, t, NULL);
    return rc;
}

/* Root s (-1 or +1) as a normalised tree. */
static struct sym_node *root_tree(const struct roots *r, int s) {
    mpq_t v;
    mpq_init(v);
    mpq_set(v, r->q);
    if (s < 0)
        mpq_neg(v, v);
    struct sym_node *t;
    if (r->r == 1 && !r->imag) { /* rational: p + s*q */
        mpq_add(v, v, r->p);
        t = sym_num_q(v);
    } else {
        mpq_t half;
        mpq_init(half);
        mpq_set_ui(half, 1, 2);
        t = sym_nary(SYM_MUL, NULL, 0);
        if (t && sym_append(t, sym_num_q(v)) == 0 && r->r > 1)
            sym_append(t, sym_bin(SYM_POW, sym_int(r->r), sym_num_q(half)));
        if (t && r->imag)
            sym_append(t, sym_const(SYM_I));
        if (t && mpq_sgn(r->p) != 0)
            t = sym_bin(SYM_ADD, sym_num_q(r->p), t);
        mpq_clear(half);
    }
    mpq_clear(v);
    return t ? sym_normalize(t) : NULL;
}

/* Root s at SYM_NUM_BITS. */
static void root_value(const struct roots *r, int s, mpc_t out) {
    mpfr_t t;
    mpfr_init2(t, SYM_NUM_BITS);
    mpfr_set_si(t, r->r, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_mul_q(t, t, r->q, MPFR_RNDN);
    if (s < 0)
        mpfr_neg(t, t, MPFR_RNDN);
    mpfr_set_q(mpc_realref(out), r->p, MPFR_RNDN);
    mpfr_set_ui(mpc_imagref(out), 0, MPFR_RNDN);
    if (r->imag)
        mpfr_set(mpc_imagref(out), t, MPFR_RNDN);
    else
        mpfr_add(mpc_realref(out), mpc_realref(out), t, MPFR_RNDN);
    mpfr_clear(t);
}

/* The equation as written holds at root s to 1e-30 of its scale (the CAS
 * path's check asks 1e-20). */
static bool satisfies(const struct cc_node *lhs, const struct cc_node *rhs, const char *var,
                      const struct roots *r, int s) {
    mpc_t x, l, v;
    mpc_init2(x, SYM_NUM_BITS);
    mpc_init2(l, SYM_NUM_BITS);
    mpc_init2(v, SYM_NUM_BITS);
    root_value(r, s, x);
    mpc_srcptr vals[1] = {x};
    const char *names[1] = {var};
    struct sym_point pt = {1, names, vals};
    bool ok = false;
    if (sym_numeval(lhs, &pt, l) == 0 &&
        (rhs ? sym_numeval(rhs, &pt, v) == 0 : (mpc_set_ui(v, 0, MPC_RNDNN), true)))
        ok = !sym_far_apart(v, l, 1e-30);
    mpc_clear(x);
    mpc_clear(l);
    mpc_clear(v);
    return ok;
}

/* arr with the root (r, s) appended when it satisfies the equation; NULL
 * (arr released) when it does not, or on OOM. */
static json_t *append_root(json_t *arr, const struct cc_node *lhs, const struct cc_node *rhs,
                           const char *var, const struct roots *r, int s) {
    struct sym_node *t = satisfies(lhs, rhs, var, r, s) ? root_tree(r, s) : NULL;
    char *text = t ? sym_print(t) : NULL;
    sym_free(t);
    if (!text || json_array_append_new(arr, json_string(text)) < 0) {
        json_decref(arr);
        arr = NULL;
    }
    free(text);
    return arr;
}

/* The printed roots, or NULL (a root failed its check, or OOM). */
static json_t *printed_roots(const struct cc_node *lhs, const struct cc_node *rhs, const char *var,
                             const struct roots *r) {
    bool single = mpq_sgn(r->q) == 0;
    json_t *arr = json_array();
    for (int s = single ? 1 : -1; arr && s <= 1; s += 2)
        arr = append_root(arr, lhs, rhs, var, r, s);
    return arr;
}

/* ---- degree 3 and above: rational roots and a quadratic rest ---------------- */

/* Higher degrees decline above this (the roots' checks stay far from the
 * CAS path's tolerance with small coefficients up to it). */
#define SOLVE_MAX_DEGREE 8
#define SOLVE_MAX_ROOTS SOLVE_MAX_DEGREE

/* d's degree in variable 0 when it is 3 to SOLVE_MAX_DEGREE with small
 * coefficients, else -1. */
static int higher_degree(const struct sym_poly *d) {
    int deg = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (!small_q(d->t[i].c))
            return -1;
        if ((int)d->t[i].e[0] > deg)
            deg = (int)d->t[i].e[0];
    }
    return deg >= 3 && deg <= SOLVE_MAX_DEGREE ? deg : -1;
}

/* One root to print: root s of *r, with its value for the order. */
struct item {
    const struct roots *r;
    int s;
    double re, im;
};

static void item_value(struct item *it) {
    double p = mpq_get_d(it->r->p), t = it->s * mpq_get_d(it->r->q) * sqrt((double)it->r->r);
    it->re = it->r->imag ? p : p + t;
    it->im = it->r->imag ? t : 0;
}

/* The CAS path's order (giac_shim.cc sort_roots): real first, then by
 * real part, then by imaginary part. */
static int item_cmp(const void *a, const void *b) {
    const struct item *x = a, *y = b;
    if ((x->im == 0) != (y->im == 0))
        return x->im == 0 ? -1 : 1;
    if (x->re != y->re)
        return x->re < y->re ? -1 : 1;
    return x->im < y->im ? -1 : x->im > y->im;
}

/* Two distinct roots whose doubles are this close could be ordered
 * otherwise by the CAS path's doubles: decline. */
static bool too_close(const struct item *x, const struct item *y) {
    double scale = fmax(1.0, fmax(fabs(x->re), fabs(y->re)));
    if ((x->im == 0) != (y->im == 0))
        return false;
    if (fabs(x->re - y->re) > 1e-9 * scale)
        return false;
    /* a conjugate pair shares its real part exactly; its parts differ */
    return x->r != y->r || fabs(x->im - y->im) <= 1e-9 * scale;
}

/* The printed items in order, each checked against the equation, or
 * NULL. */
static json_t *printed_items(const struct cc_node *lhs, const struct cc_node *rhs, const char *var,
                             struct item *items, size_t n) {
    qsort(items, n, sizeof *items, item_cmp);
    for (size_t i = 1; i < n; i++)
        if (too_close(&items[i - 1], &items[i]))
            return NULL;
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < n; i++)
        arr = append_root(arr, lhs, rhs, var, items[i].r, items[i].s);
    return arr;
}

/* The roots of d (degree 3 to SOLVE_MAX_DEGREE in var alone) when all but
 * at most four are rational and those are the roots of one or two
 * quadratics: the rational ones and the quadratics' closed forms, printed
 * in the CAS path's order; NULL otherwise. */
static json_t *higher_roots(const struct cc_node *lhs, const struct cc_node *rhs, const char *var,
                            const struct sym_poly *d) {
    struct roots rs[SOLVE_MAX_ROOTS + 2];
    mpq_t qs[SOLVE_MAX_ROOTS], rest[2][3];
    for (size_t i = 0; i < SOLVE_MAX_ROOTS + 2; i++) {
        mpq_inits(rs[i].p, rs[i].q, NULL);
        rs[i].r = 1;
        rs[i].imag = false;
    }
    for (size_t i = 0; i < SOLVE_MAX_ROOTS; i++)
        mpq_init(qs[i]);
    for (size_t i = 0; i < 2; i++)
        mpq_inits(rest[i][0], rest[i][1], rest[i][2], NULL);
    json_t *out = NULL;
    struct item items[SOLVE_MAX_ROOTS + 4];
    size_t n = 0;
    int rests = 0;
    int k = sym_rational_roots(d, 0, qs, SOLVE_MAX_ROOTS, rest, &rests);
    for (int i = 0; i < k; i++) {
        mpq_set(rs[n].p, qs[i]);
        items[n] = (struct item){&rs[n], 1, 0, 0};
        n++;
    }
    bool ok = k >= 0;
    for (int i = 0; ok && i < rests; i++) {
        /* a quadratic left has no rational root: two distinct roots */
        struct roots *q = &rs[SOLVE_MAX_ROOTS + i];
        ok = closed_form(rest[i], 2, q) == 0 && mpq_sgn(q->q) != 0;
        if (ok) {
            items[n++] = (struct item){q, -1, 0, 0};
            items[n++] = (struct item){q, 1, 0, 0};
        }
    }
    for (size_t i = 0; i < n; i++)
        item_value(&items[i]);
    if (ok && n > 0)
        out = printed_items(lhs, rhs, var, items, n);
    for (size_t i = 0; i < SOLVE_MAX_ROOTS + 2; i++)
        mpq_clears(rs[i].p, rs[i].q, NULL);
    for (size_t i = 0; i < SOLVE_MAX_ROOTS; i++)
        mpq_clear(qs[i]);
    for (size_t i = 0; i < 2; i++)
        mpq_clears(rest[i][0], rest[i][1], rest[i][2], NULL);
    return out;
}

json_t *sym_fast_roots(const struct cc_node *lhs, const struct cc_node *rhs, const char *var) {
    if (cc_node_any(lhs, big_literal) || (rhs && cc_node_any(rhs, big_literal)))
        return NULL;
    struct sym_vars v = {0};
    struct sym_poly pl, pr, d;
    if (sym_poly_from_ast(lhs, &v, &pl) < 0)
        return NULL;
    if (!rhs) {
        sym_poly_init(&pr);
    } else if (sym_poly_from_ast(rhs, &v, &pr) < 0) {
        sym_poly_clear(&pl);
        return NULL;
    }
    int rc = sym_poly_add(&pl, &pr, -1, &d);
    sym_poly_clear(&pl);
    sym_poly_clear(&pr);
    if (rc < 0)
        return NULL;
    json_t *out = NULL;
    mpq_t c[3];
    mpq_inits(c[0], c[1], c[2], NULL);
    struct roots r;
    mpq_inits(r.p, r.q, NULL);
    bool alone = v.n == 1 && !strcmp(v.name[0], var);
    int deg = alone ? coefficients(&d, c) : -1;
    if (deg > 0 && closed_form(c, deg, &r) == 0)
        out = printed_roots(lhs, rhs, var, &r);
    else if (deg < 0 && alone && higher_degree(&d) > 0)
        out = higher_roots(lhs, rhs, var, &d);
    mpq_clears(r.p, r.q, NULL);
    mpq_clears(c[0], c[1], c[2], NULL);
    sym_poly_clear(&d);
    return out;
}
