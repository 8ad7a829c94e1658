/* The detached start that keeps shepherds out of the server's process tree
 * (their identity, pid + start time, is protocol/proc_stat.h's). */
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
