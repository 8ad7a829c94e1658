/* Compound units for convert_units: products, quotients and integer powers
 * of the table's units (J/s, kWh/day, kg*m/s^2, W/(m^2*K), MB/s, 1/s),
 * read into one synthetic table entry so the conversion itself is the
 * table's. A temperature scale inside a compound is the size of its
 * degree (an interval: 1 K = 1 degC = 5/9 degF), never an offset scale. */
#include "workers/calc/units.h"

#include "workers/calc/numfmt.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POWER 12
#define MAX_DEPTH 8

struct parser {
    const char *s;   /* the normalised name (no spaces) */
    size_t pos;
    int depth;
    bool approx;     /* an atom's factor is itself rounded (the parsec) */
    bool folded;     /* an atom took a case-insensitive match */
    const char *note; /* the first atom's reading note (units.h), static */
    char *canon;     /* the name with each atom as the table spells it */
    size_t canon_len, canon_cap;
    json_t *err;     /* the first error, owned */
};

/* One factor: value in SI base units and dimension exponents. */
struct term {
    mpq_t f;
    int dim[CC_DIM_COUNT];
};

static bool emit(struct parser *p, const char *t, size_t n) {
    if (p->canon_len + n + 1 > p->canon_cap) {
        size_t cap = (p->canon_len + n + 1) * 2;
        char *c = realloc(p->canon, cap);
        if (!c) return false;
        p->canon = c;
        p->canon_cap = cap;
    }
    memcpy(p->canon + p->canon_len, t, n);
    p->canon_len += n;
    p->canon[p->canon_len] = '\0';
    return true;
}

static void fail(struct parser *p, json_t *e) {
    if (!p->err) p->err = e;
    else json_decref(e);
}

