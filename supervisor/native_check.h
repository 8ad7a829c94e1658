/* CODECALC_REQUIRE_NATIVE: refuse to start unless this host gives the
 * sandbox every kernel feature it uses (TOOLS.md 8.1), instead of serving
 * runs whose missing guarantees are only disclosed in `unenforced`.
 *
 * The supervisor links no sandbox code: the facts come from
 * `codecalc-exec --probe` (workers/exec/probe_report.h), run once at
 * start-up and only when the variable is set, so a server without it
 * starts as fast as ever. */
#ifndef CC_NATIVE_CHECK_H
#define CC_NATIVE_CHECK_H

#include <jansson.h>
#include <stddef.h>

/* 0 when the variable is unset/"0" or the host is fully capable; -1 with a
 * message naming the variable and the missing features otherwise (also
 * when the probe in bindir cannot be run or answers nonsense). */
int cc_native_check(const char *bindir, char *msg, size_t cap);

/* The decision on one probe report (borrowed): 0 when nothing the native
 * sandbox needs is missing, else -1 with the refusal in msg. */
int cc_native_verdict(const json_t *caps, char *msg, size_t cap);

#endif
