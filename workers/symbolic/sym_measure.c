/* count_ops-like complexity (see sym_measure.h). */
#include "workers/symbolic/sym_measure.h"

/* x**-1 */
static bool is_reciprocal(const struct sym_node *n) {
    return n->kind == SYM_POW && n->n == 2 && sym_is_int_value(n->kid[1], -1);
}

/* The ops a negative term of a sum saves when it is written as a
 * subtraction (x - 2*y, not x + (-2)*y): its sign, and for a coefficient of
 * exactly -1 the product with it too. 0 for a term that is not negative. */
static long subtraction_saving(const struct sym_node *t) {
    if (t->kind == SYM_NUM)
        return mpq_sgn(t->q) < 0;
    if (t->kind == SYM_FLOAT)
        return t->f < 0;
    if (t->kind != SYM_MUL || t->n < 2 || t->kid[0]->kind != SYM_NUM || mpq_sgn(t->kid[0]->q) >= 0)
        return 0;
    return 1 + (mpz_cmp_si(mpq_numref(t->kid[0]->q), -1) == 0 &&
                mpz_cmp_ui(mpq_denref(t->kid[0]->q), 1) == 0);
}

/* A sum as SymPy counts it: one ADD or SUB per extra term, negative terms
 * as subtractions, and one NEG when no term is positive (-x - y). */
static long sum_ops(const struct sym_node *n) {
    long c = n->n ? (long)n->n - 1 : 0;
    size_t negative = 0;
    for (size_t i = 0; i < n->n; i++) {
        long save = subtraction_saving(n->kid[i]);
        negative += save > 0;
        c += sym_count_ops(n->kid[i]) - save;
    }
    return c + (n->n && negative == n->n);
}

long sym_count_ops(const struct sym_node *n) {
    long c = 0;
    switch (n->kind) {
    case SYM_NUM:
        c += mpq_sgn(n->q) < 0;
        c += mpz_cmp_ui(mpq_denref(n->q), 1) != 0;
        return c;
    case SYM_FLOAT: return n->f < 0;
    case SYM_ADD: return sum_ops(n);
    case SYM_MUL: { /* a/b*c: the factors above the bar, plus one division */
        long num = 0, den = 0;
        for (size_t i = 0; i < n->n; i++)
            if (is_reciprocal(n->kid[i]))
                den++;
            else
                num++;
        c = (num ? num - 1 : 0) + (den ? 1 : 0);
        for (size_t i = 0; i < n->n; i++)
            c += is_reciprocal(n->kid[i]) ? sym_count_ops(n->kid[i]->kid[0]) : sym_count_ops(n->kid[i]);
        return c;
    }
    case SYM_POW:
        if (is_reciprocal(n)) /* 1/x: one division */
            return 1 + sym_count_ops(n->kid[0]);
        c = 1;
        break;
    case SYM_FUNC:
    case SYM_REL: c = 1; break;
    default: break;
    }
    for (size_t i = 0; i < n->n; i++)
        c += sym_count_ops(n->kid[i]);
    return c;
}
