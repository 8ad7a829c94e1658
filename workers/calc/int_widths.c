/* int_widths (TOOLS.md 3.3.13): which of i8..u64 hold n, and what n wraps
 * to in the ones that do not. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <stdio.h>
#include <stdlib.h>

/* head + decimal(v) + tail as a JSON string. */
static json_t *msg_with(const char *head, const mpz_t v, const char *tail) {
    char *digits = malloc(mpz_sizeinbase(v, 10) + 2), *s = NULL;
    if (!digits) return NULL;
    mpz_get_str(digits, 10, v);
    json_t *j = asprintf(&s, "%s%s%s", head, digits, tail) >= 0 ? json_string(s) : NULL;
    free(s);
    free(digits);
    return j;
}

/* Classify n against one width, appending to fits / wraps. */
static bool classify(const mpz_t n, unsigned w, json_t *fits, json_t *wraps) {
    char name[8], head[48];
    mpz_t lo, hi, uhi, t;
    mpz_inits(lo, hi, uhi, t, NULL);
    mpz_setbit(hi, w - 1);
    mpz_neg(lo, hi);
    mpz_sub_ui(hi, hi, 1);
    mpz_setbit(uhi, w);
    mpz_sub_ui(uhi, uhi, 1);
    bool ok = true;
    if (mpz_cmp(n, lo) < 0) {
        snprintf(head, sizeof head, "i%u/u%u: too negative (below ", w, w);
        ok = json_array_append_new(wraps, msg_with(head, lo, ")")) == 0;
    } else if (mpz_cmp(n, uhi) > 0) {
        snprintf(head, sizeof head, "i%u/u%u: too large (above ", w, w);
        ok = json_array_append_new(wraps, msg_with(head, uhi, ")")) == 0;
    } else if (mpz_cmp(n, hi) <= 0) {
        snprintf(name, sizeof name, "i%u", w);
        ok = json_array_append_new(fits, json_string(name)) == 0;
        snprintf(name, sizeof name, "u%u", w);
        if (mpz_sgn(n) >= 0) ok &= json_array_append_new(fits, json_string(name)) == 0;
    } else {
        snprintf(name, sizeof name, "u%u", w);
        ok = json_array_append_new(fits, json_string(name)) == 0;
        mpz_set_ui(t, 0);
        mpz_setbit(t, w);
        mpz_sub(t, n, t);
        snprintf(head, sizeof head, "i%u: wraps to ", w);
        ok &= json_array_append_new(wraps, msg_with(head, t, "")) == 0;
    }
    mpz_clears(lo, hi, uhi, t, NULL);
    return ok;
}

json_t *cc_tool_int_widths(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    static const unsigned widths[] = {8, 16, 32, 64};
    mpz_t n, lim;
    mpz_init(n);
    if (cc_json_get_int_exact(json_object_get(args, "n"), n)) {
        mpz_clear(n);
        return cc_err("validation", "n must be an integer");
    }
    json_t *r = cc_ok(), *fits = json_array(), *wraps = json_array();
    bool ok = fits && wraps;
    for (size_t i = 0; i < 4 && ok; i++) ok = classify(n, widths[i], fits, wraps);
    mpz_init(lim);
    mpz_setbit(lim, 53);
    bool big = mpz_cmpabs(n, lim) > 0;
    ok &= cc_nf_set(r, "value", cc_json_mpz(n));
    ok &= cc_nf_set(r, "fits", fits);
    ok &= cc_nf_set(r, "wraps", wraps);
    ok &= cc_nf_set(r, "note", big ? json_string(">2^53 cannot round-trip through a JS number or JSON float")
                                   : json_null());
    mpz_clears(n, lim, NULL);
    return cc_nf_finish(r, ok);
}
