/* Unit tests for the base_repr tool (TOOLS.md 3.3.10): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#define TOOL_FN cc_prog_base_repr
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
    json_t *r = run("{\"n\": 255}");
    CHECK(is_ok(r));
    CHECK_STREQ(intstr(r, "value"), "255");
    CHECK_STREQ(str(r, "hex"), "ff");
    CHECK_STREQ(str(r, "oct"), "377");
    CHECK_STREQ(str(r, "bin"), "11111111");
    CHECK(at(r, "overflow") == NULL && at(r, "two_complement_bin") == NULL);
    json_decref(r);

    r = run("{\"n\": -5}");
    CHECK_STREQ(str(r, "hex"), "-5");
    CHECK_STREQ(str(r, "oct"), "-5");
    CHECK_STREQ(str(r, "bin"), "-101");
    json_decref(r);

    r = run("{\"n\": 3000000000, \"width\": 32}");
    CHECK_STREQ(intstr(r, "signed_i32"), "-1294967296");
    CHECK_STREQ(intstr(r, "unsigned_u32"), "3000000000");
    CHECK_STREQ(str(r, "two_complement_bin"), "10110010110100000101111000000000");
    CHECK_STREQ(intstr(r, "wrapped_signed"), "-1294967296");
    CHECK_STREQ(str(r, "signed_overflow"),
                "does not fit in signed i32 (range -2147483648..2147483647); fits u32 only");
    CHECK_STREQ(str(r, "hex"), "b2d05e00");
    json_decref(r);

    r = run("{\"n\": -5, \"width\": 8}");
    CHECK_STREQ(intstr(r, "signed_i8"), "-5");
    CHECK_STREQ(intstr(r, "unsigned_u8"), "251");
    CHECK_STREQ(str(r, "two_complement_bin"), "11111011");
    CHECK(at(r, "signed_overflow") == NULL && at(r, "wrapped_signed") == NULL);
    json_decref(r);

    r = run("{\"n\": 1099511627776, \"width\": 32}");
    CHECK_STREQ(str(r, "overflow"),
                "does not fit in signed i32 (range -2147483648..2147483647) nor unsigned u32");
    CHECK(at(r, "signed_i32") == NULL);
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"n\": 0, \"width\": 4}");
    CHECK_STREQ(str(r, "hex"), "0");
    CHECK_STREQ(str(r, "two_complement_bin"), "0000");
    CHECK_STREQ(intstr(r, "unsigned_u4"), "0");
    json_decref(r);
    r = run("{\"n\": 5, \"width\": 8}"); /* non-negative in signed range: unsigned is n */
    CHECK_STREQ(intstr(r, "unsigned_u8"), "5");
    CHECK_STREQ(str(r, "two_complement_bin"), "00000101");
    json_decref(r);
    r = run("{\"n\": -129, \"width\": 8}");
    CHECK_STREQ(str(r, "overflow"), "does not fit in signed i8 (range -128..127) nor unsigned u8");
    json_decref(r);
    r = run("{\"n\": 256, \"width\": 8}");
    CHECK(str(r, "overflow") != NULL);
    json_decref(r);
    r = run("{\"n\": 255, \"width\": 8}");
    CHECK_STREQ(intstr(r, "signed_i8"), "-1");
    json_decref(r);
    r = run("{\"n\": 3, \"width\": null}");
    CHECK(is_ok(r) && at(r, "two_complement_bin") == NULL);
    json_decref(r);
    json_t *a = json_object();
    json_object_set_new(a, "n", bigint("-1180591620717411303424")); /* -2^70 */
    json_object_set_new(a, "width", json_integer(128));
    r = run_obj(a);
    CHECK_STREQ(intstr(r, "value"), "-1180591620717411303424");
    CHECK_STREQ(str(r, "hex"), "-400000000000000000");
    CHECK_STREQ(intstr(r, "unsigned_u128"), "340282366920938462282782986714356908032");
    CHECK_STREQ(intstr(r, "signed_i128"), "-1180591620717411303424");
    json_decref(r);
}

static void test_rejections(void) {
    json_t *r = run("{\"n\": 1, \"width\": 0}");
    CHECK(rejected(r, "validation", "width must be positive"));
    json_decref(r);
    r = run("{\"n\": 1, \"width\": -8}");
    CHECK(rejected(r, "validation", "width must be positive"));
    json_decref(r);
    r = run("{\"n\": 1, \"width\": 1000000000000}");
    CHECK(rejected(r, "validation", "width must be at most 65536"));
    json_decref(r);
    r = run("{\"n\": 1, \"width\": 2.5}");
    CHECK(rejected(r, "validation", "width must be an integer or null"));
    json_decref(r);
    r = run("{\"n\": \"0x10\"}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
    r = run("{}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_edges);
    RUN(test_rejections);
    return check_summary("calc_base_repr");
}
