/* Decimal rendering of approximate numbers, following the conventions of
 * TOOLS.md 2.3 (the same rules as sympy/mpmath, which clients compare with):
 * a Float prints with 15 significant digits, a numeric approximation
 * (`value`) with 12. All returned strings are malloc'd; the caller frees.
 * NULL means allocation failure or an unparsable input. */
#ifndef CC_SYM_NUMERIC_H
#define CC_SYM_NUMERIC_H

#include <gmp.h>
#include <stdbool.h>

/* dps significant digits; fixed notation when the decimal exponent e has
 * -5 < e < dps, else d.ddde±X. strip removes trailing zeros (keeping one
 * fractional digit). d must be finite. */
char *sym_fmt_double(double d, int dps, bool strip);
/* Same for a decimal string of any precision ("1.4142135623730950488",
 * "-3e-40"). */
char *sym_fmt_decimal(const char *dec, int dps, bool strip);

/* The `value` of evaluate_expression from a high-precision real and
 * imaginary part (decimal strings; im may be NULL for a real number).
 * exact_zero selects the literal "0". */
char *sym_numeric_value(const char *re, const char *im, bool exact_zero);

/* sym_numeric_value of an integer below 2**132 in magnitude, without the
 * decimal text: such an integer is exact at every precision the text
 * passes through (160 bits, 41 digits, 256 bits), so the digits are the
 * same. */
char *sym_integer_value(const mpz_t n);

#endif
