/* Fuzz target: convert_units (unit-name normalisation, lookup, temperature
 * scales, the half-even rounding and the repr of a non-numeric value).
 *
 * The input is three lines: the value as JSON text (any JSON: the handler
 * must refuse what is not a number), from_unit and to_unit (the rest of
 * the input, as a JSON string). Properties: no sanitizer report, a result
 * that follows the contract, a finite value or null on success, and
 * normalising a name twice changes nothing. */
#include <math.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "workers/calc/units.h"
#include "tests/fuzz/fz.h"
#include "tests/fuzz/fz_util.h"


static const uint8_t *line(struct fz_in *in, size_t *len) {
    const uint8_t *nl = memchr(in->p, '\n', in->n);
    size_t k = nl ? (size_t)(nl - in->p) : in->n;
    const uint8_t *p = fz_take(in, k, len);
    if (nl) fz_byte(in);
    return p;
}

/* Only for names without a NUL: the result ends at the first NUL while the
 * trim looked at the whole string, so "km\r\0x" gives "km\r" and then
 * "km"; both are unknown units, which is all that matters there. */
static void normalise_is_idempotent(const uint8_t *p, size_t n) {
    if (memchr(p, 0, n)) return;
    char *a = cc_unit_normalise((const char *)p, n);
    if (!a) return;
    char *b = cc_unit_normalise(a, strlen(a));
    FZ_ASSERT(b && strcmp(a, b) == 0, "normalising twice: '%s' then '%s'", a, b ? b : "(null)");
    free(a);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct fz_in in = {data, size};
    size_t vl, fl, tl;
    const uint8_t *v = line(&in, &vl), *f = line(&in, &fl), *t = fz_take(&in, in.n, &tl);
    normalise_is_idempotent(f, fl);
    json_error_t e;
    json_t *value = cc_json_parse((const char *)v, vl, &e);
    json_t *from = fz_string(f, fl), *to = fz_string(t, tl);
    if (value && from && to) {
        json_t *args = json_pack("{s:O,s:O,s:O}", "value", value, "from_unit", from, "to_unit", to);
        json_t *r = cc_tool_convert_units(args, NULL);
        fz_check_result(r, "convert_units");
        if (json_is_true(json_object_get(r, "ok"))) {
            json_t *out = json_object_get(r, "value");
            FZ_ASSERT(json_is_null(out) || (json_is_real(out) && isfinite(json_real_value(out))),
                      "a converted value that is neither finite nor null");
        }
        json_decref(r);
        json_decref(args);
    }
    json_decref(value);
    json_decref(from);
    json_decref(to);
    return 0;
}
