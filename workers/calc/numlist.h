/* The "nums" list argument shared by calc_stats and percentiles: a JSON
 * array of finite numbers read into a plain double array, validated with the
 * same coded messages in both tools.
 *
 * Ownership: a successful read hands the caller a malloc'd array to free();
 * a rejection is a new reference the caller returns as its result.
 */
#ifndef CC_CALC_NUMLIST_H
#define CC_CALC_NUMLIST_H

#include <jansson.h>
#include <stddef.h>

/* Read args.nums, which must hold at least min_n (>= 1) finite numbers.
 * Returns 0 with the values in *out (caller frees) and their count in *n.
 * Returns -1 with *err set to a "validation" rejection, or to NULL when out
 * of memory; either way the handler answers *err as is. tool names the tool
 * in the non-finite message ("stats needs finite numbers"). */
int cc_numlist_read(const json_t *args, size_t min_n, const char *tool, double **out, size_t *n,
                    json_t **err);

/* Sort v ascending (the values are finite, so the order is total). */
void cc_numlist_sort(double *v, size_t n);

#endif
