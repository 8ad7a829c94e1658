/* Unit tests for the bit_analysis tool (TOOLS.md 3.3.14): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#define TOOL_FN cc_prog_bit_analysis
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
    json_t *r = run("{\"n\": 12}");
    CHECK(is_ok(r));
    CHECK_STREQ(intstr(r, "value"), "12");
    CHECK_INTEQ(num(r, "popcount"), 2);
    CHECK_INTEQ(num(r, "bit_length"), 4);
    CHECK_INTEQ(num(r, "trailing_zeros"), 2);
    CHECK(json_is_false(at(r, "is_power_of_two")));
    CHECK_STREQ(intstr(r, "next_power_of_two"), "16");
    CHECK(at(r, "aligned_to") == NULL);
    json_decref(r);

    r = run("{\"n\": 7, \"align\": 8}");
    CHECK_STREQ(intstr(r, "aligned_to"), "8");
    CHECK_STREQ(intstr(r, "padding_needed"), "1");
    CHECK_STREQ(intstr(r, "aligned_value"), "8");
    json_decref(r);

    r = run("{\"n\": 0}");
    CHECK(json_is_null(at(r, "trailing_zeros")));
    CHECK(json_is_null(at(r, "next_power_of_two")));
    CHECK_INTEQ(num(r, "bit_length"), 0);
    CHECK_INTEQ(num(r, "popcount"), 0);
    CHECK(json_is_false(at(r, "is_power_of_two")));
    json_decref(r);

    r = run("{\"n\": -1}");
    CHECK(rejected(r, "validation",
                   "bit_analysis requires n >= 0 (bit semantics are undefined for a negative int without a "
                   "fixed width); use bitop(n, ..., width=W) for two's-complement bits at a specific width"));
    json_decref(r);
}

static void test_edges(void) {
    json_t *r = run("{\"n\": 16, \"align\": 16}");
    CHECK(json_is_true(at(r, "is_power_of_two")));
    CHECK_STREQ(intstr(r, "next_power_of_two"), "16"); /* a power of two maps to itself */
    CHECK_STREQ(intstr(r, "padding_needed"), "0");
    CHECK_STREQ(intstr(r, "aligned_value"), "16");
    json_decref(r);
    r = run("{\"n\": 1}");
    CHECK_STREQ(intstr(r, "next_power_of_two"), "1");
    CHECK_INTEQ(num(r, "trailing_zeros"), 0);
    json_decref(r);
    r = run("{\"n\": 0, \"align\": 4096}");
    CHECK_STREQ(intstr(r, "padding_needed"), "0");
    json_decref(r);
    r = run("{\"n\": 4097, \"align\": 4096, \"unused\": 1}");
    CHECK_STREQ(intstr(r, "padding_needed"), "4095");
    CHECK_STREQ(intstr(r, "aligned_value"), "8192");
    json_decref(r);
    r = run("{\"n\": 10, \"align\": null}");
    CHECK(is_ok(r) && at(r, "aligned_to") == NULL);
    json_decref(r);
    json_t *a = json_object();
    json_object_set_new(a, "n", bigint("18446744073709551617")); /* 2^64 + 1 */
    r = run_obj(a);
    CHECK_INTEQ(num(r, "popcount"), 2);
    CHECK_INTEQ(num(r, "bit_length"), 65);
    CHECK_STREQ(intstr(r, "next_power_of_two"), "36893488147419103232");
    json_decref(r);
    r = run("{\"n\": 7, \"align\": 0}");
    CHECK(rejected(r, "validation", "alignment must be positive"));
    json_decref(r);
    r = run("{\"n\": 7, \"align\": -8}");
    CHECK(rejected(r, "validation", "alignment must be positive"));
    json_decref(r);
    r = run("{\"n\": 7, \"align\": \"x\"}");
    CHECK(rejected(r, "validation", "align must be an integer or null"));
    json_decref(r);
    r = run("{\"n\": true}");
    CHECK(rejected(r, "validation", "n must be an integer"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_edges);
    return check_summary("calc_bit_analysis");
}
