/* Helpers shared by the calculator tool unit tests: call the handler under
 * test with JSON text (or a built object), then read values out of its
 * result by dotted path so assertions compare values, not shapes.
 *
 * Usage: define TOOL_FN to the handler (declared by its header) before
 * including this file, e.g.
 *     #include "workers/calc/programmer_tools.h"
 *     #define TOOL_FN cc_tool_bitop
 *     #include "tests/unit/calc_harness.h"
 *
 * Ownership: run()/run_obj() return the handler's result, owned by the
 * caller (json_decref). Readers (at, num, str, intstr, ...) borrow from the
 * result and never allocate; a missing or mistyped value reads as
 * NULL/NAN/false so the calling CHECK fails instead of crashing.
 */
#ifndef CC_CALC_HARNESS_H
#define CC_CALC_HARNESS_H

#ifndef TOOL_FN
#error "define TOOL_FN to the handler under test before including calc_harness.h"
#endif

#include "tests/unit/check.h"
#include "workers/common/tool_api.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Call the handler with arguments given as JSON text. A NULL result (bad
 * test JSON or a handler failure) fails the calling CHECKs. */
static inline json_t *run(const char *args_json) {
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

/* Call with a built argument object (stolen). */
static inline json_t *run_obj(json_t *a) {
    json_t *r = TOOL_FN(a, NULL);
    json_decref(a);
    return r;
}

/* The value at a dotted path ("percentiles.p50.interpolated"); a key too
 * long for the buffer reads as absent. */
static inline json_t *at(json_t *r, const char *path) {
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

static inline bool is_real(json_t *r, const char *path) { return json_is_real(at(r, path)); }

/* A number result as a double (integers converted), NAN when absent. */
static inline double num(json_t *r, const char *path) {
    json_t *j = at(r, path);
    return json_is_real(j) ? json_real_value(j) : json_is_integer(j) ? (double)json_integer_value(j) : NAN;
}

/* A string result; big integers travel as strings but are not strings here. */
static inline const char *str(json_t *r, const char *path) {
    json_t *j = at(r, path);
    return json_is_string(j) && !cc_json_is_bigint(j) ? json_string_value(j) : NULL;
}

/* Decimal text of an integer result. Per the output contract an integer of
 * magnitude below 2^53 is a JSON number and a larger one a decimal string;
 * anything else (a big number as a number, a small one as a string) reads
 * as NULL and so fails the CHECK. The text lives in one of four rotating
 * static slots so a CHECK can compare two calls at once; longer digit
 * strings are truncated by snprintf (and so fail the CHECK). */
static inline const char *intstr(json_t *r, const char *path) {
    static char buf[4][512];
    static int slot;
    char *b = buf[slot++ % 4];
    json_t *j = at(r, path);
    const long long js_safe = 9007199254740992LL; /* 2^53 */
    if (json_is_integer(j) && llabs((long long)json_integer_value(j)) < js_safe)
        snprintf(b, 512, "%lld", (long long)json_integer_value(j));
    else if (json_is_string(j) && !cc_json_is_bigint(j) && json_string_length(j) >= 16)
        snprintf(b, 512, "%s", json_string_value(j));
    else
        return NULL;
    return b;
}

static inline bool is_ok(json_t *r) { return json_is_true(at(r, "ok")); }

/* A rejected result with the given code and message, and some remedy. */
static inline bool rejected(json_t *r, const char *code, const char *msg) {
    return json_is_false(at(r, "ok")) && str(r, "code") && strcmp(str(r, "code"), code) == 0 &&
           str(r, "error") && strcmp(str(r, "error"), msg) == 0 && str(r, "remedy");
}

/* A big-integer argument the way the worker loop delivers one; NULL (which
 * makes the test fail) for more than 500 digits. */
static inline json_t *bigint(const char *digits) {
    char buf[600];
    size_t n = strlen(digits);
    if (n > 500) return NULL;
    memcpy(buf, CC_BIGINT_PREFIX, CC_BIGINT_PREFIX_LEN);
    memcpy(buf + CC_BIGINT_PREFIX_LEN, digits, n);
    return json_stringn_nocheck(buf, CC_BIGINT_PREFIX_LEN + n);
}

#endif
