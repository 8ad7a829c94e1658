/* The janitor: what a killed exec worker leaves behind is removed anyway.
 *
 * A worker always holds a prepared box: a run directory and run cgroups
 * named after its pid (codecalc-<pid>-*, run-<pid>-*). Its init dies with
 * the worker (PDEATHSIG), but directories do not. A background run's
 * shepherd and a REPL launcher make boxes the same way and start a janitor
 * too (the chaos test found their cgroups left behind when they were
 * killed). The janitor, forked once
 * and detached (own session, not a child of the worker, so a kill aimed at
 * the worker or its process group spares it), blocks on a pipe only the
 * worker can write; EOF means the worker is gone, and it then removes every
 * run cgroup and run directory carrying the worker's pid, and exits. */
#include "workers/exec/warm.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


/* Entries of dir whose name starts with prefix; calls fn on each full path
 * and answers how many there were. */
static int each_named(const char *dir, const char *prefix, void (*fn)(const char *, void *),
                      void *ud) {
    DIR *d = dir[0] ? opendir(dir) : NULL;
    if (!d)
        return 0;
    struct dirent *e;
    size_t n = strlen(prefix);
    int found = 0;
    while ((e = readdir(d)) != NULL) {
        char path[PATH_MAX];
        if (strncmp(e->d_name, prefix, n) == 0 &&
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path) {
            fn(path, ud);
            found++;
        }
    }
    closedir(d);
    return found;
}

enum { EMPTY_ROUNDS = 16, EXIT_WAIT_MS = 2000 };

/* SIGKILL what dir's cgroup.procs lists, through pidfds, and wait in
 * poll() until each has exited (a pidfd turns readable then). A group
 * whose processes are gone can be removed at once, so the removal below
 * needs no retry: the janitor waits for events, not on a clock. Returns
 * once the list is empty or after EMPTY_ROUNDS lists (a box forking while
 * it is killed: its init is dead, so its pid namespace takes no new
 * process for long). */
static void empty_group(const char *dir) {
    char path[600], buf[8192];
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    for (int round = 0; round < EMPTY_ROUNDS; round++) {
        if (sbx_read_small(path, buf, sizeof buf) < 0) return;
        struct pollfd pfd[64];
        int n = 0;
        for (char *p = buf; *p && n < (int)(sizeof pfd / sizeof pfd[0]);) {
            char *end;
            long pid = strtol(p, &end, 10);
            if (end == p) break;
            p = end + (*end == '\n');
            int fd = pid > 0 ? (int)syscall(SYS_pidfd_open, (pid_t)pid, 0) : -1;
            if (fd < 0) continue; /* gone already (or no pidfds: the retry below copes) */
            syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0);
            pfd[n++] = (struct pollfd){.fd = fd, .events = POLLIN};
        }
        if (n == 0) return;
        for (int left = n; left > 0;) {
            int r = poll(pfd, (nfds_t)n, EXIT_WAIT_MS);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) break; /* one did not die in 2 s: list again */
            for (int i = 0; i < n; i++)
                if (pfd[i].fd >= 0 && pfd[i].revents) {
                    close(pfd[i].fd);
                    pfd[i].fd = -1; /* poll ignores negative fds */
                    left--;
                }
        }
        for (int i = 0; i < n; i++)
            if (pfd[i].fd >= 0) close(pfd[i].fd);
    }
}

struct group_sweep {
    bool v2;
    int left; /* groups still there after their removal */
};

static void remove_group(const char *path, void *ud) {
    struct group_sweep *g = ud;
    empty_group(path);
    sbx_cg_remove_dir(path, g->v2);
    struct stat st;
    if (stat(path, &st) == 0) g->left++;
}

/* A run directory of the dead worker: ours if it is a real directory owned
 * by the run uid (root server) or by us. */
static void remove_rundir(const char *path, void *ud) {
    (void)ud;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    bool ours = fstat(fd, &st) == 0 &&
                (st.st_uid == (geteuid() == 0 ? SBX_RUN_UID : geteuid()));
    close(fd);
    if (!ours)
        return;
    struct cc_rundir rd = {.dev = st.st_dev, .ino = st.st_ino, .have_id = true};
    snprintf(rd.path, sizeof rd.path, "%s", path);
    cc_rundir_remove(&rd);
}

/* One pass; answers how many of the worker's run cgroups are still there
 * after it (0: nothing to wait for, the janitor is done). */
static int sweep(pid_t worker, const char *tmp, const char *mem, const char *pids,
                 const char *v2) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "run-%ld-", (long)worker);
    struct group_sweep v1g = {.v2 = false}, v2g = {.v2 = true};
    each_named(mem, prefix, remove_group, &v1g);
    each_named(pids, prefix, remove_group, &v1g);
    each_named(v2, prefix, remove_group, &v2g);
    snprintf(prefix, sizeof prefix, "codecalc-%ld-", (long)worker);
    each_named(tmp, prefix, remove_rundir, NULL);
    return v1g.left + v2g.left;
}

enum { SWEEP_ROUNDS = 300 };

static _Noreturn void janitor_main(int rd, pid_t worker) {
    setsid();
    prctl(PR_SET_NAME, "codecalc-janitor", 0, 0, 0);
    /* Nothing of the worker's may stay open here (the protocol pipes above
     * all: the supervisor must see the worker's EOF). */
    if (rd > 3) close_range(3, (unsigned)rd - 1, 0);
    close_range((unsigned)rd + 1, ~0U, 0);
    /* Nor the server's stderr: whoever reads it must see EOF with the server. */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; null >= 0 && fd < 3; fd++)
        dup2(null, fd);
    if (null > 2) close(null);
    char mem[512], pids[512], v2[512], tmp[PATH_MAX];
    sbx_cg_bases(mem, pids, v2, sizeof mem);
    snprintf(tmp, sizeof tmp, "%s", cc_exec_tmp_base());
    char c;
    while (read(rd, &c, 1) < 0 && errno == EINTR)
        ;
    /* A group still holding the box's dying processes refuses rmdir, so
     * each group's processes are killed and waited for first (empty_group:
     * pidfds in poll, no clock). Should a group still be found (a kernel
     * without pidfds, a process that outlived two seconds of SIGKILL), the
     * sweep is repeated every tenth of a second, up to SWEEP_ROUNDS times:
     * a cgroup was once left behind in CI by a single pass. */
    for (int round = 0; round < SWEEP_ROUNDS && sweep(worker, tmp, mem, pids, v2) > 0; round++) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    _exit(0);
}

int cc_janitor_start(void) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    pid_t worker = getpid();
    pid_t mid = fork();
    if (mid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (mid == 0) {
        /* Double fork: the janitor is nobody's child in the server tree. */
        close(p[1]);
        if (fork() == 0)
            janitor_main(p[0], worker);
        _exit(0);
    }
    close(p[0]);
    while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
        ;
    /* p[1] stays open (close-on-exec) for the worker's whole life. */
    return 0;
}
