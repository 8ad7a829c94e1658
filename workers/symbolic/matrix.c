/* matrix (TOOLS.md 3.3.25): det, inverse, eigenvalues, transpose, rank and
 * trace of a matrix given as JSON rows (numbers or expression strings). */
#include <ctype.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_decimals.h"
#include "workers/symbolic/sym_float.h"
#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_tools.h"
#include "workers/symbolic/sym_profile.h"

static const char *const OPS[] = {"det", "eigenvalues", "inverse", "rank", "trace", "transpose"};

static bool square_only(const char *op) {
    return strcmp(op, "rank") && strcmp(op, "transpose");
}

/* Validates the shape in the order of 3.3.25; *r, *c receive it. */
static json_t *check_shape(json_t *rows, const char *op, size_t *r, size_t *c) {
    if (!json_is_array(rows) || json_array_size(rows) == 0)
        return cc_err("validation", "rows must be a non-empty list of rows");
    *r = json_array_size(rows);
    for (size_t i = 0; i < *r; i++) {
        json_t *row = json_array_get(rows, i);
        if (!json_is_array(row) || json_array_size(row) == 0)
            return cc_err("validation", "row %zu must be a non-empty list of entries", i);
        size_t k = json_array_size(row), w = json_array_size(json_array_get(rows, 0));
        if (k != w)
            return cc_err("validation",
                          "rows must be rectangular: row 0 has %zu column(s), row %zu has %zu column(s)",
                          w, i, k);
    }
    *c = json_array_size(json_array_get(rows, 0));
    if (*r * *c > 10000)
        return cc_err("resource_exhausted", "matrix too large (max 10000 entries)");
    if (square_only(op) && *r != *c)
        return cc_err("validation", "'%s' requires a square matrix, got %zux%zu", op, *r, *c);
    return NULL;
}

static size_t utf8_chars(const char *s) {
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The exact value of d's shortest decimal repr ("0.1" -> 1/10): what the
 * caller wrote, not the binary64 approximation of it, so that exact
 * elimination gives sympy's answer (det [[0.5,1],[2,3]] = -0.5 exactly). */
static void float_to_q(double d, mpq_t q) {
    char buf[32];
    const char *p = cc_float_repr(d, buf);
    bool neg = *p == '-';
    p += neg;
    mpz_t digits, scale;
    mpz_init_set_ui(digits, 0);
    mpz_init(scale);
    long exp10 = 0;
    for (bool frac = false; *p && *p != 'e'; p++) {
        if (*p == '.') {
            frac = true;
            continue;
        }
        mpz_mul_ui(digits, digits, 10);
        mpz_add_ui(digits, digits, (unsigned long)(*p - '0'));
        exp10 -= frac;
    }
    if (*p == 'e')
        exp10 += strtol(p + 1, NULL, 10);
    mpz_ui_pow_ui(scale, 10, (unsigned long)(exp10 < 0 ? -exp10 : exp10));
    if (exp10 >= 0) {
        mpz_mul(digits, digits, scale);
        mpz_set_ui(scale, 1);
    }
    if (neg)
        mpz_neg(digits, digits);
    mpz_set(mpq_numref(q), digits);
    mpz_set(mpq_denref(q), scale);
    mpq_canonicalize(q);
    mpz_clear(digits);
    mpz_clear(scale);
}

/* A float entry becomes an exact rational for the computation (*had_float
 * is set so the answer prints as floats) unless keep_float: transpose moves
 * entries without arithmetic, so they keep their own float/integer kind. */
static cc_gexpr *entry(json_t *v, size_t i, size_t j, bool keep_float, bool *had_float,
                       json_t **err) {
    struct cc_sym_err se = {0};
    cc_gexpr *g = NULL;
    if (json_is_boolean(v)) {
        *err = cc_err("validation", "entry [%zu][%zu] is a boolean, not a number or an expression string", i, j);
        return NULL;
    }
    if (json_is_integer(v) || cc_json_is_bigint(v)) {
        mpz_t z;
        mpz_init(z);
        if (cc_json_get_mpz(v, z) == 0)
            g = cc_giac_int(z, &se);
        else
            se = (struct cc_sym_err){.code = "validation", .msg = "not an integer"};
        mpz_clear(z);
    } else if (json_is_real(v)) {
        double d = json_real_value(v);
        if (!isfinite(d)) {
            *err = cc_err("validation", "entry [%zu][%zu] must be finite", i, j);
            return NULL;
        }
        if (keep_float) {
            g = cc_giac_float(d, &se);
        } else {
            mpq_t q;
            mpq_init(q);
            float_to_q(d, q);
            g = cc_giac_rational(q, &se);
            mpq_clear(q);
            *had_float = true;
        }
    } else if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (utf8_chars(s) > 2000) {
            *err = cc_err("resource_exhausted", "entry [%zu][%zu] too long (max 2000 chars)", i, j);
            return NULL;
        }
        char prefix[64];
        snprintf(prefix, sizeof prefix, "entry [%zu][%zu]: ", i, j);
        /* decimals as the fractions they spell, as for a float entry
         * ("1.0000000000000001" is not 1); transpose moves text only */
        bool had = false;
        char *ex = keep_float ? NULL : sym_exact_decimals(s, json_string_length(v), &had);
        if (ex) {
            json_t *e2 = NULL;
            g = sym_input(ex, strlen(ex), prefix, &e2);
            free(ex);
            if (g) {
                *had_float |= had;
                return g;
            }
            json_decref(e2);
        }
        return sym_input(s, json_string_length(v), prefix, err);
    } else {
        *err = cc_err("validation", "entry [%zu][%zu] must be a number or an expression string", i, j);
        return NULL;
    }
    if (!g) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "entry [%zu][%zu]: ", i, j);
        *err = sym_err_json(&se, prefix);
    }
    return g;
}

