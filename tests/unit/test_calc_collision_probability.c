/* Unit tests for the collision_probability tool (TOOLS.md 3.3.6): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#define TOOL_FN cc_prog_collision_probability
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
    json_t *r = run("{\"items\": 100000, \"bits\": 32}");
    CHECK(is_ok(r));
    CHECK(num(r, "probability") == 0.6878130956937922);
    CHECK(num(r, "percent") == 68.78131);
    CHECK_INTEQ(num(r, "rounding.percent"), 6);
    CHECK_STREQ(intstr(r, "items"), "100000");
    CHECK_STREQ(intstr(r, "bits"), "32");
    json_decref(r);

    r = run("{\"items\": 1000000, \"bits\": 64}");
    CHECK(num(r, "probability") == 2.7105053979070703e-08);
    CHECK(num(r, "percent") == 3e-06);
    json_decref(r);

    r = run("{\"items\": 1, \"bits\": 64}");
    CHECK(is_real(r, "probability") && num(r, "probability") == 0.0);
    CHECK(at(r, "percent") == NULL);  /* fewer than two items: no percent */
    CHECK(at(r, "rounding") == NULL);
    CHECK_STREQ(intstr(r, "items"), "1");
    json_decref(r);

    r = run("{\"items\": 10, \"bits\": 0}");
    CHECK(rejected(r, "validation", "items >= 0 and bits >= 1"));
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"items\": 0, \"bits\": 1}");
    CHECK(num(r, "probability") == 0.0 && at(r, "percent") == NULL);
    json_decref(r);
    r = run("{\"items\": -1, \"bits\": 8}");
    CHECK(rejected(r, "validation", "items >= 0 and bits >= 1"));
    json_decref(r);
    r = run("{\"items\": 2, \"bits\": 1}"); /* x = 1: 1 - exp(-1) */
    CHECK(num(r, "probability") == 1.0 - exp(-1.0));
    CHECK(num(r, "percent") == 63.212056);
    json_decref(r);
    /* quotient overflows binary64: certain collision */
    json_t *a = json_object();
    json_object_set_new(a, "items", bigint("1000000000000000000000000000000000000000000000000000000000000000"
                                          "0000000000000000000000000000000000000000000000000000000000000000"
                                          "0000000000000000000000000000000000000000000000000000000000000000"
                                          "0000000000000000000000000000000000000000000000000000000000000000"
                                          "0000000000000000000000000000000000000000000000000000000000000000"));
    json_object_set_new(a, "bits", json_integer(8));
    r = run_obj(a);
    CHECK(num(r, "probability") == 1.0);
    CHECK(num(r, "percent") == 100.0);
    CHECK(cc_json_is_bigint(at(r, "items")));
    json_decref(r);
    /* quotient underflows: 0.0, percent 0.0; a huge bits builds nothing huge */
    r = run("{\"items\": 5, \"bits\": 4000000000000}");
    CHECK(num(r, "probability") == 0.0);
    CHECK(is_real(r, "percent") && num(r, "percent") == 0.0);
    json_decref(r);
    r = run("{\"items\": 1e5, \"bits\": \"32\"}"); /* lenient integral forms */
    CHECK(num(r, "probability") == 0.6878130956937922);
    json_decref(r);
    r = run("{\"items\": 1.5, \"bits\": 32}");
    CHECK(rejected(r, "validation", "items and bits must be integers"));
    json_decref(r);
    r = run("{\"bits\": 32}");
    CHECK(rejected(r, "validation", "items and bits must be integers"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_edges);
    return check_summary("calc_collision_probability");
}
