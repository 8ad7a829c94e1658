/* Known names of the symbolic dialect (see expr_funcs.h). The list is the
 * required set of TOOLS.md 2.3, the special functions LambertW, erf, erfc,
 * Ei, Si, Ci, zeta, digamma, polygamma, loggamma, the Bessel functions,
 * acot/asec/acsc/acoth, coth/sech/csch/asech/acsch, Heaviside and DiracDelta (issue 12), fibonacci, lucas,
 * bernoulli, euler, catalan, uppergamma, lowergamma, expint, Shi, Chi, elliptic_k,
 * fresnels and fresnelc (exact where they have a closed form), plus the
 * synonyms abs and ln; the symbolic
 * engine must map every one of them. */
#include "workers/common/expr_funcs.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_names.h"

/* In the order suggestions have always been drawn from (ties beyond the
 * requested count keep the earlier names), so it stays as written. */
static const char *const functions[] = {
    "sqrt", "cbrt", "root", "exp", "log", "ln", "sin", "cos", "tan", "cot", "sec", "csc",
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "Abs", "abs", "sign", "floor", "ceiling", "Min", "Max", "Mod", "factorial", "binomial",
    "gamma", "gcd", "lcm", "isprime", "nextprime", "prevprime", "prime", "primefactors",
    "factorint", "divisors", "totient", "Rational", "N", "re", "im", "conjugate", "arg",
    "integrate", "diff", "limit", "series", "summation", "product", "simplify", "expand",
    "factor", "cancel", "apart", "together", "trigsimp", "solve", "Eq", "Integral",
    "Derivative", "Sum", "LambertW", "erf", "erfc", "Ei", "Si", "Ci", "zeta", "digamma",
    "acot", "asec", "acsc", "acoth", "Heaviside", "DiracDelta", "loggamma", "besselj", "bessely",
    "besseli", "besselk", "polygamma", "beta", "harmonic", "polylog", "fibonacci", "lucas",
    "bernoulli", "uppergamma", "lowergamma", "expint", "Shi", "Chi", "elliptic_k",
    "fresnels", "fresnelc", "coth", "sech", "csch", "asech", "acsch", "euler", "catalan", NULL,
};

/* The same names in strcmp order, for the binary search every name token of
 * a symbolic parse goes through. cc_expr_function_tables_agree() (checked by
 * the unit tests) keeps the two lists the same set. */
static const char *const functions_sorted[] = {
    "Abs", "Chi", "Ci", "Derivative", "DiracDelta", "Ei", "Eq", "Heaviside", "Integral",
    "LambertW", "Max", "Min", "Mod", "N", "Rational", "Shi", "Si", "Sum", "abs", "acos", "acosh",
    "acot", "acoth", "acsc", "acsch", "apart", "arg", "asec", "asech", "asin", "asinh", "atan",
    "atan2", "atanh", "bernoulli", "besseli", "besselj", "besselk", "bessely", "beta", "binomial",
    "cancel", "catalan", "cbrt", "ceiling", "conjugate", "cos", "cosh", "cot", "coth", "csc", "csch", "diff",
    "digamma", "divisors", "elliptic_k", "erf", "erfc", "euler", "exp", "expand", "expint", "factor",
    "factorial", "factorint", "fibonacci", "floor", "fresnelc", "fresnels", "gamma", "gcd",
    "harmonic", "im", "integrate", "isprime", "lcm", "limit", "ln", "log", "loggamma",
    "lowergamma", "lucas", "nextprime", "polygamma", "polylog", "prevprime", "prime",
    "primefactors", "product", "re", "root", "sec", "sech", "series", "sign", "simplify", "sin",
    "sinh", "solve", "sqrt", "summation", "tan", "tanh", "together", "totient", "trigsimp",
    "uppergamma", "zeta",
};

/* EulerGamma is the constant (SymPy's name, and what the CAS's
 * euler_gamma prints as), not a symbol. */
static const char *const constants_sorted[] = {"E", "EulerGamma", "I", "nan", "oo", "pi", "zoo"};

bool cc_expr_is_function_n(const char *name, size_t n) {
    return cc_name_in(name, n, functions_sorted, CC_NAMES_COUNT(functions_sorted));
}

bool cc_expr_function_tables_agree(void) {
    size_t n = 0;
    for (; functions[n]; n++)
        if (!cc_expr_is_function_n(functions[n], strlen(functions[n]))) return false;
    return n == CC_NAMES_COUNT(functions_sorted) &&
           cc_names_sorted(functions_sorted, n) &&
           cc_names_sorted(constants_sorted, CC_NAMES_COUNT(constants_sorted));
}

const char *const *cc_expr_function_names(void) { return functions; }

bool cc_expr_is_function(const char *name) {
    return name && cc_expr_is_function_n(name, strlen(name));
}

const char *cc_expr_canonical_function(const char *name) {
    if (strcmp(name, "abs") == 0) return "Abs";
    if (strcmp(name, "ln") == 0) return "log";
    return name;
}

bool cc_expr_is_constant(const char *name) {
    return cc_name_in(name, strlen(name), constants_sorted, CC_NAMES_COUNT(constants_sorted));
}

/* Levenshtein distance on lower-cased text, with an early cut: names longer
 * than 64 bytes are never a typo of a known name. */
static size_t edit_distance(const char *a, const char *b) {
    size_t na = strlen(a), nb = strlen(b);
    if (na > 64 || nb > 64) return SIZE_MAX;
    size_t row[65];
    for (size_t j = 0; j <= nb; j++) row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = diag + cost;
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

/* The synonyms are not suggested: their canonical names are. */
static bool is_synonym(const char *f) {
    return strcmp(f, "abs") == 0 || strcmp(f, "ln") == 0;
}

static int by_name(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

size_t cc_expr_suggest(const char *name, const char **out, size_t max) {
    if (!name || max == 0) return 0;
    size_t len = strlen(name);
    size_t allowed = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    size_t best = SIZE_MAX;
    for (size_t i = 0; functions[i]; i++) {
        if (is_synonym(functions[i])) continue;
        size_t d = edit_distance(name, functions[i]);
        if (d < best) best = d;
    }
    if (best > allowed) return 0;
    size_t n = 0;
    for (size_t i = 0; functions[i] && n < max; i++) {
        if (is_synonym(functions[i])) continue;
        if (edit_distance(name, functions[i]) == best) out[n++] = functions[i];
    }
    qsort(out, n, sizeof *out, by_name);
    return n;
}
