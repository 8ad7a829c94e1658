/* Unit alias table, dimension checks, temperature offsets and the exact
 * half-even rounding convert_units applies to its result. */
#include "workers/calc/units.h"

#include <gmp.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Dimension vectors {m, kg, s, B}. */
#define D_LEN    {1, 0, 0, 0}
#define D_MASS   {0, 1, 0, 0}
#define D_TIME   {0, 0, 1, 0}
#define D_SPEED  {1, 0, -1, 0}
#define D_ENERGY {2, 1, -2, 0}
#define D_POWER  {2, 1, -3, 0}
#define D_FORCE  {1, 1, -2, 0}
#define D_PRESS  {-1, 1, -2, 0}
#define D_VOL    {3, 0, 0, 0}
#define D_AREA   {2, 0, 0, 0}
#define D_DATA   {0, 0, 0, 1}
#define D_FREQ   {0, 0, -1, 0}

/* Factors are written as the spec writes them, so that derived ones (km/h,
 * mph, psi) are the same binary64 quotients a reference computes. */
static const struct cc_unit table[] = {
    {"m", 1, D_LEN}, {"meter", 1, D_LEN}, {"meters", 1, D_LEN},
    {"km", 1000, D_LEN}, {"kilometer", 1000, D_LEN},
    {"cm", 0.01, D_LEN}, {"centimeter", 0.01, D_LEN},
    {"mm", 0.001, D_LEN}, {"millimeter", 0.001, D_LEN},
    {"um", 1e-6, D_LEN}, {"micron", 1e-6, D_LEN},
    {"nm", 1e-9, D_LEN}, {"nanometer", 1e-9, D_LEN},
    {"mi", 1609.344, D_LEN}, {"mile", 1609.344, D_LEN}, {"miles", 1609.344, D_LEN},
    {"yd", 0.9144, D_LEN}, {"yard", 0.9144, D_LEN},
    {"ft", 0.3048, D_LEN}, {"foot", 0.3048, D_LEN}, {"feet", 0.3048, D_LEN},
    {"in", 0.0254, D_LEN}, {"inch", 0.0254, D_LEN},
    {"au", 149597870700.0, D_LEN},
    {"ly", 9460730472580800.0, D_LEN}, {"lightyear", 9460730472580800.0, D_LEN},
    {"parsec", 3.0856775814913673e16, D_LEN},
    {"g", 0.001, D_MASS}, {"gram", 0.001, D_MASS}, {"grams", 0.001, D_MASS},
    {"kg", 1, D_MASS}, {"kilogram", 1, D_MASS},
    {"mg", 1e-6, D_MASS}, {"milligram", 1e-6, D_MASS},
    {"ug", 1e-9, D_MASS}, {"microgram", 1e-9, D_MASS},
    {"lb", 0.45359237, D_MASS}, {"pound", 0.45359237, D_MASS}, {"lbs", 0.45359237, D_MASS},
    {"oz", 0.028349523125, D_MASS}, {"ounce", 0.028349523125, D_MASS},
    {"ton", 1000, D_MASS}, {"metric_ton", 1000, D_MASS},
    {"s", 1, D_TIME}, {"sec", 1, D_TIME}, {"second", 1, D_TIME}, {"seconds", 1, D_TIME},
    {"ms", 0.001, D_TIME}, {"millisecond", 0.001, D_TIME},
    {"min", 60, D_TIME}, {"minute", 60, D_TIME},
    {"h", 3600, D_TIME}, {"hr", 3600, D_TIME}, {"hour", 3600, D_TIME}, {"hours", 3600, D_TIME},
    {"day", 86400, D_TIME}, {"days", 86400, D_TIME},
    {"week", 604800, D_TIME},
    {"year", 31556925.216, D_TIME}, {"yr", 31556925.216, D_TIME},
    {"m/s", 1, D_SPEED},
    {"km/h", 1000.0 / 3600.0, D_SPEED}, {"kph", 1000.0 / 3600.0, D_SPEED},
    {"mph", 1609.344 / 3600.0, D_SPEED},
    {"fps", 0.3048, D_SPEED},
    {"knot", 0.5144444444444445, D_SPEED},
    {"mach", 340.3, D_SPEED},
    {"c", 299792458.0, D_SPEED},
    {"j", 1, D_ENERGY}, {"joule", 1, D_ENERGY},
    {"kj", 1000, D_ENERGY}, {"kilojoule", 1000, D_ENERGY},
    {"cal", 4.184, D_ENERGY}, {"calorie", 4.184, D_ENERGY},
    {"kcal", 4184, D_ENERGY}, {"kilocalorie", 4184, D_ENERGY},
    {"kwh", 3.6e6, D_ENERGY}, {"kwh_", 3.6e6, D_ENERGY},
    {"wh", 3600, D_ENERGY},
    {"ev", 1.602176634e-19, D_ENERGY}, {"electronvolt", 1.602176634e-19, D_ENERGY},
    {"w", 1, D_POWER}, {"watt", 1, D_POWER},
    {"kw", 1000, D_POWER}, {"kilowatt", 1000, D_POWER},
    {"mw", 1e6, D_POWER}, {"megawatt", 1e6, D_POWER},
    {"hp", 745.6998715822702, D_POWER}, {"horsepower", 745.6998715822702, D_POWER},
    {"n", 1, D_FORCE}, {"newton", 1, D_FORCE},
    {"pa", 1, D_PRESS}, {"pascal", 1, D_PRESS},
    {"kpa", 1000, D_PRESS}, {"kilopascal", 1000, D_PRESS},
    {"mpa", 1e6, D_PRESS}, {"megapascal", 1e6, D_PRESS},
    {"bar", 100000, D_PRESS},
    {"atm", 101325, D_PRESS},
    {"torr", 133.322387415, D_PRESS},
    {"psi", 4.4482216152605 / (0.0254 * 0.0254), D_PRESS},
    {"l", 0.001, D_VOL}, {"liter", 0.001, D_VOL}, {"liters", 0.001, D_VOL},
    {"ml", 1e-6, D_VOL}, {"milliliter", 1e-6, D_VOL},
    {"gal", 0.003785411784, D_VOL}, {"gallon", 0.003785411784, D_VOL},
    {"quart", 0.000946352946, D_VOL},
    {"pint", 0.000473176473, D_VOL},
    {"cup", 0.0002365882365, D_VOL},
    {"floz", 2.95735295625e-5, D_VOL},
    {"ha", 10000, D_AREA}, {"hectare", 10000, D_AREA},
    {"acre", 4046.8564224, D_AREA},
    {"sqft", 0.09290304, D_AREA},
    {"m2", 1, D_AREA},
    {"km2", 1e6, D_AREA},
    {"b", 1, D_DATA}, {"byte", 1, D_DATA}, {"bytes", 1, D_DATA},
    {"kb", 1000, D_DATA}, {"mb", 1e6, D_DATA}, {"gb", 1e9, D_DATA}, {"tb", 1e12, D_DATA},
    {"kib", 1024, D_DATA}, {"mib", 1048576, D_DATA}, {"gib", 1073741824, D_DATA},
    {"hz", 1, D_FREQ}, {"hertz", 1, D_FREQ},
    {"khz", 1000, D_FREQ}, {"mhz", 1e6, D_FREQ}, {"ghz", 1e9, D_FREQ},
};
#define TABLE_LEN (sizeof table / sizeof table[0])

