/* Sandbox results as sbx_fill_status leaves them, for the unit tests of
 * verdicts: a wait() status and the page init shares with the server.
 * Include after workers/sandbox/sandbox.h. */
#ifndef CC_TEST_SBX_STATUS_H
#define CC_TEST_SBX_STATUS_H

#include <string.h>

/* A status as wait() reports it: exit code or terminating signal. */
static inline int exited_with(int code) { return (code & 0xff) << 8; }
static inline int killed_by_signal(int sig) { return sig & 0x7f; }

/* The result of a run whose init saw status, killed (or not) for why. */
static inline void sbx_fill_as(struct sbx_result *res, int status, enum sbx_kill why) {
    static struct sbx_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.started = 1;
    sh.have_status = 1;
    sh.status = status;
    memset(res, 0, sizeof *res);
    res->timed_out = why == SBX_KILL_TIMEOUT;
    res->cancelled = why == SBX_KILL_CANCEL;
    res->killed_by = why;
    sbx_fill_status(res, &sh, 0);
}

#endif
