/* Decimal literals rewritten as the exact fractions they spell (see
 * sym_decimals.h). */
#include "workers/symbolic/sym_decimals.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_lex.h"

/* Appends the exact fraction a decimal literal spells ("0.1" -> "(1/10**1)",
 * "2.5e-20" -> "(25/10**21)"); false when it is not one we rewrite (an
 * exponent past 10000: left to the CAS as written). */
static bool fraction_text(FILE *out, const char *t, size_t n) {
    char digits[2100];
    size_t nd = 0;
    long frac = 0, exp10 = 0;
    bool in_frac = false;
    size_t i = 0;
    for (; i < n && t[i] != 'e' && t[i] != 'E'; i++) {
        if (t[i] == '.') {
            in_frac = true;
        } else if (t[i] != '_') {
            if (nd + 1 >= sizeof digits)
                return false;
            if (nd > 0 || t[i] != '0') /* no leading zeros: 007 is not a literal */
                digits[nd++] = t[i];
            frac += in_frac;
        }
    }
    if (i < n) {
        char *end;
        exp10 = strtol(t + i + 1, &end, 10);
        if (exp10 > 10000 || exp10 < -10000)
            return false;
    }
    if (nd == 0)
        digits[nd++] = '0';
    digits[nd] = '\0';
    long e = exp10 - frac;
    if (e >= 0)
        fprintf(out, "(%s*10**%ld)", digits, e);
    else
        fprintf(out, "(%s/10**%ld)", digits, -e);
    return true;
}

char *sym_exact_decimals(const char *s, size_t n, bool *had_float) {
    struct cc_token *tok = NULL;
    size_t nt = 0;
    struct cc_expr_error ee = {0};
    if (cc_lex_all(s, n, &tok, &nt, &ee) != 0)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    bool any = false, ok = out != NULL;
    size_t copied = 0;
    for (size_t k = 0; ok && k + 1 < nt; k++) {
        if (tok[k].kind != CC_T_FLOAT)
            continue;
        fwrite(s + copied, 1, tok[k].pos - copied, out);
        /* x.5 is x times 0.5 (or nothing): x(5/10**1) would be a call */
        enum cc_tok_kind prev = k ? tok[k - 1].kind : CC_T_END;
        if (prev == CC_T_NAME || prev == CC_T_INT || prev == CC_T_FLOAT || prev == CC_T_IMAG ||
            (k && cc_tok_is(s, &tok[k - 1], ")")))
            fputc('*', out);
        if (!fraction_text(out, s + tok[k].pos, tok[k].len))
            fwrite(s + tok[k].pos, 1, tok[k].len, out);
        else
            any = true;
        copied = tok[k].pos + tok[k].len;
        /* 2.5x and 2.5(x + 1) multiplied implicitly; (25/10)x would not */
        enum cc_tok_kind next = tok[k + 1].kind;
        if (next == CC_T_NAME || next == CC_T_INT || cc_tok_is(s, &tok[k + 1], "("))
            fputc('*', out);
    }
    if (out) {
        fwrite(s + copied, 1, n - copied, out);
        ok = fclose(out) == 0 && ok;
    }
    free(tok);
    if (!ok || !any) {
        free(buf);
        return NULL;
    }
    *had_float = true;
    return buf;
}
