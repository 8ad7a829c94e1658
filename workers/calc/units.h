/* The unit table behind convert_units and list_units (TOOLS.md 3.3.19,
 * 3.3.21): every accepted alias with its factor in SI base units and its
 * dimension, plus the temperature scales, which convert by offset rather
 * than by factor and so live outside the factor table.
 */
#ifndef CC_UNITS_H
#define CC_UNITS_H

#include <gmp.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "workers/common/tool_api.h"

/* Exponents of the base dimensions: metre, kilogram, second, byte, kelvin,
 * turn. The byte is its own "information" dimension so data sizes never
 * convert to anything physical. The kelvin appears only in compound units
 * (J/(kg*K)), where a temperature is the size of a degree; the table's own
 * temperatures are scales, handled apart. A plane angle is its own
 * dimension too (its unit the turn, so degrees, grads and arcminutes are
 * exact), so an angular speed (rpm, rad/s) never reads as a frequency:
 * 1 rpm is 1/60 Hz of revolutions but 0.105 rad/s. The mole (amount of
 * substance) is the seventh. */
enum { CC_DIM_M, CC_DIM_KG, CC_DIM_S, CC_DIM_B, CC_DIM_K, CC_DIM_TURN, CC_DIM_MOL, CC_DIM_COUNT };

struct cc_unit {
    const char *alias;        /* case-sensitive spelling, e.g. "km/h", "mW" */
    const char *factor;       /* one unit in SI base units: exact decimal or "p/q" text */
    signed char dim[CC_DIM_COUNT];
    bool approx;              /* the factor is itself a rounded value */
    const char *note;         /* which of several readings in use this is, or NULL */
};

enum cc_temp_scale { CC_TEMP_NONE, CC_TEMP_K, CC_TEMP_C, CC_TEMP_F };

/* A resolved unit name: a factor-table unit or a temperature scale, the
 * table spelling it resolved to, and whether that took a case-insensitive
 * match (reported to the caller as interpreted_as). */
struct cc_unit_ref {
    const struct cc_unit *unit; /* NULL for a temperature */
    enum cc_temp_scale temp;
    const char *spelling;
    bool folded;
};

/* Resolves a normalised name: an exact-case spelling always wins; else,
 * for a spelling written in a single case (gb, KM) or a capitalised word
 * of four letters or more (Mile), a case-insensitive
 * match is accepted only when it names exactly one unit.
 * 0 with *out; -1 unknown; -2 ambiguous, with the matching spellings in
 * spell[0..*nspell). */
int cc_unit_resolve(const char *norm, struct cc_unit_ref *out, const char **spell, size_t cap,
                    size_t *nspell);

/* Up to cap spellings within a small edit distance of norm (case ignored),
 * nearest first. */
size_t cc_unit_close_matches(const char *norm, const char **out, size_t cap);

/* Normalise a unit name: trim and drop every space (case is kept: it
 * decides between m milli and M mega).
 * Returns a malloc'd string the caller frees, or NULL on OOM. */
char *cc_unit_normalise(const char *name, size_t len);

/* The note for a name that took a case-insensitive match to a unit whose
 * reading differs from the usual one of that spelling ("kb", "Mb/s": a
 * lowercase b usually means bits, the table's kB is bytes), or NULL. */
const char *cc_unit_fold_note(const char *spelled, const struct cc_unit_ref *r);

/* A run of superscript characters at s (², ⁻¹, ¹²): the bytes it spans
 * (0 when s does not start one); with out, its ASCII ("-1") NUL-terminated
 * in out[0..cap), or "" when it does not fit. */
size_t cc_unit_superscript(const char *s, char *out, size_t cap);

/* Trimmed copy of name (Python str.strip() for ASCII whitespace).
 * Caller frees; NULL on OOM. */
char *cc_unit_trim(const char *name, size_t len);

/* Table entry for an exact-case normalised alias, or NULL (temperatures are
 * not in it). */
const struct cc_unit *cc_unit_find(const char *norm);

/* Scale of a normalised temperature alias, or CC_TEMP_NONE. */
enum cc_temp_scale cc_unit_temperature(const char *norm);


/* true when both units measure the same dimension. */
bool cc_unit_same_dimension(const struct cc_unit *a, const struct cc_unit *b);

/* Every alias (factor table and temperature), sorted by code point.
 * Points into static storage; *count receives the number (142). */
const char *const *cc_unit_all_aliases(size_t *count);

/* The "Known: ..." list of the unknown-unit message: every factor-table
 * alias shorter than 6 bytes, sorted, joined by ", ". Static storage. */
const char *cc_unit_short_alias_list(void);

/* out = the exact value of a factor text (a decimal, or decimal/decimal). */
void cc_unit_factor_q(const char *text, mpq_t out);

/* The validation error for a name that did not resolve (rc -1 unknown, -2
 * ambiguous with spell[0..n)). */
json_t *cc_unit_name_error(const char *norm, int rc, const char **spell, size_t n);

/* A compound unit (unit_compound.c): products, quotients and integer
 * powers of table units, J/s, kg*m/s^2, W/(m^2*K), 1/s. Returns -1 when
 * norm has no operator (not a compound: the caller reports the unknown
 * name), -2 with *err the validation error (NULL when out of memory), or
 * 0 with *out a synthetic table entry the caller releases with
 * cc_unit_compound_free(), *spelling its name with each part as the table
 * spells it (owned by *out) and *folded whether a part took a
 * case-insensitive match. */
int cc_unit_compound(const char *norm, struct cc_unit **out, char **spelling, bool *folded, json_t **err);
void cc_unit_compound_free(struct cc_unit *u);

/* Tool handlers (tool_api.h contract). */
json_t *cc_tool_convert_units(json_t *args, cc_wctx *ctx);
json_t *cc_tool_list_units(json_t *args, cc_wctx *ctx);

#endif
