/* Exclusive lock of the state directory (see lock.h). */
#include "state/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static int lock_fd = -1;
static char lock_dir[4096];

/* The pid the current holder wrote, 0 when unreadable. */
static long holder_pid(int fd) {
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return 0;
    buf[n] = '\0';
    return strtol(buf, NULL, 10);
}

static void write_pid(int fd) {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
    /* Best effort: the pid only improves the refusal message. */
    if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) < 0) return;
}

int cc_state_lock(const char *dir, char *err, size_t errcap) {
    if (lock_fd >= 0 && strcmp(dir, lock_dir) == 0) return 0;
    if (lock_fd >= 0) {
        snprintf(err, errcap, "this process already holds the state lock of %s", lock_dir);
        return -1;
    }
    char path[4200];
    int n = snprintf(path, sizeof path, "%s/lock", dir);
    if (n < 0 || (size_t)n >= sizeof path || strlen(dir) >= sizeof lock_dir) {
        snprintf(err, errcap, "state directory path is too long");
        return -1;
    }
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errcap, "cannot open the state lock %s: %s (check CODECALC_HOME)", path,
                 strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        long pid = holder_pid(fd);
        close(fd);
        if (e == EWOULDBLOCK)
            snprintf(err, errcap,
                     "another codecalc server (pid %ld) is already using the state directory %s; "
                     "only one server may serve a state directory. Stop it, or give this one its "
                     "own directory with CODECALC_HOME=<dir>", pid, dir);
        else snprintf(err, errcap, "cannot lock %s: %s", path, strerror(e));
        return -1;
    }
    write_pid(fd);
    lock_fd = fd;
    snprintf(lock_dir, sizeof lock_dir, "%s", dir);
    return 0;
}

void cc_state_unlock(void) {
    if (lock_fd < 0) return;
    close(lock_fd);
    lock_fd = -1;
    lock_dir[0] = '\0';
}
