/* Result builders, big-integer JSON helpers and the Python-style float repr
 * shared by every worker. */
#include "workers/common/tool_api.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cc_codes[8] = {
    "validation", "runtime_unavailable", "timeout", "resource_exhausted",
    "permission_denied", "dependency_missing", "worker_failure", "internal",
};

static const char *const remedies[8] = {
    "fix the arguments and retry; the message names the field",
    "install the runtime, or call list_languages to see what this host has",
    "raise `timeout`, or reduce the work; a partial result is not returned",
    "raise the relevant ceiling (max_memory_mb, max_output_kb) or reduce the work",
    "the path or operation is outside what this server permits; it will not succeed on retry",
    "install the named optional component; the message says how",
    "the session is unusable \xe2\x80\x94 call session_stop and start a new one",
    "a defect in codecalc; the message is worth reporting verbatim",
};

const char *cc_default_remedy(const char *code) {
    for (int i = 0; i < 8; i++)
        if (code && strcmp(code, cc_codes[i]) == 0) return remedies[i];
    return NULL;
}

static void *xcheck(void *p) {
    if (!p) {
        fputs("codecalc: out of memory\n", stderr);
        abort();
    }
    return p;
}

json_t *cc_err(const char *code, const char *fmt, ...) {
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0) xcheck(NULL);

    const char *remedy = cc_default_remedy(code);
    if (!remedy) {
        char *wrapped = NULL;
        if (asprintf(&wrapped, "[unclassified code '%s'] %s", code ? code : "(null)", msg) < 0)
            xcheck(NULL);
        free(msg);
        msg = wrapped;
        code = "internal";
        remedy = cc_default_remedy(code);
    }
    json_t *r = xcheck(json_object());
    json_object_set_new(r, "ok", json_false());
    json_object_set_new(r, "code", json_string(code));
    json_object_set_new(r, "error", json_stringn_nocheck(msg, strlen(msg)));
    json_object_set_new(r, "remedy", json_string(remedy));
    free(msg);
    return r;
}

json_t *cc_ok(void) {
    json_t *r = xcheck(json_object());
    json_object_set_new_nocheck(r, "ok", json_true()); /* a literal key: no UTF-8 check */
    return r;
}

/* ---- big integers ------------------------------------------------------ */

json_t *cc_json_mpz(const mpz_t v) {
    /* A JSON number beyond 2^53 loses digits in every JavaScript client
     * (and in any parser that reads numbers as binary64), so such integers
     * travel as decimal strings; smaller ones stay numbers. */
    if (mpz_sizeinbase(v, 2) <= 53) return xcheck(json_integer((json_int_t)mpz_get_si(v)));
    char *buf = xcheck(malloc(mpz_sizeinbase(v, 10) + 2));
    mpz_get_str(buf, 10, v);
    json_t *s = xcheck(json_string(buf));
    free(buf);
    return s;
}

static bool all_digits(const char *s, size_t n) {
    size_t i = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    if (i == n) return false;
    for (; i < n; i++)
        if (!isdigit((unsigned char)s[i])) return false;
    return true;
}

/* The text of a string argument: a big integer's digits (without the
 * marker), else the string itself. */
static const char *string_text(const json_t *j, size_t *n, bool *big) {
    const char *d = cc_json_bigint_digits(j, n);
    *big = d != NULL;
    if (d) return d;
    *n = json_string_length(j);
    return json_string_value(j);
}

int cc_json_get_mpz(const json_t *j, mpz_t out) {
    if (json_is_integer(j)) {
        mpz_set_si(out, (long)json_integer_value(j));
        return 0;
    }
    if (json_is_real(j)) {
        double d = json_real_value(j);
        if (!isfinite(d) || d != floor(d)) return -1;
        mpz_set_d(out, d);
        return 0;
    }
    if (!json_is_string(j)) return -1;
    size_t n;
    bool big;
    const char *s = string_text(j, &n, &big);
    if (!big) {
        while (n && isspace((unsigned char)*s)) s++, n--;
        while (n && isspace((unsigned char)s[n - 1])) n--;
        if (n > 100000 || !all_digits(s, n) || memchr(s, '\0', n)) return -1;
    }
    char *tmp = strndup(s, n);
    if (!tmp) return -1;
    int rc = mpz_set_str(out, tmp[0] == '+' ? tmp + 1 : tmp, 10);
    free(tmp);
    return rc == 0 ? 0 : -1;
}

int cc_json_get_int_exact(const json_t *j, mpz_t out) {
    /* From 2^53 on a float is not the integer its writer meant: 1e23 reads
     * as 99999999999999991611392, and 2^53 + 1 as 2^53. Such integers come
     * as JSON integers (the transport keeps their digits) or as strings. */
    if (json_is_real(j) && !(fabs(json_real_value(j)) < 9007199254740992.0)) return -1;
    return cc_json_get_mpz(j, out);
}

int cc_json_get_double(const json_t *j, double *out) {
    if (json_is_integer(j)) {
        *out = (double)json_integer_value(j);
        return 0;
    }
    if (json_is_real(j)) {
        *out = json_real_value(j);
        return 0;
    }
    if (!json_is_string(j)) return -1;
    size_t n;
    bool big;
    const char *s = string_text(j, &n, &big);
    if (n == 0 || n > 4096 || memchr(s, '\0', n)) return -1;
    char *tmp = strndup(s, n);
    if (!tmp) return -1;
    char *end;
    errno = 0;
    double d = strtod(tmp, &end);
    while (*end && isspace((unsigned char)*end)) end++;
    bool ok = end != tmp && *end == '\0';
    /* strtod also accepts hex floats and "nan"/"inf" words; a numeric
     * string here means a plain decimal number. */
    for (const char *p = tmp; ok && *p; p++)
        if (isalpha((unsigned char)*p) && *p != 'e' && *p != 'E') ok = false;
    free(tmp);
    if (!ok) return -1;
    *out = d;
    return 0;
}

/* ---- Python-style float repr ------------------------------------------ */

char *cc_float_repr(double d, char buf[32]) {
    if (isnan(d)) return strcpy(buf, "nan");
    if (isinf(d)) return strcpy(buf, d < 0 ? "-inf" : "inf");
    if (d == 0) return strcpy(buf, signbit(d) ? "-0.0" : "0.0");

    /* Shortest %.*e that round-trips gives the digits and the exponent. */
    char sci[40];
    int prec;
    for (prec = 0; prec < 17; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec, d);
        if (strtod(sci, NULL) == d) break;
    }
    if (prec == 17) snprintf(sci, sizeof sci, "%.16e", d);

    bool neg = sci[0] == '-';
    const char *p = sci + neg;
    char digits[24];
    int nd = 0;
    for (; *p && *p != 'e'; p++)
        if (isdigit((unsigned char)*p)) digits[nd++] = *p;
    digits[nd] = '\0';
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') digits[--nd] = '\0';

    char *o = buf;
    if (neg) *o++ = '-';
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 < 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = -1; i > exp10; i--) *o++ = '0';
            memcpy(o, digits, nd);
            o += nd;
        } else {
            for (int i = 0; i <= exp10; i++) *o++ = i < nd ? digits[i] : '0';
            *o++ = '.';
            if (nd > exp10 + 1) {
                memcpy(o, digits + exp10 + 1, nd - exp10 - 1);
                o += nd - exp10 - 1;
            } else {
                *o++ = '0';
            }
        }
        *o = '\0';
    } else {
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, nd - 1);
            o += nd - 1;
        }
        snprintf(o, 8, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10) % 1000);
    }
    return buf;
}
