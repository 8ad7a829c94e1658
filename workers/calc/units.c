/* Unit alias table, dimension checks, temperature offsets and the exact
 * half-even rounding convert_units applies to its result. */
#include "workers/calc/units.h"

#include "workers/calc/numfmt.h"

#include <ctype.h>
#include <gmp.h>
#include <strings.h>
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

/* Spellings are case-sensitive (m milli, M mega; mW milliwatt, MW
 * megawatt); a case-insensitive spelling is accepted only when it names one
 * unit (see resolve()). Factors are exact decimal or p/q text, so every
 * conversion is computed as a rational; `approx` marks a factor that is
 * itself a rounded value (the parsec is 648000/pi au). */
static const struct cc_unit table[] = {
    {"m", "1", D_LEN, 0}, {"meter", "1", D_LEN, 0}, {"meters", "1", D_LEN, 0},
    {"metre", "1", D_LEN, 0}, {"metres", "1", D_LEN, 0},
    {"km", "1000", D_LEN, 0}, {"kilometer", "1000", D_LEN, 0}, {"kilometers", "1000", D_LEN, 0},
    {"kilometre", "1000", D_LEN, 0}, {"kilometres", "1000", D_LEN, 0},
    {"cm", "0.01", D_LEN, 0}, {"centimeter", "0.01", D_LEN, 0}, {"centimeters", "0.01", D_LEN, 0},
    {"mm", "0.001", D_LEN, 0}, {"millimeter", "0.001", D_LEN, 0}, {"millimeters", "0.001", D_LEN, 0},
    {"um", "1e-6", D_LEN, 0}, {"\xc2\xb5m", "1e-6", D_LEN, 0}, {"micron", "1e-6", D_LEN, 0},
    {"nm", "1e-9", D_LEN, 0}, {"nanometer", "1e-9", D_LEN, 0},
    {"mi", "1609.344", D_LEN, 0}, {"mile", "1609.344", D_LEN, 0}, {"miles", "1609.344", D_LEN, 0},
    {"yd", "0.9144", D_LEN, 0}, {"yard", "0.9144", D_LEN, 0}, {"yards", "0.9144", D_LEN, 0},
    {"ft", "0.3048", D_LEN, 0}, {"foot", "0.3048", D_LEN, 0}, {"feet", "0.3048", D_LEN, 0},
    {"in", "0.0254", D_LEN, 0}, {"inch", "0.0254", D_LEN, 0}, {"inches", "0.0254", D_LEN, 0},
    {"nmi", "1852", D_LEN, 0}, {"nautical_mile", "1852", D_LEN, 0},
    {"au", "149597870700", D_LEN, 0},
    {"ly", "9460730472580800", D_LEN, 0}, {"lightyear", "9460730472580800", D_LEN, 0},
    {"parsec", "30856775814913673", D_LEN, 1}, {"pc", "30856775814913673", D_LEN, 1},
    {"g", "0.001", D_MASS, 0}, {"gram", "0.001", D_MASS, 0}, {"grams", "0.001", D_MASS, 0},
    {"kg", "1", D_MASS, 0}, {"kilogram", "1", D_MASS, 0}, {"kilograms", "1", D_MASS, 0},
    {"mg", "1e-6", D_MASS, 0}, {"milligram", "1e-6", D_MASS, 0},
    {"ug", "1e-9", D_MASS, 0}, {"\xc2\xb5g", "1e-9", D_MASS, 0}, {"microgram", "1e-9", D_MASS, 0},
    {"lb", "0.45359237", D_MASS, 0}, {"pound", "0.45359237", D_MASS, 0}, {"lbs", "0.45359237", D_MASS, 0},
    {"pounds", "0.45359237", D_MASS, 0},
    {"oz", "0.028349523125", D_MASS, 0}, {"ounce", "0.028349523125", D_MASS, 0},
    {"ounces", "0.028349523125", D_MASS, 0},
    {"ton", "1000", D_MASS, 0}, {"metric_ton", "1000", D_MASS, 0}, {"t", "1000", D_MASS, 0},
    {"tonne", "1000", D_MASS, 0}, {"tonnes", "1000", D_MASS, 0},
    {"s", "1", D_TIME, 0}, {"sec", "1", D_TIME, 0}, {"second", "1", D_TIME, 0}, {"seconds", "1", D_TIME, 0},
    {"ms", "0.001", D_TIME, 0}, {"millisecond", "0.001", D_TIME, 0},
    {"us", "1e-6", D_TIME, 0}, {"\xc2\xb5s", "1e-6", D_TIME, 0}, {"microsecond", "1e-6", D_TIME, 0},
    {"ns", "1e-9", D_TIME, 0}, {"nanosecond", "1e-9", D_TIME, 0},
    {"min", "60", D_TIME, 0}, {"minute", "60", D_TIME, 0}, {"minutes", "60", D_TIME, 0},
    {"h", "3600", D_TIME, 0}, {"hr", "3600", D_TIME, 0}, {"hour", "3600", D_TIME, 0}, {"hours", "3600", D_TIME, 0},
    {"day", "86400", D_TIME, 0}, {"days", "86400", D_TIME, 0},
    {"week", "604800", D_TIME, 0}, {"weeks", "604800", D_TIME, 0},
    /* the Julian year (IAU; the year of the light-year below): the
     * tropical 365.24219 d made 1 ly differ from c times 1 year */
    {"year", "31557600", D_TIME, 0}, {"yr", "31557600", D_TIME, 0},
    {"m/s", "1", D_SPEED, 0},
    {"km/h", "1000/3600", D_SPEED, 0}, {"kph", "1000/3600", D_SPEED, 0},
    {"mph", "1609.344/3600", D_SPEED, 0},
    {"fps", "0.3048", D_SPEED, 0}, {"ft/s", "0.3048", D_SPEED, 0},
    {"knot", "1852/3600", D_SPEED, 0}, {"kn", "1852/3600", D_SPEED, 0},
    {"mach", "340.3", D_SPEED, 0},
    {"c", "299792458", D_SPEED, 0},
    {"J", "1", D_ENERGY, 0}, {"joule", "1", D_ENERGY, 0},
    {"kJ", "1000", D_ENERGY, 0}, {"kilojoule", "1000", D_ENERGY, 0},
    {"MJ", "1e6", D_ENERGY, 0}, {"megajoule", "1e6", D_ENERGY, 0},
    {"cal", "4.184", D_ENERGY, 0}, {"calorie", "4.184", D_ENERGY, 0},
    {"kcal", "4184", D_ENERGY, 0}, {"kilocalorie", "4184", D_ENERGY, 0},
    /* the International Table British thermal unit, exact by definition */
    {"BTU", "1055.05585262", D_ENERGY, 0},
    {"kWh", "3.6e6", D_ENERGY, 0}, {"kwh_", "3.6e6", D_ENERGY, 0},
    {"Wh", "3600", D_ENERGY, 0},
    {"eV", "1.602176634e-19", D_ENERGY, 0}, {"electronvolt", "1.602176634e-19", D_ENERGY, 0},
    {"W", "1", D_POWER, 0}, {"watt", "1", D_POWER, 0},
    {"mW", "0.001", D_POWER, 0}, {"milliwatt", "0.001", D_POWER, 0},
    {"kW", "1000", D_POWER, 0}, {"kilowatt", "1000", D_POWER, 0},
    {"MW", "1e6", D_POWER, 0}, {"megawatt", "1e6", D_POWER, 0},
    {"GW", "1e9", D_POWER, 0}, {"gigawatt", "1e9", D_POWER, 0},
    /* mechanical horsepower: 550 ft*lbf/s = 550 * 0.3048 * 0.45359237 * 9.80665 W */
    {"hp", "745.69987158227022", D_POWER, 0}, {"horsepower", "745.69987158227022", D_POWER, 0},
    {"N", "1", D_FORCE, 0}, {"newton", "1", D_FORCE, 0},
    {"kN", "1000", D_FORCE, 0}, {"lbf", "4.4482216152605", D_FORCE, 0},
    {"Pa", "1", D_PRESS, 0}, {"pascal", "1", D_PRESS, 0},
    {"kPa", "1000", D_PRESS, 0}, {"kilopascal", "1000", D_PRESS, 0},
    {"MPa", "1e6", D_PRESS, 0}, {"megapascal", "1e6", D_PRESS, 0},
    {"bar", "100000", D_PRESS, 0}, {"mbar", "100", D_PRESS, 0},
    {"atm", "101325", D_PRESS, 0},
    /* the torr is 1/760 atm exactly; 133.322387415 Pa is the conventional
     * millimetre of mercury, a different unit (by 1.4e-7) */
    {"torr", "101325/760", D_PRESS, 0}, {"Torr", "101325/760", D_PRESS, 0},
    {"mmHg", "133.322387415", D_PRESS, 0},
    {"psi", "4.4482216152605/0.00064516", D_PRESS, 0},
    {"L", "0.001", D_VOL, 0}, {"l", "0.001", D_VOL, 0}, {"liter", "0.001", D_VOL, 0},
    {"liters", "0.001", D_VOL, 0}, {"litre", "0.001", D_VOL, 0},
    {"mL", "1e-6", D_VOL, 0}, {"ml", "1e-6", D_VOL, 0}, {"milliliter", "1e-6", D_VOL, 0},
    {"m3", "1", D_VOL, 0}, {"m^3", "1", D_VOL, 0},
    {"cm3", "1e-6", D_VOL, 0}, {"cm^3", "1e-6", D_VOL, 0}, {"cc", "1e-6", D_VOL, 0},
    {"ft3", "0.028316846592", D_VOL, 0}, {"ft^3", "0.028316846592", D_VOL, 0},
    {"in3", "0.000016387064", D_VOL, 0}, {"in^3", "0.000016387064", D_VOL, 0},
    {"gal", "0.003785411784", D_VOL, 0}, {"gallon", "0.003785411784", D_VOL, 0},
    {"quart", "0.000946352946", D_VOL, 0},
    {"pint", "0.000473176473", D_VOL, 0},
    {"cup", "0.0002365882365", D_VOL, 0},
    {"floz", "2.95735295625e-5", D_VOL, 0},
    {"ha", "10000", D_AREA, 0}, {"hectare", "10000", D_AREA, 0},
    {"acre", "4046.8564224", D_AREA, 0},
    {"sqft", "0.09290304", D_AREA, 0},
    {"m2", "1", D_AREA, 0}, {"m^2", "1", D_AREA, 0},
    {"km2", "1e6", D_AREA, 0}, {"km^2", "1e6", D_AREA, 0},
    {"cm2", "1e-4", D_AREA, 0}, {"cm^2", "1e-4", D_AREA, 0},
    {"ft2", "0.09290304", D_AREA, 0}, {"ft^2", "0.09290304", D_AREA, 0},
    {"in2", "0.00064516", D_AREA, 0}, {"in^2", "0.00064516", D_AREA, 0},
    {"B", "1", D_DATA, 0}, {"byte", "1", D_DATA, 0}, {"bytes", "1", D_DATA, 0},
    {"kB", "1000", D_DATA, 0}, {"KB", "1000", D_DATA, 0}, {"MB", "1e6", D_DATA, 0},
    {"GB", "1e9", D_DATA, 0}, {"TB", "1e12", D_DATA, 0}, {"PB", "1e15", D_DATA, 0},
    {"KiB", "1024", D_DATA, 0}, {"MiB", "1048576", D_DATA, 0}, {"GiB", "1073741824", D_DATA, 0},
    {"TiB", "1099511627776", D_DATA, 0},
    {"Hz", "1", D_FREQ, 0}, {"hertz", "1", D_FREQ, 0},
    {"kHz", "1000", D_FREQ, 0}, {"MHz", "1e6", D_FREQ, 0}, {"GHz", "1e9", D_FREQ, 0},
};
#define TABLE_LEN (sizeof table / sizeof table[0])

