#include "supervisor/spawn_detached.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>

extern char **environ;

static int file_actions(posix_spawn_file_actions_t *fa, const char *logpath, int pass_fd) {
    int rc = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_addopen(fa, 1, logpath, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (!rc) rc = posix_spawn_file_actions_adddup2(fa, 1, 2);
    if (!rc && pass_fd >= 0) rc = posix_spawn_file_actions_adddup2(fa, pass_fd, 3);
    if (!rc) rc = posix_spawn_file_actions_addclosefrom_np(fa, pass_fd >= 0 ? 4 : 3);
    return rc;
}

static int attributes(posix_spawnattr_t *at) {
    sigset_t none, dfl;
    sigemptyset(&none);
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGPIPE);
    sigaddset(&dfl, SIGCHLD);
    int rc = posix_spawnattr_setsigmask(at, &none);
    if (!rc) rc = posix_spawnattr_setsigdefault(at, &dfl);
    if (!rc)
        rc = posix_spawnattr_setflags(at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSID);
    return rc;
}

int cc_spawn_detached(const char *bin, char *const argv[], const char *logpath, int pass_fd,
                      pid_t *pid, char *err, size_t cap) {
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc) {
        snprintf(err, cap, "cannot start %s: %s", bin, strerror(rc));
        return -1;
    }
    rc = posix_spawnattr_init(&at);
    if (!rc) {
        rc = file_actions(&fa, logpath, pass_fd);
        if (!rc) rc = attributes(&at);
        if (!rc) rc = posix_spawn(pid, bin, &fa, &at, argv, environ);
        posix_spawnattr_destroy(&at);
    }
    posix_spawn_file_actions_destroy(&fa);
    if (rc) snprintf(err, cap, "cannot start %s: %s", bin, strerror(rc));
    return rc ? -1 : 0;
}
