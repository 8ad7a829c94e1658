/* count_ops-like complexity (see sym_measure.h). */
#include "workers/symbolic/sym_measure.h"

/* x**-1 */
static bool is_reciprocal(const struct sym_node *n) {
    return n->kind == SYM_POW && n->n == 2 && sym_is_int_value(n->kid[1], -1);
}

long sym_count_ops(const struct sym_node *n) {
    long c = 0;
    switch (n->kind) {
    case SYM_NUM:
        c += mpq_sgn(n->q) < 0;
        c += mpz_cmp_ui(mpq_denref(n->q), 1) != 0;
        return c;
    case SYM_FLOAT: return n->f < 0;
    case SYM_ADD: c = n->n ? (long)n->n - 1 : 0; break;
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