static const struct {
    const char *alias;
    enum cc_temp_scale scale;
} temps[] = {
    {"K", CC_TEMP_K}, {"kelvin", CC_TEMP_K},
    {"celsius", CC_TEMP_C}, {"degC", CC_TEMP_C}, {"\xc2\xb0" "C", CC_TEMP_C},
    {"C", CC_TEMP_C}, {"F", CC_TEMP_F}, {"fahrenheit", CC_TEMP_F}, {"degF", CC_TEMP_F}, {"\xc2\xb0" "F", CC_TEMP_F},
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
        unsigned char c0 = (unsigned char)p[0], c1 = (unsigned char)p[1];
        if (c0 == 0xce && c1 == 0xbc) { /* Greek mu, as often typed, is the micro sign */
            *o++ = (char)0xc2;
            *o++ = (char)0xb5;
            p++;
        } else if (c0 == 0xc2 && (c1 == 0xb2 || c1 == 0xb3)) { /* m², m³: m^2, m^3 (same length) */
            *o++ = '^';
            *o++ = c1 == 0xb2 ? '2' : '3';
            p++;
        } else {
            *o++ = *p;
        }
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

static bool same_unit(const struct cc_unit *a, const struct cc_unit *b) {
    return cc_unit_same_dimension(a, b) && strcmp(a->factor, b->factor) == 0;
}

/* Case-insensitive lookup: the spellings that match, at most one per
 * distinct unit (ml and mL are one unit; mW and MW are two). */
static size_t fold_matches(const char *norm, const char **spell, struct cc_unit_ref *refs,
                           size_t cap) {
    size_t n = 0;
    for (size_t i = 0; i < TABLE_LEN && n < cap; i++) {
        if (strcasecmp(table[i].alias, norm) != 0) continue;
        bool dup = false;
        for (size_t j = 0; j < n; j++) dup |= refs[j].unit && same_unit(refs[j].unit, &table[i]);
        if (dup) continue;
        refs[n] = (struct cc_unit_ref){&table[i], CC_TEMP_NONE, table[i].alias, true};
        spell[n++] = table[i].alias;
    }
    for (size_t i = 0; i < TEMPS_LEN && n < cap; i++) {
        if (strcasecmp(temps[i].alias, norm) != 0) continue;
        bool dup = false;
        for (size_t j = 0; j < n; j++) dup |= refs[j].temp == temps[i].scale;
        if (dup) continue;
        refs[n] = (struct cc_unit_ref){NULL, temps[i].scale, temps[i].alias, true};
        spell[n++] = temps[i].alias;
    }
    return n;
}

/* A spelling whose case says nothing: one case throughout (gb, KM), or a
 * capitalised word of four letters or more (Mile, Celsius). */
static bool case_free(const char *s) {
    bool lower = false, upper = false;
    for (const char *p = s; *p; p++) {
        lower |= *p >= 'a' && *p <= 'z';
        upper |= *p >= 'A' && *p <= 'Z';
    }
    if (!(lower && upper))
        return true;
    if (strlen(s) < 4 || !(s[0] >= 'A' && s[0] <= 'Z'))
        return false;
    for (const char *p = s + 1; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            return false;
    return true;
}

int cc_unit_resolve(const char *norm, struct cc_unit_ref *out, const char **spell, size_t cap,
                    size_t *nspell) {
    const struct cc_unit *u = cc_unit_find(norm);
    enum cc_temp_scale t = cc_unit_temperature(norm);
    *nspell = 0;
    if (u || t != CC_TEMP_NONE) {
        *out = (struct cc_unit_ref){u, t, u ? u->alias : norm, false};
        return 0;
    }
    /* Case is only ignored where it says nothing: a mixed-case symbol (Mm,
     * Mb) means its case, and a fold would change a prefix by a factor of
     * up to 10^9 (Mm -> mm). */
    if (!case_free(norm))
        return -1;
    struct cc_unit_ref refs[8];
    size_t n = fold_matches(norm, spell, refs, cap < 8 ? cap : 8);
    *nspell = n;
    if (n == 1) *out = refs[0];
    return n == 1 ? 0 : n == 0 ? -1 : -2;
}

/* Levenshtein distance of a and b, case-insensitive, capped at 9. */
static unsigned edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40) return 9;
    unsigned row[41];
    for (size_t j = 0; j <= lb; j++) row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned sub = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            unsigned best = sub < up + 1 ? sub : up + 1;
            row[j] = best < row[j - 1] + 1 ? best : row[j - 1] + 1;
            diag = up;
        }
    }
    return row[lb] > 9 ? 9 : row[lb];
}

