/* convert_units, list_units and physical_constants against the examples of
 * TOOLS.md 3.3.19-3.3.21, called through the calc worker's dispatch table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/calc/units.h"
#include "workers/common/dispatch.h"

/* Runs op on args (stolen) and returns the result (caller decrefs). */
static json_t *call(const char *op, json_t *args) {
    json_t *r = NULL;
    for (const struct cc_tool_def *d = cc_dispatch_calc; d->op; d++)
        if (strcmp(d->op, op) == 0) r = d->fn(args, NULL);
    json_decref(args);
    return r;
}

static json_t *conv(json_t *value, const char *from, const char *to) {
    return call("convert_units", json_pack("{s:o, s:s, s:s}", "value", value, "from_unit", from,
                                           "to_unit", to));
}

static const char *str(const json_t *r, const char *key) {
    return json_string_value(json_object_get(r, key));
}

static double real(const json_t *r, const char *key) {
    const json_t *v = json_object_get(r, key);
    return json_is_real(v) ? json_real_value(v) : NAN;
}

static bool is_ok(const json_t *r) { return json_is_true(json_object_get(r, "ok")); }

/* ---- convert_units ---- */

static void check_value(json_t *value, const char *from, const char *to, double want) {
    json_t *r = conv(value, from, to);
    CHECK(is_ok(r));
    double got = real(r, "value");
    if (got != want) fprintf(stderr, "  %s -> %s: got %.17g want %.17g\n", from, to, got, want);
    CHECK(got == want);
    json_decref(r);
}

static void check_exact(json_t *value, const char *from, const char *to, const char *exact) {
    json_t *r = conv(value, from, to);
    CHECK(is_ok(r));
    if (!str(r, "exact") || strcmp(str(r, "exact"), exact) != 0)
        fprintf(stderr, "  %s -> %s: exact %s want %s\n", from, to, str(r, "exact"), exact);
    CHECK_STREQ(str(r, "exact"), exact);
    json_decref(r);
}

static void test_convert_examples(void) {
    json_t *r = conv(json_integer(60), "mph", "km/h");
    CHECK(is_ok(r));
    CHECK(real(r, "value") == 96.56064);
    CHECK_STREQ(str(r, "exact"), "301752/3125");
    CHECK_STREQ(str(r, "unit"), "km/h");
    CHECK_STREQ(str(r, "from"), "60.0 mph");
    CHECK(json_object_get(r, "interpreted_as") == NULL);
    json_decref(r);

    check_value(json_integer(100), "celsius", "fahrenheit", 212.0);
    check_value(json_integer(1), "GB", "MiB", 953.67431640625);
    check_value(json_integer(1), "psi", "kPa", 6.894757293168361);
}

/* units_exact_not_rounded: 1 nm -> m and 1 eV -> J were rounded to 0.0 */
static void test_convert_exact(void) {
    check_value(json_integer(1), "nm", "m", 1e-9);
    check_exact(json_integer(1), "nm", "m", "1/1000000000");
    check_value(json_integer(1), "eV", "J", 1.602176634e-19);
    check_exact(json_integer(1), "eV", "J", "801088317/5000000000000000000000000000");
    check_exact(json_string("0.1"), "km", "m", "100");
    check_exact(json_real(0.1), "m", "mm", "100");
    check_exact(json_integer(100), "F", "celsius", "340/9");
    check_exact(json_integer(1), "knot", "km/h", "463/250");
    check_exact(json_integer(1), "hp", "W", "37284993579113511/50000000000000");
    /* common spellings that were refused as unknown units */
    check_exact(json_integer(5), "inches", "cm", "127/10");
    check_exact(json_integer(1), "nmi", "km", "463/250");
    check_exact(json_integer(1), "BTU", "J", "52752792631/50000000");
    check_exact(json_integer(1), "ft^3", "L", "55306341/1953125");
    check_exact(json_integer(2), "m^2", "ft^2", "3125000/145161");
    check_exact(json_integer(1), "cc", "mL", "1");
    check_exact(json_integer(3), "pounds", "kg", "136077711/100000000");
    check_value(json_real(1.0 / 128), "m", "m", 0.0078125);
    /* a factor that is itself rounded (parsec) gives no exact field */
    {
        json_t *r = conv(json_integer(1), "parsec", "m");
        CHECK(is_ok(r) && json_object_get(r, "exact") == NULL);
        CHECK(real(r, "value") == 30856775814913673.0);
        json_decref(r);
    }
    /* overflow to infinity is emitted as null, never as a bare inf */
    json_t *r = conv(json_real(1e308), "ly", "m");
    CHECK(is_ok(r));
    CHECK(json_is_null(json_object_get(r, "value")));
    json_decref(r);
}

