/* A text's decimal literals as the exact fractions they spell, for the
 * tools that solve or compute exactly from what was written (solve_linear's
 * system, matrix's expression entries): giac reads 0.1 as a binary64, in
 * which (1 + 1e-20)*x = 1 has the root 1 and 1.0000000000000001 is 1.
 */
#ifndef CC_SYM_DECIMALS_H
#define CC_SYM_DECIMALS_H

#include <stdbool.h>
#include <stddef.h>

/* s[0..n) with every decimal literal written as a fraction ("0.1" ->
 * "(1/10**1)", "2.5e-20" -> "(25/10**21)"; an implicit multiplication
 * after it made explicit: "2.5x" -> "(25/10**1)*x"), as a malloc'd string;
 * *had_float is then set. NULL when the text is to be read as given (it
 * has no decimal literal, does not tokenise, or memory ran out). */
char *sym_exact_decimals(const char *s, size_t n, bool *had_float);

#endif
