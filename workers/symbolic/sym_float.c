/* Exact -> float conversion of result trees (see sym_float.h). */
#include "workers/symbolic/sym_float.h"

#include <mpfr.h>

/* Nearest binary64 to q (mpq_get_d truncates; MPFR rounds correctly). */
static double q_to_double(const mpq_t q) {
    mpfr_t x;
    mpfr_init2(x, 53);
    mpfr_set_q(x, q, MPFR_RNDN);
    double d = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    return d;
}

static void num_to_float(struct sym_node *n) {
    double d = q_to_double(n->q);
    mpq_clear(n->q);
    n->kind = SYM_FLOAT;
    n->f = d;
}

static bool unit_coef(const struct sym_node *parent, size_t i) {
    return parent->kind == SYM_MUL && i == 0 &&
           (sym_is_int_value(parent->kid[0], 1) || sym_is_int_value(parent->kid[0], -1));
}

void sym_to_float(struct sym_node *n) {
    if (n->kind == SYM_NUM) {
        num_to_float(n);
        return;
    }
    for (size_t i = 0; i < n->n; i++) {
        if ((n->kind == SYM_POW && i == 1) || unit_coef(n, i))
            continue;
        sym_to_float(n->kid[i]);
    }
}
