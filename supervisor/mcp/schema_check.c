#include "supervisor/mcp/schema_check.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"

enum {
    T_STRING = 1u << 0,
    T_INTEGER = 1u << 1,
    T_NUMBER = 1u << 2,
    T_BOOLEAN = 1u << 3,
    T_ARRAY = 1u << 4,
    T_OBJECT = 1u << 5,
    T_NULL = 1u << 6,
};

static const char *const type_names[] = {"string", "integer", "number", "boolean",
                                         "array", "object", "null", NULL};

struct vprop {
    char *name;
    struct cc_validator *schema;
};

/* One schema node. Every pointer is owned. */
struct cc_validator {
    unsigned types;              /* T_*; 0 = any type */
    char *types_text;            /* "integer or null", for messages */
    struct vprop *props;
    size_t nprops;
    char **required;
    size_t nrequired;
    bool closed;                 /* additionalProperties: false */
    struct cc_validator *extra;  /* additionalProperties: {schema} */
    struct cc_validator *items;
    json_t *enumv;               /* array of allowed values */
    char *enum_text;             /* "det, inverse, ...", for messages */
    char *names_text;            /* the property names, for "unknown argument" */
};

void cc_validator_free(struct cc_validator *v) {
    if (!v) return;
    for (size_t i = 0; i < v->nprops; i++) {
        free(v->props[i].name);
        cc_validator_free(v->props[i].schema);
    }
    for (size_t i = 0; i < v->nrequired; i++) free(v->required[i]);
    free(v->props);
    free(v->required);
    cc_validator_free(v->extra);
    cc_validator_free(v->items);
    json_decref(v->enumv);
    free(v->types_text);
    free(v->enum_text);
    free(v->names_text);
    free(v);
}

/* ---- compile ------------------------------------------------------------ */

static unsigned type_bit(const char *name) {
    for (int i = 0; type_names[i]; i++)
        if (strcmp(name, type_names[i]) == 0) return 1u << i;
    return 0;
}

static int compile_types(struct cc_validator *v, const json_t *t, char *err, size_t cap) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    size_t n = json_is_array(t) ? json_array_size(t) : 1;
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_is_array(t) ? json_array_get(t, i) : t;
        unsigned bit = json_is_string(e) ? type_bit(json_string_value(e)) : 0;
        if (!bit) {
            snprintf(err, cap, "unsupported type");
            cc_sb_free(&sb);
            return -1;
        }
        v->types |= bit;
        cc_sb_printf(&sb, "%s%s", i ? " or " : "", json_string_value(e));
    }
    v->types_text = cc_sb_take(&sb, NULL);
    return v->types_text ? 0 : -1;
}

static char *join_strings(const json_t *a) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        if (i) cc_sb_puts(&sb, ", ");
        if (json_is_string(e)) cc_sb_puts(&sb, json_string_value(e));
        else cc_json_emit(&sb, e);
    }
    return cc_sb_take(&sb, NULL);
}

static int compile_props(struct cc_validator *v, const json_t *props, char *err, size_t cap) {
    if (!json_is_object(props)) return snprintf(err, cap, "properties must be an object"), -1;
    v->props = calloc(json_object_size(props) + 1, sizeof *v->props);
    if (!v->props) return -1;
    struct cc_strbuf names;
    cc_sb_init(&names);
    const char *k;
    json_t *s;
    json_object_foreach((json_t *)props, k, s) {
        struct vprop *p = &v->props[v->nprops++];
        p->name = strdup(k);
        p->schema = cc_validator_compile(s, err, cap);
        if (!p->name || !p->schema) {
            cc_sb_free(&names);
            return -1;
        }
        cc_sb_printf(&names, "%s%s", names.len ? ", " : "", k);
    }
    v->names_text = names.len ? cc_sb_take(&names, NULL) : strdup("(none)");
    cc_sb_free(&names);
    return v->names_text ? 0 : -1;
}

static int compile_required(struct cc_validator *v, const json_t *req, char *err, size_t cap) {
    if (!json_is_array(req)) return snprintf(err, cap, "required must be an array"), -1;
    v->required = calloc(json_array_size(req) + 1, sizeof *v->required);
    if (!v->required) return -1;
    size_t i;
    json_t *e;
    json_array_foreach(req, i, e) {
        if (!json_is_string(e)) return snprintf(err, cap, "required holds a non-string"), -1;
        if (!(v->required[v->nrequired++] = strdup(json_string_value(e)))) return -1;
    }
    return 0;
}

