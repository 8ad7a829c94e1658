/* Unit tests for the radix_convert tool (TOOLS.md 3.3.11): the spec's examples as
 * value-asserting vectors, plus edge cases and bad inputs. */
#define TOOL_FN cc_prog_radix_convert
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

/* Shorthand: convert and return the value string (owned by *keep). */
static const char *conv(const char *value, int from, int to, json_t **keep) {
    *keep = run_obj(json_pack("{sssisi}", "value", value, "from_base", from, "to_base", to));
    return str(*keep, "value");
}

static void test_examples(void) {
    json_t *r;
    CHECK_STREQ(conv("0.1", 10, 2, &r), "0.00011\xe2\x80\xa6");
    CHECK(json_is_true(at(r, "non_terminating")));
    CHECK(is_ok(r));
    json_decref(r);
    CHECK_STREQ(conv("ff", 16, 10, &r), "255");
    CHECK(json_is_false(at(r, "non_terminating")));
    json_decref(r);
    CHECK_STREQ(conv("zz", 36, 7, &r), "3530");
    json_decref(r);
    CHECK_STREQ(conv("0.5", 10, 2, &r), "0.1");
    json_decref(r);
    CHECK_STREQ(conv("0.2", 10, 5, &r), "0.1");
    json_decref(r);
    CHECK_STREQ(conv("-10.25", 10, 16, &r), "-a.4");
    json_decref(r);
    conv("12", 2, 10, &r);
    CHECK(rejected(r, "validation", "invalid digit '2' for base 2"));
    json_decref(r);
}

static void test_more(void) {
    static const struct { const char *v; int from, to; const char *want; bool periodic; } t[] = {
        {"3.", 10, 2, "11", false},   /* zero fraction: no point */
        {"-0", 10, 2, "-0", false},   /* sign kept for zero */
        {"", 10, 2, "0", false},
        {".", 10, 2, "0", false},
        {"  FF.8  ", 16, 10, "255.5", false},
        {"0.1", 3, 10, "0.3\xe2\x80\xa6", true},      /* 1/3: the period once */
        {"0.1", 7, 10, "0.142857\xe2\x80\xa6", true},
        {"0.1", 36, 10, "0.027\xe2\x80\xa6", true},   /* pre-period "02", period "7" */
        {"0.1", 10, 3, "0.0022\xe2\x80\xa6", true},
        {"0.01", 10, 3, "0.00002102121110200122\xe2\x80\xa6", true},
        {"0.1", 23, 10, "0.0434782608695652173913\xe2\x80\xa6", true},
        {"0.01", 10, 17, "0.02f239bc6g85a64fdd19\xe2\x80\xa6", true},
        {"0.1", 2, 10, "0.5", false},
        {"0.0000000001", 10, 10, "0.0000000001", false},
        {"-7.75", 10, 2, "-111.11", false},
        {"1010.101", 2, 8, "12.5", false},
        /* period longer than 64 digits: cut at 64 */
        {"0.1666", 10, 6, "0.0555525200531022100344505124104031204213321150002023521514231532\xe2\x80\xa6", true},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        json_t *r;
        CHECK_STREQ(conv(t[i].v, t[i].from, t[i].to, &r), t[i].want);
        CHECK(json_boolean_value(at(r, "non_terminating")) == t[i].periodic);
        json_decref(r);
    }
    json_t *r = run("{\"value\": \"101\"}"); /* defaults 10 -> 10 */
    CHECK_STREQ(str(r, "value"), "101");
    json_decref(r);
}

static void test_cap(void) {
    /* 2^-101 terminates in base 10 only after 101 digits: cut at 100, and
     * it is still a terminating expansion. */
    char v[128] = "0.";
    for (int i = 0; i < 100; i++) strcat(v, "0");
    strcat(v, "1");
    json_t *r;
    const char *got = conv(v, 2, 10, &r);
    CHECK(got && strlen(got) == 102);
    CHECK(got && strncmp(got, "0.000000000000000000000000000000394430452610505", 47) == 0);
    CHECK(json_is_false(at(r, "non_terminating")));
    json_decref(r);
}

static void test_rejections(void) {
    json_t *r;
    conv("1", 1, 10, &r);
    CHECK(rejected(r, "validation", "bases must be 2..36"));
    json_decref(r);
    conv("1", 10, 37, &r);
    CHECK(rejected(r, "validation", "bases must be 2..36"));
    json_decref(r);
    conv("1.2.3", 10, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit '.' for base 10"));
    json_decref(r);
    conv("--1", 10, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit '-' for base 10"));
    json_decref(r);
    conv("1 2", 10, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit ' ' for base 10"));
    json_decref(r);
    conv("0.9", 8, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit '9' for base 8"));
    json_decref(r);
    conv("1\xc3\xa9", 16, 2, &r);
    CHECK(rejected(r, "validation", "invalid digit '\xc3\xa9' for base 16"));
    json_decref(r);
    r = run("{\"value\": 12}");
    CHECK(rejected(r, "validation", "value must be a string"));
    json_decref(r);
    r = run("{\"value\": \"1\", \"from_base\": \"ten\"}");
    CHECK(rejected(r, "validation", "bases must be 2..36"));
    json_decref(r);
}

int main(void) {
    RUN(test_examples);
    RUN(test_more);
    RUN(test_cap);
    RUN(test_rejections);
    return check_summary("calc_radix_convert");
}