static const struct {
    const char *alias;
    enum cc_temp_scale scale;
} temps[] = {
    {"k", CC_TEMP_K}, {"kelvin", CC_TEMP_K},
    {"celsius", CC_TEMP_C}, {"degc", CC_TEMP_C}, {"\xc2\xb0" "c", CC_TEMP_C},
    {"f", CC_TEMP_F}, {"fahrenheit", CC_TEMP_F}, {"degf", CC_TEMP_F}, {"\xc2\xb0" "f", CC_TEMP_F},
};
#define TEMPS_LEN (sizeof temps / sizeof temps[0])

/* ---- names --------------------------------------------------------------- */

/* The whitespace Python's str.strip() removes, restricted to ASCII. */
static bool is_strip_space(unsigned char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

char *cc_unit_trim(const char *name, size_t len) {
    while (len && is_strip_space((unsigned char)*name)) name++, len--;
    while (len && is_strip_space((unsigned char)name[len - 1])) len--;
    return strndup(name, len);
}

char *cc_unit_normalise(const char *name, size_t len) {
    char *t = cc_unit_trim(name, len);
    if (!t) return NULL;
    char *o = t;
    for (const char *p = t; *p; p++) {
        if (*p == ' ') continue;
        *o++ = (*p >= 'A' && *p <= 'Z') ? (char)(*p - 'A' + 'a') : *p;
    }
    *o = '\0';
    return t;
}

const struct cc_unit *cc_unit_find(const char *norm) {
    for (size_t i = 0; i < TABLE_LEN; i++)
        if (strcmp(table[i].alias, norm) == 0) return &table[i];
    return NULL;
}

enum cc_temp_scale cc_unit_temperature(const char *norm) {
    for (size_t i = 0; i < TEMPS_LEN; i++)
        if (strcmp(temps[i].alias, norm) == 0) return temps[i].scale;
    return CC_TEMP_NONE;
}

bool cc_unit_same_dimension(const struct cc_unit *a, const struct cc_unit *b) {
    return memcmp(a->dim, b->dim, sizeof a->dim) == 0;
}

/* ---- temperature ----------------------------------------------------------- */

/* Each formula is spelled in the spec's evaluation order; reordering (e.g.
 * v * 1.8) would change the last bit of some results. */
double cc_unit_convert_temperature(double v, enum cc_temp_scale from, enum cc_temp_scale to) {
    if (from == to) return v;
    if (from == CC_TEMP_K && to == CC_TEMP_C) return v - 273.15;
    if (from == CC_TEMP_C && to == CC_TEMP_K) return v + 273.15;
    if (from == CC_TEMP_K && to == CC_TEMP_F) return (v - 273.15) * 9 / 5 + 32;
    if (from == CC_TEMP_F && to == CC_TEMP_K) return (v - 32) * 5 / 9 + 273.15;
    if (from == CC_TEMP_C && to == CC_TEMP_F) return v * 9 / 5 + 32;
    return (v - 32) * 5 / 9; /* F -> C */
}

/* ---- alias listings ------------------------------------------------------- */

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Built on first use; the worker serves one request at a time, so lazy
 * initialisation needs no lock. strcmp on UTF-8 orders by code point. */
static const char *all_aliases[TABLE_LEN + TEMPS_LEN];
static bool all_aliases_ready;

const char *const *cc_unit_all_aliases(size_t *count) {
    if (!all_aliases_ready) {
        size_t n = 0;
        for (size_t i = 0; i < TABLE_LEN; i++) all_aliases[n++] = table[i].alias;
        for (size_t i = 0; i < TEMPS_LEN; i++) all_aliases[n++] = temps[i].alias;
        qsort(all_aliases, n, sizeof all_aliases[0], cmp_str);
        all_aliases_ready = true;
    }
    *count = TABLE_LEN + TEMPS_LEN;
    return all_aliases;
}

/* Each short alias takes at most 5 bytes plus ", ". */
static char short_list[TABLE_LEN * 7 + 1];

const char *cc_unit_short_alias_list(void) {
    if (short_list[0]) return short_list;
    const char *shorts[TABLE_LEN];
    size_t n = 0;
    for (size_t i = 0; i < TABLE_LEN; i++)
        if (strlen(table[i].alias) < 6) shorts[n++] = table[i].alias;
    qsort(shorts, n, sizeof shorts[0], cmp_str);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(short_list + used, sizeof short_list - used, "%s%s", i ? ", " : "", shorts[i]);
        if (w < 0 || (size_t)w >= sizeof short_list - used) break; /* cannot happen: sized above */
        used += (size_t)w;
    }
    return short_list;
}