static int compile_keyword(struct cc_validator *v, const char *k, const json_t *val, char *err,
                           size_t cap) {
    if (!strcmp(k, "description") || !strcmp(k, "default")) return 0;
    if (!strcmp(k, "type")) return compile_types(v, val, err, cap);
    if (!strcmp(k, "properties")) return compile_props(v, val, err, cap);
    if (!strcmp(k, "required")) return compile_required(v, val, err, cap);
    if (!strcmp(k, "items")) return (v->items = cc_validator_compile(val, err, cap)) ? 0 : -1;
    if (!strcmp(k, "additionalProperties")) {
        if (json_is_boolean(val)) return v->closed = json_is_false(val), 0;
        return (v->extra = cc_validator_compile(val, err, cap)) ? 0 : -1;
    }
    if (!strcmp(k, "enum")) {
        if (!json_is_array(val) || !json_array_size(val)) return snprintf(err, cap, "empty enum"), -1;
        v->enumv = json_incref((json_t *)val);
        return (v->enum_text = join_strings(val)) ? 0 : -1;
    }
    snprintf(err, cap, "keyword '%s' is not enforced by argument validation", k);
    return -1;
}

struct cc_validator *cc_validator_compile(const json_t *schema, char *err, size_t errcap) {
    if (!json_is_object(schema)) {
        snprintf(err, errcap, "a schema must be an object");
        return NULL;
    }
    struct cc_validator *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    const char *k;
    json_t *val;
    json_object_foreach((json_t *)schema, k, val) {
        if (compile_keyword(v, k, val, err, errcap) < 0) {
            cc_validator_free(v);
            return NULL;
        }
    }
    return v;
}

struct cc_validator *cc_validator_compile_text(const char *schema, char *err, size_t errcap) {
    json_error_t je;
    json_t *s = json_loads(schema, 0, &je);
    if (!s) {
        snprintf(err, errcap, "not JSON (%s)", je.text);
        return NULL;
    }
    struct cc_validator *v = cc_validator_compile(s, err, errcap);
    json_decref(s);
    return v;
}

/* ---- check -------------------------------------------------------------- */

static bool numeric_string(const json_t *v, bool integer_only) {
    if (!json_is_string(v) || cc_json_is_bigint(v)) return cc_json_is_bigint(v);
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n == 0 || n > 4096 || memchr(s, 0, n)) return false;
    char *end;
    while (isspace((unsigned char)*s)) s++;
    if (integer_only) {
        const char *p = s + (*s == '-' || *s == '+');
        if (!isdigit((unsigned char)*p)) return false;
        while (isdigit((unsigned char)*p)) p++;
        while (isspace((unsigned char)*p)) p++;
        return *p == '\0';
    }
    strtod(s, &end);
    if (end == s) return false;
    while (isspace((unsigned char)*end)) end++;
    if (*end) return false;
    for (const char *p = s; p < end; p++)
        if (isalpha((unsigned char)*p) && *p != 'e' && *p != 'E') return false;
    return true;
}

static bool integral_real(const json_t *v) {
    return json_is_real(v) && isfinite(json_real_value(v)) &&
           json_real_value(v) == floor(json_real_value(v));
}

/* The T_* bits a value satisfies, leniency included. */
static unsigned value_types(const json_t *v) {
    if (json_is_null(v)) return T_NULL;
    if (json_is_boolean(v)) return T_BOOLEAN;
    if (json_is_array(v)) return T_ARRAY;
    if (json_is_object(v)) return T_OBJECT;
    if (json_is_integer(v) || cc_json_is_bigint(v)) return T_INTEGER | T_NUMBER;
    if (json_is_real(v)) return T_NUMBER | (integral_real(v) ? T_INTEGER : 0);
    unsigned t = T_STRING;
    if (numeric_string(v, true)) t |= T_INTEGER | T_NUMBER;
    else if (numeric_string(v, false)) t |= T_NUMBER;
    return t;
}

