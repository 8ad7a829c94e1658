/* bit_analysis (TOOLS.md 3.3.14): popcount, bit length, trailing zeros,
 * power-of-two facts and alignment padding of a non-negative integer. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

static unsigned long bit_length(const mpz_t n) {
    return mpz_sgn(n) == 0 ? 0 : (unsigned long)mpz_sizeinbase(n, 2);
}

static bool alignment(json_t *r, const mpz_t n, const mpz_t a) {
    mpz_t pad, aligned;
    mpz_inits(pad, aligned, NULL);
    mpz_neg(pad, n);
    mpz_fdiv_r(pad, pad, a); /* (-n) mod a, in [0, a) */
    mpz_add(aligned, n, pad);
    bool ok = cc_nf_set(r, "aligned_to", cc_json_mpz(a));
    ok &= cc_nf_set(r, "padding_needed", cc_json_mpz(pad));
    ok &= cc_nf_set(r, "aligned_value", cc_json_mpz(aligned));
    mpz_clears(pad, aligned, NULL);
    return ok;
}

static json_t *build(const mpz_t n, const mpz_t a, bool with_align) {
    json_t *r = cc_ok();
    bool zero = mpz_sgn(n) == 0;
    bool ok = cc_nf_set(r, "value", cc_json_mpz(n));
    ok &= cc_nf_set(r, "popcount", json_integer((json_int_t)mpz_popcount(n)));
    ok &= cc_nf_set(r, "bit_length", json_integer((json_int_t)bit_length(n)));
    ok &= cc_nf_set(r, "trailing_zeros", zero ? json_null() : json_integer((json_int_t)mpz_scan1(n, 0)));
    ok &= cc_nf_set(r, "is_power_of_two", json_boolean(!zero && mpz_popcount(n) == 1));
    if (zero) {
        ok &= cc_nf_set(r, "next_power_of_two", json_null());
    } else {
        mpz_t m, p;
        mpz_inits(m, p, NULL);
        mpz_sub_ui(m, n, 1);
        mpz_setbit(p, bit_length(m)); /* 1 << bit_length(n - 1) */
        ok &= cc_nf_set(r, "next_power_of_two", cc_json_mpz(p));
        mpz_clears(m, p, NULL);
    }
    if (with_align) ok &= alignment(r, n, a);
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_bit_analysis(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    mpz_t n, a;
    mpz_inits(n, a, NULL);
    json_t *ja = json_object_get(args, "align");
    bool with_align = ja && !json_is_null(ja);
    json_t *r;
    if (cc_json_get_int_exact(json_object_get(args, "n"), n))
        r = cc_err("validation", "n must be an integer");
    else if (mpz_sgn(n) < 0)
        r = cc_err("validation",
                   "bit_analysis requires n >= 0 (bit semantics are undefined for a negative int without a "
                   "fixed width); use bitop(n, ..., width=W) for two's-complement bits at a specific width");
    else if (with_align && cc_json_get_int_exact(ja, a))
        r = cc_err("validation", "align must be an integer or null");
    else if (with_align && mpz_sgn(a) <= 0)
        r = cc_err("validation", "alignment must be positive");
    else
        r = build(n, a, with_align);
    mpz_clears(n, a, NULL);
    return r;
}
