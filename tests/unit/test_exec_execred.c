/* Execution red team (lane execred): how a run ended, read from init's
 * shared page (workers/sandbox/wait.c, sbx_fill_status). */
#include "tests/unit/check.h"
#include "workers/sandbox/sandbox.h"
#include "tests/unit/sbx_status.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

/* Regression: a C program printed its answer and exited 0 at 1.9 s of a
 * 2 s budget, leaving 450 processes for init to kill and reap; the clock
 * ran out while init did, and the result was TLE with exit_code 0 and the
 * timeout note in place of stderr. An exit status means the program ended
 * on its own: the clock's SIGKILL leaves a signal status. */
static void exit_before_the_clock_read_as_tle(void) {
    struct sbx_result r;
    sbx_fill_as(&r, exited_with(0), SBX_KILL_TIMEOUT);
    CHECK(WIFEXITED(exited_with(0)));
    CHECK(r.exited);
    CHECK_INTEQ(r.exit_code, 0);
    CHECK(!r.timed_out);
    CHECK_INTEQ(r.killed_by, SBX_KILL_NONE);
    sbx_fill_as(&r, exited_with(3), SBX_KILL_TIMEOUT); /* its own failure, not a timeout */
    CHECK(!r.timed_out);
    CHECK_INTEQ(r.exit_code, 3);
    /* killed by the clock: a signal status, still a timeout */
    sbx_fill_as(&r, killed_by_signal(SIGKILL), SBX_KILL_TIMEOUT);
    CHECK(WIFSIGNALED(killed_by_signal(SIGKILL)));
    CHECK(r.timed_out);
    CHECK_INTEQ(r.killed_by, SBX_KILL_TIMEOUT);
    CHECK_INTEQ(r.term_signal, SIGKILL);
    CHECK(!r.exited);
    /* no clock involved: nothing changes */
    sbx_fill_as(&r, exited_with(0), SBX_KILL_NONE);
    CHECK(!r.timed_out);
    CHECK_INTEQ(r.killed_by, SBX_KILL_NONE);
}

int main(void) {
    RUN(exit_before_the_clock_read_as_tle);
    return check_summary("exec_execred");
}
