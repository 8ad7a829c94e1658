/* CODECALC_CAPABILITY_POLICY's one parser (cap_policy.h says why). */
#include "protocol/cap_policy.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static bool directive_is(const char *d, size_t n, const char *word) {
    return strlen(word) == n && strncasecmp(d, word, n) == 0;
}

int cc_cap_policy_parse(const char *text, struct cc_cap_policy *p, const char **bad, size_t *bad_len) {
    memset(p, 0, sizeof *p);
    int rc = 0;
    for (const char *q = text; q && *q; q++)
        if (!isspace((unsigned char)*q)) p->active = true;
    for (const char *q = text; p->active && *q;) {
        const char *end = strchrnul(q, ',');
        const char *a = q, *b = end;
        while (a < b && isspace((unsigned char)*a)) a++;
        while (b > a && isspace((unsigned char)b[-1])) b--;
        size_t n = (size_t)(b - a);
        if (directive_is(a, n, "deny-network") || directive_is(a, n, "no-network") ||
            directive_is(a, n, "default-deny-network"))
            p->deny_network = true;
        else if (directive_is(a, n, "allow-network") || directive_is(a, n, "grant-network"))
            p->grant_network = true;
        else if (directive_is(a, n, "strict"))
            p->strict = true;
        else if (n && rc == 0) {
            rc = -1;
            if (bad) *bad = a;
            if (bad_len) *bad_len = n;
        }
        q = *end ? end + 1 : end;
    }
    return rc;
}
