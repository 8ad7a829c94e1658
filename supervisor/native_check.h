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
#include <stdbool.h>
#include <stddef.h>

/* 0 when the variable is unset/"0" or the host is fully capable; -1 with a
 * message naming the variable and the missing features otherwise (also
 * when the probe in bindir cannot be run or answers nonsense). */
int cc_native_check(const char *bindir, char *msg, size_t cap);

/* The decision on one probe report (borrowed): 0 when nothing the native
 * sandbox needs is missing, else -1 with the refusal in msg. */
int cc_native_verdict(const json_t *caps, char *msg, size_t cap);

/* The probe report of bindir's codecalc-exec, probed once per process and
 * kept (borrowed; NULL when the probe cannot run). Doctor, the status page
 * and the MCP log read the sandbox's facts from here. */
const json_t *cc_native_caps(const char *bindir);

/* "pid namespaces, ..." for every feature caps lacks, or NULL when nothing
 * is missing (malloc'd). costs: add what each absence costs. */
char *cc_native_missing(const json_t *caps, bool costs);

/* Run `bindir/BINARY ARG` (codecalc-exec --probe, codecalc-analysis
 * --grammars) and parse the one JSON object it prints, at most max bytes.
 * New reference, or NULL with why filled. */
json_t *cc_worker_report(const char *bindir, const char *binary, const char *arg, size_t max, char *why,
                         size_t cap);
/* cc_worker_report of codecalc-exec (--probe, --doctor). */
json_t *cc_exec_report(const char *bindir, const char *arg, size_t max, char *why, size_t cap);

/* Is CODECALC_REQUIRE_NATIVE set (to anything but 0)? */
bool cc_native_required(void);

#endif