size_t cc_unit_close_matches(const char *norm, const char **out, size_t cap) {
    size_t n = 0, total = TABLE_LEN + TEMPS_LEN;
    unsigned limit = strlen(norm) <= 3 ? 1 : 2;
    for (unsigned d = 1; d <= limit; d++)
        for (size_t i = 0; i < total && n < cap; i++) {
            const char *a = i < TABLE_LEN ? table[i].alias : temps[i - TABLE_LEN].alias;
            if (edit_distance(norm, a) == d) out[n++] = a;
        }
    return n;
}

/* ---- exact arithmetic ------------------------------------------------------ */

/* out = the value of factor text: a decimal, or decimal/decimal. */
void cc_unit_factor_q(const char *text, mpq_t out) {
    const char *slash = strchr(text, '/');
    if (cc_nf_parse_decimal(text, slash ? (size_t)(slash - text) : strlen(text), out) != 0)
        mpq_set_ui(out, 0, 1); /* cannot happen: the table is ours */
    if (!slash) return;
    mpq_t d;
    mpq_init(d);
    if (cc_nf_parse_decimal(slash + 1, strlen(slash + 1), d) == 0 && mpq_sgn(d) != 0)
        mpq_div(out, out, d);
    mpq_clear(d);
}

/* 273.15 exactly. */
static void zero_celsius(mpq_t out) { mpq_set_ui(out, 27315, 100); }

