/* The unit table behind convert_units and list_units (TOOLS.md 3.3.19,
 * 3.3.21): every accepted alias with its factor in SI base units and its
 * dimension, plus the temperature scales, which convert by offset rather
 * than by factor and so live outside the factor table.
 */
#ifndef CC_UNITS_H
#define CC_UNITS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "workers/common/tool_api.h"

/* Exponents of the base dimensions: metre, kilogram, second, byte. The
 * byte is its own "information" dimension so data sizes never convert to
 * anything physical. */
enum { CC_DIM_M, CC_DIM_KG, CC_DIM_S, CC_DIM_B, CC_DIM_COUNT };

struct cc_unit {
    const char *alias;        /* normalised spelling, e.g. "km/h" */
    double factor;            /* value of one unit in SI base units */
    signed char dim[CC_DIM_COUNT];
};

enum cc_temp_scale { CC_TEMP_NONE, CC_TEMP_K, CC_TEMP_C, CC_TEMP_F };

/* Normalise a unit name: trim, lower-case (ASCII), drop every space.
 * Returns a malloc'd string the caller frees, or NULL on OOM. */
char *cc_unit_normalise(const char *name, size_t len);

/* Trimmed copy of name (Python str.strip() for ASCII whitespace).
 * Caller frees; NULL on OOM. */
char *cc_unit_trim(const char *name, size_t len);

/* Table entry for a normalised alias, or NULL (temperatures are not in it). */
const struct cc_unit *cc_unit_find(const char *norm);

/* Scale of a normalised temperature alias, or CC_TEMP_NONE. */
enum cc_temp_scale cc_unit_temperature(const char *norm);

/* Convert v between two temperature scales with the formulas of 3.3.19,
 * evaluated in the same order as written there (binary64). */
double cc_unit_convert_temperature(double v, enum cc_temp_scale from, enum cc_temp_scale to);

/* true when both units measure the same dimension. */
bool cc_unit_same_dimension(const struct cc_unit *a, const struct cc_unit *b);

/* Every alias (factor table and temperature), sorted by code point.
 * Points into static storage; *count receives the number (142). */
const char *const *cc_unit_all_aliases(size_t *count);

/* The "Known: ..." list of the unknown-unit message: every factor-table
 * alias shorter than 6 bytes, sorted, joined by ", ". Static storage. */
const char *cc_unit_short_alias_list(void);

/* round(x, 6) as Python does it: the exact binary value of x rounded
 * half-even at the sixth decimal, then correctly rounded back to binary64.
 * Non-finite values pass through unchanged. */
double cc_round_half_even6(double x);

/* Tool handlers (tool_api.h contract). */
json_t *cc_tool_convert_units(json_t *args, cc_wctx *ctx);
json_t *cc_tool_list_units(json_t *args, cc_wctx *ctx);

#endif
