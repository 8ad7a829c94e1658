/* Membership of a name, given as (pointer, length) straight from the source
 * text, in a static table of names sorted by strcmp order. The expression
 * front end asks this for every name token (keywords, banned words, known
 * functions), so it is a binary search instead of a scan with strlen. */
#ifndef CC_EXPR_NAMES_H
#define CC_EXPR_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* true when s[0..n) equals one of sorted[0..count). sorted must be in
 * strcmp order (byte order); NULL entries are not allowed. */
bool cc_name_in(const char *s, size_t n, const char *const *sorted, size_t count);

/* true when the table is in strictly increasing strcmp order (for tests). */
bool cc_names_sorted(const char *const *sorted, size_t count);

#define CC_NAMES_COUNT(t) (sizeof(t) / sizeof((t)[0]))

#endif
