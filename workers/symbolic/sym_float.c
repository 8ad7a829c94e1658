/* Exact -> float conversion of result trees (see sym_float.h). */
#include "workers/symbolic/sym_float.h"

#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

/* Significant digits of a float answer (sympy's Float of a double). */
#define FLOAT_DIGITS 15

/* Nearest binary64 to q (mpq_get_d truncates; MPFR rounds correctly). */
static double q_to_double(const mpq_t q) {
    mpfr_t x;
    mpfr_init2(x, 53);
    mpfr_set_q(x, q, MPFR_RNDN);
    double d = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    return d;
}

/* n (a float node) keeps the decimal text of x when no double holds it:
 * f is then only the sign (and order of magnitude) for the printer. */
static void keep_decimal(struct sym_node *n, mpfr_srcptr x) {
    char *s = NULL;
    if (mpfr_asprintf(&s, "%.*Re", FLOAT_DIGITS - 1, x) < 0)
        return;
    n->name = strdup(s);
    mpfr_free_str(s);
    if (!n->name)
        return;
    n->ival = FLOAT_DIGITS;
    if (n->f == 0)
        n->f = mpfr_signbit(x) ? -DBL_TRUE_MIN : DBL_TRUE_MIN;
}

/* Beyond binary64's range: a nonzero value that rounds to 0, or inf. */
static bool out_of_range(double d, mpfr_srcptr x) {
    return isinf(d) || (d == 0 && !mpfr_zero_p(x));
}

static void num_to_float(struct sym_node *n) {
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_q(x, n->q, MPFR_RNDN);
    double d = q_to_double(n->q);
    mpq_clear(n->q);
    n->kind = SYM_FLOAT;
    n->f = d;
    if (out_of_range(d, x))
        keep_decimal(n, x);
    mpfr_clear(x);
}

bool sym_decimal_is_zero(const char *dec) {
    for (const char *p = dec; *p && *p != 'e' && *p != 'E'; p++)
        if (*p >= '1' && *p <= '9')
            return false;
    return true;
}

struct sym_node *sym_float_decimal(const char *dec) {
    mpfr_t x;
    mpfr_init2(x, 64);
    if (mpfr_set_str(x, dec, 10, MPFR_RNDN) != 0)
        mpfr_set_d(x, strtod(dec, NULL), MPFR_RNDN);
    double d = strtod(dec, NULL);
    struct sym_node *n = sym_float(d);
    if (n && out_of_range(d, x))
        keep_decimal(n, x);
    mpfr_clear(x);
    return n;
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
