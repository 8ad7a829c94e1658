/* The program's own process. init forks it when the box is prepared, so
 * the request path does not wait for a fork or for init to be scheduled:
 * it waits in the box (its session, its work directory) for the program
 * ("P" with its fds), then applies the limits, identity, stdio,
 * no_new_privs and, last, the seccomp filter, and calls execve. Whatever
 * stops it before execve is recorded in the shared page (exec_errno) and
 * it exits 127; init reports it with the end of the run. */
#include "workers/sandbox/sandbox.h"
#include "protocol/monotonic.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Noreturn void fail(struct sbx_shared *sh, int err) {
    sh->started = 0;
    sh->exec_errno = err ? err : EIO;
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

/* Empty the capability bounding set while we still hold CAP_SETPCAP (root,
 * or the run's own user namespace): no_new_privs already keeps execve from
 * granting anything, this keeps it so should that ever fail. The loop ends
 * where the kernel's capabilities end (PR_CAPBSET_READ: EINVAL). */
static void drop_bounding_set(void) {
    for (int c = 0; prctl(PR_CAPBSET_READ, c, 0, 0, 0) >= 0; c++)
        (void)prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
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

/* stdio onto 0..2; every other descriptor from 3 up is closed except the
 * file to execute (close-on-exec already; this is the second fence). */
static int setup_fds(const int fds[4]) {
    int in = lift(fds[0]), out = lift(fds[1]), err = lift(fds[2]);
    if (in < 0 || out < 0 || err < 0)
        return -1;
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        return -1;
    int keep = fds[3];
    if (keep < 3)
        return close_range(3, ~0U, 0);
    if (keep > 3 && close_range(3, (unsigned)keep - 1, 0) != 0)
        return -1;
    return close_range((unsigned)keep + 1, ~0U, 0);
}

/* "P" and the fds it carries into fds[0..3] (-1 where none was sent). */
static bool wait_program(int sock, int fds[4]) {
    char payload[2];
    union {
        char buf[CMSG_SPACE(sizeof(int) * 4)];
        struct cmsghdr align;
    } u;
    struct iovec iov = {.iov_base = payload, .iov_len = sizeof payload};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
                         .msg_controllen = sizeof u.buf};
    ssize_t r;
    do
        r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    while (r < 0 && errno == EINTR);
    if (r != (ssize_t)sizeof payload || payload[0] != SBX_MSG_PROGRAM)
        return false;
    int got[4], n = 0;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
        n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        memcpy(got, CMSG_DATA(c), sizeof(int) * (size_t)(n > 4 ? 4 : n));
    }
    for (int i = 0, k = 0; i < 4; i++)
        fds[i] = (payload[1] & (1 << i)) && k < n ? got[k++] : -1;
    return true;
}

/* init shields itself from the OOM killer before it forks us; the program
 * gets the score init started with (raising it needs no privilege). */
static void restore_oom_score(const char *adj) {
    if (!adj[0])
        return;
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t w = write(fd, adj, strlen(adj));
    (void)w;
    close(fd);
}

/* The program arrived: from here to execve is on the request path. */
static _Noreturn void exec_program(const struct sbx_init_cfg *cfg, const int fds[4]) {
    struct sbx_shared *sh = cfg->shared;
    const struct sbx_program *p = &sh->prog;
    if (p->want_netns && unshare(CLONE_NEWNET) != 0)
        sh->degraded |= SBX_DEGRADED_NET;
    if (apply_rlimits(p) != 0)
        fail(sh, errno);
    drop_bounding_set();
    if (drop_identity(p) != 0)
        fail(sh, errno);
    if (setup_fds(fds) != 0)
        fail(sh, errno);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        sh->degraded |= SBX_DEGRADED_NNP;
    /* The program has no parent-death signal of its own (init kills the
     * tree when it ends); a uid switch cleared it already. */
    prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
    /* Abstract unix sockets of the host (and processes outside the run) are
     * out of reach even where no network namespace was made. */
    if (sbx_landlock_scope() != 0)
        sh->degraded |= SBX_DEGRADED_SCOPE;
    /* Last before execve: from here on the filter binds us too. */
    if (p->bpf.filter && sbx_seccomp_apply(&p->bpf) != 0)
        sh->degraded |= SBX_DEGRADED_SECCOMP;
    char *const *argv = (char *const *)p->argv, *const *envp = (char *const *)p->envp;
    sh->t_exec_us = cc_now_us();
    sh->started = 1;
    if (fds[3] >= 0)
        syscall(SYS_execveat, fds[3], "", argv, envp, AT_EMPTY_PATH);
    else
        execve(argv[0], argv, envp);
    fail(sh, errno);
}

_Noreturn void sbx_program_main(const struct sbx_init_cfg *cfg, pid_t init_pid,
                                const char *oom_adj, int uchan) {
    struct sbx_shared *sh = cfg->shared;
    restore_oom_score(oom_adj);
    if (setsid() < 0 && !cfg->own_pidns)
        fail(sh, errno);
    /* As root in the host's namespace: the path may cross directories
     * only root may search (the namespace below does not map root). */
    if (chdir(cfg->workdir) != 0)
        fail(sh, errno);
    /* Before the parent-death signal: a credential change clears it.
     * Where no namespace could be made init discloses the shared pools. */
    if (uchan >= 0) {
        if (sbx_userns_enter(uchan, (uid_t)sh->owner_uid) < 0)
            fail(sh, errno);
        close(uchan);
    }
    /* While it waits it goes with init: a box destroyed unused, a worker
     * killed (init has PDEATHSIG too; in a pid namespace init's death ends
     * us anyway). */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != init_pid)
        _exit(0);
    int fds[4];
    if (!wait_program(cfg->sock, fds))
        _exit(0); /* the box was destroyed unused */
    sh->t_forked_us = cc_now_us();
    exec_program(cfg, fds);
}
