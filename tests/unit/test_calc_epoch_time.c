/* Unit tests for the epoch_time tool (TOOLS.md 3.3.9): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#define TOOL_FN cc_prog_epoch_time
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
    json_t *r = run("{\"n\": \"1700000000\"}");
    CHECK(is_ok(r));
    CHECK_STREQ(intstr(r, "input"), "1700000000");
    CHECK_STREQ(str(r, "interpretations.seconds"), "2023-11-14T22:13:20+00:00");
    CHECK_INTEQ(json_object_size(at(r, "interpretations")), 1);
    json_decref(r);

    r = run("{\"n\": \"1700000000000\"}");
    CHECK_STREQ(str(r, "interpretations.millis"), "2023-11-14T22:13:20+00:00");
    CHECK_INTEQ(json_object_size(at(r, "interpretations")), 1);
    json_decref(r);

    r = run("{\"n\": \"1700000000000000000\"}");
    CHECK_STREQ(str(r, "interpretations.nanos"), "2023-11-14T22:13:20+00:00");
    CHECK_STREQ(intstr(r, "input"), "1700000000000000000");
    json_decref(r);

    r = run("{\"n\": \"1700000000123\"}");
    CHECK_STREQ(str(r, "interpretations.millis"), "2023-11-14T22:13:20.123000+00:00");
    json_decref(r);

    r = run("{\"n\": \"5\"}");
    CHECK(rejected(r, "validation", "no plausible unit found"));
    json_decref(r);
}

static void test_calendar(void) {
    static const struct { const char *n, *unit, *iso; } v[] = {
        {"100000000", "seconds", "1973-03-03T09:46:40+00:00"},     /* lower window edge */
        {"10000000000", "seconds", "2286-11-20T17:46:40+00:00"},   /* upper window edge */
        {"951782400", "seconds", "2000-02-29T00:00:00+00:00"},     /* leap day, 400-year rule */
        {"4107542400", "seconds", "2100-03-01T00:00:00+00:00"},    /* 2100 is not leap */
        {"1704067199", "seconds", "2023-12-31T23:59:59+00:00"},
        {" 1_700_000_000 ", "seconds", "2023-11-14T22:13:20+00:00"},
        {"+1700000000", "seconds", "2023-11-14T22:13:20+00:00"},
        {"1700000000000001", "micros", "2023-11-14T22:13:20.000001+00:00"},
        {"1700000000999999999", "nanos", "2023-11-14T22:13:21+00:00"}, /* rounds into next second */
        {"1000000000000000000000", "nanos", NULL},                   /* 1e21 s/1e9 = 1e12: none */
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        json_t *r = run_obj(json_pack("{ss}", "n", v[i].n));
        if (v[i].iso) {
            CHECK_STREQ(str(at(r, "interpretations"), v[i].unit), v[i].iso);
            CHECK_INTEQ(json_object_size(at(r, "interpretations")), 1);
        } else {
            CHECK(rejected(r, "validation", "no plausible unit found"));
        }
        json_decref(r);
    }
}

static void test_rejections(void) {
    static const char *not_int[] = {"1.5", "abc", "", "1__0", "_1", "1_", "0x10", "1e9", "- 1", "12a"};
    for (size_t i = 0; i < sizeof not_int / sizeof *not_int; i++) {
        json_t *r = run_obj(json_pack("{ss}", "n", not_int[i]));
        CHECK(rejected(r, "validation", "epoch must be an integer"));
        json_decref(r);
    }
    json_t *r = run("{\"n\": \"-1700000000\"}");
    CHECK(rejected(r, "validation", "negative epoch"));
    json_decref(r);
    r = run("{\"n\": \"1000000000000000000001\"}");
    CHECK(rejected(r, "validation", "implausibly large epoch"));
    json_decref(r);
    r = run("{\"n\": \"0\"}");
    CHECK(rejected(r, "validation", "no plausible unit found"));
    json_decref(r);
    r = run("{\"n\": 1.5}");
    CHECK(rejected(r, "validation", "epoch must be an integer"));
    json_decref(r);
    r = run("{\"n\": 1700000000}"); /* a JSON integer is accepted as its digits */
    CHECK_STREQ(str(at(r, "interpretations"), "seconds"), "2023-11-14T22:13:20+00:00");
    json_decref(r);
    r = run_obj(json_pack("{s:s#}", "n", "17\0000", (size_t)4));
    CHECK(rejected(r, "validation", "epoch must be an integer"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_calendar);
    RUN(test_rejections);
    return check_summary("calc_epoch_time");
}
