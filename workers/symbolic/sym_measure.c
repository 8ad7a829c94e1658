/* count_ops-like complexity (see sym_measure.h). */
#include "workers/symbolic/sym_measure.h"

long sym_count_ops(const struct sym_node *n) {
    long c = 0;
    switch (n->kind) {
    case SYM_NUM:
        c += mpq_sgn(n->q) < 0;
        c += mpz_cmp_ui(mpq_denref(n->q), 1) != 0;
        return c;
    case SYM_FLOAT: return n->f < 0;
    case SYM_ADD:
    case SYM_MUL: c = n->n ? (long)n->n - 1 : 0; break;
    case SYM_POW:
    case SYM_FUNC:
    case SYM_REL: c = 1; break;
    default: break;
    }
    for (size_t i = 0; i < n->n; i++)
        c += sym_count_ops(n->kid[i]);
    return c;
}
