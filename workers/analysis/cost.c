/* Cost classes of the refinement model (complexity.h): n^k (log n)^l or
 * 2^n, compared and printed. */
#include <stdio.h>

#include "workers/analysis/complexity.h"

bool cx_cost_gt(struct cx_cost a, struct cx_cost b) {
    if (a.exp != b.exp) return a.exp;
    if (a.k != b.k) return a.k > b.k;
    return a.log > b.log;
}

char *cx_cost_text(struct cx_cost c, char *buf, size_t cap) {
    char lg[24] = "";
    if (c.log == 1) snprintf(lg, sizeof lg, "log n");
    else if (c.log > 1) snprintf(lg, sizeof lg, "log^%d n", c.log);
    if (c.exp) snprintf(buf, cap, "O(2^n)");
    else if (c.k == 0) snprintf(buf, cap, "O(%s)", c.log ? lg : "1");
    else if (c.k == 1) snprintf(buf, cap, c.log ? "O(n %s)" : "O(n)", lg);
    else if (c.log) snprintf(buf, cap, "O(n^%d %s)", c.k, lg);
    else snprintf(buf, cap, "O(n^%d)", c.k);
    return buf;
}

