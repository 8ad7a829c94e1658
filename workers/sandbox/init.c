/* The run's init: pid 1 of the run's pid namespace (when there is one).
 *
 * Prepared ahead of its program, it waits until the worker has put it into
 * the run's cgroups ("G"), builds the filesystem view, then waits for the
 * program ("P" with its fds). It forks the program, reaps every orphan and,
 * when the program ends, kills and reaps whatever is left in the namespace,
 * records the program's status and the tree's CPU time in the shared page,
 * says "D" and exits. No descendant (daemonised or not) outlives the run. */
#include "workers/sandbox/sandbox.h"
#include "protocol/monotonic.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
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

/* init is a clone of the worker: it holds copies of every descriptor the
 * worker had (protocol pipes, other boxes' sockets). Only its own socket
 * and stdio stay. */
static void close_inherited(int keep) {
    if (keep > 3)
        close_range(3, (unsigned)keep - 1, 0);
    close_range((unsigned)keep + 1, ~0U, 0);
}

/* init's memory still holds the worker's environment block, which
 * /proc/1/environ shows to anything allowed to read it (without a uid
 * switch, i.e. a non-root server, the program is). Wipe the block (the
 * program gets its own envp) and make init non-dumpable so its /proc files
 * are closed to the program either way. */
static void scrub_inherited_environment(void) {
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    /* env_start and env_end are fields 50 and 51. */
    unsigned long long env[2];
    if (cc_proc_stat(0, NULL, 50, 2, env) < 0) return;
    unsigned long long start = env[0], end = env[1];
    if (start && end > start && end - start < (64ULL << 20))
        memset((void *)(uintptr_t)start, 0, (size_t)(end - start));
}

/* The OOM killer must take the program, not the process that reports on it. */
static void shield_from_oom(void) {
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t w = write(fd, "-1000", 5);
    (void)w;
    close(fd);
}

static bool wait_go(int sock) {
    char c;
    ssize_t r;
    do
        r = recv(sock, &c, 1, 0);
    while (r < 0 && errno == EINTR);
    return r == 1 && c == SBX_MSG_GO;
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

/* EOF on the close-on-exec pipe means execve succeeded. */
static void read_exec_result(struct sbx_shared *sh, int rd) {
    int err = 0;
    ssize_t r;
    do
        r = read(rd, &err, sizeof err);
    while (r < 0 && errno == EINTR);
    close(rd);
    if (r == (ssize_t)sizeof err) {
        sh->exec_errno = err ? err : EIO;
    } else {
        sh->started = 1;
        sh->t_exec_us = cc_now_us();
    }
}

/* The program is gone: end everything else of the run, account for it and
 * report. In a pid namespace kill(-1) reaches every process but us. */
static _Noreturn void finish(const struct sbx_init_cfg *cfg, pid_t child) {
    struct sbx_shared *sh = cfg->shared;
    if (cfg->own_pidns) {
        kill(-1, SIGKILL);
        while (waitpid(-1, NULL, __WALL) > 0 || errno == EINTR)
            ;
    } else {
        kill(-child, SIGKILL);
        while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
            ;
    }
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
        sh->cpu_us = (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
                     ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
        sh->have_usage = 1;
    }
    sh->t_end_us = cc_now_us();
    char d = SBX_MSG_DONE;
    ssize_t w = send(cfg->sock, &d, 1, MSG_NOSIGNAL);
    (void)w;
    _exit(0);
}

static _Noreturn void reap_until_program_ends(const struct sbx_init_cfg *cfg, pid_t child) {
    for (;;) {
        int st = 0;
        pid_t p = waitpid(-1, &st, __WALL);
        if (p < 0 && errno == EINTR)
            continue;
        if (p < 0)
            finish(cfg, child); /* ECHILD: the program is gone without a status */
        if (p == child) {
            cfg->shared->status = st;
            cfg->shared->have_status = 1;
            finish(cfg, child);
        }
    }
}

static void build_view(const struct sbx_init_cfg *cfg) {
    struct sbx_shared *sh = cfg->shared;
    if (cfg->own_mntns) {
        sh->degraded |= sbx_mounts_setup(cfg->workdir, cfg->home, cfg->own_pidns, cfg->share_dir,
                                         cfg->share_at);
        if (sh->degraded & SBX_DEGRADED_WORKDIR) {
            note_stage(sh, "workdir bind", errno);
            _exit(0);
        }
    }
    if (cfg->own_utsns)
        (void)sethostname("codecalc", 8);
    if (!cfg->own_pidns)
        prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

_Noreturn void sbx_init_main(const struct sbx_init_cfg *cfg) {
    struct sbx_shared *sh = cfg->shared;
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    close_inherited(cfg->sock);
    reset_signals();
    scrub_inherited_environment();
    shield_from_oom();
    if (!wait_go(cfg->sock))
        _exit(0);
    build_view(cfg);
    sh->t_ready_us = cc_now_us();
    int fds[4];
    if (!wait_program(cfg->sock, fds))
        _exit(0); /* the box was destroyed unused */
    if (sh->prog.want_netns && unshare(CLONE_NEWNET) != 0)
        sh->degraded |= SBX_DEGRADED_NET;
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) != 0) {
        note_stage(sh, "pipe", errno);
        _exit(0);
    }
    sh->t_forked_us = cc_now_us();
    pid_t child = fork();
    if (child < 0) {
        note_stage(sh, "fork", errno);
        _exit(0);
    }
    if (child == 0) {
        close(ep[0]);
        close(cfg->sock);
        sbx_child_exec(cfg, fds, ep[1]);
    }
    close(ep[1]);
    for (int i = 0; i < 4; i++)
        if (fds[i] >= 0) close(fds[i]);
    read_exec_result(sh, ep[0]);
    reap_until_program_ends(cfg, child);
}
