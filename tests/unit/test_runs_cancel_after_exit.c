/* Lane sessred: a cancel that reaches a run after its program exited
 * stopped nothing of it (workers/sandbox/wait.c, sbx_fill_status). */
#include "tests/unit/check.h"
#include "workers/sandbox/sandbox.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

static int exited_with(int code) { return (code & 0xff) << 8; }
static int killed_by_signal(int sig) { return sig & 0x7f; }

/* The page as init leaves it, and a result whose tick asked to cancel. */
static void fill_cancelled(struct sbx_result *res, int status) {
    static struct sbx_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.started = 1;
    sh.have_status = 1;
    sh.status = status;
    memset(res, 0, sizeof *res);
    res->cancelled = true;
    res->killed_by = SBX_KILL_CANCEL;
    sbx_fill_status(res, &sh, 0);
}

/* Regression: run_cancel of a background run that printed `done` and
 * exited 0 just before the cancel's tick: the run read `state:
 * "cancelled"`, `cancelled: true` beside its own `verdict: "OK"`,
 * `exit_code: 0`. An exit status means the program ended on its own. */
static void cancel_after_exit_read_as_cancelled(void) {
    struct sbx_result r;
    fill_cancelled(&r, exited_with(0));
    CHECK(r.exited);
    CHECK_INTEQ(r.exit_code, 0);
    CHECK(!r.cancelled);
    CHECK_INTEQ(r.killed_by, SBX_KILL_NONE);
    fill_cancelled(&r, exited_with(2));
    CHECK(!r.cancelled);
    CHECK_INTEQ(r.exit_code, 2);
    /* stopped by the cancel: a signal status, still cancelled */
    fill_cancelled(&r, killed_by_signal(SIGKILL));
    CHECK(r.cancelled);
    CHECK_INTEQ(r.killed_by, SBX_KILL_CANCEL);
    CHECK(!r.exited);
}

int main(void) {
    RUN(cancel_after_exit_read_as_cancelled);
    return check_summary("runs_cancel_after_exit");
}
