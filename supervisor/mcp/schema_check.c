#include "supervisor/mcp/schema_check.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"

static bool is_bigint(const json_t *v) {
    return json_is_string(v) && json_string_length(v) > CC_BIGINT_PREFIX_LEN &&
           memcmp(json_string_value(v), CC_BIGINT_PREFIX, CC_BIGINT_PREFIX_LEN) == 0;
}

static bool numeric_string(const json_t *v, bool integer_only) {
    if (!json_is_string(v) || is_bigint(v)) return is_bigint(v);
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

static bool matches(const char *type, const json_t *v) {
    if (strcmp(type, "string") == 0) return json_is_string(v) && !is_bigint(v);
    if (strcmp(type, "integer") == 0)
        return json_is_integer(v) || is_bigint(v) ||
               (json_is_real(v) && isfinite(json_real_value(v)) &&
                json_real_value(v) == floor(json_real_value(v))) ||
               numeric_string(v, true);
    if (strcmp(type, "number") == 0) return json_is_number(v) || is_bigint(v) || numeric_string(v, false);
    if (strcmp(type, "boolean") == 0) return json_is_boolean(v);
    if (strcmp(type, "array") == 0) return json_is_array(v);
    if (strcmp(type, "object") == 0) return json_is_object(v);
    if (strcmp(type, "null") == 0) return json_is_null(v);
    return true; /* a type we do not know constrains nothing */
}

/* Describe the expected type(s) of a schema: "integer or null". */
static void describe(const json_t *t, char *out, size_t cap) {
    out[0] = '\0';
    if (json_is_string(t)) {
        snprintf(out, cap, "%s", json_string_value(t));
        return;
    }
    size_t i;
    json_t *e;
    json_array_foreach(t, i, e) {
        size_t l = strlen(out);
        snprintf(out + l, cap - l, "%s%s", i ? " or " : "", json_string_value(e) ? json_string_value(e) : "?");
    }
}

static int check_value(const json_t *schema, const json_t *v, const char *path, char *msg, size_t cap) {
    const json_t *t = json_object_get(schema, "type");
    if (t) {
        bool ok = false;
        if (json_is_string(t)) ok = matches(json_string_value(t), v);
        size_t i;
        json_t *e;
        if (json_is_array(t))
            json_array_foreach(t, i, e) if (json_is_string(e) && matches(json_string_value(e), v)) ok = true;
        if (!ok) {
            char want[128];
            describe(t, want, sizeof want);
            snprintf(msg, cap, "'%s' must be %s (got [redacted] of another type)", path, want);
            return -1;
        }
    }
    const json_t *items = json_object_get(schema, "items");
    if (json_is_array(v) && json_is_object(items)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            char sub[256];
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            if (check_value(items, e, sub, msg, cap) < 0) return -1;
        }
    }
    return 0;
}

int cc_schema_check(const json_t *schema, const json_t *args, char *msg, size_t cap) {
    if (!json_is_object(args)) {
        snprintf(msg, cap, "arguments must be an object");
        return -1;
    }
    const json_t *req = json_object_get(schema, "required");
    size_t i;
    json_t *r;
    json_array_foreach(req, i, r) {
        const char *k = json_string_value(r);
        if (k && !json_object_get(args, k)) {
            snprintf(msg, cap, "missing required argument '%s'", k);
            return -1;
        }
    }
    const json_t *props = json_object_get(schema, "properties");
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)args, k, v) {
        const json_t *ps = json_object_get(props, k);
        if (json_is_object(ps) && check_value(ps, v, k, msg, cap) < 0) return -1;
    }
    return 0;
}
