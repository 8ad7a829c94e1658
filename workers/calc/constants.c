/* physical_constants (TOOLS.md 3.3.20): a fixed table of 22 CODATA 2018
 * values, looked up by key or alias, or listed whole. */
#include <stdlib.h>
#include <string.h>

#include "workers/common/tool_api.h"

json_t *cc_tool_physical_constants(json_t *args, cc_wctx *ctx);

struct constant {
    const char *key;
    double value;
    const char *description;
    const char *symbol;
};

/* Sorted by key: the list result is this order. */
static const struct constant constants[] = {
    {"astronomical_unit", 149597870700.0, "1 au = 149597870700 m", "astronomical_unit"},
    {"atomic_mass", 1.6605390666e-27, "1 u = 1.66053906660e-27 kg", "atomic_mass_constant"},
    {"avogadro", 6.02214076e23, "N_A = 6.02214076e23 /mol", "avogadro_constant"},
    {"bohr_radius", 5.29177210903e-11, "a\xe2\x82\x80 = 5.29177210903e-11 m", "bohr_radius"},
    {"boltzmann", 1.380649e-23, "k_B = 1.380649e-23 J/K", "boltzmann_constant"},
    {"electron_mass", 9.1093837015e-31, "m_e = 9.1093837015e-31 kg", "electron_rest_mass"},
    {"electron_volt", 1.602176634e-19, "1 eV = 1.602176634e-19 J", "eV"},
    {"elementary_charge", 1.602176634e-19, "e = 1.602176634e-19 C", "elementary_charge"},
    {"faraday", 96485.33212, "F = 96485.33212 C/mol", "faraday_constant"},
    {"gas_constant", 8.314462618, "R = 8.314462618 J/(mol\xc2\xb7K)", "molar_gas_constant"},
    {"gravitational_constant", 6.6743e-11, "G = 6.67430e-11 m\xc2\xb3/(kg\xc2\xb7s\xc2\xb2)",
     "gravitational_constant"},
    {"gravity", 9.80665, "g = 9.80665 m/s\xc2\xb2 (standard)", "acceleration_due_to_gravity"},
    {"hbar", 1.054571817e-34, "\xe2\x84\x8f = h/2\xcf\x80", "hbar"},
    {"lightyear", 9460730472580800.0, "1 ly = 9.4607304725808e15 m", "lightyear"},
    {"neutron_mass", 1.67492749804e-27, "m_n = 1.67492749804e-27 kg", "neutron_mass"},
    {"parsec", 3.0856775814913673e16, "1 pc \xe2\x89\x88 3.0857e16 m", "parsec"},
    {"planck", 6.62607015e-34, "h = 6.62607015e-34 J\xc2\xb7s", "planck"},
    {"proton_mass", 1.67262192369e-27, "m_p = 1.67262192369e-27 kg", "proton_mass"},
    {"rydberg", 10973731.56816, "R\xe2\x88\x9e = 10973731.568160 /m", "rydberg"},
    {"speed_of_light", 299792458.0, "c = 299792458 m/s", "speed_of_light"},
    {"stefan_boltzmann", 5.670374419e-8,
     "\xcf\x83 = 5.670374419e-8 W/(m\xc2\xb2\xc2\xb7K\xe2\x81\xb4)", "stefan_boltzmann_constant"},
    {"wien", 2.897771955e-3, "b = 2.897771955e-3 m\xc2\xb7K", "wien_displacement_constant"},
};
#define N_CONSTANTS (sizeof constants / sizeof constants[0])

/* Case-insensitive aliases, matched against the lower-cased input. */
static const struct {
    const char *alias, *key;
} aliases[] = {
    {"c", "speed_of_light"}, {"h", "planck"}, {"hbar", "hbar"},
    {"n_a", "avogadro"}, {"na", "avogadro"}, {"l", "avogadro"},
    {"k_b", "boltzmann"}, {"kb", "boltzmann"}, {"k", "boltzmann"},
    {"grav", "gravitational_constant"},
    {"m_e", "electron_mass"}, {"me", "electron_mass"},
    {"m_p", "proton_mass"}, {"mp", "proton_mass"},
    {"m_n", "neutron_mass"}, {"mn", "neutron_mass"},
    {"r", "gas_constant"},
    {"e", "elementary_charge"}, {"q_e", "elementary_charge"},
    {"ev", "electron_volt"}, {"f", "faraday"}, {"sigma", "stefan_boltzmann"},
    {"a_0", "bohr_radius"}, {"a0", "bohr_radius"},
    {"au", "astronomical_unit"}, {"ly", "lightyear"}, {"pc", "parsec"},
};