static json_t *shape_json(size_t r, size_t c) { return json_pack("[I, I]", (json_int_t)r, (json_int_t)c); }

/* text holds a number of more than 17 significant digits (a
 * multiprecision value; leading zeros are not significant) */
static bool long_digit_run(const char *text) {
    size_t run = 0;
    for (const char *p = text; *p; p++) {
        if (isdigit((unsigned char)*p))
            run += run > 0 || *p != '0';
        else if (*p != '.')
            run = 0;
        if (run > 17)
            return true;
    }
    return false;
}

/* The printed eigenvalues; one giac can only write as a rootof(...) (an
 * algebraic number with no spelling in our language, and no value a caller
 * can read) is given by its value instead, and *numeric is set. */
static json_t *eigen_printed(cc_gexpr *list, bool to_float, bool *numeric, json_t **err) {
    json_t *arr = json_array();
    for (long i = 0; arr && i < cc_giac_len(list); i++) {
        struct cc_sym_err se = {0};
        cc_gexpr *it = cc_giac_item(list, (size_t)i, &se);
        json_t *j = it ? sym_print_json_as(it, to_float, err) : NULL;
        if (!it)
            *err = sym_err_json(&se, "");
        if (j && strstr(json_string_value(j), "rootof")) {
            json_decref(j);
            j = sym_print_json_as(it, true, err);
            *numeric = true;
        } else if (j && !to_float && strchr(json_string_value(j), '.')) {
            /* giac solved the characteristic polynomial numerically itself
             * (a 5x5 with a quartic factor): a value, not a closed form.
             * A multiprecision root (the shim's, refined to 60 digits)
             * prints at 15 digits like every float; a double keeps the
             * CAS's print (the float printer would give its 12 digits) */
            if (long_digit_run(json_string_value(j))) {
                json_decref(j);
                j = sym_print_json_as(it, true, err);
            }
            *numeric = true;
        }
        cc_gexpr_free(it);
        if (!j) {
            json_decref(arr);
            return NULL;
        }
        json_array_append_new(arr, j);
    }
    return arr;
}

/* The decimal string dec rounded to digits significant digits, into buf */
static bool rounded_decimal(const char *dec, int digits, char *buf, size_t cap) {
    mpfr_t v;
    mpfr_init2(v, 256);
    bool ok = mpfr_set_str(v, dec, 10, MPFR_RNDN) == 0 &&
              mpfr_snprintf(buf, cap, "%#.*Rg", digits, v) < (int)cap;
    mpfr_clear(v);
    return ok;
}

