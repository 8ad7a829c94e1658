/* Univariate factorisation over Q for the certain cases (see sym_factor.h). */
#include "workers/symbolic/sym_factor.h"

#include <stdlib.h>

/* Divisor candidates are enumerated by trial division: bounded. */
#define MAX_DIVISOR_SOURCE 1000000UL
#define MAX_DIVISORS 256

/* Dense coefficients a[0..deg] (a[i] of x^i). */
struct upoly {
    unsigned deg;
    mpz_t a[SYM_POLY_MAX_DEGREE + 1];
};

static void up_init(struct upoly *u) {
    for (size_t i = 0; i <= SYM_POLY_MAX_DEGREE; i++)
        mpz_init(u->a[i]);
    u->deg = 0;
}

static void up_clear(struct upoly *u) {
    for (size_t i = 0; i <= SYM_POLY_MAX_DEGREE; i++)
        mpz_clear(u->a[i]);
}

static int ulong_cmp(const void *a, const void *b) {
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return x < y ? -1 : x > y;
}

/* The positive divisors of |z| (z != 0, |z| <= MAX_DIVISOR_SOURCE),
 * ascending: trial division up to the square root. Count, or -1. */
static int divisors(const mpz_t z, unsigned long *out) {
    if (mpz_cmpabs_ui(z, MAX_DIVISOR_SOURCE) > 0)
        return -1;
    unsigned long n = mpz_get_ui(z); /* |z| */
    int k = 0;
    for (unsigned long d = 1; d * d <= n; d++) {
        if (n % d)
            continue;
        if (k + 2 > MAX_DIVISORS)
            return -1;
        out[k++] = d;
        if (d != n / d)
            out[k++] = n / d;
    }
    qsort(out, (size_t)k, sizeof *out, ulong_cmp);
    return k;
}

/* q^deg * u(p/q) == 0? (Horner on integers) */
static bool is_root(const struct upoly *u, long p, unsigned long q) {
    mpz_t acc, qp;
    mpz_inits(acc, qp, NULL);
    mpz_set(acc, u->a[u->deg]);
    mpz_set_ui(qp, 1);
    for (unsigned i = u->deg; i-- > 0;) {
        mpz_mul_si(acc, acc, p);
        mpz_mul_ui(qp, qp, q);
        mpz_addmul(acc, u->a[i], qp);
    }
    bool r = mpz_sgn(acc) == 0;
    mpz_clears(acc, qp, NULL);
    return r;
}

/* u /= (q*x - p), exact (p/q is a root): the quotient w, top down. The
 * quotient of a primitive polynomial by a primitive linear factor is
 * integral (Gauss's lemma), so every division below is exact. */
static void divide_linear(struct upoly *u, long p, unsigned long q) {
    mpz_t w[SYM_POLY_MAX_DEGREE + 1], t;
    mpz_init(t);
    unsigned d = u->deg;
    for (unsigned i = 0; i < d; i++)
        mpz_init(w[i]);
    /* a[d] = q*w[d-1]; a[i] = q*w[i-1] - p*w[i] for 0 < i < d */
    mpz_divexact_ui(w[d - 1], u->a[d], q);
    for (unsigned i = d - 1; i > 0; i--) {
        mpz_set(t, u->a[i]);
        if (p >= 0)
            mpz_addmul_ui(t, w[i], (unsigned long)p);
        else
            mpz_submul_ui(t, w[i], (unsigned long)-p);
        mpz_divexact_ui(w[i - 1], t, q);
    }
    for (unsigned i = 0; i <= d; i++)
        mpz_set_ui(u->a[i], 0);
    for (unsigned i = 0; i < d; i++) {
        mpz_set(u->a[i], w[i]);
        mpz_clear(w[i]);
    }
    u->deg = d - 1;
    mpz_clear(t);
}

/* A quadratic with a negative discriminant: irreducible over the reals, so
 * the CAS keeps it whole (one with a positive one it splits with square
 * roots: x**2 - 2 = (x - sqrt(2))*(x + sqrt(2))). */
static bool complex_roots(const struct upoly *u) {
    mpz_t d;
    mpz_init(d);
    mpz_mul(d, u->a[1], u->a[1]);
    mpz_submul(d, u->a[0], u->a[2]);
    mpz_submul(d, u->a[0], u->a[2]);
    mpz_submul(d, u->a[0], u->a[2]);
    mpz_submul(d, u->a[0], u->a[2]);
    bool r = mpz_sgn(d) < 0;
    mpz_clear(d);
    return r;
}

/* (q*x - p)**m as a tree. */
static struct sym_node *linear_factor(const char *x, long p, unsigned long q, unsigned m) {
    struct sym_node *qx = q == 1 ? sym_symbol(x)
                                 : sym_bin(SYM_MUL, sym_int((long)q), sym_symbol(x));
    struct sym_node *f = sym_bin(SYM_ADD, qx, sym_int(-p));
    return m == 1 ? f : sym_bin(SYM_POW, f, sym_int(m));
}