/* Operators: ( ) * / ^ and the middle dot U+00B7 as a product. */
static size_t op_len(const char *s) {
    if (*s == '(' || *s == ')' || *s == '*' || *s == '/' || *s == '^') return 1;
    if ((unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xb7) return 2;
    return 0;
}

static void skip_spaces(struct parser *p) {
    while (p->s[p->pos] == ' ') p->pos++;
}

static bool is_product(const char *s) { return *s == '*' || ((unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xb7); }

static void term_init(struct term *t) {
    mpq_init(t->f);
    mpq_set_ui(t->f, 1, 1);
    memset(t->dim, 0, sizeof t->dim);
}

static void term_combine(struct term *a, const struct term *b, int sign) {
    if (sign > 0)
        mpq_mul(a->f, a->f, b->f);
    else
        mpq_div(a->f, a->f, b->f);
    for (int i = 0; i < CC_DIM_COUNT; i++) a->dim[i] += sign * b->dim[i];
}

static void term_pow(struct term *t, int e) {
    mpz_t n, d;
    mpz_inits(n, d, NULL);
    unsigned k = (unsigned)(e < 0 ? -e : e);
    mpz_pow_ui(n, mpq_numref(t->f), k);
    mpz_pow_ui(d, mpq_denref(t->f), k);
    mpq_set_num(t->f, e < 0 ? d : n);
    mpq_set_den(t->f, e < 0 ? n : d);
    mpq_canonicalize(t->f);
    mpz_clears(n, d, NULL);
    for (int i = 0; i < CC_DIM_COUNT; i++) t->dim[i] *= e;
}

/* An optionally signed integer 1..12 at s: its length, or 0 (the error
 * recorded in p). */
static size_t exponent_text(struct parser *p, const char *s, int *e) {
    int sign = 1;
    size_t i = 0;
    if (s[i] == '-' || s[i] == '+') sign = s[i++] == '-' ? -1 : 1;
    else if (strncmp(s, "\xe2\x88\x92", 3) == 0) sign = -1, i = 3; /* U+2212 MINUS SIGN */
    int v = 0;
    size_t start = i;
    while (s[i] >= '0' && s[i] <= '9' && v <= MAX_POWER) v = v * 10 + (s[i++] - '0');
    if (i == start || v == 0 || v > MAX_POWER) {
        fail(p, cc_err("validation", "unit power must be an integer from -%d to %d (in '%s')", MAX_POWER, MAX_POWER,
                       p->s));
        return 0;
    }
    *e = sign * v;
    return i;
}

/* An exponent after ^ (or **). */
static bool exponent(struct parser *p, int *e) {
    const char *s = p->s + p->pos;
    size_t n = exponent_text(p, s, e);
    char text[8];
    p->pos += n;
    return n && emit(p, text, (size_t)snprintf(text, sizeof text, "%d", *e));
}

/* An exponent written in superscripts (m², s⁻¹). */
static bool superscript_exponent(struct parser *p, struct term *t) {
    char text[16];
    size_t used = cc_unit_superscript(p->s + p->pos, text, sizeof text);
    int e;
    size_t n = text[0] ? exponent_text(p, text, &e) : 0;
    if (!n || text[n]) {
        if (n || !p->err) /* "⁻" alone, or digits past the bound */
            fail(p, cc_err("validation", "unit power must be an integer from -%d to %d (in '%s')", MAX_POWER,
                           MAX_POWER, p->s));
        return false;
    }
    p->pos += used;
    term_pow(t, e);
    return emit(p, "^", 1) && emit(p, text, n);
}

/* The temperature scales C and F are also the coulomb and the farad: in a
 * compound (J/(kg*C)) the reading is not ours to choose. */
static bool temperature_atom(struct parser *p, const char *atom, const struct cc_unit_ref *r, struct term *t) {
    if (strlen(atom) == 1 && r->temp != CC_TEMP_K) {
        fail(p, cc_err("validation",
                       "'%s' in the compound unit '%s' is ambiguous (%s or degree %s); write %s for a "
                       "temperature interval (1 K = 1 degC = 9/5 degF)",
                       atom, p->s, r->temp == CC_TEMP_C ? "coulomb" : "farad",
                       r->temp == CC_TEMP_C ? "Celsius" : "Fahrenheit", r->temp == CC_TEMP_C ? "degC or K" : "degF"));
        return false;
    }
    if (r->temp == CC_TEMP_F) mpq_set_ui(t->f, 5, 9);
    t->dim[CC_DIM_K] = 1;
    return true;
}

/* An atom: a table unit, "1", or a table unit with a power written as
 * trailing digits (s2 = s^2) when the whole spelling is not itself one. */
static bool atom_value(struct parser *p, char *atom, struct term *t) {
    if (strcmp(atom, "1") == 0) return emit(p, "1", 1);
    struct cc_unit_ref r;
    const char *spell[8];
    size_t ns;
    int rc = cc_unit_resolve(atom, &r, spell, 8, &ns), power = 1;
    size_t len = strlen(atom), k = len;
    while (rc == -1 && k > 1 && atom[k - 1] >= '0' && atom[k - 1] <= '9') k--;
    if (rc == -1 && k < len && len - k <= 2 && atom[k] != '0') {
        power = atoi(atom + k);
        char saved = atom[k];
        atom[k] = '\0';
        rc = cc_unit_resolve(atom, &r, spell, 8, &ns);
        if (rc != 0) atom[k] = saved;
    }
    if (rc != 0 || power > MAX_POWER) {
        fail(p, cc_unit_name_error(atom, rc, spell, ns));
        return false;
    }
    p->folded |= r.folded;
    if (!p->note && r.unit) p->note = r.unit->note ? r.unit->note : cc_unit_fold_note(atom, &r);
    if (r.unit) {
        cc_unit_factor_q(r.unit->factor, t->f);
        for (int i = 0; i < CC_DIM_COUNT; i++) t->dim[i] = r.unit->dim[i];
        p->approx |= r.unit->approx;
    } else if (!temperature_atom(p, atom, &r, t)) {
        return false;
    }
    if (power != 1) term_pow(t, power);
    char pw[16] = "";
    if (power != 1) snprintf(pw, sizeof pw, "^%d", power);
    return emit(p, r.spelling, strlen(r.spelling)) && emit(p, pw, strlen(pw));
}

static bool expr(struct parser *p, struct term *out);

static bool primary(struct parser *p, struct term *t) {
    skip_spaces(p);
    const char *s = p->s + p->pos;
    if (*s == '(') {
        if (++p->depth > MAX_DEPTH) {
            fail(p, cc_err("validation", "unit '%s' nests parentheses too deeply", p->s));
            return false;
        }
        p->pos++;
        if (!emit(p, "(", 1) || !expr(p, t)) return false;
        if (p->s[p->pos] != ')') {
            fail(p, cc_err("validation", "unbalanced parentheses in unit '%s'", p->s));
            return false;
        }
        p->pos++;
        p->depth--;
        return emit(p, ")", 1);
    }
    size_t n = 0;
    while (s[n] && s[n] != ' ' && !op_len(s + n) && !cc_unit_superscript(s + n, NULL, 0)) n++;
    if (n == 0) {
        fail(p, cc_err("validation", "a unit is missing in '%s' (at position %zu)", p->s, p->pos + 1));
        return false;
    }
    char *atom = strndup(s, n);
    if (!atom) return false;
    p->pos += n;
    bool ok = atom_value(p, atom, t);
    free(atom);
    return ok;
}

/* primary [^ e | ** e] */
static bool power(struct parser *p, struct term *t) {
    if (!primary(p, t)) return false;
    if (cc_unit_superscript(p->s + p->pos, NULL, 0)) return superscript_exponent(p, t);
    size_t before = p->pos;
    skip_spaces(p);
    const char *s = p->s + p->pos;
    size_t skip = s[0] == '^' ? 1 : (s[0] == '*' && s[1] == '*') ? 2 : 0;
    if (!skip) {
        p->pos = before; /* the spaces may be a product: expr() reads them */
        return true;
    }
    p->pos += skip;
    skip_spaces(p);
    int e;
    if (!emit(p, "^", 1) || !exponent(p, &e)) return false;
    term_pow(t, e);
    return true;
}

/* power { (*|.|space) power | / power }: a space between two units is a
 * product, as ISO 80000 writes them (m s^-1 is m/s, not the inverse
 * millisecond its spaces dropped would spell). A product after a quotient
 * (J/kg*K, J/kg K) is refused: read left to right it is (J/kg)*K, but it
 * is usually meant as J/(kg*K), and the two differ by K^2. */
static bool expr(struct parser *p, struct term *out) {
    if (!power(p, out)) return false;
    bool divided = false;
    for (;;) {
        size_t before = p->pos;
        skip_spaces(p);
        const char *s = p->s + p->pos;
        bool spaced = p->pos > before;
        int sign;
        size_t n;
        if (is_product(s) && !(s[0] == '*' && s[1] == '*')) {
            sign = 1;
            n = op_len(s);
        } else if (*s == '/') {
            sign = -1;
            n = 1;
        } else if (spaced && *s && *s != ')') {
            sign = 1; /* a space between two units */
            n = 0;
        } else {
            return true;
        }
        if (sign > 0 && divided) {
            fail(p, cc_err("validation",
                           "unit '%s' is ambiguous: a product after '/' reads as (a/b)*c but is often "
                           "meant as a/(b*c); add parentheses", p->s));
            return false;
        }
        divided |= sign < 0;
        p->pos += n;
        if (!emit(p, sign > 0 ? "*" : "/", 1)) return false;
        struct term t;
        term_init(&t);
        bool ok = power(p, &t);
        if (ok) term_combine(out, &t, sign);
        mpq_clear(t.f);
        if (!ok) return false;
    }
}

/* An operator, or a space between two parts (the caller trims). */
static bool has_operator(const char *s) {
    for (; *s; s++)
        if (op_len(s) || *s == ' ') return true;
    return false;
}

/* A dimension the table entry can carry, and not a bare temperature (a
 * temperature alone converts as a scale, with its offset). */
static json_t *check_dimension(const struct parser *p, const struct term *t) {
    bool only_k = t->dim[CC_DIM_K] == 1;
    for (int i = 0; i < CC_DIM_COUNT; i++) {
        if (t->dim[i] > 100 || t->dim[i] < -100)
            return cc_err("validation", "unit '%s' has a power too large", p->s);
        if (i != CC_DIM_K && t->dim[i]) only_k = false;
    }
    if (only_k)
        return cc_err("validation", "unit '%s' is a temperature interval on its own; a temperature converts as a "
                      "scale: write K, degC or degF without operators", p->s);
    return NULL;
}

int cc_unit_compound(const char *norm, struct cc_unit **out, char **spelling, bool *folded, json_t **err) {
    *out = NULL;
    *spelling = NULL;
    *err = NULL;
    if (!has_operator(norm)) return -1;
    struct parser p = {.s = norm};
    struct term t;
    term_init(&t);
    bool ok = emit(&p, "", 0) && expr(&p, &t);
    if (ok) skip_spaces(&p);
    if (ok && p.s[p.pos]) {
        fail(&p, cc_err("validation", "unexpected '%c' in unit '%s' (at position %zu)", p.s[p.pos], p.s, p.pos + 1));
        ok = false;
    }
    if (ok) {
        json_t *e = check_dimension(&p, &t);
        if (e) fail(&p, e);
        ok = !e;
    }
    struct cc_unit *u = ok ? calloc(1, sizeof *u) : NULL;
    char *factor = u ? mpq_get_str(NULL, 10, t.f) : NULL;
    mpq_clear(t.f);
    if (!factor) {
        free(u);
        free(p.canon);
        *err = p.err; /* NULL: out of memory */
        return -2;
    }
    for (int i = 0; i < CC_DIM_COUNT; i++) u->dim[i] = (signed char)t.dim[i];
    u->factor = factor;
    u->alias = p.canon;
    u->approx = p.approx;
    u->note = p.note;
    *out = u;
    *spelling = p.canon;
    *folded = p.folded;
    return 0;
}

void cc_unit_compound_free(struct cc_unit *u) {
    if (!u) return;
    void (*gfree)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gfree);
    gfree((char *)u->factor, strlen(u->factor) + 1);
    free((char *)u->alias);
    free(u);
}
