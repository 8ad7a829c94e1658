/* Binary search of a (pointer, length) name in a sorted name table (see
 * expr_names.h). */
#include "workers/common/expr_names.h"

#include <string.h>

/* strcmp order between s[0..n) (not NUL-terminated) and the string name. */
static int compare_n(const char *s, size_t n, const char *name) {
    size_t k = 0;
    for (; k < n && name[k]; k++)
        if (s[k] != name[k]) return (unsigned char)s[k] < (unsigned char)name[k] ? -1 : 1;
    if (k < n) return 1;            /* name is a proper prefix of s */
    return name[k] ? -1 : 0;        /* s is a proper prefix of name, or equal */
}

bool cc_name_in(const char *s, size_t n, const char *const *sorted, size_t count) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = compare_n(s, n, sorted[mid]);
        if (c == 0) return true;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return false;
}

bool cc_names_sorted(const char *const *sorted, size_t count) {
    for (size_t i = 1; i < count; i++)
        if (strcmp(sorted[i - 1], sorted[i]) >= 0) return false;
    return true;
}
