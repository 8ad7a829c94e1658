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
#include <sys/syscall.h>
#include <unistd.h>

static _Noreturn void fail(int errpipe, int err) {
    ssize_t w = write(errpipe, &err, sizeof err);
    (void)w;
    _exit(127);
}

static int apply_rlimits(const struct sbx_program *p) {
    for (int i = 0; i < p->n_rl; i++) {
        struct rlimit rl = {.rlim_cur = p->rl[i].value, .rlim_max = p->rl[i].value};
        /* CPU: one second of slack above the soft limit, so the program
         * dies of SIGXCPU (self-explaining) rather than a bare SIGKILL. */
        struct rlimit have;
        if (p->rl[i].resource == RLIMIT_CPU && getrlimit(RLIMIT_CPU, &have) == 0 &&
            (have.rlim_max == RLIM_INFINITY || have.rlim_max > rl.rlim_cur))
            rl.rlim_max = rl.rlim_cur + 1;
        if (setrlimit(p->rl[i].resource, &rl) != 0)
            return -1;
    }
    return 0;
}

static int drop_identity(const struct sbx_program *p) {
    if (!p->drop_uid)
        return 0;
    if (setgroups(0, NULL) != 0 || setresgid(p->gid, p->gid, p->gid) != 0 ||
        setresuid(p->uid, p->uid, p->uid) != 0)
        return -1;
    return 0;
}

/* Move fd to a slot >= 10 so the dup2s onto 0..2 cannot clobber each other. */
static int lift(int fd) {
    if (fd < 0)
        fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    return fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 10);
}

/* Close every descriptor from 3 up except keep1 and keep2 (-1 = none).
 * Everything is close-on-exec already; this is the second fence. */
static int close_others(int keep1, int keep2) {
    int lo = keep1 < keep2 ? keep1 : keep2, hi = keep1 < keep2 ? keep2 : keep1;
    unsigned from = 3;
    int keep[2] = {lo, hi};
    for (int i = 0; i < 2; i++) {
        if (keep[i] < 3)
            continue;
        if ((unsigned)keep[i] > from && close_range(from, (unsigned)keep[i] - 1, 0) != 0)
            return -1;
        from = (unsigned)keep[i] + 1;
    }
    return close_range(from, ~0U, 0);
}

/* stdio onto 0..2; the file to execute and errpipe stay (close-on-exec). */
static int setup_fds(const int fds[4], int errpipe) {
    int in = lift(fds[0]), out = lift(fds[1]), err = lift(fds[2]);
    if (in < 0 || out < 0 || err < 0)
        return -1;
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        return -1;
    return close_others(errpipe, fds[3]);
}

_Noreturn void sbx_child_exec(const struct sbx_init_cfg *cfg, const int fds[4], int errpipe) {
    const struct sbx_program *p = &cfg->shared->prog;
    if (setsid() < 0 && !cfg->own_pidns)
        fail(errpipe, errno);
    if (chdir(cfg->workdir) != 0)
        fail(errpipe, errno);
    if (apply_rlimits(p) != 0)
        fail(errpipe, errno);
    if (drop_identity(p) != 0)
        fail(errpipe, errno);
    if (setup_fds(fds, errpipe) != 0)
        fail(errpipe, errno);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        cfg->shared->degraded |= SBX_DEGRADED_NNP;
    /* Last before execve: from here on the filter binds us too. */
    if (p->bpf.filter && sbx_seccomp_apply(&p->bpf) != 0)
        cfg->shared->degraded |= SBX_DEGRADED_SECCOMP;
    char *const *argv = (char *const *)p->argv, *const *envp = (char *const *)p->envp;
    if (fds[3] >= 0)
        syscall(SYS_execveat, fds[3], "", argv, envp, AT_EMPTY_PATH);
    else
        execve(argv[0], argv, envp);
    fail(errpipe, errno);
}
