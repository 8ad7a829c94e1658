/* The run's init: pid 1 of the run's pid namespace (when there is one).
 *
 * Prepared ahead of its program, it waits until the worker has put it into
 * the run's cgroups ("G"), builds the filesystem view and forks the
 * program's process, which waits for the program ("P" with its fds) itself
 * (child.c). init reaps every orphan and, when the program ends, kills and
 * reaps whatever is left in the namespace, records the program's status and
 * the tree's CPU time in the shared page, says "D" and exits. No descendant (daemonised or not) outlives the run. */
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
#include <sys/statvfs.h>
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

/* The OOM killer must take the program, not the process that reports on it.
 * The score init started with is kept in adj for the program (child.c). */
static void shield_from_oom(char *adj, size_t cap) {
    adj[0] = '\0';
    int fd = open("/proc/self/oom_score_adj", O_RDWR | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t r = read(fd, adj, cap - 1);
    adj[r > 0 ? r : 0] = '\0';
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

/* Whether the filesystem holding path is (nearly) out of blocks or inodes:
 * less than 1 MiB or 16 files left is what a program that met ENOSPC
 * leaves behind (a large write fails whole, its remainder unused). */
static bool nearly_full(const char *path) {
    struct statvfs v;
    if (statvfs(path, &v) != 0 || v.f_blocks == 0) return false;
    return (uint64_t)v.f_bavail * v.f_frsize < (1u << 20) || (v.f_files > 0 && v.f_favail < 16);
}

/* Which of the run's writable places ran out (the result names them). */
static unsigned space_exhausted(const struct sbx_init_cfg *cfg) {
    unsigned full = 0;
    if (nearly_full(cfg->workdir)) full |= SBX_FULL_WORKDIR;
    if (cfg->own_mntns && nearly_full("/tmp")) full |= SBX_FULL_TMP;
    if (cfg->own_mntns && nearly_full("/dev/shm")) full |= SBX_FULL_SHM;
    return full;
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
    if (cfg->own_ipcns)
        (void)sbx_ipc_release();
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
        sh->cpu_us = (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
                     ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
        sh->maxrss_kb = ru.ru_maxrss;
        sh->have_usage = 1;
    }
    sh->space_full = space_exhausted(cfg);
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

/* Whether the program's process may get a user namespace of its own
 * (userns.c): a root server's box (the worker set the owner), where the
 * /proc init sees numbers processes as fork() does: its maps are written
 * through /proc/<pid>, and a pid of our namespace read in the host's /proc
 * would name another process. */
static bool owner_ns_possible(const struct sbx_init_cfg *cfg) {
    const struct sbx_shared *sh = cfg->shared;
    if (!sh->owner_uid) return false;
    return !cfg->own_pidns || (cfg->own_mntns && !(sh->degraded & SBX_DEGRADED_PROC));
}

static void build_view(const struct sbx_init_cfg *cfg) {
    struct sbx_shared *sh = cfg->shared;
    /* Before the view: the host's /proc is still the one mounted, and its
     * ipc sysctls are this namespace's. Never without a namespace of our
     * own: they would be the host's. Where they cannot be written (a
     * non-root server) the run keeps the kernel's limits: what it holds
     * there is charged to its memory cgroup where it has one, and is
     * memory the memory_cgroup disclosure names where it has none. */
    if (cfg->own_ipcns)
        (void)sbx_ipc_bound();
    /* Likewise the sysctls of init's user namespace (a non-root server's
     * box; a root server's program makes its own, userns.c). */
    if (cfg->own_userns)
        (void)sbx_userns_bound_pools();
    if (cfg->own_mntns) {
        sh->degraded |= sbx_mounts_setup(cfg->workdir, cfg->home, cfg->own_pidns, cfg->share_dir,
                                         cfg->share_at, cfg->own_ipcns);
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
    char oom_adj[16];
    shield_from_oom(oom_adj, sizeof oom_adj);
    if (!wait_go(cfg->sock))
        _exit(0);
    /* Only after "G": a non-root worker writes init's uid_map before it,
     * and a non-dumpable init's /proc files belong to root (EACCES). The
     * program is forked later still, so it never sees the dumpable init. */
    scrub_inherited_environment();
    build_view(cfg);
    /* The program's process is forked now, ahead of its program: the
     * request then wakes only that process (child.c). init reads nothing
     * more from the socket; it reaps until the program ends. */
    pid_t self = getpid();
    int uchan[2] = {-1, -1};
    if (!owner_ns_possible(cfg) ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, uchan) != 0) {
        sh->owner_uid = 0;
        uchan[0] = uchan[1] = -1;
    }
    pid_t child = fork();
    if (child < 0) {
        note_stage(sh, "fork", errno);
        _exit(0);
    }
    if (child == 0) {
        if (uchan[0] >= 0) close(uchan[0]);
        sbx_program_main(cfg, self, oom_adj, uchan[1]);
    }
    if (uchan[0] >= 0) {
        close(uchan[1]);
        if (sbx_userns_map(uchan[0], child, sbx_probe()->run_uid, sbx_probe()->run_gid) != 0)
            sh->owner_uid = 0;
        close(uchan[0]);
    }
    if (!sh->owner_uid) sh->degraded |= SBX_DEGRADED_UIDPOOL;
    sh->t_ready_us = cc_now_us();
    reap_until_program_ends(cfg, child);
}
