/* data_sizes (TOOLS.md 3.3.7): a byte count in KiB..TiB and KB..TB, each the
 * correctly rounded quotient of the exact integer. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <math.h>
#include <stdlib.h>

/* {names[0]: n/base, names[1]: n/base^2, ...} */
static json_t *scaled(const mpz_t n, unsigned long base, const char *const names[4]) {
    json_t *o = json_object();
    mpq_t q;
    mpq_init(q);
    mpz_t div;
    mpz_init_set_ui(div, 1);
    bool ok = o != NULL;
    for (int k = 0; k < 4; k++) {
        mpz_mul_ui(div, div, base);
        mpq_set_num(q, n);
        mpq_set_den(q, div);
        mpq_canonicalize(q);
        ok &= cc_nf_set(o, names[k], cc_nf_real(cc_nf_mpq_to_double(q)));
    }
    mpz_clear(div);
    mpq_clear(q);
    return cc_nf_finish(o, ok);
}

static json_t *build(const mpz_t n) {
    static const char *const bin[4] = {"KiB", "MiB", "GiB", "TiB"};
    static const char *const dec[4] = {"KB", "MB", "GB", "TB"};
    json_t *r = cc_ok();
    bool ok = cc_nf_set(r, "bytes", cc_json_mpz(n));
    ok &= cc_nf_set(r, "binary", scaled(n, 1024, bin));
    ok &= cc_nf_set(r, "decimal", scaled(n, 1000, dec));
    /* KiB of a count past 2^1034 is beyond every double and read a bare
     * null; the quotients no double holds are still null, and a note says
     * why. The largest quotient (KB) decides whether one is missing. */
    mpq_t q;
    mpq_init(q);
    mpq_set_z(q, n);
    mpz_set_ui(mpq_denref(q), 1000);
    mpq_canonicalize(q);
    if (ok && isinf(cc_nf_mpq_to_double(q)))
        ok &= cc_nf_set(r, "note", json_string("n/1000 is beyond the largest double (1.7976931348623157e+308): "
                                               "each quotient no double holds is null"));
    mpq_clear(q);
    return cc_nf_finish(r, ok);
}

json_t *cc_tool_data_sizes(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    mpz_t n;
    mpz_init(n);
    json_t *r;
    if (cc_json_get_int_exact(json_object_get(args, "n"), n)) {
        r = cc_err("validation", "n must be an integer");
    } else if (mpz_sgn(n) < 0) {
        char *s = malloc(mpz_sizeinbase(n, 10) + 2);
        if (!s) {
            mpz_clear(n);
            return NULL;
        }
        mpz_get_str(s, 10, n);
        r = cc_err("validation", "n = %s is negative; byte counts are >= 0", s);
        free(s);
    } else {
        r = build(n);
    }
    mpz_clear(n);
    return r;
}