/* The order suggestions are offered in (not alphabetical: most-asked first). */
static const char *const suggestion_order[] = {
    "speed_of_light", "planck", "hbar", "avogadro", "boltzmann", "elementary_charge",
    "electron_mass", "proton_mass", "neutron_mass", "gravitational_constant", "gravity",
    "gas_constant", "stefan_boltzmann", "faraday", "atomic_mass", "rydberg", "bohr_radius",
    "electron_volt", "astronomical_unit", "lightyear", "parsec", "wien",
};
#define MAX_SUGGESTIONS 5
_Static_assert(sizeof suggestion_order / sizeof suggestion_order[0] == N_CONSTANTS,
               "every constant is in the suggestion order");

static const struct constant *find_constant(const char *key) {
    for (size_t i = 0; i < N_CONSTANTS; i++)
        if (strcmp(constants[i].key, key) == 0) return &constants[i];
    return NULL;
}

static json_t *list_all(void) {
    json_t *list = json_array();
    if (!list) return NULL;
    for (size_t i = 0; i < N_CONSTANTS; i++)
        json_array_append_new(list, json_pack("{s:s, s:s}", "name", constants[i].key, "value",
                                              constants[i].description));
    json_t *r = cc_ok();
    json_object_set_new(r, "constants", list);
    return r;
}

/* Python's str.strip() for ASCII whitespace; caller frees. */
static char *trimmed(const char *s, size_t n) {
    while (n && (*s == ' ' || (*s >= '\t' && *s <= '\r') || (*s >= 0x1c && *s <= 0x1f))) s++, n--;
    while (n && (s[n - 1] == ' ' || (s[n - 1] >= '\t' && s[n - 1] <= '\r') ||
                 (s[n - 1] >= 0x1c && s[n - 1] <= 0x1f)))
        n--;
    return strndup(s, n);
}

static char *ascii_lower(const char *s) {
    char *l = strdup(s);
    if (!l) return NULL;
    for (char *p = l; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    return l;
}

/* The key raw resolves to; points into static storage or into lower. */
static const char *resolve(const char *raw, const char *lower) {
    if (strcmp(raw, "G") == 0) return "gravitational_constant";
    if (strcmp(raw, "g") == 0) return "gravity";
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].alias, lower) == 0) return aliases[i].key;
    return lower;
}

static json_t *unknown(const char *raw, const char *key) {
    json_t *sugg = json_array();
    if (!sugg) return NULL;
    for (size_t i = 0; i < N_CONSTANTS && json_array_size(sugg) < MAX_SUGGESTIONS; i++)
        if (strstr(suggestion_order[i], key)) json_array_append_new(sugg, json_string(suggestion_order[i]));
    json_t *e = cc_err("validation", "unknown constant '%s'", raw);
    json_object_set_new(e, "suggestions", sugg);
    return e;
}

static json_t *describe(const struct constant *c, const char *raw, const char *lower) {
    json_t *r = cc_ok();
    json_object_set_new(r, "name", json_string(c->key));
    json_object_set_new(r, "description", json_string(c->description));
    json_object_set_new(r, "value", json_real(c->value));
    json_object_set_new(r, "symbol", json_string(c->symbol));
    json_object_set_new(r, "source", json_string("table (CODATA 2018)"));
    if (strcmp(c->key, lower) != 0) json_object_set_new(r, "resolved_from", json_string(raw));
    return r;
}

json_t *cc_tool_physical_constants(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    const json_t *jn = json_object_get(args, "name");
    if (!jn || json_is_null(jn)) return list_all();
    if (!json_is_string(jn)) return cc_err("validation", "name must be a string or null");
    if (json_string_length(jn) == 0) return list_all();

    char *raw = trimmed(json_string_value(jn), json_string_length(jn));
    char *lower = raw ? ascii_lower(raw) : NULL;
    json_t *r = NULL;
    if (raw && lower) {
        const char *key = resolve(raw, lower);
        const struct constant *c = find_constant(key);
        r = c ? describe(c, raw, lower) : unknown(raw, key);
    }
    free(raw);
    free(lower);
    return r;
}
