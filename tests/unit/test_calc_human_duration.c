/* Unit tests for the human_duration tool (TOOLS.md 3.3.8): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#define TOOL_FN cc_prog_human_duration
#include "tests/unit/check.h"
#include "workers/common/tool_api.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

json_t *TOOL_FN(json_t *args, cc_wctx *ctx);

/* Call the handler with arguments given as JSON text; the caller owns the
 * result. A NULL result fails the calling CHECKs. */
static __attribute__((unused)) json_t *run(const char *args_json) {
    json_error_t e;
    json_t *a = json_loads(args_json, JSON_DECODE_ANY, &e);
    if (!a) {
        fprintf(stderr, "bad test json: %s (%s)\n", args_json, e.text);
        return NULL;
    }
    json_t *r = TOOL_FN(a, NULL);
    json_decref(a);
    return r;
}

/* The value at a dotted path ("percentiles.p50.interpolated"). */
static __attribute__((unused)) json_t *at(json_t *r, const char *path) {
    char key[128];
    while (r && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key) return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        r = json_object_get(r, key);
        path += n + (path[n] == '.');
    }
    return r;
}

static __attribute__((unused)) bool is_real(json_t *r, const char *path) { return json_is_real(at(r, path)); }
static __attribute__((unused)) double num(json_t *r, const char *path) {
    json_t *j = at(r, path);
    return json_is_real(j) ? json_real_value(j) : json_is_integer(j) ? (double)json_integer_value(j) : NAN;
}
static __attribute__((unused)) const char *str(json_t *r, const char *path) {
    json_t *j = at(r, path);
    return json_is_string(j) && !cc_json_is_bigint(j) ? json_string_value(j) : NULL;
}
/* Decimal text of an integer result, plain or big. */
static __attribute__((unused)) const char *intstr(json_t *r, const char *path) {
    static char buf[4][512];
    static int slot;
    char *b = buf[slot++ % 4];
    json_t *j = at(r, path);
    if (json_is_integer(j))
        snprintf(b, 512, "%lld", (long long)json_integer_value(j));
    else if (cc_json_is_bigint(j))
        snprintf(b, 512, "%s", json_string_value(j) + CC_BIGINT_PREFIX_LEN);
    else
        return NULL;
    return b;
}
static __attribute__((unused)) bool is_ok(json_t *r) { return json_is_true(at(r, "ok")); }
/* A rejected result with the given code and message. */
static __attribute__((unused)) bool rejected(json_t *r, const char *code, const char *msg) {
    return json_is_false(at(r, "ok")) && str(r, "code") && strcmp(str(r, "code"), code) == 0 &&
           str(r, "error") && strcmp(str(r, "error"), msg) == 0 && str(r, "remedy");
}

/* Call with a built argument object (stolen). */
static __attribute__((unused)) json_t *run_obj(json_t *a) {
    json_t *r = TOOL_FN(a, NULL);
    json_decref(a);
    return r;
}
/* A big-integer argument the way the worker loop delivers one. */
static __attribute__((unused)) json_t *bigint(const char *digits) {
    char buf[600];
    size_t n = strlen(digits);
    if (n > 500) return NULL;
    memcpy(buf, CC_BIGINT_PREFIX, CC_BIGINT_PREFIX_LEN);
    memcpy(buf + CC_BIGINT_PREFIX_LEN, digits, n);
    return json_stringn_nocheck(buf, CC_BIGINT_PREFIX_LEN + n);
}

static void test_examples(void) {
    json_t *r = run("{\"seconds\": 90061}");
    CHECK(is_ok(r));
    CHECK_STREQ(str(r, "human"), "1d 1h 1m 1s");
    CHECK(is_real(r, "seconds") && num(r, "seconds") == 90061.0);
    CHECK(num(r, "per_day") == 1.042373);
    CHECK(num(r, "per_30d") == 0.034746);
    CHECK_INTEQ(num(r, "rounding.per_day"), 6);
    CHECK_INTEQ(num(r, "rounding.per_30d"), 6);
    json_decref(r);

    static const struct { const char *args, *human; } v[] = {
        {"{\"seconds\": 0.5}", "500ms"},     {"{\"seconds\": 1.5}", "1s 500ms"},
        {"{\"seconds\": 0.00025}", "250us"}, {"{\"seconds\": 0}", "0s"},
        {"{\"seconds\": 3600}", "1h 0s"},    {"{\"seconds\": 86400}", "1d 0s"},
        {"{\"seconds\": 86461}", "1d 1m 1s"}, {"{\"seconds\": 59}", "59s"},
        {"{\"seconds\": 0.0015}", "1.5ms"},  {"{\"seconds\": 61.25}", "1m 1s 250ms"},
        {"{\"seconds\": 1e-07}", "0s"},      {"{\"seconds\": 0.0000005}", "0s"},
        {"{\"seconds\": 0.0000015}", "2us"}, {"{\"seconds\": 2.000001}", "2s 1us"},
        {"{\"seconds\": 0.9999999}", "1000ms"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        r = run(v[i].args);
        CHECK_STREQ(str(r, "human"), v[i].human);
        json_decref(r);
    }

    r = run("{\"seconds\": 1e30}");
    const char *h = str(r, "human");
    CHECK(h && strncmp(h, "~1.000000e+30s (too large", 25) == 0);
    CHECK_STREQ(h, "~1.000000e+30s (too large for an exact day/hour breakdown: a float64 carries ~15-17 "
                   "significant digits and this value needs more; per_day/per_30d below carry the same limit)");
    CHECK(num(r, "per_day") == 1e30 / 86400);
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"seconds\": 0}");
    CHECK(num(r, "per_day") == 0.0 && num(r, "per_30d") == 0.0);
    CHECK(is_real(r, "per_day"));
    json_decref(r);
    r = run("{\"seconds\": 9007199254740991}"); /* 2^53 - 1: still broken down */
    CHECK_STREQ(str(r, "human"), "104249991374d 7h 36m 31s");
    json_decref(r);
    r = run("{\"seconds\": 9007199254740992}");
    CHECK(str(r, "human") && str(r, "human")[0] == '~');
    json_decref(r);
    r = run("{\"seconds\": -1}");
    CHECK(rejected(r, "validation", "negative duration"));
    json_decref(r);
    r = run("{\"seconds\": \"1e999\"}");
    CHECK(rejected(r, "validation", "seconds = inf is not finite"));
    json_decref(r);
    r = run("{\"seconds\": \"-1e999\"}");
    CHECK(rejected(r, "validation", "seconds = -inf is not finite"));
    json_decref(r);
    r = run("{\"seconds\": \"soon\"}");
    CHECK(rejected(r, "validation", "seconds must be a number"));
    json_decref(r);
    r = run("{}");
    CHECK(rejected(r, "validation", "seconds must be a number"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_edges);
    return check_summary("calc_human_duration");
}
