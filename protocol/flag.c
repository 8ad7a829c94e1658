/* On/off environment knobs: the table and the one parser (flag.h says
 * why). docs/configuration.md "On/off" lists every knob with this rule. */
#include "protocol/flag.h"

#include "protocol/knob.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const struct cc_flag_def cc_flag_defs[CC_FLAG_COUNT] = {
    [CC_FLAG_REQUIRE_NATIVE] = {"CODECALC_REQUIRE_NATIVE", false},
    [CC_FLAG_ALLOW_GLOBAL_INSTALL] = {"CODECALC_ALLOW_GLOBAL_INSTALL", false},
    [CC_FLAG_ALLOW_RUNTIME_APPLY] = {"CODECALC_ALLOW_RUNTIME_APPLY", false},
    [CC_FLAG_EXEC_TIMINGS] = {"CODECALC_EXEC_TIMINGS", false},
    [CC_FLAG_PROFILE_SYMBOLIC] = {"CODECALC_PROFILE_SYMBOLIC", false},
    [CC_FLAG_SYMBOLIC_FASTPATH] = {"CODECALC_SYMBOLIC_FASTPATH", true},
    [CC_FLAG_SYMBOLIC_NMEMO] = {"CODECALC_SYMBOLIC_NMEMO", true},
    [CC_FLAG_DISABLE_THIRD_PARTY_EXTENSIONS] = {"CODECALC_DISABLE_THIRD_PARTY_EXTENSIONS", false},
    [CC_FLAG_WIN_APPCONTAINER] = {"CODECALC_WIN_APPCONTAINER", false},
    /* a test knob (docs/configuration.md "Tests only") */
    [CC_FLAG_TEST_OPS] = {"CODECALC_TEST_OPS", false},
};

int cc_flag_parse(const char *s) {
    static const char *const on[] = {"1", "true", "yes", "on"}, *const off[] = {"0", "false", "no", "off"};
    for (size_t i = 0; s && i < sizeof on / sizeof *on; i++) {
        if (strcasecmp(s, on[i]) == 0) return 1;
        if (strcasecmp(s, off[i]) == 0) return 0;
    }
    return -1;
}

static bool cache[CC_FLAG_COUNT];
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

void cc_flags_reload(void) {
    for (int i = 0; i < CC_FLAG_COUNT; i++) {
        int v = cc_flag_parse(getenv(cc_flag_defs[i].name));
        cache[i] = v < 0 ? cc_flag_defs[i].dflt : v == 1;
    }
}

bool cc_flag(enum cc_flag_id id) {
    if ((unsigned)id >= CC_FLAG_COUNT) return false;
    pthread_once(&loaded, cc_flags_reload);
    return cache[id];
}

int cc_flag_find(const char *name) {
    for (int i = 0; name && i < CC_FLAG_COUNT; i++)
        if (strcmp(cc_flag_defs[i].name, name) == 0) return i;
    return -1;
}

int cc_flags_check(char *why, size_t cap) {
    for (int i = 0; i < CC_FLAG_COUNT; i++) {
        const char *v = getenv(cc_flag_defs[i].name);
        if (!v || !*v || cc_flag_parse(v) >= 0) continue;
        return cc_knob_refusal(why, cap, cc_flag_defs[i].name, v, CC_FLAG_RULE);
    }
    return 0;
}