/* ---- rounding ------------------------------------------------------------- */

double cc_round_half_even6(double x) {
    if (!isfinite(x)) return x;
    mpq_t q;
    mpz_t n, rem, den;
    mpq_init(q);
    mpz_inits(n, rem, den, NULL);

    /* q = x * 10^6 exactly; n = floor(q), rem = q - n as a fraction. */
    mpq_set_d(q, x);
    mpz_ui_pow_ui(den, 10, 6);
    mpz_mul(mpq_numref(q), mpq_numref(q), den);
    mpq_canonicalize(q);
    mpz_fdiv_qr(n, rem, mpq_numref(q), mpq_denref(q));
    /* compare 2*rem with the denominator: below half, half, above half */
    mpz_mul_2exp(rem, rem, 1);
    int c = mpz_cmp(rem, mpq_denref(q));
    if (c > 0 || (c == 0 && mpz_odd_p(n))) mpz_add_ui(n, n, 1);

    /* n / 10^6 correctly rounded to binary64. */
    mpfr_t num, out;
    mpfr_init2(num, mpz_sizeinbase(n, 2) + 2);
    mpfr_init2(out, 53);
    mpfr_set_z(num, n, MPFR_RNDN);
    mpfr_div_ui(out, num, 1000000UL, MPFR_RNDN);
    double r = mpfr_get_d(out, MPFR_RNDN);
    /* round(-0.0000001, 6) is -0.0 in Python: keep the sign of x. */
    if (r == 0) r = copysign(0.0, x);

    mpfr_clears(num, out, NULL);
    mpz_clears(n, rem, den, NULL);
    mpq_clear(q);
    return r;
}

/* ---- convert_units ------------------------------------------------------- */

/* Python's repr() of a JSON value, for the "value must be numeric, got
 * <repr>" message. Caller frees; NULL on OOM. */
