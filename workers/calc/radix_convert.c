/* radix_convert (TOOLS.md 3.3.11): a number with optional fraction from one
 * base (2..36) to another, marking fractions that never terminate there. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Enough for every binary64 fraction written in decimal (2^-1074 has 1074
 * digits); a longer terminating expansion is cut and marked truncated. */
#define MAX_TERMINATING_DIGITS 1100
#define MAX_PERIODIC_DIGITS 64

static int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    return 99;
}

/* Length of the UTF-8 character starting at s (1 for anything malformed),
 * so a bad non-ASCII digit is quoted whole. */
static size_t char_len(const char *s, size_t left) {
    unsigned char c = (unsigned char)s[0];
    size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return n <= left ? n : 1;
}

/* Accumulate digits s[0..n) in base into acc; on a bad digit return its
 * offset, else -1. */
static long accumulate(const char *s, size_t n, int base, mpz_t acc) {
    for (size_t i = 0; i < n; i++) {
        int d = digit_value(s[i]);
        if (d >= base) return (long)i;
        mpz_mul_ui(acc, acc, (unsigned long)base);
        mpz_add_ui(acc, acc, (unsigned long)d);
    }
    return -1;
}

/* true iff every prime factor of d divides base. */
static bool terminates(const mpz_t d, int base) {
    mpz_t t, g;
    mpz_init_set(t, d);
    mpz_init(g);
    for (;;) {
        mpz_gcd_ui(g, t, (unsigned long)base);
        if (mpz_cmp_ui(g, 1) == 0) break;
        mpz_divexact(t, t, g);
    }
    bool yes = mpz_cmp_ui(t, 1) == 0;
    mpz_clears(t, g, NULL);
    return yes;
}

/* Fraction digits of r/d (0 < r < d) in base. Terminating: until the
 * remainder is 0 (max MAX_TERMINATING_DIGITS; true when it stopped there
 * with digits left). Otherwise until a remainder recurs or 64 digits. */
static bool fraction_digits(mpz_t r, const mpz_t d, int base, bool periodic, char *out) {
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    mpz_t seen[MAX_PERIODIC_DIGITS], q;
    size_t nseen = 0, nd = 0;
    mpz_init(q);
    for (;;) {
        if (periodic) {
            if (nd == MAX_PERIODIC_DIGITS) break;
            bool again = false;
            for (size_t i = 0; i < nseen && !again; i++) again = mpz_cmp(seen[i], r) == 0;
            if (again) break;
            mpz_init_set(seen[nseen++], r);
        } else if (mpz_sgn(r) == 0 || nd == MAX_TERMINATING_DIGITS) {
            break;
        }
        mpz_mul_ui(r, r, (unsigned long)base);
        mpz_fdiv_qr(q, r, r, d);
        out[nd++] = alphabet[mpz_get_ui(q)];
    }
    out[nd] = '\0';
    for (size_t i = 0; i < nseen; i++) mpz_clear(seen[i]);
    mpz_clear(q);
    return !periodic && mpz_sgn(r) != 0;
}

/* Converts the validated digits; returns the result object. */
static json_t *convert(bool neg, const mpz_t ip, const mpq_t frac, int to) {
    /* sign + integer digits + '.' + fraction digits + U+2026 + NUL */
    char *out = malloc(mpz_sizeinbase(ip, to) + MAX_TERMINATING_DIGITS + 8);
    if (!out) return NULL;
    out[0] = '-';
    mpz_get_str(out + neg, to, ip);
    bool periodic = false, truncated = false;
    if (mpq_sgn(frac) != 0) {
        periodic = !terminates(mpq_denref(frac), to);
        mpz_t r;
        mpz_init_set(r, mpq_numref(frac));
        strcat(out, ".");
        truncated = fraction_digits(r, mpq_denref(frac), to, periodic, out + strlen(out));
        mpz_clear(r);
        /* The mark says the digits go on, whether they repeat or were cut:
         * a cut terminating expansion shown bare read as the exact value. */
        if (periodic || truncated) strcat(out, "\xe2\x80\xa6");
    }
    json_t *r = cc_ok();
    bool ok = cc_nf_set(r, "value", json_string(out));
    ok &= cc_nf_set(r, "non_terminating", json_boolean(periodic));
    if (truncated) ok &= cc_nf_set(r, "truncated", json_true());
    free(out);
    return cc_nf_finish(r, ok);
}

/* Parse s (trimmed, lower-cased) in base `from` and convert to `to`. */
static json_t *run(char *s, size_t n, int from, int to) {
    for (size_t i = 0; i < n; i++) s[i] = (char)tolower((unsigned char)s[i]);
    bool neg = n && s[0] == '-';
    if (neg) s++, n--;
    const char *dot = memchr(s, '.', n);
    size_t int_len = dot ? (size_t)(dot - s) : n;
    const char *fs = dot ? dot + 1 : s + n;
    size_t frac_len = dot ? n - int_len - 1 : 0;
    mpz_t ip, fp;
    mpq_t frac;
    mpz_inits(ip, fp, NULL);
    mpq_init(frac);
    json_t *r;
    long bad = accumulate(s, int_len, from, ip);
    const char *badp = bad >= 0 ? s + bad : NULL;
    if (!badp && (bad = accumulate(fs, frac_len, from, fp)) >= 0) badp = fs + bad;
    if (badp) {
        size_t cl = char_len(badp, (size_t)(s + n - badp));
        r = cc_err("validation", "invalid digit '%.*s' for base %d", (int)cl, badp, from);
    } else {
        mpq_set_num(frac, fp);
        mpz_ui_pow_ui(mpq_denref(frac), (unsigned long)from, frac_len);
        mpq_canonicalize(frac);
        r = convert(neg, ip, frac, to);
    }
    mpq_clear(frac);
    mpz_clears(ip, fp, NULL);
    return r;
}

/* A base argument: absent means 10; anything else must be an int 2..36. */
static int read_base(const json_t *j, int *out) {
    if (!j || json_is_null(j)) {
        *out = 10;
        return 0;
    }
    mpz_t b;
    mpz_init(b);
    int rc = cc_json_get_mpz(j, b);
    bool in_range = rc == 0 && mpz_cmp_ui(b, 2) >= 0 && mpz_cmp_ui(b, 36) <= 0;
    if (in_range) *out = (int)mpz_get_ui(b);
    mpz_clear(b);
    return in_range ? 0 : -1;
}

json_t *cc_tool_radix_convert(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *jv = json_object_get(args, "value");
    int from, to;
    if (!json_is_string(jv) || cc_json_is_bigint(jv)) return cc_err("validation", "value must be a string");
    if (read_base(json_object_get(args, "from_base"), &from) || read_base(json_object_get(args, "to_base"), &to))
        return cc_err("validation", "bases must be 2..36");
    const char *s = json_string_value(jv);
    size_t n = json_string_length(jv);
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    char *copy = malloc(n + 1);
    if (!copy) return NULL;
    memcpy(copy, s, n);
    copy[n] = '\0';
    json_t *r = run(copy, n, from, to);
    free(copy);
    return r;
}
