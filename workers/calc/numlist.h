/* The "nums" list argument shared by calc_stats and percentiles: a JSON
 * array of finite numbers read into a plain double array, validated with the
 * same coded messages in both tools.
 *
 * Ownership: a successful read hands the caller a malloc'd array to free();
 * a rejection is a new reference the caller returns as its result.
 */
#ifndef CC_CALC_NUMLIST_H
#define CC_CALC_NUMLIST_H

#include <gmp.h>
#include <jansson.h>
#include <stddef.h>

/* Read args.nums, which must hold at least min_n (>= 1) finite numbers.
 * Returns 0 with the values in *out (caller frees) and their count in *n.
 * Returns -1 with *err set to a "validation" rejection, or to NULL when out
 * of memory; either way the handler answers *err as is. tool names the tool
 * in the non-finite message ("stats needs finite numbers"). */
int cc_numlist_read(const json_t *args, size_t min_n, const char *tool, double **out, size_t *n,
                    json_t **err);

/* As cc_numlist_read, but the exact values: an integer (a JSON integer, or
 * one past 2^63 that the transport carries as digits) is itself, not the
 * double nearest it; anything else is the double it reads as. Integers
 * past 2^53 differ from their doubles (2^53 + 1 reads as 2^53), and
 * statistics of the doubles answered stdev 0.0 for values that differ.
 * Success hands the caller an array of n initialised mpq_t to release with
 * cc_numlist_free_q(). */
int cc_numlist_read_q(const json_t *args, size_t min_n, const char *tool, mpq_t **out, size_t *n,
                      json_t **err);
void cc_numlist_free_q(mpq_t *v, size_t n);

/* Sort exact values ascending. */
void cc_numlist_sort_q(mpq_t *v, size_t n);

#endif
