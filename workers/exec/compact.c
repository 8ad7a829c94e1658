/* The compact shape of an execution result (TOOLS.md 1.12): a small answer
 * for callers that only need the verdict and stdout. */
#include "workers/exec/execute.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const receipt_kept[] = {"receipt_version", "provider_id", "session_id",
                                           "spec_hash", "limits", NULL};
static const char *const optional_keys[] = {"output_error", "provider", "stdout_spill",
                                            "stderr_spill", "stdout_spill_capped",
                                            "stderr_spill_capped", "dependencies", NULL};

static bool truthy(const json_t *v) {
    if (!v || json_is_null(v) || json_is_false(v)) return false;
    if (json_is_string(v)) return json_string_length(v) > 0;
    if (json_is_array(v)) return json_array_size(v) > 0;
    if (json_is_object(v)) return json_object_size(v) > 0;
    if (json_is_integer(v)) return json_integer_value(v) != 0;
    return true;
}

/* "name: why" -> "name" (trimmed). */
static json_t *unenforced_names(const json_t *list) {
    json_t *out = json_array();
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        const char *s = json_string_value(e);
        if (!s) continue;
        size_t n = strcspn(s, ":");
        while (n && isspace((unsigned char)s[n - 1])) n--;
        while (n && isspace((unsigned char)*s)) s++, n--;
        json_array_append_new(out, json_stringn(s, n));
    }
    return out;
}

static bool kept(const char *key) {
    for (const char *const *k = receipt_kept; *k; k++)
        if (strcmp(*k, key) == 0) return true;
    return false;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The reduced receipt: kept keys in order, then which keys were dropped. */
static json_t *reduced_receipt(const json_t *p) {
    json_t *r = json_object();
    for (const char *const *k = receipt_kept; *k; k++) {
        json_t *v = json_object_get(p, *k);
        if (v) json_object_set(r, *k, v);
    }
    size_t n = 0, len = strlen("call without compact=True for ") + 1;
    const char *dropped[64], *key;
    json_t *v;
    json_object_foreach((json_t *)p, key, v) {
        if (!kept(key) && n < 64) {
            dropped[n++] = key;
            len += strlen(key) + 2;
        }
    }
    qsort(dropped, n, sizeof *dropped, cmp_str);
    char *detail = malloc(len);
    if (detail) {
        strcpy(detail, "call without compact=True for ");
        for (size_t i = 0; i < n; i++) {
            if (i) strcat(detail, ", ");
            strcat(detail, dropped[i]);
        }
        json_object_set_new(r, "receipt_detail", json_string(detail));
        free(detail);
    }
    return r;
}

json_t *cc_exec_compact(json_t *full) {
    if (!json_object_get(full, "verdict")) return json_incref(full);
    json_t *c = json_object(), *v;
    if (!c) return NULL;
    json_object_set(c, "ok", json_object_get(full, "ok") ? json_object_get(full, "ok") : json_false());
    json_object_set(c, "verdict", json_object_get(full, "verdict"));
    v = json_object_get(full, "stdout");
    json_object_set_new(c, "stdout", json_is_string(v) ? json_incref(v) : json_string(""));
    v = json_object_get(full, "exit_code");
    json_object_set_new(c, "exit_code", v ? json_incref(v) : json_null());
    v = json_object_get(full, "unenforced");
    if (truthy(v)) {
        json_object_set_new(c, "unenforced", unenforced_names(v));
        json_object_set_new(c, "unenforced_detail",
                            json_string("call without compact=True for the reason and remedy of each"));
    }
    for (const char *const *k = optional_keys; *k; k++) {
        v = json_object_get(full, *k);
        if (!truthy(v)) continue;
        if (strcmp(*k, "provider") == 0 && json_is_object(v))
            json_object_set_new(c, *k, reduced_receipt(v));
        else
            json_object_set(c, *k, v);
    }
    return c;
}
