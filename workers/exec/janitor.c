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
#include <sys/prctl.h>
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

static void remove_group(const char *path, void *v2) { sbx_cg_remove_dir(path, v2 != NULL); }

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

/* One pass; answers how many of the worker's run cgroups it found. */
static int sweep(pid_t worker, const char *tmp, const char *mem, const char *pids,
                 const char *v2) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "run-%ld-", (long)worker);
    int groups = each_named(mem, prefix, remove_group, NULL) +
                 each_named(pids, prefix, remove_group, NULL) +
                 each_named(v2, prefix, remove_group, (void *)1);
    snprintf(prefix, sizeof prefix, "codecalc-%ld-", (long)worker);
    each_named(tmp, prefix, remove_rundir, NULL);
    return groups;
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
    /* A group still holding the box's dying processes refuses rmdir; one
     * removal gives up after about 200 ms, which a loaded host can exceed
     * (a cgroup was left behind in CI). The janitor has nothing else to
     * do: it sweeps again until no group of the worker is found, for up to
     * SWEEP_ROUNDS tenths of a second. */
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