/* item i of list printed with digits significant digits ("re", or "re +
 * im*I", "re - im*I", "im*I"); NULL when it has no numeric value */
static char *digits_key(cc_gexpr *list, size_t i, int digits) {
    struct cc_sym_err se = {0};
    cc_gexpr *it = cc_giac_item(list, i, &se);
    char *re = NULL, *im = NULL, *out = NULL;
    char r[128], m[128];
    if (it && cc_giac_approx(it, digits + 10, &re, &im, &se) == 0 &&
        rounded_decimal(re, digits, r, sizeof r) && rounded_decimal(im, digits, m, sizeof m)) {
        bool real = sym_decimal_is_zero(im), zero_re = sym_decimal_is_zero(re);
        size_t cap = sizeof r + sizeof m + 8;
        out = malloc(cap);
        if (out && real)
            snprintf(out, cap, "%s", r);
        else if (out && zero_re)
            snprintf(out, cap, "%s*I", m);
        else if (out)
            snprintf(out, cap, "%s %c %s*I", r, m[0] == '-' ? '-' : '+', m[0] == '-' ? m + 1 : m);
    }
    free(re);
    free(im);
    cc_gexpr_free(it);
    return out;
}

/* Distinct eigenvalues whose floats print alike were counted as one
 * eigenvalue of multiplicity 2 ([[1, 1e-20], [1e-20, 1]]: 1 - 1e-20 and
 * 1 + 1e-20 both "1.00000000000000"); those keys are printed again with as
 * many digits (20 to 60) as tell the exact values apart. */
static void separate_alike(cc_gexpr *list, json_t *arr, json_t *exact) {
    size_t n = json_array_size(arr);
    bool *alike = calloc(n ? n : 1, sizeof *alike);
    if (!alike)
        return;
    bool any = false;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (!strcmp(json_string_value(json_array_get(arr, i)), json_string_value(json_array_get(arr, j))) &&
                strcmp(json_string_value(json_array_get(exact, i)), json_string_value(json_array_get(exact, j))))
                any = alike[i] = alike[j] = true;
    for (int digits = 20; any && digits <= 60; digits += 10) {
        json_t *keys = json_array();
        for (size_t i = 0; keys && i < n; i++) {
            char *k = alike[i] ? digits_key(list, i, digits) : NULL;
            json_array_append_new(keys, k ? json_string(k) : json_incref(json_array_get(arr, i)));
            free(k);
        }
        bool apart = keys != NULL;
        for (size_t i = 0; apart && i < n; i++)
            for (size_t j = i + 1; apart && j < n; j++)
                apart = !strcmp(json_string_value(json_array_get(keys, i)), json_string_value(json_array_get(keys, j))) ==
                        !strcmp(json_string_value(json_array_get(exact, i)), json_string_value(json_array_get(exact, j)));
        if (apart) {
            for (size_t i = 0; i < n; i++)
                json_array_set(arr, i, json_array_get(keys, i));
            any = false;
        }
        json_decref(keys);
    }
    free(alike);
}

/* {printed eigenvalue: multiplicity}, keys in the CAS's order. */
static json_t *eigen_counts(cc_gexpr *list, bool to_float, bool *numeric, json_t **err) {
    json_t *arr = eigen_printed(list, to_float, numeric, err);
    if (!arr)
        return NULL;
    if (to_float) {
        bool exact_numeric = false;
        json_t *exact = eigen_printed(list, false, &exact_numeric, err);
        if (!exact) {
            json_decref(arr);
            return NULL;
        }
        separate_alike(list, arr, exact);
        json_decref(exact);
    }
    json_t *obj = json_object();
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        const char *k = json_string_value(v);
        json_t *cur = json_object_get(obj, k);
        json_object_set_new(obj, k, json_integer(cur ? json_integer_value(cur) + 1 : 1));
    }
    json_decref(arr);
    return obj;
}