/* value_types without the leniency, which is worked out (a strtod on a
 * string) only when the plain type does not already satisfy the schema:
 * value_types(v) always includes plain_types(v). */
static unsigned plain_types(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_NULL: return T_NULL;
    case JSON_TRUE:
    case JSON_FALSE: return T_BOOLEAN;
    case JSON_ARRAY: return T_ARRAY;
    case JSON_OBJECT: return T_OBJECT;
    case JSON_INTEGER: return T_INTEGER | T_NUMBER;
    case JSON_REAL: return T_NUMBER;
    case JSON_STRING: return cc_json_is_bigint(v) ? T_INTEGER | T_NUMBER : T_STRING;
    }
    return 0;
}

static bool type_ok(const struct cc_validator *v, const json_t *val) {
    return !v->types || (plain_types(val) & v->types) || (value_types(val) & v->types);
}

static bool in_enum(const struct cc_validator *v, const json_t *val) {
    size_t i;
    json_t *e;
    json_array_foreach(v->enumv, i, e) if (json_equal(e, (json_t *)val)) return true;
    return false;
}

static int check_node(const struct cc_validator *v, const json_t *val, const char *path, char *msg,
                      size_t cap);

/* Whether check_node has anything to do below val itself. */
static bool descends(const struct cc_validator *v, const json_t *val) {
    return (json_is_object(val) && (v->nprops || v->nrequired || v->closed || v->extra)) ||
           (json_is_array(val) && v->items);
}

static int check_object(const struct cc_validator *v, const json_t *obj, const char *path,
                        char *msg, size_t cap) {
    const char *sep = *path ? "." : "";
    /* Keys first: a misspelt name ("expresion") is better reported as
     * unknown, with the accepted names, than as a missing "expression". */
    const char *k;
    json_t *val;
    json_object_foreach((json_t *)obj, k, val) {
        const struct cc_validator *s = NULL;
        for (size_t i = 0; i < v->nprops && !s; i++)
            if (strcmp(v->props[i].name, k) == 0) s = v->props[i].schema;
        if (!s) s = v->extra;
        /* the common case, a scalar of an accepted type: no path to build */
        if (s && !s->enumv && !descends(s, val) && type_ok(s, val)) continue;
        char sub[256];
        snprintf(sub, sizeof sub, "%s%s%.64s", path, sep, k);
        if (!s && v->closed) {
            snprintf(msg, cap, "unknown argument '%s'; accepted: %s", sub,
                     v->names_text ? v->names_text : "(none)");
            return -1;
        }
        if (s && check_node(s, val, sub, msg, cap) < 0) return -1;
    }
    for (size_t i = 0; i < v->nrequired; i++)
        if (!json_object_get(obj, v->required[i])) {
            snprintf(msg, cap, "missing required argument '%s%s%s'", path, sep, v->required[i]);
            return -1;
        }
    return 0;
}

static int check_node(const struct cc_validator *v, const json_t *val, const char *path, char *msg,
                      size_t cap) {
    if (!type_ok(v, val)) {
        snprintf(msg, cap, "'%s' must be %s (got [redacted] of another type)", path, v->types_text);
        return -1;
    }
    if (v->enumv && !in_enum(v, val)) {
        snprintf(msg, cap, "'%s' must be one of %s (got [redacted])", path, v->enum_text);
        return -1;
    }
    if (json_is_object(val) && (v->nprops || v->nrequired || v->closed || v->extra))
        return check_object(v, val, path, msg, cap);
    if (json_is_array(val) && v->items) {
        size_t i;
        json_t *e;
        json_array_foreach(val, i, e) {
            char sub[256];
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            if (check_node(v->items, e, sub, msg, cap) < 0) return -1;
        }
    }
    return 0;
}

int cc_validator_check(const struct cc_validator *v, const json_t *args, char *msg, size_t cap) {
    if (!json_is_object(args)) {
        snprintf(msg, cap, "arguments must be an object");
        return -1;
    }
    return check_object(v, args, "", msg, cap);
}

int cc_schema_check(const json_t *schema, const json_t *args, char *msg, size_t cap) {
    struct cc_validator *v = cc_validator_compile(schema, msg, cap);
    if (!v) return -1;
    int rc = cc_validator_check(v, args, msg, cap);
    cc_validator_free(v);
    return rc;
}
