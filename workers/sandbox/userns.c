/* A user namespace of its own for the program of a root server's box, so the
 * kernel's per-uid pools are per run (hostile6).
 *
 * The kernel counts some objects per user: inotify instances and watches,
 * POSIX message queue bytes (RLIMIT_MSGQUEUE), pending signals and posix
 * timers (RLIMIT_SIGPENDING), SHM_LOCKed memory (RLIMIT_MEMLOCK), processes
 * (RLIMIT_NPROC). Every program of a root server runs as uid 64999, so one
 * run that took a whole pool (128 inotify instances) made the same call
 * fail in every run beside it. Since Linux 5.14 these counts ("ucounts")
 * are kept per (user namespace, uid), and a namespace's whole use is
 * charged once more to its owner in the parent namespace, against the
 * parent's limit. So the program's process makes a user namespace whose
 * owner is a uid no other live box has (SBX_OWNER_UID_BASE + the pid of
 * the box's init as the worker sees it), and init maps uid and gid 64999 in it to 64999: the
 * program still is uid 64999 for every file and process check, and a run's
 * use is counted against limits of its own.
 *
 * Pools the kernel keeps per user_struct (by uid alone, whatever the
 * namespace) stay shared: pipe buffer pages past fs.pipe-user-pages-soft,
 * epoll watches, descriptors in flight over unix sockets
 * (docs/security.md, "Known gaps").
 *
 * The owner uid owns no file and no process runs as it: the waiting
 * process keeps it as its effective uid only until its program arrives
 * (real and saved uid stay 0, so the host sees root's process, as before).
 * init holds root in the host namespace, so it writes the maps (the
 * program's process, inside the new namespace, has no capability over the
 * host one). */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/securebits.h>

enum { MSG_UNSHARED = 'U', MSG_FELL_BACK = 'F', MSG_MAPPED = 'M' };

static int send_one(int fd, char c) {
    ssize_t w;
    do
        w = send(fd, &c, 1, MSG_NOSIGNAL);
    while (w < 0 && errno == EINTR);
    return w == 1 ? 0 : -1;
}

static int recv_one(int fd, char *c) {
    ssize_t r;
    do
        r = recv(fd, c, 1, 0);
    while (r < 0 && errno == EINTR);
    return r == 1 ? 0 : -1;
}

/* unshare(CLONE_NEWUSER) with owner as the effective uid: the new
 * namespace's owner is the caller's euid. SECBIT_NO_SETUID_FIXUP keeps root's
 * capabilities across the euid change (a kernel that refuses unprivileged
 * user namespaces still lets CAP_SYS_ADMIN make one). On failure everything
 * is put back. */
static bool unshare_as(uid_t owner) {
    int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
    if (bits < 0 || prctl(PR_SET_SECUREBITS, (unsigned long)bits | SECBIT_NO_SETUID_FIXUP, 0, 0, 0) != 0)
        return false;
    bool in = setresuid((uid_t)-1, owner, (uid_t)-1) == 0 && unshare(CLONE_NEWUSER) == 0;
    if (!in) (void)setresuid((uid_t)-1, 0, (uid_t)-1);
    /* SETPCAP is ours either way: root's kept, or every capability of the
     * new namespace. */
    (void)prctl(PR_SET_SECUREBITS, (unsigned long)bits, 0, 0, 0);
    return in;
}

int sbx_userns_enter(int chan, uid_t owner) {
    if (!unshare_as(owner)) {
        (void)send_one(chan, MSG_FELL_BACK);
        return 1;
    }
    char c;
    if (send_one(chan, MSG_UNSHARED) != 0 || recv_one(chan, &c) != 0 || c != MSG_MAPPED) {
        errno = EPERM;
        return -1;
    }
    /* The ids stay until the program arrives (child.c drops them then, as
     * without a namespace): the waiting process is root's to the host, and
     * holds every capability of the new namespace, which the late network
     * namespace and the bounding set need; its uid 0 is not mapped, so the
     * switch to 64999 does not drop them, and execve as 64999 drops all. */
    return 0;
}

static int write_map(pid_t pid, const char *name, unsigned id) {
    char path[64], line[48];
    snprintf(path, sizeof path, "/proc/%ld/%s", (long)pid, name);
    int n = snprintf(line, sizeof line, "%u %u 1\n", id, id);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    bool ok = write(fd, line, (size_t)n) == n;
    return close(fd) == 0 && ok ? 0 : -1;
}

int sbx_userns_map(int chan, pid_t child, uid_t uid, gid_t gid) {
    char c;
    if (recv_one(chan, &c) != 0) return -1;
    if (c == MSG_FELL_BACK) return 1;
    if (c != MSG_UNSHARED) return -1;
    if (write_map(child, "uid_map", (unsigned)uid) != 0 || write_map(child, "gid_map", (unsigned)gid) != 0)
        return -1; /* the child reads EOF when we close: it cannot start */
    return send_one(chan, MSG_MAPPED);
}

/* The number a sysctl file holds, or -1. */
static long long read_number(const char *path) {
    char buf[32];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    char *end;
    long long v = strtoll(buf, &end, 10);
    return end == buf ? -1 : v;
}

bool sbx_userns_bound_pools(void) {
    /* The uid's limit (the host's, fs.inotify) and this namespace's own
     * (user.*), which binds the run whatever the uid's other users hold. */
    static const char *const pools[][2] = {
        {"/proc/sys/fs/inotify/max_user_instances", "/proc/sys/user/max_inotify_instances"},
        {"/proc/sys/fs/inotify/max_user_watches", "/proc/sys/user/max_inotify_watches"},
    };
    bool ok = true;
    for (size_t i = 0; i < sizeof pools / sizeof *pools; i++) {
        long long uid_max = read_number(pools[i][0]);
        char v[32];
        int n = snprintf(v, sizeof v, "%lld\n", uid_max / SBX_POOL_SHARE > 0 ? uid_max / SBX_POOL_SHARE : 1);
        int fd = uid_max > 0 ? open(pools[i][1], O_WRONLY | O_CLOEXEC) : -1;
        bool put = fd >= 0 && write(fd, v, (size_t)n) == n;
        if (fd >= 0 && close(fd) != 0) put = false;
        ok = ok && put;
    }
    return ok;
}
