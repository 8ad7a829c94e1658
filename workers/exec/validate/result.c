/* The tool result from the validator's answer. The answer comes out of the
 * sandbox where the caller's code ran (in execute mode), so every field is
 * type-checked before it is passed on; an answer that does not hold
 * together is an internal error, never a guessed result. */
#include "workers/exec/validate/validate.h"

#include <string.h>

static bool str_or_null(json_t *v) { return v && (json_is_string(v) || json_is_null(v)); }

static bool int_or_null(json_t *v) { return !v || json_is_integer(v) || json_is_null(v); }

static bool good_diagnostic(json_t *d) {
    const char *sev = json_string_value(json_object_get(d, "severity"));
    return json_is_object(d) && json_is_string(json_object_get(d, "code")) &&
           json_is_string(json_object_get(d, "message")) && sev &&
           (!strcmp(sev, "error") || !strcmp(sev, "warning") || !strcmp(sev, "info")) &&
           int_or_null(json_object_get(d, "line")) && int_or_null(json_object_get(d, "column"));
}

static bool good_array(json_t *a, bool (*item)(json_t *)) {
    if (!json_is_array(a)) return false;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) if (!item(v)) return false;
    return true;
}

static bool is_object(json_t *v) { return json_is_object(v); }
static bool is_array(json_t *v) { return json_is_array(v); }
static bool is_bool(json_t *v) { return json_is_boolean(v); }
static bool is_string(json_t *v) { return json_is_string(v); }
static bool is_integer(json_t *v) { return json_is_integer(v); }

static json_t *malformed(const char *what) {
    return cc_err("internal", "the validator's answer is malformed (%s); the checked code may "
                              "have interfered with it", what);
}

/* A refusal or a defect reported by the helper itself. */
static json_t *helper_failure(json_t *a) {
    json_t *rej = json_object_get(a, "rejected");
    if (rej) {
        const char *code = json_string_value(json_object_get(rej, "code"));
        const char *err = json_string_value(json_object_get(rej, "error"));
        if (!code || !err || !cc_default_remedy(code)) return malformed("refusal");
        return cc_err(code, "%s", err);
    }
    const char *tb = json_string_value(json_object_get(a, "internal"));
    if (tb) {
        size_t n = strlen(tb);
        return cc_err("internal", "the validator failed: %s", n > 1500 ? tb + n - 1500 : tb);
    }
    return NULL;
}

/* Optional keys passed on when they have the documented type. */
static const struct {
    const char *key;
    bool (*ok)(json_t *);
} optional[] = {
    {"checks", is_array}, {"executed", is_bool}, {"stdout", is_string},
    {"examples", is_object}, {"repair", is_object}, {"transpiled_code", str_or_null},
    {"optimized_code", str_or_null}, {"optimizations", is_array}, {"optimize", is_object},
    {"transpile", is_object}, {"helper_ms", is_integer},
};

json_t *ccv_build_result(const struct ccv_request *req, struct ccv_run *run) {
    json_t *a = run->answer, *r;
    if ((r = helper_failure(a))) return r;
    json_t *valid = json_object_get(a, "valid"), *score = json_object_get(a, "score");
    json_t *fixed = json_object_get(a, "fixed_code"), *diags = json_object_get(a, "diagnostics");
    json_t *edits = json_object_get(a, "edits");
    double s = json_number_value(score);
    if (!json_is_boolean(valid)) return malformed("valid");
    if (!json_is_number(score) || !(s >= 0 && s <= 1)) return malformed("score");
    if (!str_or_null(fixed)) return malformed("fixed_code");
    if (!good_array(diags, good_diagnostic)) return malformed("diagnostics");
    if (!good_array(edits, is_object)) return malformed("edits");
    r = json_pack("{s:b, s:O, s:f, s:O, s:O, s:O, s:s, s:s}", "ok", 1, "valid", valid, "score", s,
                  "fixed_code", fixed, "diagnostics", diags, "edits", edits, "language",
                  req->language, "mode", req->mode);
    for (size_t i = 0; r && i < sizeof optional / sizeof optional[0]; i++) {
        json_t *v = json_object_get(a, optional[i].key);
        if (v && optional[i].ok(v)) json_object_set(r, optional[i].key, v);
    }
    if (r) {
        json_object_set(r, "unenforced", run->unenforced);
        json_object_set_new(r, "sandbox_ms", json_integer(run->wall_ms));
    }
    return r;
}