static void check_error_prefix(json_t *r, const char *prefix) {
    CHECK(json_is_false(json_object_get(r, "ok")));
    CHECK_STREQ(str(r, "code"), "validation");
    const char *m = str(r, "error");
    CHECK(m && strncmp(m, prefix, strlen(prefix)) == 0);
    json_decref(r);
}

static const char *interpreted(json_t *r, const char *side) {
    json_t *io = json_object_get(r, "interpreted_as");
    return json_string_value(json_object_get(io, side));
}

/* unit_case_decides: 1 mW -> W answered 1e+06 (read as megawatt) */
static void test_convert_case(void) {
    json_t *r = conv(json_string(" 2.5 "), "  km / h ", " mph");
    CHECK(is_ok(r));
    CHECK_STREQ(str(r, "unit"), "mph");
    CHECK_STREQ(str(r, "from"), "2.5 km / h");
    CHECK(real(r, "value") == 2.5 * 1000 / 1609.344);
    CHECK(json_object_get(r, "interpreted_as") == NULL);
    json_decref(r);

    check_value(json_integer(1), "mW", "W", 0.001);
    check_value(json_integer(1), "MW", "W", 1000000.0);
    check_value(json_integer(1), "mm", "m", 0.001);
    check_value(json_real(1.5), "kWh", "J", 5400000.0);
    check_value(json_integer(1), "kwh_", "Wh", 1000.0);
    check_value(json_integer(1), "\xc2\xb0" "C", "K", 274.15);
    check_value(json_integer(212), "fahrenheit", "kelvin", 373.15);
    check_value(json_integer(1), "c", "m/s", 299792458.0);
    check_value(json_integer(90), "min", "h", 1.5);
    check_value(json_integer(1), "Mile", "ft", 5280.0); /* a capitalised word */

    /* a unique case-insensitive match is accepted and reported */
    r = conv(json_integer(1), "gb", "MB");
    CHECK(is_ok(r) && real(r, "value") == 1000.0);
    CHECK_STREQ(interpreted(r, "from_unit"), "GB");
    CHECK(interpreted(r, "to_unit") == NULL);
    json_decref(r);
    r = conv(json_integer(0), "k", "f");
    CHECK(is_ok(r) && real(r, "value") == -459.67);
    CHECK_STREQ(interpreted(r, "from_unit"), "K");
    CHECK_STREQ(interpreted(r, "to_unit"), "F");
    json_decref(r);
    r = conv(json_integer(1), "ML", "l"); /* mL and ml are one unit */
    CHECK(is_ok(r) && real(r, "value") == 0.001);
    json_decref(r);

    /* two units differ only by case: refused, never guessed */
    check_error_prefix(conv(json_integer(1), "mw", "W"),
                       "ambiguous unit 'mw': it matches mW, MW, which are different units");
    /* a mixed-case spelling means its case: Mm is not read as mm */
    check_error_prefix(conv(json_integer(1), "W", "Mw"), "unknown unit 'Mw' (did you mean ");
    check_error_prefix(conv(json_integer(1), "Mm", "m"), "unknown unit 'Mm' (did you mean ");
}

