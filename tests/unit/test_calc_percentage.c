/* Unit tests for the percentage tool (TOOLS.md 3.3.3): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#define TOOL_FN cc_prog_percentage
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
    json_t *r = run("{\"part\": \"3\", \"total\": \"8\"}");
    CHECK(is_ok(r));
    CHECK_STREQ(str(r, "part"), "3");
    CHECK_STREQ(str(r, "total"), "8");
    CHECK_STREQ(str(r, "share"), "3/8");
    CHECK(is_real(r, "percent") && num(r, "percent") == 37.5);
    CHECK_INTEQ(num(r, "rounding.percent"), 6);
    json_decref(r);

    r = run("{\"part\": \"1\", \"total\": \"3\"}");
    CHECK(num(r, "percent") == 33.333333);
    CHECK_STREQ(str(r, "share"), "1/3");
    json_decref(r);

    r = run("{\"part\": \"1\", \"total\": \"0\"}");
    CHECK(rejected(r, "validation", "total is zero"));
    json_decref(r);
}

static void test_literals(void) {
    json_t *r = run("{\"part\": \"4\", \"total\": \"2\"}");
    CHECK_STREQ(str(r, "share"), "2/1"); /* whole numbers still num/den */
    CHECK(num(r, "percent") == 200.0);
    json_decref(r);

    r = run("{\"part\": \" 2.5 \", \"total\": \"1e1\"}");
    CHECK_STREQ(str(r, "part"), "5/2");
    CHECK_STREQ(str(r, "total"), "10");
    CHECK_STREQ(str(r, "share"), "1/4");
    CHECK(num(r, "percent") == 25.0);
    json_decref(r);

    r = run("{\"part\": \"-1/3\", \"total\": \"2/3\"}");
    CHECK_STREQ(str(r, "part"), "-1/3");
    CHECK_STREQ(str(r, "share"), "-1/2");
    CHECK(num(r, "percent") == -50.0);
    json_decref(r);

    r = run("{\"part\": \"2/6\", \"total\": \".5\"}");
    CHECK_STREQ(str(r, "part"), "1/3");
    CHECK_STREQ(str(r, "share"), "2/3");
    CHECK(num(r, "percent") == 66.666667);
    json_decref(r);

    r = run("{\"part\": \"1\", \"total\": \"7\"}");
    CHECK(num(r, "percent") == 14.285714);
    json_decref(r);

    r = run("{\"part\": \"0\", \"total\": \"-5\"}");
    CHECK_STREQ(str(r, "share"), "0/1");
    CHECK(num(r, "percent") == 0.0);
    json_decref(r);
}

static void test_rejections(void) {
    static const char *bad[] = {
        "{\"part\": \"1+1\", \"total\": \"2\"}", "{\"part\": \"1/0\", \"total\": \"2\"}",
        "{\"part\": \"abc\", \"total\": \"2\"}", "{\"part\": \"\", \"total\": \"2\"}",
        "{\"part\": \"1\", \"total\": \"1/-3\"}", "{\"part\": \"1\"}",
        "{\"part\": true, \"total\": \"2\"}",   "{\"part\": \"1e\", \"total\": \"2\"}",
        "{\"part\": \"nan\", \"total\": \"2\"}", "{\"part\": \".\", \"total\": \"2\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_t *r = run(bad[i]);
        CHECK(rejected(r, "validation", "part and total must be numbers"));
        json_decref(r);
    }
    json_t *r = run("{\"part\": \"1e999999999\", \"total\": \"2\"}");
    CHECK(json_is_false(at(r, "ok")) && strcmp(str(r, "code"), "validation") == 0);
    json_decref(r);
    r = run("[]"); /* not even an object */
    CHECK(rejected(r, "validation", "part and total must be numbers"));
    json_decref(r);
}

static void test_huge(void) {
    /* Share beyond binary64: percent is not finite, so it is null. */
    json_t *r = run("{\"part\": \"1e400\", \"total\": \"1\"}");
    CHECK(is_ok(r));
    CHECK(json_is_null(at(r, "percent")));
    json_decref(r);
    r = run("{\"part\": 3, \"total\": 8}"); /* lenient: JSON numbers */
    CHECK(num(r, "percent") == 37.5);
    json_decref(r);
    r = run("{\"part\": 0.1, \"total\": 1}");
    CHECK_STREQ(str(r, "part"), "1/10");
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_literals);
    RUN(test_rejections);
    RUN(test_huge);
    return check_summary("calc_percentage");
}
