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

/* Dimension vectors {m, kg, s, B, K, turn, mol}; unwritten exponents are 0. */
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
#define D_ECONOMY {-2, 0, 0, 0}
#define D_RATE   {0, 0, -1, 1}
#define D_ANGLE  {0, 0, 0, 0, 0, 1}
#define D_ANGULAR_SPEED {0, 0, -1, 0, 0, 1}
#define D_AMOUNT {0, 0, 0, 0, 0, 0, 1}

/* Names with more than one reading in use: the table's reading is fixed
 * (TOOLS.md 3.3.19), and the result says which one it took. */
#define N_TON "ton is read as the metric tonne (1000 kg); the US short ton is 907.18474 kg (short_ton), " \
              "the imperial long ton 1016.0469088 kg (long_ton)"
#define N_GAL "US customary liquid measure (1 gal = 3.785411784 L); the imperial measures are larger " \
              "(imp_gal 4.54609 L, imp_quart, imp_pint, imp_floz)"
#define N_OZ "avoirdupois ounce (28.349523125 g); the troy ounce of precious metals is 31.1034768 g (ozt)"
#define N_CAL "thermochemical calorie (4.184 J); the International Table calorie is 4.1868 J"
#define N_HP "mechanical horsepower (745.7 W); metric horsepower (PS) is 735.49875 W"
#define N_MPG "US miles per US gallon (3.785411784 L); miles per imperial gallon is mpg_imp"
#define N_YEAR "Julian year, 365.25 days (31557600 s); a calendar year has 365 or 366 days"

/* Spellings are case-sensitive (m milli, M mega; mW milliwatt, MW
 * megawatt); a case-insensitive spelling is accepted only when it names one
 * unit (see resolve()). Factors are exact decimal or p/q text, so every
 * conversion is computed as a rational; `approx` marks a factor that is
 * itself a rounded value (the parsec is 648000/pi au). */
