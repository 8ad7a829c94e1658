/* Warm sandboxes (issue 17): the exec worker keeps one box prepared ahead
 * of the next request — run directory made, namespaces cloned, filesystem
 * view built, cgroup created and joined, seccomp filter compiled, the
 * program's process forked and waiting — so a request only hands its
 * program over. After the response the used box and run directory are
 * destroyed and the next box is prepared (cc_warm_idle, called by the
 * worker loop between requests).
 *
 * Outside the exec worker (unit tests, background-run shepherds) nothing is
 * enabled: cc_warm_take finds no box and retiring destroys at once.
 *
 * Ownership: cc_warm_take moves the prepared box and directory to the
 * caller; cc_warm_retire_* take them back (the values are reset). */
#ifndef CC_WARM_H
#define CC_WARM_H

#include <stdbool.h>

#include "workers/sandbox/rundir.h"
#include "workers/sandbox/sandbox.h"

/* Where one-shot run directories are made (8.1: TMPDIR, else /tmp). */
const char *cc_exec_tmp_base(void);

/* Turn warm boxes and deferred destruction on for this process. */
void cc_warm_enable(void);
/* The prepared box and its run directory, if one is ready. */
bool cc_warm_take(struct sbx_box *box, struct cc_rundir *dir);
/* A spent (or unused) box / run directory: destroyed after the response
 * when enabled, else now. */
void cc_warm_retire_box(struct sbx_box *box);
void cc_warm_retire_dir(struct cc_rundir *dir);
/* Between requests: destroy what was retired, prepare the next box. */
void cc_warm_idle(void);
/* Destroy everything (orderly worker exit). */
void cc_warm_shutdown(void);

/* The janitor (janitor.c): a detached helper started once per process that
 * makes sandboxes (an exec worker, a background run's shepherd, a REPL
 * launcher) that waits for that process to die and then removes what it
 * could leave if killed (cgroups and run directories named after its pid).
 * 0, or -1. */
int cc_janitor_start(void);

#endif
