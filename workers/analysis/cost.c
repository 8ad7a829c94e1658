/* Cost classes of the refinement model (complexity.h): n^k (log n)^l,
 * with k a whole or half power (sqrt n), or 2^n, compared and printed. */
#include <stdio.h>
#include <string.h>

#include "workers/analysis/complexity.h"

bool cx_cost_gt(struct cx_cost a, struct cx_cost b) {
    if (a.exp != b.exp) return a.exp;
    if (2 * a.k + a.half != 2 * b.k + b.half) return 2 * a.k + a.half > 2 * b.k + b.half;
    return a.log > b.log;
}

char *cx_cost_text(struct cx_cost c, char *buf, size_t cap) {
    char lg[24] = "", pw[32] = "";
    if (c.log == 1) snprintf(lg, sizeof lg, "log n");
    else if (c.log > 1) snprintf(lg, sizeof lg, "log^%d n", c.log);
    if (c.k == 1) snprintf(pw, sizeof pw, "n");
    else if (c.k > 1) snprintf(pw, sizeof pw, "n^%d", c.k);
    if (c.half) snprintf(pw + strlen(pw), sizeof pw - strlen(pw), "%ssqrt n", c.k ? " " : "");
    if (c.exp) snprintf(buf, cap, "O(2^n)");
    else if (!pw[0]) snprintf(buf, cap, "O(%s)", c.log ? lg : "1");
    else snprintf(buf, cap, c.log ? "O(%s %s)" : "O(%s)", pw, lg);
    return buf;
}
