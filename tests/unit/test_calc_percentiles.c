/* Unit tests for the percentiles tool (TOOLS.md 3.3.5): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#define TOOL_FN cc_prog_percentiles
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

static void test_one_to_hundred(void) {
    char args[600] = "{\"nums\": [";
    for (int i = 100; i >= 1; i--) /* descending: the tool must sort */
        snprintf(args + strlen(args), sizeof args - strlen(args), "%d%s", i, i > 1 ? "," : "]}");
    json_t *r = run(args);
    CHECK(is_ok(r));
    CHECK_INTEQ(num(r, "n"), 100);
    CHECK(is_real(r, "percentiles.p50.nearest_rank") && num(r, "percentiles.p50.nearest_rank") == 50.0);
    CHECK(num(r, "percentiles.p50.interpolated") == 50.5);
    CHECK(num(r, "percentiles.p90.nearest_rank") == 90.0);
    CHECK(num(r, "percentiles.p90.interpolated") == 90.1);
    CHECK(num(r, "percentiles.p95.nearest_rank") == 95.0);
    CHECK(num(r, "percentiles.p95.interpolated") == 95.05);
    CHECK(num(r, "percentiles.p99.nearest_rank") == 99.0);
    CHECK(num(r, "percentiles.p99.interpolated") == 99.01);
    CHECK_INTEQ(num(r, "percentiles.p99.rounding.interpolated"), 6);
    CHECK(json_is_null(at(r, "warning")));
    json_decref(r);
}

static void test_small(void) {
    json_t *r = run("{\"nums\": [3, 1, 2]}");
    CHECK(num(r, "percentiles.p50.nearest_rank") == 2.0);
    CHECK(is_real(r, "percentiles.p50.interpolated") && num(r, "percentiles.p50.interpolated") == 2.0);
    CHECK(num(r, "percentiles.p90.nearest_rank") == 3.0);
    CHECK(num(r, "percentiles.p90.interpolated") == 2.8);
    CHECK(num(r, "percentiles.p95.nearest_rank") == 3.0);
    CHECK(num(r, "percentiles.p95.interpolated") == 2.9);
    CHECK(num(r, "percentiles.p99.nearest_rank") == 3.0);
    CHECK(num(r, "percentiles.p99.interpolated") == 2.98);
    CHECK_STREQ(str(r, "warning"), "n < 100: p99 is just the maximum wearing a label");
    json_decref(r);

    r = run("{\"nums\": [7]}");
    CHECK_INTEQ(num(r, "n"), 1);
    CHECK(num(r, "percentiles.p50.nearest_rank") == 7.0);
    CHECK(num(r, "percentiles.p99.interpolated") == 7.0);
    json_decref(r);

    /* interpolation rounded half-even to 6 decimals */
    r = run("{\"nums\": [0, 0.0000015]}");
    CHECK(num(r, "percentiles.p50.interpolated") == 1e-06); /* 7.5e-07 -> 1e-06 */
    CHECK(num(r, "percentiles.p50.nearest_rank") == 0.0);
    json_decref(r);
    r = run("{\"nums\": [-5, -1]}");
    CHECK(num(r, "percentiles.p50.interpolated") == -3.0);
    CHECK(num(r, "percentiles.p90.nearest_rank") == -1.0);
    json_decref(r);
}

static void test_rejections(void) {
    json_t *r = run("{\"nums\": []}");
    CHECK(rejected(r, "validation", "need at least 1 number"));
    json_decref(r);
    r = run("{\"nums\": [1, 2, \"1e400\"]}");
    CHECK(rejected(r, "validation", "nums[2] = inf is not finite; percentiles needs finite numbers"));
    json_decref(r);
    r = run("{\"nums\": [null]}");
    CHECK(rejected(r, "validation", "nums[0] must be a number"));
    json_decref(r);
    r = run("{\"nums\": \"1,2\"}");
    CHECK(rejected(r, "validation", "nums must be an array of numbers"));
    json_decref(r);
}

int main(void) {
    RUN(test_one_to_hundred);
    RUN(test_small);
    RUN(test_rejections);
    return check_summary("calc_percentiles");
}
