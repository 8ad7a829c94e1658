/* sbx_spawn(): a sandboxed process that outlives the call that started it
 * (a session's REPL host, a package install). The walls are sbx_run's — the
 * same box, planner, init and program child — but the caller keeps the
 * pidfd and decides when the tree dies.
 *
 * Limits differ from a one-shot step (TOOLS.md 4.1): no RLIMIT_CPU (it would
 * add up over every call); the cgroup carries the memory and pids ceilings. */
#include "workers/sandbox/sandbox.h"
#include "protocol/monotonic.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

int sbx_spawn(const struct sbx_spec *spec, struct sbx_proc *p, struct sbx_result *res) {
    memset(res, 0, sizeof *res);
    memset(p, 0, sizeof *p);
    p->pidfd = p->box.pidfd = p->box.sock = -1;
    p->t0 = cc_now_us() / 1000;
    res->peak_kb = res->oom_kills = -1;
    if (!spec || !spec->argv || !spec->argv[0] || spec->argv[0][0] != '/' || !spec->envp ||
        spec->capture)
        return sbx_fail(res, "invalid sandbox spec", EINVAL);
    char *why = NULL;
    if (sbx_box_prepare(&p->box, spec->workdir, spec->lim.no_net, &why) != 0) {
        res->spawn_error = why ? why : strdup("sandbox: cannot prepare a box");
        return -1;
    }
    struct sbx_spec host = *spec;
    host.lim.cpu_s = 0;
    if (sbx_box_start(&p->box, &host, res) != 0) {
        sbx_box_destroy(&p->box);
        return -1;
    }
    p->pidfd = p->box.pidfd;
    p->shared = p->box.shared;
    return 0;
}

void sbx_proc_kill(struct sbx_proc *p) { sbx_box_kill(&p->box); }

int64_t sbx_proc_peak_kb(const struct sbx_proc *p) { return sbx_cg_peak_kb(&p->box.cg); }

static void fill_exit(const struct sbx_proc *p, int st, const struct rusage *ru,
                      struct sbx_result *res) {
    const struct sbx_shared *sh = p->box.shared;
    res->cpu_ms = (int64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000 +
                  (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1000;
    res->peak_kb = sbx_cg_peak_kb(&p->box.cg);
    res->oom_kills = sbx_cg_oom_kills(&p->box.cg);
    if (!sh) return;
    if (sh->have_usage) res->cpu_ms = sh->cpu_us / 1000;
    sbx_fill_status(res, sh, st);
    if (!res->started && sh->exec_errno)
        sbx_fail(res, "execve", sh->exec_errno);
    else if (!res->started && sh->stage_err)
        sbx_fail(res, "sandbox setup", sh->stage_err);
    if (res->oom_kills > 0 && (res->term_signal || res->exit_code)) res->killed_by = SBX_KILL_MEMORY;
}

void sbx_proc_reap(struct sbx_proc *p, struct sbx_result *res) {
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (p->box.pid > 0 && !p->box.reaped) {
        while (wait4(p->box.pid, &st, __WALL, &ru) < 0 && errno == EINTR)
            ;
        p->box.reaped = true;
    }
    fill_exit(p, st, &ru, res);
    res->wall_ms = cc_now_us() / 1000 - p->t0;
    sbx_box_destroy(&p->box); /* kills whatever is left in the groups */
    p->shared = NULL;
    p->pidfd = -1;
}
