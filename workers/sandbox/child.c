/* The program's own process, from fork to execve: limits, identity, stdio,
 * no_new_privs and, last, the seccomp filter. On any failure the errno goes
 * back to init over errpipe (close-on-exec, so EOF means execve worked). */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif

static _Noreturn void fail(int errpipe, int err) {
    ssize_t w = write(errpipe, &err, sizeof err);
    (void)w;
    _exit(127);
}

static int apply_rlimits(const struct sbx_plan *plan) {
    for (int i = 0; i < plan->n_rl; i++) {
        struct rlimit rl = {.rlim_cur = plan->rl[i].value, .rlim_max = plan->rl[i].value};
        /* CPU: one second of slack above the soft limit, so the program
         * dies of SIGXCPU (self-explaining) rather than a bare SIGKILL. */
        struct rlimit have;
        if (plan->rl[i].resource == RLIMIT_CPU && getrlimit(RLIMIT_CPU, &have) == 0 &&
            (have.rlim_max == RLIM_INFINITY || have.rlim_max > rl.rlim_cur))
            rl.rlim_max = rl.rlim_cur + 1;
        if (setrlimit(plan->rl[i].resource, &rl) != 0)
            return -1;
    }
    return 0;
}

static int drop_identity(const struct sbx_plan *plan) {
    if (!plan->drop_uid)
        return 0;
    if (setgroups(0, NULL) != 0 || setresgid(plan->gid, plan->gid, plan->gid) != 0 ||
        setresuid(plan->uid, plan->uid, plan->uid) != 0)
        return -1;
    return 0;
}

/* Move fd to a slot >= 10 so the dup2s onto 0..2 cannot clobber each other. */
static int lift(int fd) {
    if (fd < 0)
        fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    return fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 10);
}

static int setup_stdio(const struct sbx_spec *spec, int errpipe) {
    int in = lift(spec->stdin_fd), out = lift(spec->stdout_fd), err = lift(spec->stderr_fd);
    if (in < 0 || out < 0 || err < 0)
        return -1;
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        return -1;
    /* Everything else the worker had open stays behind; errpipe is
     * close-on-exec and must survive until execve. */
    for (int fd = 3; fd < errpipe; fd++)
        close(fd);
    return close_range((unsigned)errpipe + 1, ~0U, 0) == 0 ? 0 : -1;
}

_Noreturn void sbx_child_exec(const struct sbx_plan *plan, int errpipe) {
    const struct sbx_spec *spec = plan->spec;
    if (setsid() < 0 && !plan->own_pidns)
        fail(errpipe, errno);
    if (chdir(spec->workdir) != 0)
        fail(errpipe, errno);
    if (apply_rlimits(plan) != 0)
        fail(errpipe, errno);
    if (drop_identity(plan) != 0)
        fail(errpipe, errno);
    if (setup_stdio(spec, errpipe) != 0)
        fail(errpipe, errno);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        plan->shared->degraded |= SBX_DEGRADED_NNP;
    /* Last before execve: from here on the filter binds us too. */
    if (plan->bpf && sbx_seccomp_apply(plan->bpf) != 0)
        plan->shared->degraded |= SBX_DEGRADED_SECCOMP;
    execve(spec->argv[0], (char *const *)spec->argv, (char *const *)spec->envp);
    fail(errpipe, errno);
}
