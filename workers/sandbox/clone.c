/* Starting a run's init, shared by sbx_run (one step) and sbx_spawn (a
 * long-lived host): where the state directory is, the clone itself, and the
 * id maps of a user namespace. */
#include "workers/sandbox/sandbox.h"

#include "protocol/text_knob.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <linux/sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

void sbx_codecalc_home(char *out, size_t cap) {
    const char *h = cc_text(CC_TEXT_HOME); /* absolute (protocol/text_knob.c) */
    const char *home = getenv("HOME");
    out[0] = '\0';
    if (h)
        snprintf(out, cap, "%s", h);
    else if (home && home[0] == '/')
        snprintf(out, cap, "%s/.codecalc", home);
}

static char share_dir[PATH_MAX], share_at[PATH_MAX];

void sbx_share_readonly(const char *dir, const char *at) {
    bool ok = dir && at && dir[0] == '/' && strncmp(at, "/tmp/", 5) == 0 &&
              snprintf(share_dir, sizeof share_dir, "%s", dir) < (int)sizeof share_dir &&
              snprintf(share_at, sizeof share_at, "%s", at) < (int)sizeof share_at;
    if (!ok) share_dir[0] = share_at[0] = '\0';
}

void sbx_shared_view(const char **dir, const char **at) {
    *dir = share_dir[0] ? share_dir : NULL;
    *at = share_dir[0] ? share_at : NULL;
}

static int write_proc(pid_t pid, const char *name, const char *text) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/%s", (long)pid, name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t w = write(fd, text, strlen(text));
    close(fd);
    return w == (ssize_t)strlen(text) ? 0 : -1;
}

int sbx_map_ids(pid_t pid) {
    char line[64];
    if (write_proc(pid, "setgroups", "deny") != 0)
        return -1;
    snprintf(line, sizeof line, "%ld %ld 1\n", (long)getuid(), (long)getuid());
    if (write_proc(pid, "uid_map", line) != 0)
        return -1;
    snprintf(line, sizeof line, "%ld %ld 1\n", (long)getgid(), (long)getgid());
    return write_proc(pid, "gid_map", line);
}

pid_t sbx_clone_init(int flags, int *pidfd) {
    struct clone_args ca;
    memset(&ca, 0, sizeof ca);
    /* exit_signal 0: no SIGCHLD reaches the worker's own handlers, and a
     * worker that ignores SIGCHLD cannot auto-reap init (we need its rusage). */
    ca.flags = (uint64_t)flags | CLONE_PIDFD;
    ca.pidfd = (uint64_t)(uintptr_t)pidfd;
    ca.exit_signal = 0;
    return (pid_t)syscall(SYS_clone3, &ca, sizeof ca);
}
