/* Exact number formatting shared by the programmer-mode calculator tools.
 *
 * Everything here works on the exact binary value of a double (GMP/MPFR),
 * never on printf's idea of it, so results match the spec's "correctly
 * rounded" and "half-even" rules bit for bit on every libc.
 *
 * Ownership: functions returning char * hand the caller a malloc'd string to
 * free(); NULL means out of memory. JSON builders return new references.
 */
#ifndef CC_CALC_NUMFMT_H
#define CC_CALC_NUMFMT_H

#include <gmp.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Largest |exponent| accepted in a decimal literal ("1e100000"): bigger ones
 * would make the exact rational arbitrarily expensive to build. */
#define CC_NF_EXP_MAX 100000L

/* The binary64 nearest to q (ties to even), with IEEE subnormals and
 * overflow to +-inf. */
double cc_nf_mpq_to_double(const mpq_t q);

/* out = q rounded to the nearest integer, ties to even. */
void cc_nf_mpq_round(mpz_t out, const mpq_t q);

/* Python's round(x, ndigits) for ndigits >= 0: the exact value of x rounded
 * half-even to ndigits decimals, then the double nearest that decimal.
 * Non-finite x comes back unchanged; the sign of a zero result follows x. */
double cc_nf_round_dec(double x, int ndigits);

/* The exact rational x rounded half-even to ndigits >= 0 decimals, then the
 * double nearest that decimal (a tie is decided on x itself, not on a
 * double near it: 1/400000 at 6 decimals is 0.000002). */
double cc_nf_round_dec_q(const mpq_t x, int ndigits);

/* The rounding of the tools' 6-decimal fields (percent, per_day,
 * interpolated): x rounded half-even to ndigits decimals, as TOOLS.md
 * says, except that a nonzero x those decimals would round to 0 is rounded
 * to ndigits significant digits instead: a small value is never answered
 * as zero (1/10^12 as a percent is 1e-10, not 0.0). Then the double
 * nearest that decimal. */
double cc_nf_round_keep_q(const mpq_t x, int ndigits);

/* Parse [+-] (digits [. digits*] | . digits) [(e|E) [+-] digits] from the n
 * bytes at s (no surrounding space) into out. Returns 0, -1 when the text
 * is not such a literal, -2 when the exponent exceeds CC_NF_EXP_MAX. */
int cc_nf_parse_decimal(const char *s, size_t n, mpq_t out);

/* The exact value of finite x rounded half-even to sig significant digits,
 * then written in fixed point rounded half-even to frac fractional digits,
 * trailing fractional zeros and a bare '.' removed. A value that rounds to
 * zero prints "0". Caller frees. */
char *cc_nf_double_fixed(double x, int sig, int frac);

/* Digits of u >= 0 in base (2..36, lowercase), left-padded with '0' to at
 * least width characters. Caller frees. */
char *cc_nf_mpz_padded(const mpz_t u, int base, size_t width);

/* json_real(d), or json_null() when d is not finite (TOOLS.md 0.3). */
json_t *cc_nf_real(double d);

/* json_object_set_new that reports failure, including a NULL val (an
 * allocation that failed upstream). Returns true on success. */
bool cc_nf_set(json_t *obj, const char *key, json_t *val);

/* The last step of a builder that chained cc_nf_set: obj when ok, else
 * NULL (the handler's "internal failure") after dropping obj. Takes over
 * the caller's reference to obj either way. */
json_t *cc_nf_finish(json_t *obj, bool ok);

/* The double read from a JSON number argument, for messages and checks;
 * returns -1 when j is absent or not a number. Booleans are not numbers. */
int cc_nf_get_number(const json_t *j, double *out);

#endif
