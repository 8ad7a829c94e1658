/* compare_edge_cases' divergence (TOOLS.md 3.4.4). The spec builds two sets
 * of behaviours over the runs of one input; a set has more than one member
 * exactly when some run differs from the first, which is what is tested. */
#include "supervisor/verify/rules.h"

#include <string.h>

enum cc_divergence cc_edge_divergence(size_t n, const bool *ok, const char *const *out, const int *exit) {
    bool exact = false, content = false;
    for (size_t i = 1; i < n; i++) {
        /* Failures exiting differently (3 against 4, or a deliberate
         * exit against an uncaught error) are different behaviours. */
        if (ok[i] != ok[0] || (exit && exit[i] != exit[0])) {
            content = true;
            break;
        }
        if (strcmp(out[i], out[0]) == 0) continue;
        exact = true;
        if (!cc_verify_same_lines_sorted(out[i], out[0])) {
            content = true;
            break;
        }
    }
    return content ? CC_DIV_CONTENT : exact ? CC_DIV_ORDER : CC_DIV_NONE;
}