static char *py_repr_string(const char *s, size_t n) {
    bool dq = memchr(s, '\'', n) && !memchr(s, '"', n);
    char quote = dq ? '"' : '\'';
    /* worst case every byte becomes \xNN */
    char *out = malloc(n * 4 + 3);
    if (!out) return NULL;
    char *o = out;
    *o++ = quote;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == (unsigned char)quote) {
            *o++ = '\\';
            *o++ = (char)c;
        } else if (c == '\n') {
            o += sprintf(o, "\\n");
        } else if (c == '\r') {
            o += sprintf(o, "\\r");
        } else if (c == '\t') {
            o += sprintf(o, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            o += sprintf(o, "\\x%02x", c);
        } else if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
                   (unsigned char)s[i + 1] <= 0x9f) {
            /* C1 control characters are escaped by repr() too */
            o += sprintf(o, "\\x%02x", (unsigned char)s[++i]);
        } else {
            *o++ = (char)c;
        }
    }
    *o++ = quote;
    *o = '\0';
    return out;
}

static char *py_repr(const json_t *v) {
    if (!v || json_is_null(v)) return strdup("None");
    if (json_is_true(v)) return strdup("True");
    if (json_is_false(v)) return strdup("False");
    if (json_is_string(v)) return py_repr_string(json_string_value(v), json_string_length(v));
    /* arrays and objects: the JSON text is close enough to Python's form */
    return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
}

static json_t *value_not_numeric(const json_t *v) {
    char *r = py_repr(v);
    json_t *e = cc_err("validation", "value must be numeric, got %s", r ? r : "?");
    free(r);
    return e;
}

static json_t *json_real_or_null(double d) {
    return isfinite(d) ? json_real(d) : json_null();
}

/* Resolve both normalised names to a converted value; on failure returns
 * the error object and leaves *out untouched. */
static json_t *convert(double v, const char *from, const char *to, double *out) {
    enum cc_temp_scale tf = cc_unit_temperature(from), tt = cc_unit_temperature(to);
    if (tf != CC_TEMP_NONE || tt != CC_TEMP_NONE) {
        if (tf == CC_TEMP_NONE || tt == CC_TEMP_NONE)
            return cc_err("validation", "cannot mix temperature and non-temperature units");
        *out = cc_unit_convert_temperature(v, tf, tt);
        return NULL;
    }
    const struct cc_unit *uf = cc_unit_find(from), *ut = cc_unit_find(to);
    if (!uf || !ut)
        return cc_err("validation", "unknown unit '%s'. Known: %s", uf ? to : from,
                      cc_unit_short_alias_list());
    if (!cc_unit_same_dimension(uf, ut))
        return cc_err("validation", "conversion failed: incompatible dimensions ('%s' vs '%s')",
                      from, to);
    *out = v * uf->factor / ut->factor;
    return NULL;
}

static json_t *build_result(double v, double result, const char *from_trim, const char *to_trim) {
    char rep[32];
    char *from_text = NULL;
    if (asprintf(&from_text, "%s %s", cc_float_repr(v, rep), from_trim) < 0) return NULL;
    json_t *r = cc_ok();
    json_object_set_new(r, "value", json_real_or_null(cc_round_half_even6(result)));
    json_object_set_new(r, "unit", json_string(to_trim));
    json_object_set_new(r, "from", json_string(from_text));
    free(from_text);
    return r;
}

json_t *cc_tool_convert_units(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *jv = json_object_get(args, "value");
    double v;
    if (!jv || json_is_boolean(jv) || cc_json_get_double(jv, &v) != 0) return value_not_numeric(jv);
    const json_t *jf = json_object_get(args, "from_unit"), *jt = json_object_get(args, "to_unit");
    if (!json_is_string(jf)) return cc_err("validation", "from_unit must be a string");
    if (!json_is_string(jt)) return cc_err("validation", "to_unit must be a string");

    const char *fs = json_string_value(jf), *ts = json_string_value(jt);
    size_t fl = json_string_length(jf), tl = json_string_length(jt);
    char *from = cc_unit_normalise(fs, fl), *to = cc_unit_normalise(ts, tl);
    char *from_trim = cc_unit_trim(fs, fl), *to_trim = cc_unit_trim(ts, tl);
    json_t *r = NULL;
    if (from && to && from_trim && to_trim) {
        double out = 0;
        r = convert(v, from, to, &out);
        if (!r) r = build_result(v, out, from_trim, to_trim);
    }
    free(from);
    free(to);
    free(from_trim);
    free(to_trim);
    return r;
}

/* ---- list_units ------------------------------------------------------------ */

json_t *cc_tool_list_units(json_t *args, cc_wctx *ctx) {
    (void)args;
    (void)ctx;
    size_t n;
    const char *const *all = cc_unit_all_aliases(&n);
    json_t *units = json_array();
    if (!units) return NULL;
    for (size_t i = 0; i < n; i++) json_array_append_new(units, json_string(all[i]));
    json_t *r = cc_ok();
    json_object_set_new(r, "count", json_integer((json_int_t)n));
    json_object_set_new(r, "units", units);
    return r;
}