static const struct cc_unit table[] = {
    {"m", "1", D_LEN, 0, NULL}, {"meter", "1", D_LEN, 0, NULL}, {"meters", "1", D_LEN, 0, NULL},
    {"metre", "1", D_LEN, 0, NULL}, {"metres", "1", D_LEN, 0, NULL},
    {"km", "1000", D_LEN, 0, NULL}, {"kilometer", "1000", D_LEN, 0, NULL}, {"kilometers", "1000", D_LEN, 0, NULL},
    {"kilometre", "1000", D_LEN, 0, NULL}, {"kilometres", "1000", D_LEN, 0, NULL},
    {"cm", "0.01", D_LEN, 0, NULL}, {"centimeter", "0.01", D_LEN, 0, NULL}, {"centimeters", "0.01", D_LEN, 0, NULL},
    {"mm", "0.001", D_LEN, 0, NULL}, {"millimeter", "0.001", D_LEN, 0, NULL}, {"millimeters", "0.001", D_LEN, 0, NULL},
    {"um", "1e-6", D_LEN, 0, NULL}, {"\xc2\xb5m", "1e-6", D_LEN, 0, NULL}, {"micron", "1e-6", D_LEN, 0, NULL},
    {"nm", "1e-9", D_LEN, 0, NULL}, {"nanometer", "1e-9", D_LEN, 0, NULL},
    {"mi", "1609.344", D_LEN, 0, NULL}, {"mile", "1609.344", D_LEN, 0, NULL}, {"miles", "1609.344", D_LEN, 0, NULL},
    {"yd", "0.9144", D_LEN, 0, NULL}, {"yard", "0.9144", D_LEN, 0, NULL}, {"yards", "0.9144", D_LEN, 0, NULL},
    {"ft", "0.3048", D_LEN, 0, NULL}, {"foot", "0.3048", D_LEN, 0, NULL}, {"feet", "0.3048", D_LEN, 0, NULL},
    {"in", "0.0254", D_LEN, 0, NULL}, {"inch", "0.0254", D_LEN, 0, NULL}, {"inches", "0.0254", D_LEN, 0, NULL},
    {"nmi", "1852", D_LEN, 0, NULL}, {"nautical_mile", "1852", D_LEN, 0, NULL},
    {"au", "149597870700", D_LEN, 0, NULL},
    {"ly", "9460730472580800", D_LEN, 0, NULL}, {"lightyear", "9460730472580800", D_LEN, 0, NULL},
    {"parsec", "30856775814913673", D_LEN, 1, NULL}, {"pc", "30856775814913673", D_LEN, 1, NULL},
    {"g", "0.001", D_MASS, 0, NULL}, {"gram", "0.001", D_MASS, 0, NULL}, {"grams", "0.001", D_MASS, 0, NULL},
    {"kg", "1", D_MASS, 0, NULL}, {"kilogram", "1", D_MASS, 0, NULL}, {"kilograms", "1", D_MASS, 0, NULL},
    {"mg", "1e-6", D_MASS, 0, NULL}, {"milligram", "1e-6", D_MASS, 0, NULL},
    {"ug", "1e-9", D_MASS, 0, NULL}, {"\xc2\xb5g", "1e-9", D_MASS, 0, NULL}, {"microgram", "1e-9", D_MASS, 0, NULL},
    {"lb", "0.45359237", D_MASS, 0, NULL}, {"pound", "0.45359237", D_MASS, 0, NULL}, {"lbs", "0.45359237", D_MASS, 0, NULL},
    {"pounds", "0.45359237", D_MASS, 0, NULL},
    {"oz", "0.028349523125", D_MASS, 0, N_OZ}, {"ounce", "0.028349523125", D_MASS, 0, N_OZ},
    {"ounces", "0.028349523125", D_MASS, 0, N_OZ}, {"ozt", "0.0311034768", D_MASS, 0, NULL},
    {"troy_ounce", "0.0311034768", D_MASS, 0, NULL},
    {"short_ton", "907.18474", D_MASS, 0, NULL}, {"long_ton", "1016.0469088", D_MASS, 0, NULL},
    {"ton", "1000", D_MASS, 0, N_TON}, {"metric_ton", "1000", D_MASS, 0, NULL}, {"t", "1000", D_MASS, 0, NULL},
    {"tonne", "1000", D_MASS, 0, NULL}, {"tonnes", "1000", D_MASS, 0, NULL},
    {"s", "1", D_TIME, 0, NULL}, {"sec", "1", D_TIME, 0, NULL}, {"second", "1", D_TIME, 0, NULL}, {"seconds", "1", D_TIME, 0, NULL},
    {"ms", "0.001", D_TIME, 0, NULL}, {"millisecond", "0.001", D_TIME, 0, NULL},
    {"us", "1e-6", D_TIME, 0, NULL}, {"\xc2\xb5s", "1e-6", D_TIME, 0, NULL}, {"microsecond", "1e-6", D_TIME, 0, NULL},
    {"ns", "1e-9", D_TIME, 0, NULL}, {"nanosecond", "1e-9", D_TIME, 0, NULL},
    {"min", "60", D_TIME, 0, NULL}, {"minute", "60", D_TIME, 0, NULL}, {"minutes", "60", D_TIME, 0, NULL},
    {"h", "3600", D_TIME, 0, NULL}, {"hr", "3600", D_TIME, 0, NULL}, {"hour", "3600", D_TIME, 0, NULL}, {"hours", "3600", D_TIME, 0, NULL},
    {"day", "86400", D_TIME, 0, NULL}, {"days", "86400", D_TIME, 0, NULL},
    {"week", "604800", D_TIME, 0, NULL}, {"weeks", "604800", D_TIME, 0, NULL},
    /* the Julian year (IAU; the year of the light-year below): the
     * tropical 365.24219 d made 1 ly differ from c times 1 year */
    {"year", "31557600", D_TIME, 0, N_YEAR}, {"yr", "31557600", D_TIME, 0, N_YEAR},
    {"m/s", "1", D_SPEED, 0, NULL},
    {"km/h", "1000/3600", D_SPEED, 0, NULL}, {"kph", "1000/3600", D_SPEED, 0, NULL},
    {"mph", "1609.344/3600", D_SPEED, 0, NULL},
    {"fps", "0.3048", D_SPEED, 0, NULL}, {"ft/s", "0.3048", D_SPEED, 0, NULL},
    {"knot", "1852/3600", D_SPEED, 0, NULL}, {"kn", "1852/3600", D_SPEED, 0, NULL},
    {"mach", "340.3", D_SPEED, 0, NULL},
    {"c", "299792458", D_SPEED, 0, NULL},
    {"J", "1", D_ENERGY, 0, NULL}, {"joule", "1", D_ENERGY, 0, NULL},
    {"kJ", "1000", D_ENERGY, 0, NULL}, {"kilojoule", "1000", D_ENERGY, 0, NULL},
    {"MJ", "1e6", D_ENERGY, 0, NULL}, {"megajoule", "1e6", D_ENERGY, 0, NULL},
    {"cal", "4.184", D_ENERGY, 0, N_CAL}, {"calorie", "4.184", D_ENERGY, 0, N_CAL},
    {"kcal", "4184", D_ENERGY, 0, N_CAL}, {"kilocalorie", "4184", D_ENERGY, 0, N_CAL},
    /* the International Table British thermal unit, exact by definition */
    {"BTU", "1055.05585262", D_ENERGY, 0, NULL},
    {"kWh", "3.6e6", D_ENERGY, 0, NULL}, {"kwh_", "3.6e6", D_ENERGY, 0, NULL},
    {"Wh", "3600", D_ENERGY, 0, NULL},
    {"eV", "1.602176634e-19", D_ENERGY, 0, NULL}, {"electronvolt", "1.602176634e-19", D_ENERGY, 0, NULL},
    {"W", "1", D_POWER, 0, NULL}, {"watt", "1", D_POWER, 0, NULL},
    {"mW", "0.001", D_POWER, 0, NULL}, {"milliwatt", "0.001", D_POWER, 0, NULL},
    {"kW", "1000", D_POWER, 0, NULL}, {"kilowatt", "1000", D_POWER, 0, NULL},
    {"MW", "1e6", D_POWER, 0, NULL}, {"megawatt", "1e6", D_POWER, 0, NULL},
    {"GW", "1e9", D_POWER, 0, NULL}, {"gigawatt", "1e9", D_POWER, 0, NULL},
    /* mechanical horsepower: 550 ft*lbf/s = 550 * 0.3048 * 0.45359237 * 9.80665 W */
    {"hp", "745.69987158227022", D_POWER, 0, N_HP}, {"horsepower", "745.69987158227022", D_POWER, 0, N_HP},
    {"N", "1", D_FORCE, 0, NULL}, {"newton", "1", D_FORCE, 0, NULL},
    {"kN", "1000", D_FORCE, 0, NULL}, {"lbf", "4.4482216152605", D_FORCE, 0, NULL},
    {"Pa", "1", D_PRESS, 0, NULL}, {"pascal", "1", D_PRESS, 0, NULL},
    {"kPa", "1000", D_PRESS, 0, NULL}, {"kilopascal", "1000", D_PRESS, 0, NULL},
    {"MPa", "1e6", D_PRESS, 0, NULL}, {"megapascal", "1e6", D_PRESS, 0, NULL},
    {"bar", "100000", D_PRESS, 0, NULL}, {"mbar", "100", D_PRESS, 0, NULL},
    {"atm", "101325", D_PRESS, 0, NULL},
    /* the torr is 1/760 atm exactly; 133.322387415 Pa is the conventional
     * millimetre of mercury, a different unit (by 1.4e-7) */
    {"torr", "101325/760", D_PRESS, 0, NULL}, {"Torr", "101325/760", D_PRESS, 0, NULL},
    {"mmHg", "133.322387415", D_PRESS, 0, NULL},
    {"psi", "4.4482216152605/0.00064516", D_PRESS, 0, NULL},
    {"L", "0.001", D_VOL, 0, NULL}, {"l", "0.001", D_VOL, 0, NULL}, {"liter", "0.001", D_VOL, 0, NULL},
    {"liters", "0.001", D_VOL, 0, NULL}, {"litre", "0.001", D_VOL, 0, NULL},
    {"mL", "1e-6", D_VOL, 0, NULL}, {"ml", "1e-6", D_VOL, 0, NULL}, {"milliliter", "1e-6", D_VOL, 0, NULL},
    {"m3", "1", D_VOL, 0, NULL}, {"m^3", "1", D_VOL, 0, NULL},
    {"cm3", "1e-6", D_VOL, 0, NULL}, {"cm^3", "1e-6", D_VOL, 0, NULL}, {"cc", "1e-6", D_VOL, 0, NULL},
    {"ft3", "0.028316846592", D_VOL, 0, NULL}, {"ft^3", "0.028316846592", D_VOL, 0, NULL},
    {"in3", "0.000016387064", D_VOL, 0, NULL}, {"in^3", "0.000016387064", D_VOL, 0, NULL},
    {"gal", "0.003785411784", D_VOL, 0, N_GAL}, {"gallon", "0.003785411784", D_VOL, 0, N_GAL},
    {"quart", "0.000946352946", D_VOL, 0, N_GAL},
    {"pint", "0.000473176473", D_VOL, 0, N_GAL},
    {"cup", "0.0002365882365", D_VOL, 0, N_GAL},
    {"floz", "2.95735295625e-5", D_VOL, 0, N_GAL},
    {"imp_gal", "0.00454609", D_VOL, 0, NULL}, {"imp_quart", "0.0011365225", D_VOL, 0, NULL},
    {"imp_pint", "0.00056826125", D_VOL, 0, NULL}, {"imp_floz", "0.0000284130625", D_VOL, 0, NULL},
    /* fuel economy (distance per volume) and consumption (volume per
     * distance): inverse dimensions, converted reciprocally (convert()) */
    {"mpg", "1609.344/0.003785411784", D_ECONOMY, 0, N_MPG},
    {"mpg_imp", "1609.344/0.00454609", D_ECONOMY, 0, NULL},
    {"km/L", "1000/0.001", D_ECONOMY, 0, NULL}, {"km/l", "1000/0.001", D_ECONOMY, 0, NULL},
    {"L/100km", "0.001/100000", D_AREA, 0, NULL}, {"l/100km", "0.001/100000", D_AREA, 0, NULL},
    {"ha", "10000", D_AREA, 0, NULL}, {"hectare", "10000", D_AREA, 0, NULL},
    {"acre", "4046.8564224", D_AREA, 0, NULL},
    {"sqft", "0.09290304", D_AREA, 0, NULL},
    {"m2", "1", D_AREA, 0, NULL}, {"m^2", "1", D_AREA, 0, NULL},
    {"km2", "1e6", D_AREA, 0, NULL}, {"km^2", "1e6", D_AREA, 0, NULL},
    {"cm2", "1e-4", D_AREA, 0, NULL}, {"cm^2", "1e-4", D_AREA, 0, NULL},
    {"ft2", "0.09290304", D_AREA, 0, NULL}, {"ft^2", "0.09290304", D_AREA, 0, NULL},
    {"in2", "0.00064516", D_AREA, 0, NULL}, {"in^2", "0.00064516", D_AREA, 0, NULL},
    {"B", "1", D_DATA, 0, NULL}, {"byte", "1", D_DATA, 0, NULL}, {"bytes", "1", D_DATA, 0, NULL},
    {"kB", "1000", D_DATA, 0, NULL}, {"KB", "1000", D_DATA, 0, NULL}, {"MB", "1e6", D_DATA, 0, NULL},
    {"GB", "1e9", D_DATA, 0, NULL}, {"TB", "1e12", D_DATA, 0, NULL}, {"PB", "1e15", D_DATA, 0, NULL},
    {"KiB", "1024", D_DATA, 0, NULL}, {"MiB", "1048576", D_DATA, 0, NULL}, {"GiB", "1073741824", D_DATA, 0, NULL},
    {"TiB", "1099511627776", D_DATA, 0, NULL},
    {"bit", "0.125", D_DATA, 0, NULL}, {"bits", "0.125", D_DATA, 0, NULL}, {"kbit", "125", D_DATA, 0, NULL},
    {"Mbit", "125000", D_DATA, 0, NULL}, {"Gbit", "125000000", D_DATA, 0, NULL}, {"Tbit", "125000000000", D_DATA, 0, NULL},
    /* bit rates: bits per second, as network speeds are quoted */
    {"bps", "0.125", D_RATE, 0, NULL}, {"kbps", "125", D_RATE, 0, NULL},
    {"Mbps", "125000", D_RATE, 0, NULL}, {"Gbps", "125000000", D_RATE, 0, NULL},
    {"Tbps", "125000000000", D_RATE, 0, NULL},
    /* plane angles, in turns: every one exact but the radian, 1/(2*pi) */
    {"turn", "1", D_ANGLE, 0, NULL}, {"turns", "1", D_ANGLE, 0, NULL},
    {"rev", "1", D_ANGLE, 0, NULL}, {"revolution", "1", D_ANGLE, 0, NULL},
    {"deg", "1/360", D_ANGLE, 0, NULL}, {"degree", "1/360", D_ANGLE, 0, NULL},
    {"degrees", "1/360", D_ANGLE, 0, NULL}, {"\xc2\xb0", "1/360", D_ANGLE, 0, NULL},
    {"arcmin", "1/21600", D_ANGLE, 0, NULL}, {"arcsec", "1/1296000", D_ANGLE, 0, NULL},
    {"grad", "1/400", D_ANGLE, 0, NULL}, {"gon", "1/400", D_ANGLE, 0, NULL},
    {"rad", "0.15915494309189533576888376337251436203445964574046", D_ANGLE, 1, NULL},
    {"radian", "0.15915494309189533576888376337251436203445964574046", D_ANGLE, 1, NULL},
    {"radians", "0.15915494309189533576888376337251436203445964574046", D_ANGLE, 1, NULL},
    {"mrad", "0.00015915494309189533576888376337251436203445964574046", D_ANGLE, 1, NULL},
    {"rpm", "1/60", D_ANGULAR_SPEED, 0, NULL},
    /* amount of substance; mol/L and the rest as compounds (M is not
     * molar here: M alone is no unit, and MB, MW are mega) */
    {"mol", "1", D_AMOUNT, 0, NULL}, {"mole", "1", D_AMOUNT, 0, NULL}, {"moles", "1", D_AMOUNT, 0, NULL},
    {"kmol", "1000", D_AMOUNT, 0, NULL}, {"mmol", "0.001", D_AMOUNT, 0, NULL},
    {"umol", "1e-6", D_AMOUNT, 0, NULL}, {"\xc2\xb5mol", "1e-6", D_AMOUNT, 0, NULL},
    {"nmol", "1e-9", D_AMOUNT, 0, NULL},
    {"Hz", "1", D_FREQ, 0, NULL}, {"hertz", "1", D_FREQ, 0, NULL},
    {"kHz", "1000", D_FREQ, 0, NULL}, {"MHz", "1e6", D_FREQ, 0, NULL}, {"GHz", "1e9", D_FREQ, 0, NULL},
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

/* Superscript characters: ⁰ ¹ ² ³ ⁴ … ⁹ ⁺ ⁻ and their ASCII. */
static char superscript_char(const unsigned char *u, size_t *len) {
    *len = 2;
    if (u[0] == 0xc2 && u[1] == 0xb9) return '1';
    if (u[0] == 0xc2 && (u[1] == 0xb2 || u[1] == 0xb3)) return (char)('0' + u[1] - 0xb0);
    *len = 3;
    if (u[0] != 0xe2 || u[1] != 0x81) return 0;
    if (u[2] == 0xb0 || (u[2] >= 0xb4 && u[2] <= 0xb9)) return (char)('0' + u[2] - 0xb0);
    return u[2] == 0xba ? '+' : u[2] == 0xbb ? '-' : 0;
}

size_t cc_unit_superscript(const char *s, char *out, size_t cap) {
    size_t used = 0, n = 0, len;
    char c;
    while ((c = superscript_char((const unsigned char *)s + used, &len))) {
        if (out && n + 1 < cap) out[n++] = c;
        else if (out) n = cap; /* too long: report it as nothing parsed */
        used += len;
    }
    if (out && cap) out[n < cap ? n : 0] = '\0';
    return used;
}

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
    char *o = t, sup[16];
    size_t n;
    for (const char *p = t; *p; p++) {
        if (*p == ' ') continue;
        unsigned char c0 = (unsigned char)p[0], c1 = (unsigned char)p[1];
        if (c0 == 0xce && c1 == 0xbc) { /* Greek mu, as often typed, is the micro sign */
            *o++ = (char)0xc2;
            *o++ = (char)0xb5;
            p++;
        } else if (c0 == 0xe2 && c1 == 0x88 && (unsigned char)p[2] == 0x92) { /* U+2212 minus sign */
            *o++ = '-';
            p += 2;
        } else if ((n = cc_unit_superscript(p, sup, sizeof sup))) {
            /* m², s⁻¹: m^2, s^-1; each superscript spans two bytes or more,
             * so '^' and one character per superscript never outrun p */
            *o++ = '^';
            for (const char *c = sup; *c; c++) *o++ = *c;
            p += n - 1;
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

const char *cc_unit_fold_note(const char *spelled, const struct cc_unit_ref *r) {
    size_t n = strlen(spelled);
    if (!r->folded || !r->unit || r->unit->dim[CC_DIM_B] != 1 || n < 2) return NULL;
    if (spelled[n - 1] != 'b' || r->spelling[strlen(r->spelling) - 1] != 'B') return NULL;
    return "a lowercase b was read as bytes (kb as kB, Mb as MB), as the unit table spells them; "
           "a lowercase b usually means bits: write kbit, Mbit or Gbit for bits";
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
    for (unsigned d = 0; d <= limit; d++) /* 0: a spelling that differs only in case */
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

/* 273.15 exactly, in lowest terms: GMP's arithmetic assumes canonical
 * operands, and 27315/100 made every temperature's `exact` unreduced
 * ("27315/100" for 0 C in K, "0/5" for -273.15 C). */
static void zero_celsius(mpq_t out) { mpq_set_ui(out, 5463, 20); }

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

/* Fuel economy (length per volume, m^-2: mpg, km/L) and fuel consumption
 * (volume per length, m^2, written as a ratio: L/100km, gal/mi) measure
 * one thing as reciprocals, and an agent converting one to the other
 * means the reciprocal. No other pair of inverse dimensions converts: s to
 * Hz is not a conversion, and an area (acre, m^2) is no consumption. */
static bool economy_and_consumption(const struct cc_unit_ref *a, const struct cc_unit_ref *b) {
    static const signed char economy[CC_DIM_COUNT] = D_ECONOMY, area[CC_DIM_COUNT] = D_AREA;
    return memcmp(a->unit->dim, economy, sizeof economy) == 0 &&
           memcmp(b->unit->dim, area, sizeof area) == 0 && strchr(b->spelling, '/');
}

static bool fuel_inverse(const struct cc_unit_ref *a, const struct cc_unit_ref *b) {
    return economy_and_consumption(a, b) || economy_and_consumption(b, a);
}

/* The conversion of q (in place) from one resolved unit to another; NULL,
 * or the error object. */
static json_t *convert(mpq_t q, const struct cc_unit_ref *f, const struct cc_unit_ref *t,
                       bool *reciprocal) {
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
    bool inverse = *reciprocal = fuel_inverse(f, t);
    if (!inverse && !cc_unit_same_dimension(f->unit, t->unit))
        return cc_err("validation", "conversion failed: incompatible dimensions ('%s' vs '%s')",
                      f->spelling, t->spelling);
    if (inverse && mpq_sgn(q) == 0)
        return cc_err("validation", "0 %s has no value in %s: economy and consumption are "
                      "reciprocal, and 1/0 is infinite", f->spelling, t->spelling);
    mpq_t k;
    mpq_init(k);
    cc_unit_factor_q(f->unit->factor, k);
    mpq_mul(q, q, k);
    if (inverse) mpq_inv(q, q);
    cc_unit_factor_q(t->unit->factor, k);
    mpq_div(q, q, k);
    mpq_clear(k);
    return NULL;
}

/* Which reading of a name with several was taken (ton, gal, kb), or NULL. */
static const char *reading_note(const struct cc_unit_ref *r, const char *norm) {
    if (r->unit && r->unit->note) return r->unit->note;
    return cc_unit_fold_note(norm, r);
}

#define N_RECIPROCAL "fuel economy (distance per volume) and consumption (volume per distance) " \
                     "are reciprocals: the value is 1 / the given one, in these units"

static json_t *build_result(double v, const mpq_t q, bool finite, const struct cc_unit_ref *f,
                            const struct cc_unit_ref *t, const char *from_trim, const char *to_trim,
                            const char *from_norm, const char *to_norm, bool reciprocal) {
    char rep[32];
    char *from_text = NULL, *both = NULL;
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
    const char *note = reading_note(f, from_norm);
    if (!note) note = reading_note(t, to_norm);
    if (reciprocal && note && asprintf(&both, "%s; %s", N_RECIPROCAL, note) < 0) both = NULL;
    if (reciprocal) note = both ? both : N_RECIPROCAL;
    if (note) json_object_set_new(r, "note", json_string(note));
    free(both);
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
        bool finite = value_q(jv, v, q) == 0, reciprocal = false;
        r = convert(q, &f, &t, &reciprocal);
        if (!r) r = build_result(v, q, finite, &f, &t, from_trim, to_trim, from, to, reciprocal);
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
