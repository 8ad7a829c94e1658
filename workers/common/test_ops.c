#include "workers/common/test_ops.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static json_t *op_sleep(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_int_t ms = json_integer_value(json_object_get(args, "ms"));
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
    json_t *r = cc_ok();
    json_object_set_new(r, "slept_ms", json_integer(ms));
    return r;
}

static json_t *op_crash(json_t *args, cc_wctx *ctx) {
    (void)args, (void)ctx;
    _exit(77);
}

static const struct cc_tool_def enabled[] = {
    {"__test_sleep", op_sleep}, {"__test_crash", op_crash}, {NULL, NULL}};
static const struct cc_tool_def disabled[] = {{NULL, NULL}};

const struct cc_tool_def *cc_test_ops(void) {
    const char *v = getenv("CODECALC_TEST_OPS");
    return v && strcmp(v, "1") == 0 ? enabled : disabled;
}