/* u (degree >= 1) as a tree in x. */
static struct sym_node *dense_tree(const struct upoly *u, const char *x) {
    struct sym_node *s = sym_nary(SYM_ADD, NULL, 0);
    for (unsigned i = 0; s && i <= u->deg; i++) {
        if (mpz_sgn(u->a[i]) == 0)
            continue;
        struct sym_node *m = sym_num_mpz(u->a[i]);
        if (i > 0) {
            struct sym_node *xi = sym_symbol(x);
            if (i > 1)
                xi = sym_bin(SYM_POW, xi, sym_int(i));
            m = sym_bin(SYM_MUL, m, xi);
        }
        if (sym_append(s, m) < 0) {
            sym_free(s);
            s = NULL;
        }
    }
    return s;
}

static int to_dense(const struct sym_poly *p, size_t var, struct upoly *u) {
    for (size_t i = 0; i < p->n; i++) {
        unsigned e = p->t[i].e[var];
        if (mpz_cmp_ui(mpq_denref(p->t[i].c), 1) != 0)
            return -1;
        mpz_set(u->a[e], mpq_numref(p->t[i].c));
        if (e > u->deg)
            u->deg = e;
    }
    return 0;
}

/* Takes out content (sign of the leading coefficient included) and x**k. */
static void strip(struct upoly *u, mpz_t content, unsigned *k) {
    mpz_set_ui(content, 0);
    for (unsigned i = 0; i <= u->deg; i++)
        mpz_gcd(content, content, u->a[i]);
    if (mpz_sgn(u->a[u->deg]) < 0)
        mpz_neg(content, content);
    for (unsigned i = 0; i <= u->deg; i++)
        mpz_divexact(u->a[i], u->a[i], content);
    *k = 0;
    while (mpz_sgn(u->a[*k]) == 0)
        (*k)++;
    for (unsigned i = 0; i + *k <= u->deg; i++)
        mpz_set(u->a[i], u->a[i + *k]);
    for (unsigned i = u->deg - *k + 1; i <= u->deg; i++)
        mpz_set_ui(u->a[i], 0);
    u->deg -= *k;
}

/* Where take_roots puts each root p/q of multiplicity m: its factor
 * (q*x - p)**m appended to prod, or (prod NULL) p/q into roots[n++]. */
struct root_sink {
    const char *x;
    struct sym_node *prod;
    mpq_t *roots;
    size_t cap, n;
};

static int sink_root(struct root_sink *k, long p, unsigned long q, unsigned m) {
    if (k->prod)
        return sym_append(k->prod, linear_factor(k->x, p, q, m));
    if (k->n >= k->cap)
        return -1;
    mpq_set_si(k->roots[k->n], p, q);
    mpq_canonicalize(k->roots[k->n++]);
    return 0;
}

/* Takes every rational root out of u (primitive, a[0] != 0) into the
 * sink. 0, or -1 to decline. */
static int take_roots(struct upoly *u, struct root_sink *sink) {
    unsigned long ps[MAX_DIVISORS], qs[MAX_DIVISORS];
    int np = divisors(u->a[0], ps), nq = divisors(u->a[u->deg], qs);
    if (np < 0 || nq < 0)
        return -1;
    for (int i = 0; i < np && u->deg > 0; i++)
        for (int j = 0; j < nq && u->deg > 0; j++)
            for (int s = 1; s >= -1; s -= 2) {
                long p = s * (long)ps[i];
                unsigned long q = qs[j];
                unsigned m = 0;
                while (u->deg > 0 && is_root(u, p, q)) {
                    divide_linear(u, p, q);
                    m++;
                }
                if (m && sink_root(sink, p, q, m) < 0)
                    return -1;
            }
    return 0;
}

struct sym_node *sym_factor_univariate(const struct sym_poly *p, const struct sym_vars *v,
                                       size_t var) {
    struct upoly u;
    up_init(&u);
    mpz_t content;
    mpz_init(content);
    struct sym_node *prod = NULL;
    unsigned k = 0;
    if (to_dense(p, var, &u) < 0 || u.deg == 0)
        goto decline;
    strip(&u, content, &k);
    prod = sym_nary(SYM_MUL, NULL, 0);
    if (!prod || sym_append(prod, sym_num_mpz(content)) < 0)
        goto decline;
    if (k && sym_append(prod, k == 1 ? sym_symbol(v->name[var])
                                     : sym_bin(SYM_POW, sym_symbol(v->name[var]), sym_int(k))) < 0)
        goto decline;
    struct root_sink sink = {v->name[var], prod, NULL, 0, 0};
    if (u.deg > 0 && take_roots(&u, &sink) < 0)
        goto decline;
    if (u.deg != 0 && !(u.deg == 2 && complex_roots(&u)))
        goto decline;
    if (u.deg > 0 && sym_append(prod, dense_tree(&u, v->name[var])) < 0)
        goto decline;
    up_clear(&u);
    mpz_clear(content);
    return sym_normalize(prod);
decline:
    sym_free(prod);
    up_clear(&u);
    mpz_clear(content);
    return NULL;
}

/* p's coefficients times the least common multiple of their denominators
 * into u (integers). */