static void check_error(json_t *r, const char *want_msg) {
    CHECK(json_is_false(json_object_get(r, "ok")));
    CHECK_STREQ(str(r, "code"), "validation");
    CHECK_STREQ(str(r, "error"), want_msg);
    CHECK_STREQ(str(r, "remedy"), "fix the arguments and retry; the message names the field");
    json_decref(r);
}

static void test_convert_failures(void) {
    check_error(conv(json_integer(1), "K", "m"), "cannot mix temperature and non-temperature units");
    check_error(conv(json_integer(1), "m", "celsius"), "cannot mix temperature and non-temperature units");
    check_error(conv(json_integer(1), "kg", "m"), "conversion failed: incompatible dimensions ('kg' vs 'm')");
    check_error(conv(json_integer(1), "gb", "Hz"), "conversion failed: incompatible dimensions ('GB' vs 'Hz')");
    check_error(conv(json_string("abc"), "m", "km"), "value must be numeric, got 'abc'");
    check_error(conv(json_string("it's"), "m", "km"), "value must be numeric, got \"it's\"");
    check_error(conv(json_true(), "m", "km"), "value must be numeric, got True");
    check_error(conv(json_null(), "m", "km"), "value must be numeric, got None");

    json_t *r = conv(json_integer(1), "Z Z Z", "m");
    const char *msg = str(r, "error");
    CHECK(msg && strncmp(msg, "unknown unit 'ZZZ'. Known: B, BTU, GB, GHz, ", 44) == 0);
    /* only aliases shorter than six characters are listed; the list is sorted */
    CHECK(msg && strstr(msg, ", km/h, ") && strstr(msg, ", kwh_, ") && !strstr(msg, "calorie"));
    CHECK_STREQ(str(r, "code"), "validation");
    json_decref(r);

    /* close matches are offered; the first unknown side is named */
    r = conv(json_integer(1), "m", "kmh");
    msg = str(r, "error");
    CHECK(msg && strncmp(msg, "unknown unit 'kmh' (did you mean km, km/h, kph, kWh, km2?). Known: ", 67) == 0);
    json_decref(r);
    r = conv(json_integer(1), "m", "furlong");
    msg = str(r, "error");
    CHECK(msg && strncmp(msg, "unknown unit 'furlong'. Known: ", 31) == 0);
    json_decref(r);

    r = call("convert_units", json_pack("{s:i, s:i, s:s}", "value", 1, "from_unit", 3, "to_unit", "m"));
    CHECK_STREQ(str(r, "code"), "validation");
    json_decref(r);
}

/* ---- list_units ---- */

static void test_list_units(void) {
    json_t *r = call("list_units", json_object());
    CHECK(is_ok(r));
    json_t *units = json_object_get(r, "units");
    CHECK_INTEQ(json_integer_value(json_object_get(r, "count")), (long long)json_array_size(units));
    CHECK(json_array_size(units) > 150);
    static const char *const head[] = {"B", "BTU", "C", "F", "GB"};
    for (size_t i = 0; i < 5; i++) CHECK_STREQ(json_string_value(json_array_get(units, i)), head[i]);
    bool kmh = false, mW = false, MW = false, kwh_ = false, sorted = true;
    for (size_t i = 0; i < json_array_size(units); i++) {
        const char *u = json_string_value(json_array_get(units, i));
        kmh |= strcmp(u, "km/h") == 0;
        mW |= strcmp(u, "mW") == 0;
        MW |= strcmp(u, "MW") == 0;
        kwh_ |= strcmp(u, "kwh_") == 0;
        if (i) sorted &= strcmp(json_string_value(json_array_get(units, i - 1)), u) < 0;
    }
    CHECK(kmh && mW && MW && kwh_ && sorted);
    json_decref(r);
}

/* ---- physical_constants ---- */

static json_t *constant(json_t *name) { return call("physical_constants", json_pack("{s:o}", "name", name)); }

