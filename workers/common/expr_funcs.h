/* The function and constant names of the symbolic expression language
 * (TOOLS.md 2.3), and "did you mean" suggestions for unknown names. */
#ifndef CC_EXPR_FUNCS_H
#define CC_EXPR_FUNCS_H

#include <stdbool.h>
#include <stddef.h>

/* true for a known function of the symbolic dialect (case-sensitive),
 * including the synonyms abs and ln. */
bool cc_expr_is_function(const char *name);
/* Same for a name given as (pointer, length), not NUL-terminated. */
bool cc_expr_is_function_n(const char *name, size_t n);
/* Every known function name (synonyms included), NULL-terminated. */
const char *const *cc_expr_function_names(void);
/* The canonical spelling of a known function: "abs" -> "Abs", "ln" -> "log",
 * otherwise name itself. */
const char *cc_expr_canonical_function(const char *name);
/* true for a constant of the symbolic dialect: pi, E, I, oo, zoo, nan. */
bool cc_expr_is_constant(const char *name);
/* Self-check of the internal tables (the lookup list is sorted and names
 * the same functions as the suggestion list); for the unit tests. */
bool cc_expr_function_tables_agree(void);
/* Up to max known function names nearest to name by edit distance (ignoring
 * case), alphabetically; only names close enough to be a plausible typo.
 * out receives pointers to static strings. Returns how many were stored. */
size_t cc_expr_suggest(const char *name, const char **out, size_t max);

#endif