static enum cc_giac_op op_code(const char *op) {
    if (!strcmp(op, "det")) return CC_G_DET;
    if (!strcmp(op, "inverse")) return CC_G_INVERSE;
    if (!strcmp(op, "eigenvalues")) return CC_G_EIGENVALUES;
    if (!strcmp(op, "rank")) return CC_G_RANK;
    if (!strcmp(op, "trace")) return CC_G_TRACE;
    return CC_G_TRANSPOSE;
}

static json_t *compute(cc_gexpr *m, const char *op, size_t r, size_t c, bool to_float) {
    struct cc_sym_err se = {0};
    json_t *err = NULL;
    enum cc_giac_op code = op_code(op);
    cc_gexpr *res = cc_giac_apply(code, &m, 1, &se);
    if (!res)
        return sym_err_json(&se, "");
    json_t *out = NULL;
    if (code == CC_G_TRANSPOSE || code == CC_G_INVERSE) {
        json_t *mat = json_array();
        for (long i = 0; mat && i < cc_giac_len(res); i++) {
            cc_gexpr *row = cc_giac_item(res, (size_t)i, &se);
            json_t *jr = row ? sym_print_list_as(row, to_float, &err) : NULL;
            cc_gexpr_free(row);
            if (!jr) {
                json_decref(mat);
                mat = NULL;
                if (!err)
                    err = sym_err_json(&se, "");
                break;
            }
            json_array_append_new(mat, jr);
        }
        size_t rr = code == CC_G_TRANSPOSE ? c : r, cc = code == CC_G_TRANSPOSE ? r : c;
        if (mat)
            out = json_pack("{s:b, s:s, s:o, s:o}", "ok", 1, "op", op, "shape", shape_json(rr, cc),
                            "matrix", mat);
    } else if (code == CC_G_EIGENVALUES) {
        bool numeric = false;
        json_t *ev = eigen_counts(res, to_float, &numeric, &err);
        if (ev)
            out = json_pack("{s:b, s:s, s:o, s:o}", "ok", 1, "op", op, "shape", shape_json(r, c),
                            "eigenvalues", ev);
        if (out && numeric)
            json_object_set_new(out, "note", json_string(
                "some eigenvalues have no closed form the CAS can write (roots of a polynomial of "
                "degree 3 or more): those are given by their values, to about 15 significant digits"));
    } else {
        /* the rank is a count, never a float */
        json_t *v = sym_print_json_as(res, to_float && code != CC_G_RANK, &err);
        if (v)
            out = json_pack("{s:b, s:s, s:o, s:o}", "ok", 1, "op", op, "shape", shape_json(r, c),
                            "value", v);
    }
    cc_gexpr_free(res);
    return out ? out : err;
}

static json_t *matrix_handler(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *op = sym_arg_str(args, "op", NULL, &err);
    if (!op)
        return err;
    bool known = false;
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
        known = known || !strcmp(op, OPS[i]);
    if (!known)
        return cc_err("validation", "unknown op '%s'; use one of det, eigenvalues, inverse, rank, trace, transpose", op);
    json_t *rows = json_object_get(args, "rows");
    size_t r = 0, c = 0;
    if ((err = check_shape(rows, op, &r, &c)))
        return err;
    cc_gexpr **e = calloc(r * c, sizeof *e);
    if (!e)
        return cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    size_t made = 0;
    bool had_float = false;
    for (size_t i = 0; i < r && !err; i++)
        for (size_t j = 0; j < c && !err; j++)
            if ((e[made] = entry(json_array_get(json_array_get(rows, i), j), i, j,
                                   !strcmp(op, "transpose"), &had_float, &err)))
                made++;
    json_t *out = err;
    if (!err) {
        struct cc_sym_err se = {0};
        cc_gexpr *m = cc_giac_matrix(e, r, c, &se);
        out = m ? compute(m, op, r, c, had_float) : sym_err_json(&se, "");
        cc_gexpr_free(m);
    }
    for (size_t k = 0; k < made; k++)
        cc_gexpr_free(e[k]);
    free(e);
    return out;
}

SYM_PROFILED_TOOL(matrix, matrix_handler)
