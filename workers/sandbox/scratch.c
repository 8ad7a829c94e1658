/* A one-shot run directory as a size- and inode-bounded tmpfs.
 *
 * A run directory on the host's disk was bounded only per file
 * (RLIMIT_FSIZE) and by the wall clock: many files, or many empty ones
 * (inodes), could fill the disk that also holds the server's state. A
 * tmpfs mounted on the directory holds at most CODECALC_RUN_DISK_MB bytes
 * and CODECALC_RUN_INODES files; a program past either gets ENOSPC, and
 * its pages count against the run's memory cgroup like /tmp's do.
 *
 * The mount must outlive one box (compile and run are two boxes on the same
 * directory) and stay out of the host's mount table (a crashed worker
 * would leave it behind): the process making run directories moves once
 * into a mount namespace of its own whose mounts are slaves of the host's,
 * so it still sees what the host mounts later and nothing it mounts goes
 * back. Boxes are cloned from that namespace and see the tmpfs. Only a
 * root worker can do this; elsewhere the directory stays on the host disk
 * and the result says so (run_directory_bound). */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "protocol/knob.h"

uint64_t sbx_scratch_bytes(void) { return (uint64_t)cc_knob(CC_KNOB_RUN_DISK_MB) << 20; }

uint64_t sbx_scratch_inodes(void) { return (uint64_t)cc_knob(CC_KNOB_RUN_INODES); }

/* errno of moving into the private namespace (0 = done), once per process. */
static int private_ns_err = -1;

static int enter_private_ns(void) {
    if (private_ns_err >= 0) return private_ns_err;
    if (geteuid() != 0)
        private_ns_err = EPERM;
    else if (unshare(CLONE_NEWNS) != 0)
        private_ns_err = errno; /* EINVAL: a threaded process */
    else if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0)
        private_ns_err = errno; /* then our mounts could reach the host: never mount */
    else
        private_ns_err = 0;
    return private_ns_err;
}

int sbx_scratch_mount(const char *dir, char *why, size_t cap) {
    int e = enter_private_ns();
    if (e != 0) {
        snprintf(why, cap, "%s", e == EPERM ? "not root"
                                            : strerror(e));
        errno = e;
        return -1;
    }
    char opts[160];
    snprintf(opts, sizeof opts, "mode=0700,uid=%u,gid=%u,size=%lluk,nr_inodes=%llu",
             (unsigned)SBX_RUN_UID, (unsigned)SBX_RUN_GID,
             (unsigned long long)(sbx_scratch_bytes() >> 10),
             (unsigned long long)sbx_scratch_inodes());
    if (mount("codecalc-run", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0) {
        e = errno;
        snprintf(why, cap, "tmpfs: %s", strerror(e));
        errno = e;
        return -1;
    }
    return 0;
}

int sbx_scratch_umount(const char *dir) {
    return umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW);
}
