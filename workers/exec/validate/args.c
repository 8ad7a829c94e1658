/* Argument checks of execute_python. The supervisor has checked the JSON
 * types against the input schema; the domain limits (sizes, ranges, the
 * languages and modes handled) are checked here, each failure a
 * `validation` result whose message names the field. */
#include "workers/exec/validate/validate.h"

#include <math.h>
#include <string.h>
#include <strings.h>

static const char *const handled[] = {"python", "javascript", "typescript", NULL};
static const char *const refused[] = {"html", "sql", "solidity", "other", NULL};
static const char *const modes[] = {"static", "repair", "execute", NULL};
static const char *const option_keys[] = {"examples", "expected_output", "optimize", "timeout_s",
                                          "transpile_to", "max_iterations", NULL};

/* The canonical spelling of s in list (case-insensitive), or NULL. */
static const char *in_list(const char *s, const char *const *list) {
    for (; *list; list++)
        if (strcasecmp(s, *list) == 0) return *list;
    return NULL;
}

static bool blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strchr(" \t\r\n\f\v", s[i])) return false;
    return true;
}

/* A string argument that may be absent or null (*out NULL then). */
static json_t *opt_string(json_t *obj, const char *key, const char *field, size_t cap,
                          json_t **out) {
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v || json_is_null(v)) return NULL;
    if (!json_is_string(v)) return cc_err("validation", "%s must be a string or null", field);
    if (json_string_length(v) > cap)
        return cc_err("validation", "%s is %zu bytes; the limit is %zu", field,
                      json_string_length(v), cap);
    *out = v;
    return NULL;
}

static json_t *read_code(json_t *args, json_t **code) {
    *code = json_object_get(args, "code");
    if (!json_is_string(*code)) return cc_err("validation", "code must be a string");
    size_t n = json_string_length(*code);
    if (n > CCV_MAX_CODE_BYTES)
        return cc_err("validation", "code is %zu bytes; the limit is %d", n, CCV_MAX_CODE_BYTES);
    if (blank(json_string_value(*code), n))
        return cc_err("validation", "code is empty: send the source to check");
    return NULL;
}

static json_t *read_language(json_t *args, const char **out) {
    json_t *v = json_object_get(args, "language");
    if (!v || json_is_null(v)) return *out = "python", NULL;
    if (!json_is_string(v)) return cc_err("validation", "language must be a string");
    const char *s = json_string_value(v);
    if ((*out = in_list(s, handled))) return NULL;
    if (in_list(s, refused))
        return cc_err("validation", "language '%s' is not handled: execute_python checks python, "
                                    "javascript and typescript", s);
    return cc_err("validation", "unknown language '%.40s'; execute_python checks python, "
                                "javascript and typescript", s);
}

static json_t *read_mode(json_t *args, const char **out) {
    json_t *v = json_object_get(args, "mode");
    if (!v || json_is_null(v)) return *out = "static", NULL;
    if (!json_is_string(v)) return cc_err("validation", "mode must be a string");
    if ((*out = in_list(json_string_value(v), modes))) return NULL;
    return cc_err("validation", "unknown mode '%.40s'; modes are static (the default, runs "
                                "nothing), repair and execute", json_string_value(v));
}

static json_t *read_timeout(json_t *opts, json_t *out) {
    json_t *v = json_object_get(opts, "timeout_s");
    if (!v || json_is_null(v)) return NULL;
    double t;
    if (cc_json_get_double(v, &t) != 0) return cc_err("validation", "options.timeout_s must be a number");
    if (!(t > 0) || t > CCV_TIMEOUT_MAX_S || !isfinite(t))
        return cc_err("validation", "options.timeout_s must be more than 0 and at most %g seconds",
                      CCV_TIMEOUT_MAX_S);
    json_object_set_new(out, "timeout_s", json_real(t));
    return NULL;
}

