/* Shepherd processes: identity by pid + start time, and the detached start
 * that keeps them out of the server's process tree. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/runs/runs.h"
#include "supervisor/spawn_detached.h"

/* Read /proc/<pid>/stat; state and start time come after the last ')'
 * because the command name may contain spaces and parentheses. */
static int proc_stat(pid_t pid, char *state, uint64_t *start) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || !p[2]) return -1;
    *state = p[2];
    p += 2; /* at field 3 */
    for (int field = 3; field < 22 && p; field++) {
        p = strchr(p, ' ');
        if (p) p++;
    }
    if (!p) return -1;
    *start = strtoull(p, NULL, 10);
    return 0;
}

uint64_t cc_runs_proc_start(pid_t pid) {
    char st;
    uint64_t start;
    if (pid <= 0 || proc_stat(pid, &st, &start) < 0 || st == 'Z' || st == 'X') return 0;
    return start;
}

bool cc_runs_proc_alive(pid_t pid, uint64_t start) {
    uint64_t now = cc_runs_proc_start(pid);
    return now != 0 && (start == 0 || now == start);
}

/* Detached and cheap (cc_spawn_detached): the shepherd forks once
 * more itself and the spawned process exits at once, so the shepherd is
 * re-parented away from the server and sits in its own session. The exited
 * first process is reaped by the server's SIGCHLD handler. */
int cc_runs_spawn(const char *bin, const char *rundir, pid_t *pid, char *err, size_t errcap) {
    char logpath[4400];
    if (snprintf(logpath, sizeof logpath, "%s/shepherd.log", rundir) >= (int)sizeof logpath) {
        snprintf(err, errcap, "run directory path too long");
        return -1;
    }
    char *const argv[] = {(char *)bin, (char *)"--shepherd", (char *)rundir, NULL};
    return cc_spawn_detached(bin, argv, logpath, -1, pid, err, errcap);
}