/* v on scale `from` converted to kelvin, in place. */
static void to_kelvin(mpq_t v, enum cc_temp_scale from) {
    mpq_t c;
    mpq_init(c);
    zero_celsius(c);
    if (from == CC_TEMP_F) { /* (v - 32) * 5/9 + 273.15 */
        mpq_t k;
        mpq_init(k);
        mpq_set_ui(k, 32, 1);
        mpq_sub(v, v, k);
        mpq_set_ui(k, 5, 9);
        mpq_mul(v, v, k);
        mpq_clear(k);
    }
    if (from != CC_TEMP_K) mpq_add(v, v, c);
    mpq_clear(c);
}

/* kelvin v converted to scale `to`, in place. */
static void from_kelvin(mpq_t v, enum cc_temp_scale to) {
    mpq_t c;
    mpq_init(c);
    zero_celsius(c);
    if (to != CC_TEMP_K) mpq_sub(v, v, c);
    if (to == CC_TEMP_F) { /* C * 9/5 + 32 */
        mpq_set_ui(c, 9, 5);
        mpq_mul(v, v, c);
        mpq_set_ui(c, 32, 1);
        mpq_add(v, v, c);
    }
    mpq_clear(c);
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

/* The exact rational of the value argument: a numeric string as the decimal
 * it spells, a JSON number as the shortest decimal that reads back as it
 * (what the caller wrote). -1 when it has no finite value. */
static int value_q(const json_t *jv, double v, mpq_t out) {
    /* A numeral sent as a string keeps its value past binary64's range
     * ("1e400" m is 1e397 km exactly, though no double holds it). */
    if (!isfinite(v) && !json_is_string(jv)) return -1;
    if (json_is_integer(jv)) {
        mpq_set_si(out, (long)json_integer_value(jv), 1);
        return 0;
    }
    char rep[32];
    const char *text = json_is_string(jv) ? json_string_value(jv) : cc_float_repr(v, rep);
    /* An integer past 2^63 arrives as a tagged digit string: its digits,
     * not the double it also reads as (the exact result was that double's). */
    if (cc_json_is_bigint(jv)) text += CC_BIGINT_PREFIX_LEN;
    char *t = cc_unit_trim(text, strlen(text));
    int rc = t ? cc_nf_parse_decimal(t, strlen(t), out) : -1;
    free(t);
    if (rc != 0 && !isfinite(v)) return -1;
    if (rc != 0) mpq_set_d(out, v); /* e.g. "1_000": read as the double it parsed to */
    return 0;
}

static char *q_text(const mpq_t q) {
    char *num = mpz_get_str(NULL, 10, mpq_numref(q)), *den = NULL, *out = NULL;
    bool whole = mpz_cmp_ui(mpq_denref(q), 1) == 0;
    if (!whole) den = mpz_get_str(NULL, 10, mpq_denref(q));
    if (num && (whole || den) && asprintf(&out, "%s%s%s", num, whole ? "" : "/", whole ? "" : den) < 0)
        out = NULL;
    void (*gfree)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gfree);
    if (num) gfree(num, strlen(num) + 1);
    if (den) gfree(den, strlen(den) + 1);
    return out;
}

