/* Lane sessred: a cancel that reaches a run after its program exited
 * stopped nothing of it (workers/sandbox/wait.c, sbx_fill_status). */
#include "tests/unit/check.h"
#include "workers/sandbox/sandbox.h"
#include "tests/unit/sbx_status.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

/* Regression: run_cancel of a background run that printed `done` and
 * exited 0 just before the cancel's tick: the run read `state:
 * "cancelled"`, `cancelled: true` beside its own `verdict: "OK"`,
 * `exit_code: 0`. An exit status means the program ended on its own. */
static void cancel_after_exit_read_as_cancelled(void) {
    struct sbx_result r;
    sbx_fill_as(&r, exited_with(0), SBX_KILL_CANCEL);
    CHECK(r.exited);
    CHECK_INTEQ(r.exit_code, 0);
    CHECK(!r.cancelled);
    CHECK_INTEQ(r.killed_by, SBX_KILL_NONE);
    sbx_fill_as(&r, exited_with(2), SBX_KILL_CANCEL);
    CHECK(!r.cancelled);
    CHECK_INTEQ(r.exit_code, 2);
    /* stopped by the cancel: a signal status, still cancelled */
    sbx_fill_as(&r, killed_by_signal(SIGKILL), SBX_KILL_CANCEL);
    CHECK(r.cancelled);
    CHECK_INTEQ(r.killed_by, SBX_KILL_CANCEL);
    CHECK(!r.exited);
}

int main(void) {
    RUN(cancel_after_exit_read_as_cancelled);
    return check_summary("runs_cancel_after_exit");
}
