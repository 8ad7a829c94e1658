/* The run's init: pid 1 of the run's pid namespace (when there is one).
 *
 * It waits until sbx_run has put it into the run's cgroups, builds the
 * filesystem view, forks the program, reaps every orphan, and stores the
 * program's wait status in the shared page. When the program ends, init
 * exits: the kernel then SIGKILLs and reaps whatever is left in the
 * namespace, so no descendant (daemonised or not) outlives the run. */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/proc_stat.h"

static void note_stage(struct sbx_shared *sh, const char *stage, int err) {
    sh->stage_err = err ? err : EIO;
    size_t n = strlen(stage);
    if (n >= sizeof sh->stage)
        n = sizeof sh->stage - 1;
    for (size_t i = 0; i < n; i++)
        sh->stage[i] = stage[i];
    sh->stage[n] = '\0';
}

/* The worker may block or catch signals; the run starts from defaults. */
static void reset_signals(void) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            signal(s, SIG_DFL);
}

/* init is a fork of the exec worker, so its memory still holds the worker's
 * environment block, which /proc/1/environ shows to anything allowed to read
 * it (without a uid switch, i.e. a non-root server, the program is). Wipe
 * the block (the program gets its own envp) and make init non-dumpable so
 * its /proc files are closed to the program either way. */
static void scrub_inherited_environment(void) {
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    /* env_start and env_end are fields 50 and 51. */
    unsigned long long env[2];
    if (cc_proc_stat(0, NULL, 50, 2, env) < 0) return;
    unsigned long long start = env[0], end = env[1];
    if (start && end > start && end - start < (64ULL << 20))
        memset((void *)(uintptr_t)start, 0, (size_t)(end - start));
}

/* Block until sbx_run says the cgroup (and uid maps) are in place. */
static bool wait_go(int fd) {
    char c;
    ssize_t r;
    do
        r = read(fd, &c, 1);
    while (r < 0 && errno == EINTR);
    close(fd);
    return r == 1;
}

/* EOF on the close-on-exec pipe means execve succeeded. */
static void read_exec_result(struct sbx_shared *sh, int rd) {
    int err = 0;
    ssize_t r;
    do
        r = read(rd, &err, sizeof err);
    while (r < 0 && errno == EINTR);
    close(rd);
    if (r == (ssize_t)sizeof err)
        sh->exec_errno = err ? err : EIO;
    else
        sh->started = 1;
}

/* Without a pid namespace: take the program's process group down and reap
 * what the subreaper collected, best effort. */
static void kill_leftovers(pid_t child) {
    kill(-child, SIGKILL);
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

static _Noreturn void reap_until_program_ends(const struct sbx_plan *plan, pid_t child) {
    for (;;) {
        int st = 0;
        pid_t p = waitpid(-1, &st, 0);
        if (p < 0 && errno == EINTR)
            continue;
        if (p < 0)
            _exit(0); /* ECHILD: the program is gone without a status */
        if (p == child) {
            plan->shared->status = st;
            plan->shared->have_status = 1;
            if (!plan->own_pidns)
                kill_leftovers(child);
            _exit(0);
        }
    }
}

_Noreturn void sbx_init_main(const struct sbx_plan *plan) {
    struct sbx_shared *sh = plan->shared;
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    reset_signals();
    scrub_inherited_environment();
    if (!wait_go(plan->go_fd))
        _exit(0);
    if (plan->own_mntns) {
        const char *home = plan->home;
        sh->degraded |= sbx_mounts_setup(plan->spec->workdir, home, plan->own_pidns);
        if (sh->degraded & SBX_DEGRADED_WORKDIR) {
            note_stage(sh, "workdir bind", errno);
            _exit(0);
        }
    }
    if (plan->own_utsns)
        (void)sethostname("codecalc", 8);
    if (!plan->own_pidns)
        prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) != 0) {
        note_stage(sh, "pipe", errno);
        _exit(0);
    }
    pid_t child = fork();
    if (child < 0) {
        note_stage(sh, "fork", errno);
        _exit(0);
    }
    if (child == 0) {
        close(ep[0]);
        sbx_child_exec(plan, ep[1]);
    }
    close(ep[1]);
    read_exec_result(sh, ep[0]);
    reap_until_program_ends(plan, child);
}