static json_t *read_iterations(json_t *opts, json_t *out) {
    json_t *v = json_object_get(opts, "max_iterations");
    json_int_t n = CCV_DEFAULT_ITERATIONS;
    if (v && !json_is_null(v)) {
        mpz_t z;
        mpz_init(z);
        int rc = cc_json_get_mpz(v, z);
        bool fits = rc == 0 && mpz_fits_slong_p(z);
        n = fits ? mpz_get_si(z) : 0;
        mpz_clear(z);
        if (rc != 0) return cc_err("validation", "options.max_iterations must be an integer");
        if (!fits || n < 1 || n > CCV_MAX_ITERATIONS)
            return cc_err("validation", "options.max_iterations must be between 1 and %d",
                          CCV_MAX_ITERATIONS);
    }
    json_object_set_new(out, "max_iterations", json_integer(n));
    return NULL;
}

static json_t *read_transpile(json_t *opts, const char *language, json_t *out) {
    json_t *v;
    json_t *r = opt_string(opts, "transpile_to", "options.transpile_to", 64, &v);
    if (r || !v) return r;
    if (strcasecmp(json_string_value(v), "javascript") != 0)
        return cc_err("validation", "options.transpile_to '%.40s' is not supported; the only "
                                    "target is 'javascript'", json_string_value(v));
    if (strcmp(language, "python") != 0)
        return cc_err("validation", "options.transpile_to translates python code; the code is %s",
                      language);
    json_object_set_new(out, "transpile_to", json_string("javascript"));
    return NULL;
}

/* options: every key known, each value in range; normalised into out. */
static json_t *read_options(json_t *args, const char *language, json_t *out) {
    json_t *opts = json_object_get(args, "options");
    if (!opts || json_is_null(opts)) opts = NULL;
    else if (!json_is_object(opts)) return cc_err("validation", "options must be an object or null");
    const char *key;
    json_t *val;
    if (opts) {
        json_object_foreach(opts, key, val) {
            const char *known = in_list(key, option_keys);
            if (!known || strcmp(known, key) != 0) /* keys are exact, unlike the values */
                return cc_err("validation", "unknown option '%.40s'; options are examples, "
                              "expected_output, optimize, timeout_s, transpile_to and "
                              "max_iterations", key);
        }
    }
    json_t *empty = json_object(), *o = opts ? opts : empty, *r = NULL, *s;
    static const char *const texts[] = {"examples", "expected_output", NULL};
    for (int i = 0; !r && texts[i]; i++) {
        char field[64];
        snprintf(field, sizeof field, "options.%s", texts[i]);
        r = opt_string(o, texts[i], field, CCV_MAX_TEXT_BYTES, &s);
        if (!r && s) json_object_set(out, texts[i], s);
    }
    json_t *opt = json_object_get(o, "optimize");
    if (!r && opt && !json_is_null(opt) && !json_is_boolean(opt))
        r = cc_err("validation", "options.optimize must be a boolean");
    if (!r) json_object_set_new(out, "optimize", json_boolean(json_is_true(opt)));
    if (!r) r = read_timeout(o, out);
    if (!r) r = read_iterations(o, out);
    if (!r) r = read_transpile(o, language, out);
    json_decref(empty);
    return r;
}

json_t *ccv_read_request(json_t *args, struct ccv_request *req) {
    memset(req, 0, sizeof *req);
    json_t *code, *r;
    if ((r = read_code(args, &code)) || (r = read_language(args, &req->language)) ||
        (r = read_mode(args, &req->mode)))
        return r;
    json_t *opts = json_object();
    if ((r = read_options(args, req->language, opts))) {
        json_decref(opts);
        return r;
    }
    req->helper_req = json_pack("{s:s, s:s, s:O, s:o}", "language", req->language, "mode",
                                req->mode, "code", code, "options", opts);
    return req->helper_req ? NULL : cc_err("internal", "out of memory");
}

void ccv_request_free(struct ccv_request *req) {
    json_decref(req->helper_req);
    req->helper_req = NULL;
}
