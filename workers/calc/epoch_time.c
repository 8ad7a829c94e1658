/* epoch_time (TOOLS.md 3.3.9): read an integer timestamp as s/ms/us/ns and
 * keep the one reading that lands in 1973..2286, as ISO 8601 UTC. The civil
 * calendar is computed here so the host's TZ and libc play no part. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whitespace, optional sign, digits with single '_' between digits. */
static int parse_epoch(const char *s, size_t n, mpz_t out) {
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    char *digits = malloc(n + 2);
    if (!digits) return -1;
    size_t i = 0, nd = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) digits[nd++] = s[i++];
    size_t first = i;
    for (; i < n; i++) {
        bool sep_ok = s[i] == '_' && i > first && i + 1 < n && isdigit((unsigned char)s[i - 1]) &&
                      isdigit((unsigned char)s[i + 1]);
        if (sep_ok) continue;
        if (!isdigit((unsigned char)s[i])) break;
        digits[nd++] = s[i];
    }
    digits[nd] = '\0';
    int rc = (i == n && n > first) ? mpz_set_str(out, digits + (digits[0] == '+'), 10) : -1;
    free(digits);
    return rc == 0 ? 0 : -1;
}

/* Days since 1970-01-01 to a proleptic Gregorian date (era arithmetic:
 * 400-year cycles of 146097 days, March-based years). */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

/* secs (exact) is within [1e8, 1e10]: whole seconds plus microseconds
 * rounded half to even from the exact value, carrying into the next second
 * (a binary64 quotient near 1.7e9 has a 0.24 us grain: 1.5 us would read as
 * 1 us). */
static void iso_utc(const mpq_t secs, char out[64]) {
    mpq_t q;
    mpz_t total, us;
    mpq_init(q);
    mpz_inits(total, us, NULL);
    mpq_set(q, secs);
    mpz_mul_ui(mpq_numref(q), mpq_numref(q), 1000000);
    mpq_canonicalize(q);
    cc_nf_mpq_round(total, q);
    mpz_fdiv_qr_ui(total, us, total, 1000000);
    int64_t t = (int64_t)mpz_get_si(total);
    long micros = mpz_get_si(us);
    mpq_clear(q);
    mpz_clears(total, us, NULL);
    int64_t days = t / 86400, sod = t % 86400;
    int64_t y;
    int m, d;
    civil_from_days(days, &y, &m, &d);
    int n = snprintf(out, 64, "%04lld-%02d-%02dT%02d:%02d:%02d", (long long)y, m, d, (int)(sod / 3600),
                     (int)(sod / 60 % 60), (int)(sod % 60));
    if (micros > 0) n += snprintf(out + n, 64 - (size_t)n, ".%06ld", micros);
    snprintf(out + n, 64 - (size_t)n, "+00:00");
}

static json_t *build(const mpz_t v) {
    static const struct { const char *name; unsigned long div; } units[] = {
        {"seconds", 1}, {"millis", 1000}, {"micros", 1000000}, {"nanos", 1000000000}};
    json_t *interp = json_object();
    bool ok = interp != NULL;
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < 4; i++) {
        mpq_set_z(q, v);
        mpz_set_ui(mpq_denref(q), units[i].div);
        mpq_canonicalize(q);
        if (mpq_cmp_ui(q, 100000000, 1) < 0 || mpq_cmp_ui(q, 10000000000ul, 1) > 0) continue;
        char iso[64];
        iso_utc(q, iso);
        ok &= cc_nf_set(interp, units[i].name, json_string(iso));
    }
    mpq_clear(q);
    if (ok && json_object_size(interp) == 0) {
        json_decref(interp);
        return cc_err("validation", "no plausible unit found");
    }
    json_t *r = cc_ok();
    ok &= cc_nf_set(r, "input", cc_json_mpz(v));
    ok &= cc_nf_set(r, "interpretations", interp);
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_epoch_time(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *j = json_object_get(args, "n");
    mpz_t v, limit;
    mpz_inits(v, limit, NULL);
    int rc;
    if (json_is_string(j) && !cc_json_is_bigint(j))
        rc = parse_epoch(json_string_value(j), json_string_length(j), v);
    else /* a JSON integer is the obvious equivalent of its digit string */
        rc = json_is_integer(j) || cc_json_is_bigint(j) ? cc_json_get_mpz(j, v) : -1;
    mpz_ui_pow_ui(limit, 10, 21);
    json_t *r;
    if (rc)
        r = cc_err("validation", "epoch must be an integer");
    else if (mpz_sgn(v) < 0)
        r = cc_err("validation", "negative epoch");
    else if (mpz_cmp(v, limit) > 0)
        r = cc_err("validation", "implausibly large epoch");
    else
        r = build(v);
    mpz_clears(v, limit, NULL);
    return r;
}
