/* Cost classes of the refinement model (complexity.h): n^k (log n)^l
 * (log log n)^m, with k a whole or half power (sqrt n), or 2^n, n^k n!,
 * n^n, compared and printed. */
#include <stdio.h>
#include <string.h>

#include "workers/analysis/complexity.h"

bool cx_cost_gt(struct cx_cost a, struct cx_cost b) {
    if (a.fact != b.fact) return a.fact > b.fact;
    if (a.fact == 0 && a.exp != b.exp) return a.exp;
    if (2 * a.k + a.half != 2 * b.k + b.half) return 2 * a.k + a.half > 2 * b.k + b.half;
    if (a.log != b.log) return a.log > b.log;
    return a.loglog > b.loglog;
}

char *cx_cost_text(struct cx_cost c, char *buf, size_t cap) {
    char lg[40] = "", pw[32] = "";
    bool ve = c.graph && c.k == 1 && !c.half; /* n is V + E */
    if (c.log == 1) snprintf(lg, sizeof lg, ve ? "log V" : "log n");
    else if (c.log > 1) snprintf(lg, sizeof lg, "log^%d n", c.log);
    if (c.loglog) snprintf(lg + strlen(lg), sizeof lg - strlen(lg), "%slog log n", lg[0] ? " " : "");
    if (ve) snprintf(pw, sizeof pw, lg[0] ? "(V + E)" : "V + E");
    else if (c.k == 1) snprintf(pw, sizeof pw, "n");
    else if (c.k > 1) snprintf(pw, sizeof pw, "n^%d", c.k);
    if (c.half) snprintf(pw + strlen(pw), sizeof pw - strlen(pw), "%ssqrt n", c.k ? " " : "");
    char poly[80];
    if (!pw[0]) snprintf(poly, sizeof poly, "%s", lg[0] ? lg : "1");
    else snprintf(poly, sizeof poly, lg[0] ? "%s %s" : "%s", pw, lg);
    if (c.fact == 2) snprintf(buf, cap, "O(n^n)");
    else if (c.fact == 1) snprintf(buf, cap, strcmp(poly, "1") ? "O(%s * n!)" : "O(n!)", poly);
    else if (c.exp) snprintf(buf, cap, strcmp(poly, "1") ? "O(%s * 2^n)" : "O(2^n)", poly);
    else snprintf(buf, cap, "O(%s)", poly);
    return buf;
}
