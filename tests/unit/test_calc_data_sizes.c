/* Unit tests for the data_sizes tool (TOOLS.md 3.3.7): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#define TOOL_FN cc_prog_data_sizes
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
    json_t *r = run("{\"n\": 305135616}");
    CHECK(is_ok(r));
    CHECK_STREQ(intstr(r, "bytes"), "305135616");
    CHECK(is_real(r, "binary.MiB") && num(r, "binary.MiB") == 291.0);
    CHECK(num(r, "binary.KiB") == 297984.0);
    CHECK(num(r, "decimal.MB") == 305.135616);
    CHECK(num(r, "decimal.KB") == 305135.616);
    CHECK(num(r, "binary.GiB") == 291.0 / 1024);
    CHECK(num(r, "decimal.TB") == 0.000305135616);
    json_decref(r);

    r = run("{\"n\": 1536}");
    CHECK(num(r, "binary.KiB") == 1.5);
    CHECK(num(r, "decimal.KB") == 1.536);
    json_decref(r);

    r = run("{\"n\": -1024}");
    CHECK(rejected(r, "validation", "n = -1024 is negative; byte counts are >= 0"));
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"n\": 0}");
    CHECK(is_real(r, "binary.TiB") && num(r, "binary.TiB") == 0.0);
    CHECK(num(r, "decimal.KB") == 0.0);
    json_decref(r);
    /* correctly rounded, not (double)n / 1000: 2^53 + 1 is not a double */
    r = run("{\"n\": 9007199254740993}");
    CHECK(num(r, "decimal.KB") == 9007199254740.993);
    json_decref(r);
    json_t *a = json_object();
    json_object_set_new(a, "n", bigint("1208925819614629174706176")); /* 2^80 */
    r = run_obj(a);
    CHECK_STREQ(intstr(r, "bytes"), "1208925819614629174706176");
    CHECK(num(r, "binary.TiB") == 1099511627776.0);
    CHECK(num(r, "decimal.TB") == 1208925819614.6292);
    json_decref(r);
    a = json_object();
    json_object_set_new(a, "n", bigint("-99999999999999999999999"));
    r = run_obj(a);
    CHECK(rejected(r, "validation", "n = -99999999999999999999999 is negative; byte counts are >= 0"));
    json_decref(r);
    r = run("{\"n\": \"abc\"}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
    r = run("{\"n\": 1.5}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_edges);
    return check_summary("calc_data_sizes");
}