static void to_dense_scaled(const struct sym_poly *p, size_t var, struct upoly *u) {
    mpz_t l;
    mpz_init_set_ui(l, 1);
    for (size_t i = 0; i < p->n; i++)
        mpz_lcm(l, l, mpq_denref(p->t[i].c));
    for (size_t i = 0; i < p->n; i++) {
        unsigned e = p->t[i].e[var];
        mpz_divexact(u->a[e], l, mpq_denref(p->t[i].c));
        mpz_mul(u->a[e], u->a[e], mpq_numref(p->t[i].c));
        if (e > u->deg)
            u->deg = e;
    }
    mpz_clear(l);
}

#define SPLIT_SEARCH 64
#define SPLIT_BOUND (1L << 24)

/* q and the t it implies make (p*x**2 + q*x + r)*(s*x**2 + t*x + w) = u.
 * |u's coefficients| <= 2**20 (split_quartic) and |q|, |t| <= SPLIT_BOUND
 * keep every product below far from overflow; a larger factor
 * coefficient is not looked for. */
static bool try_q(const struct upoly *u, long p, long s, long r, long w, long q, long *t) {
    long a3 = mpz_get_si(u->a[3]), a2 = mpz_get_si(u->a[2]), a1 = mpz_get_si(u->a[1]);
    if (labs(q) > SPLIT_BOUND || (a3 - q * s) % p)
        return false;
    *t = (a3 - q * s) / p;
    return labs(*t) <= SPLIT_BOUND && q * w + r * *t == a1 && p * w + q * *t + r * s == a2;
}

/* The integers q, t with (p*x**2 + q*x + r)*(s*x**2 + t*x + w) = u
 * (degree 4) for these p, s, r, w, when there are: from the x**3 and x
 * coefficients, a linear system in q and t, solved directly when its
 * determinant is not 0 and by trying q in [-SPLIT_SEARCH, SPLIT_SEARCH]
 * otherwise (x**4 + x**2 + 1 = (x**2 + x + 1)*(x**2 - x + 1)). */
static bool split_with(const struct upoly *u, long p, long s, long r, long w, long *q, long *t) {
    long det = s * r - p * w;
    if (det) {
        long num = mpz_get_si(u->a[3]) * r - p * mpz_get_si(u->a[1]);
        *q = num / det;
        return num % det == 0 && try_q(u, p, s, r, w, *q, t);
    }
    for (*q = -SPLIT_SEARCH; *q <= SPLIT_SEARCH; (*q)++)
        if (try_q(u, p, s, r, w, *q, t))
            return true;
    return false;
}

/* u (degree 4, small coefficients, no rational root) as a product of two
 * integer quadratics into rest[0] and rest[1]; false when none is found
 * (irreducible, or beyond the search). */
static bool split_quartic(const struct upoly *u, mpq_t rest[][3]) {
    for (unsigned i = 0; i <= 4; i++)
        if (mpz_cmpabs_ui(u->a[i], 1UL << 20) > 0)
            return false;
    unsigned long ps[MAX_DIVISORS], rs[MAX_DIVISORS];
    int np = divisors(u->a[4], ps), nr = divisors(u->a[0], rs);
    long a4 = mpz_get_si(u->a[4]), a0 = mpz_get_si(u->a[0]);
    for (int i = 0; i < np; i++)
        for (int j = 0; j < nr; j++)
            for (int sign = 1; sign >= -1; sign -= 2) {
                long p = (long)ps[i], s = a4 / p, r = sign * (long)rs[j], w = a0 / r, q, t;
                if (!split_with(u, p, s, r, w, &q, &t))
                    continue;
                mpq_set_si(rest[0][0], r, 1);
                mpq_set_si(rest[0][1], q, 1);
                mpq_set_si(rest[0][2], p, 1);
                mpq_set_si(rest[1][0], w, 1);
                mpq_set_si(rest[1][1], t, 1);
                mpq_set_si(rest[1][2], s, 1);
                return true;
            }
    return false;
}

int sym_rational_roots(const struct sym_poly *p, size_t var, mpq_t *roots, size_t cap,
                       mpq_t rest[][3], int *rests) {
    struct upoly u;
    up_init(&u);
    mpz_t content;
    mpz_init(content);
    int n = -1;
    unsigned k = 0;
    to_dense_scaled(p, var, &u);
    if (u.deg == 0)
        goto out;
    strip(&u, content, &k);
    struct root_sink sink = {NULL, NULL, roots, cap, 0};
    if (k && sink_root(&sink, 0, 1, k) < 0)
        goto out;
    if (u.deg > 0 && take_roots(&u, &sink) < 0)
        goto out;
    if (u.deg == 4 && split_quartic(&u, rest)) {
        *rests = 2;
    } else if (u.deg == 2) {
        for (unsigned i = 0; i < 3; i++)
            mpq_set_z(rest[0][i], u.a[i]);
        *rests = 1;
    } else if (u.deg == 0) {
        *rests = 0;
    } else {
        goto out;
    }
    n = (int)sink.n;
out:
    up_clear(&u);
    mpz_clear(content);
    return n;
}
