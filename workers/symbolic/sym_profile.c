/* Per-phase timing of the symbolic tools (see sym_profile.h). */
#include "protocol/flag.h"
#include "protocol/monotonic.h"
#include "workers/common/tool_api.h"
#include "workers/symbolic/sym_profile.h"
#include "workers/symbolic/sym_nmemo.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int enabled = -1; /* unknown until the first call */
static uint64_t spent[SYM_PH_COUNT];
static enum sym_phase current = SYM_PH_OTHER;
static uint64_t mark; /* when the current phase was last charged */
static bool fast;      /* sym_prof_mark_fast() since the call began */

static bool on(void) {
    if (enabled < 0) {
        enabled = cc_flag(CC_FLAG_PROFILE_SYMBOLIC);
    }
    return enabled;
}

static uint64_t clock_ns(void) { return (uint64_t)cc_now_ns(); }

static void charge(void) {
    uint64_t now = clock_ns();
    spent[current] += now - mark;
    mark = now;
}

enum sym_phase sym_prof_enter(enum sym_phase p) {
    enum sym_phase prev = current;
    if (on()) {
        charge();
        current = p;
    }
    return prev;
}

void sym_prof_leave(enum sym_phase previous) {
    if (on()) {
        charge();
        current = previous;
    }
}

void sym_prof_mark_fast(void) { fast = true; }

json_t *sym_prof_run(json_t *(*fn)(json_t *, struct cc_wctx *), json_t *args, struct cc_wctx *ctx) {
    if (!on())
        return fn(args, ctx);
    memset(spent, 0, sizeof spent);
    fast = false;
    unsigned long lookups, hits0, hits1;
    sym_nmemo_stats(&lookups, &hits0);
    current = SYM_PH_OTHER;
    uint64_t t0 = mark = clock_ns();
    json_t *r = fn(args, ctx);
    charge();
    uint64_t total = clock_ns() - t0;
    if (json_is_object(r))
        json_object_set_new(r, "profile_us",
                            json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "parse",
                                      spent[SYM_PH_PARSE] / 1e3, "giac", spent[SYM_PH_GIAC] / 1e3,
                                      "numeric", spent[SYM_PH_NUMERIC] / 1e3, "print",
                                      spent[SYM_PH_PRINT] / 1e3, "other", spent[SYM_PH_OTHER] / 1e3,
                                      "total", total / 1e3));
    if (json_is_object(r) && fast)
        json_object_set_new(json_object_get(r, "profile_us"), "fast", json_true());
    /* function values the numeric checks found in their memo (sym_nmemo.h):
     * fastpath.py counts the calls, so a memo that stopped answering fails */
    sym_nmemo_stats(&lookups, &hits1);
    if (json_is_object(r) && hits1 > hits0)
        json_object_set_new(json_object_get(r, "profile_us"), "nmemo_hits",
                            json_integer((json_int_t)(hits1 - hits0)));
    return r;
}
