/* base_repr (TOOLS.md 3.3.10): hex/oct/bin of an integer and, with a width,
 * its two's-complement form and signed-overflow status. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <stdio.h>
#include <stdlib.h>

/* The padded binary string is w characters: keep it to a size a client can
 * sensibly receive. */
#define MAX_WIDTH 65536UL

static json_t *str_json(char *s) {
    json_t *j = s ? json_string(s) : NULL;
    free(s);
    return j;
}

static char *signed_digits(const mpz_t n, int base) {
    char *s = malloc(mpz_sizeinbase(n, base) + 2);
    if (s) mpz_get_str(s, base, n);
    return s;
}

/* "<lo>..<hi>" text shared by both overflow messages. */
static char *range_text(const mpz_t lo, const mpz_t hi) {
    char *a = signed_digits(lo, 10), *b = signed_digits(hi, 10), *out = NULL;
    if (a && b && asprintf(&out, "%s..%s", a, b) < 0) out = NULL;
    free(a);
    free(b);
    return out;
}

/* Adds the width-dependent keys of the spec's table to r. */
static bool width_keys(json_t *r, const mpz_t n, unsigned long w) {
    mpz_t lo, hi, uhi, mod, t;
    mpz_inits(lo, hi, uhi, mod, t, NULL);
    mpz_setbit(mod, w);         /* 2^w */
    mpz_setbit(hi, w - 1);      /* 2^(w-1) */
    mpz_neg(lo, hi);
    mpz_sub_ui(hi, hi, 1);
    mpz_sub_ui(uhi, mod, 1);
    char *range = range_text(lo, hi), *msg = NULL;
    char skey[32], ukey[32];
    snprintf(skey, sizeof skey, "signed_i%lu", w);
    snprintf(ukey, sizeof ukey, "unsigned_u%lu", w);
    bool ok = range != NULL;
    if (ok && (mpz_cmp(n, lo) < 0 || mpz_cmp(n, uhi) > 0)) {
        ok = asprintf(&msg, "does not fit in signed i%lu (range %s) nor unsigned u%lu", w, range, w) >= 0;
        ok = ok && cc_nf_set(r, "overflow", json_string(msg));
    } else if (ok && mpz_cmp(n, hi) <= 0) {
        ok &= cc_nf_set(r, skey, cc_json_mpz(n));
        mpz_fdiv_r_2exp(t, n, w); /* n mod 2^w, also n + 2^w for negatives */
        ok &= cc_nf_set(r, ukey, cc_json_mpz(t));
        ok &= cc_nf_set(r, "two_complement_bin", str_json(cc_nf_mpz_padded(t, 2, w)));
    } else if (ok) {
        mpz_sub(t, n, mod);
        ok &= cc_nf_set(r, skey, cc_json_mpz(t));
        ok &= cc_nf_set(r, ukey, cc_json_mpz(n));
        ok &= cc_nf_set(r, "two_complement_bin", str_json(cc_nf_mpz_padded(n, 2, w)));
        ok &= cc_nf_set(r, "wrapped_signed", cc_json_mpz(t));
        ok = ok && asprintf(&msg, "does not fit in signed i%lu (range %s); fits u%lu only", w, range, w) >= 0;
        ok = ok && cc_nf_set(r, "signed_overflow", json_string(msg));
    }
    free(msg);
    free(range);
    mpz_clears(lo, hi, uhi, mod, t, NULL);
    return ok;
}

static json_t *build(const mpz_t n, unsigned long w) {
    json_t *r = cc_ok();
    bool ok = cc_nf_set(r, "value", cc_json_mpz(n));
    ok &= cc_nf_set(r, "hex", str_json(signed_digits(n, 16)));
    ok &= cc_nf_set(r, "oct", str_json(signed_digits(n, 8)));
    ok &= cc_nf_set(r, "bin", str_json(signed_digits(n, 2)));
    if (ok && w) ok = width_keys(r, n, w);
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_base_repr(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    mpz_t n, w;
    mpz_inits(n, w, NULL);
    json_t *jw = json_object_get(args, "width");
    json_t *r = NULL;
    if (cc_json_get_int_exact(json_object_get(args, "n"), n))
        r = cc_err("validation", "n must be an integer");
    else if (jw && !json_is_null(jw) && cc_json_get_mpz(jw, w))
        r = cc_err("validation", "width must be an integer or null");
    else if (jw && !json_is_null(jw) && mpz_sgn(w) <= 0)
        r = cc_err("validation", "width must be positive");
    else if (mpz_cmp_ui(w, MAX_WIDTH) > 0)
        r = cc_err("validation", "width must be at most %lu", MAX_WIDTH);
    else
        r = build(n, mpz_get_ui(w));
    mpz_clears(n, w, NULL);
    return r;
}
