/* collision_probability (TOOLS.md 3.3.6): birthday bound for `items` random
 * `bits`-bit hashes, p = 1 - exp(-(n^2) / (2 * 2^b)). */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <math.h>

/* x = n^2 / 2^(b+1) as the nearest binary64; n^2 is exact. Quotients far
 * outside binary64's range are decided from bit lengths alone, so a huge
 * `bits` never builds a huge power of two. */
static double quotient(const mpz_t n, const mpz_t bits) {
    mpz_t sq, e;
    mpz_inits(sq, e, NULL);
    mpz_mul(sq, n, n);
    mpz_add_ui(e, bits, 1);
    mpz_t gap;
    mpz_init_set_ui(gap, (unsigned long)mpz_sizeinbase(sq, 2));
    mpz_sub(gap, gap, e); /* ~ log2 of the quotient */
    double x;
    if (mpz_cmp_si(gap, 1100) > 0) {
        x = INFINITY;
    } else if (mpz_cmp_si(gap, -1100) < 0) {
        x = 0.0;
    } else {
        mpq_t q;
        mpq_init(q);
        mpq_set_z(q, sq);
        mpq_div_2exp(q, q, (mp_bitcnt_t)mpz_get_ui(e));
        x = cc_nf_mpq_to_double(q);
        mpq_clear(q);
    }
    mpz_clears(sq, e, gap, NULL);
    return x;
}

static json_t *build(const mpz_t n, const mpz_t bits) {
    json_t *r = cc_ok();
    bool ok;
    if (mpz_cmp_ui(n, 2) < 0) {
        ok = cc_nf_set(r, "probability", json_real(0.0));
        ok &= cc_nf_set(r, "items", cc_json_mpz(n));
        ok &= cc_nf_set(r, "bits", cc_json_mpz(bits));
    } else {
        double x = quotient(n, bits);
        /* An overflowing quotient means certain collision (spec: p = 1.0). */
        double p = isinf(x) ? 1.0 : 1.0 - exp(-x);
        json_t *rounding = json_object();
        ok = cc_nf_set(r, "items", cc_json_mpz(n));
        ok &= cc_nf_set(r, "bits", cc_json_mpz(bits));
        ok &= cc_nf_set(r, "probability", cc_nf_real(p));
        ok &= cc_nf_set(r, "percent", cc_nf_real(cc_nf_round_dec(p * 100, 6)));
        ok &= cc_nf_set(rounding, "percent", json_integer(6));
        ok &= cc_nf_set(r, "rounding", rounding);
    }
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_collision_probability(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    mpz_t n, bits;
    mpz_inits(n, bits, NULL);
    json_t *r;
    if (cc_json_get_mpz(json_object_get(args, "items"), n) ||
        cc_json_get_mpz(json_object_get(args, "bits"), bits))
        r = cc_err("validation", "items and bits must be integers");
    else if (mpz_sgn(n) < 0 || mpz_cmp_ui(bits, 1) < 0)
        r = cc_err("validation", "items >= 0 and bits >= 1");
    else
        r = build(n, bits);
    mpz_clears(n, bits, NULL);
    return r;
}