json_t *cc_unit_name_error(const char *norm, int rc, const char **spell, size_t n) {
    char list[256] = "";
    size_t used = 0;
    if (rc == -2) {
        for (size_t i = 0; i < n && used < sizeof list; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", spell[i]);
        return cc_err("validation",
                      "ambiguous unit '%s': it matches %s, which are different units; write the "
                      "unit with its exact case (m = milli, M = mega)", norm, list);
    }
    const char *close[5];
    size_t k = cc_unit_close_matches(norm, close, 5);
    for (size_t i = 0; i < k && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", close[i]);
    if (k)
        return cc_err("validation", "unknown unit '%s' (did you mean %s?). Known: %s", norm, list,
                      cc_unit_short_alias_list());
    return cc_err("validation", "unknown unit '%s'. Known: %s", norm, cc_unit_short_alias_list());
}

/* The conversion of q (in place) from one resolved unit to another; NULL,
 * or the error object. */
static json_t *convert(mpq_t q, const struct cc_unit_ref *f, const struct cc_unit_ref *t) {
    if (!f->unit || !t->unit) {
        if (f->unit || t->unit)
            return cc_err("validation", "cannot mix temperature and non-temperature units");
        to_kelvin(q, f->temp);
        if (mpq_sgn(q) < 0)
            return cc_err("validation", "the value in %s is below absolute zero (0 K = -273.15 C = -459.67 F): "
                          "no temperature is that low; for a temperature difference convert the "
                          "size of a degree instead (1 K = 1 C = 9/5 F)", f->spelling);
        from_kelvin(q, t->temp);
        return NULL;
    }
    if (!cc_unit_same_dimension(f->unit, t->unit))
        return cc_err("validation", "conversion failed: incompatible dimensions ('%s' vs '%s')",
                      f->spelling, t->spelling);
    mpq_t k;
    mpq_init(k);
    cc_unit_factor_q(f->unit->factor, k);
    mpq_mul(q, q, k);
    cc_unit_factor_q(t->unit->factor, k);
    mpq_div(q, q, k);
    mpq_clear(k);
    return NULL;
}

static json_t *build_result(double v, const mpq_t q, bool finite, const struct cc_unit_ref *f,
                            const struct cc_unit_ref *t, const char *from_trim, const char *to_trim) {
    char rep[32];
    char *from_text = NULL;
    if (asprintf(&from_text, "%s %s", cc_float_repr(v, rep), from_trim) < 0) return NULL;
    json_t *r = cc_ok();
    bool approx = (f->unit && f->unit->approx) || (t->unit && t->unit->approx);
    json_object_set_new(r, "value", finite ? cc_nf_real(cc_nf_mpq_to_double(q)) : json_null());
    if (finite && !approx) {
        char *e = q_text(q);
        if (e) json_object_set_new(r, "exact", json_string(e));
        free(e);
    }
    json_object_set_new(r, "unit", json_string(to_trim));
    json_object_set_new(r, "from", json_string(from_text));
    if (f->folded || t->folded) {
        json_t *io = json_object();
        if (f->folded) json_object_set_new(io, "from_unit", json_string(f->spelling));
        if (t->folded) json_object_set_new(io, "to_unit", json_string(t->spelling));
        json_object_set_new(r, "interpreted_as", io);
    }
    free(from_text);
    return r;
}

/* A name the table knows once its spaces are dropped, whose spaced
 * reading is a product of exact-case units that differs from it: "m s"
 * is ms (the millisecond) without its spaces and m*s with them, "m W"
 * mW or m*W. Spaces were dropped silently; such a name is refused. NULL
 * when the spaced reading agrees, fails, or took a case fold ("k W h" is
 * kWh). */
static json_t *spaced_differs(const char *trim, const struct cc_unit_ref *ref) {
    if (!strchr(trim, ' ')) return NULL;
    struct cc_unit *u;
    char *spelling;
    bool folded;
    json_t *err = NULL;
    if (cc_unit_compound(trim, &u, &spelling, &folded, &err) != 0) {
        json_decref(err);
        return NULL;
    }
    bool differs = !folded && (!ref->unit || !cc_unit_same_dimension(ref->unit, u) ||
                               strcmp(ref->unit->factor, u->factor) != 0);
    if (differs && ref->unit) { /* equal factors may be spelled differently ("1e-3" vs "1/1000") */
        mpq_t a, b;
        mpq_inits(a, b, NULL);
        cc_unit_factor_q(ref->unit->factor, a);
        cc_unit_factor_q(u->factor, b);
        differs = !cc_unit_same_dimension(ref->unit, u) || !mpq_equal(a, b);
        mpq_clears(a, b, NULL);
    }
    json_t *r = differs ? cc_err("validation",
                                 "unit '%s' is ambiguous: without its spaces it is %s, with them %s; write "
                                 "one of those", trim, ref->spelling, spelling)
                        : NULL;
    cc_unit_compound_free(u);
    return r;
}

/* One side's unit: a table spelling or temperature, else a compound (J/s);
 * *own receives a compound's synthetic entry for the caller to release.
 * A name written with spaces is read as a compound with its spaces first
 * (m s^-1 is m/s), then with them dropped (deg C/s is degC/s). NULL, or
 * the error to answer. */
static json_t *resolve_side(const char *norm, const char *trim, struct cc_unit_ref *ref, struct cc_unit **own) {
    const char *spell[8];
    size_t n;
    int rc = cc_unit_resolve(norm, ref, spell, 8, &n);
    char *spelling;
    bool folded;
    if (rc == 0) return spaced_differs(trim, ref);
    if (rc != -1) return cc_unit_name_error(norm, rc, spell, n);
    json_t *err = NULL, *err2 = NULL;
    int crc = strchr(trim, ' ') ? cc_unit_compound(trim, own, &spelling, &folded, &err) : -1;
    if (crc != 0) {
        int crc2 = cc_unit_compound(norm, own, &spelling, &folded, &err2);
        if (crc2 == 0) {
            json_decref(err);
            crc = 0;
        } else if (crc2 == -2) {
            if (crc == -2) json_decref(err2); /* the spaced reading's error names the part */
            else err = err2;
            crc = -2;
        } else if (crc == -2) {
            json_decref(err); /* no operator once the spaces go: an unknown name */
            crc = -1;
        }
    }
    if (crc == 0) {
        *ref = (struct cc_unit_ref){*own, CC_TEMP_NONE, spelling, folded};
        return NULL;
    }
    if (crc == -2) return err ? err : cc_err("internal", "out of memory");
    return cc_unit_name_error(norm, rc, spell, n);
}

static json_t *convert_names(const json_t *jv, double v, const char *from, const char *to,
                             const char *from_trim, const char *to_trim) {
    struct cc_unit_ref f, t;
    struct cc_unit *fown = NULL, *town = NULL;
    json_t *r = resolve_side(from, from_trim, &f, &fown);
    if (!r) r = resolve_side(to, to_trim, &t, &town);
    if (!r) {
        mpq_t q;
        mpq_init(q);
        bool finite = value_q(jv, v, q) == 0;
        r = convert(q, &f, &t);
        if (!r) r = build_result(v, q, finite, &f, &t, from_trim, to_trim);
        mpq_clear(q);
    }
    cc_unit_compound_free(fown);
    cc_unit_compound_free(town);
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
    if (from && to && from_trim && to_trim) r = convert_names(jv, v, from, to, from_trim, to_trim);
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