static void test_constants_lookup(void) {
    json_t *r = constant(json_string("c"));
    CHECK(is_ok(r));
    CHECK_STREQ(str(r, "name"), "speed_of_light");
    CHECK(real(r, "value") == 299792458.0);
    CHECK_STREQ(str(r, "resolved_from"), "c");
    CHECK_STREQ(str(r, "description"), "c = 299792458 m/s");
    CHECK_STREQ(str(r, "symbol"), "speed_of_light");
    CHECK_STREQ(str(r, "source"), "table (CODATA 2018)");
    json_decref(r);

    r = constant(json_string("G"));
    CHECK_STREQ(str(r, "name"), "gravitational_constant");
    CHECK(real(r, "value") == 6.6743e-11);
    CHECK_STREQ(str(r, "resolved_from"), "G");
    json_decref(r);

    r = constant(json_string(" g "));
    CHECK_STREQ(str(r, "name"), "gravity");
    CHECK(real(r, "value") == 9.80665);
    CHECK_STREQ(str(r, "resolved_from"), "g");
    json_decref(r);

    r = constant(json_string("K"));
    CHECK_STREQ(str(r, "name"), "boltzmann");
    CHECK_STREQ(str(r, "resolved_from"), "K");
    json_decref(r);

    /* the key itself, any case: no resolved_from */
    r = constant(json_string("Planck"));
    CHECK_STREQ(str(r, "name"), "planck");
    CHECK(real(r, "value") == 6.62607015e-34);
    CHECK(json_object_get(r, "resolved_from") == NULL);
    json_decref(r);

    r = constant(json_string("hbar"));
    CHECK_STREQ(str(r, "description"), "\xe2\x84\x8f = h/2\xcf\x80");
    CHECK(json_object_get(r, "resolved_from") == NULL);
    json_decref(r);
}

static void test_constants_unknown(void) {
    json_t *r = constant(json_string("light"));
    CHECK_STREQ(str(r, "code"), "validation");
    CHECK_STREQ(str(r, "error"), "unknown constant 'light'");
    json_t *s = json_object_get(r, "suggestions");
    CHECK_INTEQ(json_array_size(s), 2);
    CHECK_STREQ(json_string_value(json_array_get(s, 0)), "speed_of_light");
    CHECK_STREQ(json_string_value(json_array_get(s, 1)), "lightyear");
    json_decref(r);

    /* at most five, in the fixed order */
    r = constant(json_string("ON"));
    s = json_object_get(r, "suggestions");
    static const char *const want[] = {"electron_mass", "proton_mass", "neutron_mass",
                                       "gravitational_constant", "gas_constant"};
    CHECK_INTEQ(json_array_size(s), 5);
    for (size_t i = 0; i < 5; i++) CHECK_STREQ(json_string_value(json_array_get(s, i)), want[i]);
    json_decref(r);

    r = constant(json_string("zzz"));
    CHECK_INTEQ(json_array_size(json_object_get(r, "suggestions")), 0);
    json_decref(r);

    r = constant(json_integer(3));
    CHECK_STREQ(str(r, "code"), "validation");
    json_decref(r);
}

static void test_constants_list(void) {
    json_t *r[3] = {constant(json_null()), constant(json_string("")),
                    call("physical_constants", json_object())};
    for (int k = 0; k < 3; k++) {
        CHECK(is_ok(r[k]));
        json_t *list = json_object_get(r[k], "constants");
        CHECK_INTEQ(json_array_size(list), 22);
        CHECK_STREQ(str(json_array_get(list, 0), "name"), "astronomical_unit");
        CHECK_STREQ(str(json_array_get(list, 0), "value"), "1 au = 149597870700 m");
        CHECK_STREQ(str(json_array_get(list, 21), "name"), "wien");
        CHECK_STREQ(str(json_array_get(list, 19), "value"), "c = 299792458 m/s");
        json_decref(r[k]);
    }
}

/* A JSON integer past 2^63 arrives as a tagged digit string; its exact
 * result was computed from the double it also reads as. */
