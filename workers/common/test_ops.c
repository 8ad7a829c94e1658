#include "workers/common/test_ops.h"
#include "protocol/text_knob.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "protocol/flag.h"

bool cc_test_ops_enabled(void) {
    return cc_flag(CC_FLAG_TEST_OPS);
}

const char *cc_test_omitted_op(void) {
    const char *v = cc_text(CC_TEXT_TEST_OMIT_OP);
    return cc_test_ops_enabled() ? v : NULL;
}

CC_TOOL(__test_sleep) {
    (void)ctx;
    json_int_t ms = json_integer_value(json_object_get(args, "ms"));
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
    json_t *r = cc_ok();
    json_object_set_new(r, "slept_ms", json_integer(ms));
    return r;
}

CC_TOOL(__test_crash) {
    (void)args, (void)ctx;
    _exit(77);
}
