/* Where a symbolic call's time goes. When the worker runs with
 * CODECALC_PROFILE_SYMBOLIC=1, every CAS tool result gains
 * "profile_us": {parse, giac, numeric, print, other, total} (microseconds
 * spent in our parser, in giac, in the MPC cross-checks, in our printer, in
 * the handler's own glue, and in the whole handler); scripts/profile-symbolic subtracts the handler total from
 * the round trip to get the transport share (frames, JSON, msgpack, the
 * supervisor). Off by default: the result shape is then unchanged. */
#ifndef CC_SYM_PROFILE_H
#define CC_SYM_PROFILE_H

#include <jansson.h>
#include <stdint.h>

#include "workers/common/tool_api.h" /* CC_TOOL */

#ifdef __cplusplus
extern "C" {
#endif

/* Phases are exclusive: time is charged to the innermost phase entered, so
 * giac work done while printing counts as giac. "other" in the report is
 * the handler's own glue (argument reading, JSON building). */
enum sym_phase { SYM_PH_OTHER, SYM_PH_PARSE, SYM_PH_GIAC, SYM_PH_NUMERIC, SYM_PH_PRINT, SYM_PH_COUNT };

/* Enters phase p; returns the phase to give back to sym_prof_leave(). */
enum sym_phase sym_prof_enter(enum sym_phase p);
void sym_prof_leave(enum sym_phase previous);

/* A fast path (sym_fast.h) answered part of the call that the CAS would
 * otherwise have: the profile says "fast": true (tests/crosscheck/
 * fastpath.py counts such answers where giac still ran for the rest). */
void sym_prof_mark_fast(void);

struct cc_wctx;
/* Runs fn with the counters reset and, when profiling, adds profile_us to
 * an object result. */
json_t *sym_prof_run(json_t *(*fn)(json_t *, struct cc_wctx *), json_t *args, struct cc_wctx *ctx);

/* Defines the tool's entry point cc_tool_<name> as the profiled call of
 * the file's own handler fn. */
#define SYM_PROFILED_TOOL(name, fn) \
    CC_TOOL(name) { return sym_prof_run(fn, args, ctx); }

#ifdef __cplusplus
}
#endif

#endif