static json_t *bigint(const char *digits) {
    char buf[64];
    memcpy(buf, CC_BIGINT_PREFIX, CC_BIGINT_PREFIX_LEN);
    size_t n = strlen(digits);
    memcpy(buf + CC_BIGINT_PREFIX_LEN, digits, n);
    return json_stringn(buf, CC_BIGINT_PREFIX_LEN + n);
}

static void test_convert_big_integer_exact(void) {
    check_exact(bigint("123456789012345678901234567890"), "m", "km", "12345678901234567890123456789/100");
    check_exact(bigint("18446744073709551617"), "B", "KiB", "18446744073709551617/1024");
    /* a numeral string past binary64's range: value null (no double), exact kept */
    json_t *r = conv(json_string("1e400"), "m", "km");
    CHECK(is_ok(r) && json_is_null(json_object_get(r, "value")));
    CHECK(str(r, "exact") && strlen(str(r, "exact")) == 398 && strncmp(str(r, "exact"), "10000", 5) == 0);
    json_decref(r);
}

/* A temperature below absolute zero was converted like any other number
 * (-300 C -> -26.85 K): no such temperature exists. */
static void test_convert_below_absolute_zero(void) {
    const char *msg = "the value in %s is below absolute zero";
    struct { int v; const char *from, *to; } cases[] = {
        {-300, "C", "K"}, {-1, "K", "celsius"}, {-460, "F", "C"}, {-274, "celsius", "fahrenheit"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *r = conv(json_integer(cases[i].v), cases[i].from, cases[i].to);
        char want[64];
        snprintf(want, sizeof want, msg, cases[i].from);
        CHECK(!is_ok(r) && strncmp(json_string_value(json_object_get(r, "error")), want, strlen(want)) == 0);
        json_decref(r);
    }
    check_value(json_real(-273.15), "C", "K", 0.0); /* absolute zero itself converts */
    check_value(json_real(-459.67), "F", "K", 0.0);
    check_value(json_integer(-40), "C", "F", -40.0);
}

/* Regression (year was the tropical year, 365.24219 d, while the light-year
 * is c times the Julian year, 365.25 d: 1 ly / c came out 1.0000211 year):
 * year is the Julian year, as the IAU, pint and astropy define it. */
static void test_year_not_the_light_year_year(void) {
    check_exact(json_integer(1), "year", "s", "31557600");
    check_exact(json_integer(1), "yr", "day", "1461/4");
    check_exact(json_integer(9460730472580800), "m", "ly", "1");
}

/* compound_units: J/s, kWh/day, kg*m/s^2 were "unknown unit" (with
 * "did you mean nm?" for N*m); they convert exactly now, a temperature in
 * a compound being the size of its degree. */
static void test_compound_units(void) {
    check_exact(json_integer(1), "J/s", "W", "1");
    check_exact(json_integer(1), "kWh/day", "W", "125/3");
    check_exact(json_integer(1), "kg*m/s^2", "N", "1");
    check_exact(json_integer(3), "N \xc2\xb7 m", "J", "3");
    check_exact(json_integer(1), "m^2", "cm**2", "10000");
    check_exact(json_integer(3), "m/s2", "km/h^2", "38880");
    check_exact(json_integer(3), "1/s", "Hz", "3");
    check_exact(json_integer(1), "MB/s", "GB/h", "18/5");
    check_exact(json_integer(1), "BTU/(lb*degF)", "J/(kg*K)", "20934/5");
    check_exact(json_integer(1), "W/(m^2*K)", "W/(m^2*degF)", "5/9");
    check_exact(json_integer(1), "m/s/s", "m/s^2", "1");
    /* spaced_compound_is_a_product: spaces dropped, m s^-1 spelled ms^-1,
     * the inverse millisecond */
    check_exact(json_integer(1), "m s^-1", "km/h", "18/5");
    check_exact(json_integer(1), "kg m s^-2", "N", "1");
    check_exact(json_integer(1), "W m^-2 K^-1", "W/(m^2*K)", "1");
    check_exact(json_integer(1), "deg C/s", "K/min", "60"); /* spaced reading fails: read without spaces */
    check_error_prefix(conv(json_integer(1), "J/kg K", "J/(kg*K)"), "unit 'J/kg K' is ambiguous");
    /* spaces_dropped_silently: "m s" was the millisecond, "m in" the minute */
    check_error_prefix(conv(json_integer(1), "m s", "s"),
                       "unit 'm s' is ambiguous: without its spaces it is ms, with them m*s");
    check_error_prefix(conv(json_integer(1), "m in", "s"), "unit 'm in' is ambiguous");
    check_exact(json_integer(1), "k W h", "J", "3600000"); /* k folds: the spaced reading is not exact-case */
    check_exact(json_integer(1), "kW h", "J", "3600000"); /* both readings agree */
    /* superscripts and the Greek mu were unknown units */
    check_exact(json_integer(1), "m\xc2\xb2", "cm^2", "10000");
    check_exact(json_integer(1), "W/m\xc2\xb2", "W/cm^2", "1/10000");
    check_exact(json_integer(1), "cm\xc2\xb3", "mL", "1");
    check_exact(json_integer(1), "\xce\xbcm", "nm", "1000");
    json_t *r = conv(json_integer(3), "KM/S", "mi/h");
    CHECK_STREQ(interpreted(r, "from_unit"), "km/s");
    CHECK_STREQ(str(r, "exact"), "9375000/1397");
    json_decref(r);
    check_error_prefix(conv(json_integer(1), "J/kg*K", "J/(kg*K)"), "unit 'J/kg*K' is ambiguous: a product after '/'");
    check_error_prefix(conv(json_integer(1), "J/(kg*C)", "J/(kg*K)"),
                       "'C' in the compound unit 'J/(kg*C)' is ambiguous (coulomb or degree Celsius)");
    check_error_prefix(conv(json_integer(1), "(degC)", "K"), "unit '(degC)' is a temperature interval on its own");
    check_error_prefix(conv(json_integer(1), "N*m", "kg"), "conversion failed: incompatible dimensions ('N*m' vs 'kg')");
    check_error_prefix(conv(json_integer(1), "m/zz", "m"), "unknown unit 'zz'");
    check_error_prefix(conv(json_integer(1), "mw/s", "W"), "ambiguous unit 'mw'");
    check_error_prefix(conv(json_integer(1), "m^99", "m"), "unit power must be an integer from -12 to 12");
    check_error_prefix(conv(json_integer(1), "m/", "m"), "a unit is missing in 'm/'");
    check_error_prefix(conv(json_integer(1), "((((((((((m))))))))))", "m"), "unit '((((((((((m))))))))))' nests");
    check_error_prefix(conv(json_integer(1), "(m", "m"), "unbalanced parentheses in unit '(m'");
    r = conv(json_integer(1), "pc/yr", "km/s"); /* a rounded factor: no exact */
    CHECK(is_ok(r) && str(r, "exact") == NULL);
    json_decref(r);
}

/* superscript_minus_refused: W m⁻² (the SI way to write it) was an
 * unknown unit 'm⁻'; only ² and ³ were read */
static void test_superscript_minus_refused(void) {
    check_exact(json_integer(2), "W m\xe2\x81\xbb\xc2\xb2", "W/cm^2", "1/5000");
    check_exact(json_integer(1), "W\xc2\xb7m\xe2\x81\xbb\xc2\xb2\xc2\xb7K\xe2\x81\xbb\xc2\xb9", "W/(m^2*K)", "1");
    check_exact(json_integer(18), "km h\xe2\x81\xbb\xc2\xb9", "m/s", "5");
    check_exact(json_integer(1), "m\xc2\xb9\xc2\xb2", "m^12", "1");
    check_exact(json_integer(1), "W m^\xe2\x88\x92" "2", "W/cm^2", "1/10000"); /* U+2212 MINUS SIGN */
    check_error_prefix(conv(json_integer(1), "s\xe2\x81\xbb", "Hz"), "unit power must be an integer from -12 to 12");
    check_error_prefix(conv(json_integer(1), "m\xe2\x81\xbb\xc2\xb9\xc2\xb3", "m"),
                       "unit power must be an integer from -12 to 12");
    check_error_prefix(conv(json_integer(1), "m\xe2\x81\xb0", "m"), "unit power must be an integer from -12 to 12");
}

static const char *note_of(json_t *value, const char *from, const char *to, const char **exact) {
    static char keep[512];
    json_t *r = conv(value, from, to);
    const char *n = str(r, "note");
    snprintf(keep, sizeof keep, "%s", n ? n : "");
    static char ex[64];
    snprintf(ex, sizeof ex, "%s", str(r, "exact") ? str(r, "exact") : "");
    if (exact) *exact = ex;
    json_decref(r);
    return keep;
}

/* readings_unsaid: ton, gal and kb were read one way among several in use
 * (metric tonne, US gallon, kilobyte) without a word */
static void test_readings_unsaid(void) {
    const char *ex;
    CHECK(strstr(note_of(json_integer(1), "ton", "kg", &ex), "metric tonne") != NULL);
    CHECK_STREQ(ex, "1000");
    CHECK(strstr(note_of(json_integer(1), "ton/day", "kg/day", &ex), "short ton") != NULL);
    CHECK(strstr(note_of(json_integer(1), "gal", "L", &ex), "imperial") != NULL);
    CHECK_STREQ(ex, "473176473/125000000");
    CHECK(strstr(note_of(json_integer(1), "kb", "B", &ex), "bits") != NULL);
    CHECK_STREQ(ex, "1000");
    CHECK(strstr(note_of(json_integer(1), "mb/s", "B/s", &ex), "bits") != NULL);
    CHECK_STREQ(ex, "1000000");
    CHECK_STREQ(note_of(json_integer(1), "kB", "B", NULL), ""); /* exact case: no reading to state */
    CHECK_STREQ(note_of(json_integer(1), "km", "m", NULL), "");
    check_exact(json_integer(1), "short_ton", "lb", "2000");
    check_exact(json_integer(1), "long_ton", "lb", "2240");
    check_exact(json_integer(1), "imp_gal", "L", "454609/100000");
    check_exact(json_integer(8), "Mbit", "kB", "1000");
    check_exact(json_integer(1), "ozt", "g", "19439673/625000");
    /* a spelling that differs only in case is the first suggestion */
    check_error_prefix(conv(json_integer(1), "Mb", "B"), "unknown unit 'Mb' (did you mean MB,");
}

/* mpg to L/100km was "unknown unit 'mpg'", and mi/gal to L/100 km
 * "incompatible dimensions": economy (distance per volume) and
 * consumption (volume per distance) are reciprocals, which is what an
 * agent converting one to the other means. Exact values are Python
 * fractions' of the same definitions. Only that pair is reciprocal. */
static void test_fuel_economy_was_unknown(void) {
    check_exact(json_integer(30), "mpg", "L/100km", "112903/14400");
    check_exact(json_integer(30), "mi/gal", "L/100 km", "112903/14400");
    check_exact(json_integer(8), "L/100km", "mpg", "112903/3840");
    check_exact(json_integer(8), "l/100km", "mpg_imp", "56826125/1609344");
    check_exact(json_integer(5), "gal/mi", "km/L", "9600/112903");
    check_exact(json_integer(20), "km/L", "mpg", "112903/2400"); /* same dimension: a factor */
    check_exact(json_integer(8), "L/100km", "L/km", "2/25");
    const char *ex;
    CHECK(strstr(note_of(json_integer(30), "mpg", "L/100km", &ex), "reciprocals") != NULL);
    CHECK(strstr(note_of(json_integer(30), "mpg", "L/100km", &ex), "mpg_imp") != NULL);
    CHECK(strstr(note_of(json_integer(20), "km/L", "mpg", &ex), "reciprocals") == NULL);
    check_error_prefix(conv(json_integer(0), "mpg", "L/100km"), "0 mpg has no value in L/100km");
    check_error_prefix(conv(json_integer(1), "acre", "mpg"), "conversion failed: incompatible dimensions");
    check_error_prefix(conv(json_integer(2), "s", "Hz"), "conversion failed: incompatible dimensions");
}

/* deg, rad, rpm, Mbps were unknown units. A plane angle is its own
 * dimension (in turns, so every angle unit but the radian is exact), and
 * an angular speed is not a frequency; bit rates are data per second. */
static void test_angles_and_bit_rates_were_unknown(void) {
    check_exact(json_integer(1), "deg", "arcsec", "3600");
    check_exact(json_integer(90), "degrees", "grad", "100");
    check_exact(json_integer(2), "turn", "\xc2\xb0", "720");
    check_exact(json_integer(100), "Mbps", "MB/s", "25/2");
    check_exact(json_integer(1), "Gbps", "Mbit/s", "1000");
    check_exact(json_integer(60), "rpm", "deg/s", "360");
    check_value(json_integer(180), "deg", "rad", 3.141592653589793);
    check_value(json_integer(1), "rad", "deg", 57.29577951308232);
    check_value(json_integer(3000), "rpm", "rad/s", 314.1592653589793);
    json_t *r = conv(json_integer(180), "deg", "rad");
    CHECK(json_object_get(r, "exact") == NULL); /* pi is no rational */
    json_decref(r);
    check_error_prefix(conv(json_integer(3000), "rpm", "Hz"), "conversion failed: incompatible dimensions");
    check_error_prefix(conv(json_integer(1), "deg", "m"), "conversion failed: incompatible dimensions");
    check_exact(json_integer(1), "deg C/s", "K/s", "1"); /* still a temperature step */
}

/* mol, mmol were unknown units (and so was every compound with them:
 * J/(mol*K), mmol/L). The mole is its own dimension. */
static void test_amount_of_substance_was_unknown(void) {
    check_exact(json_integer(250), "mmol", "mol", "1/4");
    check_exact(json_integer(1), "mol/L", "mmol/mL", "1");
    check_exact(json_integer(3), "mmol/L", "\xc2\xb5mol/mL", "3");
    check_exact(json_integer(2), "J/(mol*K)", "kJ/(mol*K)", "1/500");
    check_exact(json_integer(1), "kmol", "nmol", "1000000000000");
    check_error_prefix(conv(json_integer(1), "mol", "kg"), "conversion failed: incompatible dimensions");
}

/* 273.15 was the uncanonical rational 27315/100, so a temperature's exact
 * was unreduced: 0 C in K was "27315/100", -273.15 C "0/5". */
static void test_temperature_exact_was_unreduced(void) {
    check_exact(json_integer(0), "C", "K", "5463/20");
    check_exact(json_string("-273.15"), "C", "K", "0");
    check_exact(json_string("273.15"), "K", "C", "0");
    check_exact(json_integer(0), "K", "F", "-45967/100");
    check_exact(json_integer(1), "K", "F", "-45787/100");
    check_exact(json_integer(32), "F", "K", "5463/20");
    check_exact(json_string("-459.67"), "F", "K", "0");
}

int main(void) {
    RUN(test_year_not_the_light_year_year);
    RUN(test_convert_examples);
    RUN(test_convert_exact);
    RUN(test_convert_case);
    RUN(test_convert_failures);
    RUN(test_list_units);
    RUN(test_convert_big_integer_exact);
    RUN(test_convert_below_absolute_zero);
    RUN(test_constants_lookup);
    RUN(test_constants_unknown);
    RUN(test_constants_list);
    RUN(test_compound_units);
    RUN(test_superscript_minus_refused);
    RUN(test_readings_unsaid);
    RUN(test_fuel_economy_was_unknown);
    RUN(test_angles_and_bit_rates_were_unknown);
    RUN(test_amount_of_substance_was_unknown);
    RUN(test_temperature_exact_was_unreduced);
    return check_summary("units");
}
