/* The owner uid of a root server's program's user namespace (userns.c):
 * the kernel charges the namespace's per-uid counts once more to its owner
 * in the host's namespace, so two live boxes with one owner share a pool.
 *
 * init's pid is unique among live processes of one pid namespace, and on
 * the host (initial pid namespace) that is every process: the owner is
 * SBX_OWNER_UID_BASE + pid. A server in a pid namespace of its own (a
 * container) sees pids another container reuses, so two servers on one
 * host could give their boxes one owner (hostile7). There the owner comes
 * from init's pidfd: since Linux 6.9 it lives on pidfs, whose inode number
 * is a per-boot counter no other process gets, and its low 30 bits name the
 * box in a range of its own (two live boxes would meet only if one lived
 * while 2^30 processes were started). Where neither holds the owner stays
 * pid-based and the run says so (per_uid_pools). */
#include "workers/sandbox/sandbox.h"

#include <sys/stat.h>
#include <sys/vfs.h>

#define PROC_PID_INIT_INO 0xEFFFFFFCu /* include/linux/proc_ns.h */
#define PIDFS_MAGIC 0x50494446

/* One stat per box, while it is prepared (off the request path). */
static bool in_initial_pidns(void) {
    struct stat st;
    return stat("/proc/self/ns/pid", &st) == 0 && st.st_ino == PROC_PID_INIT_INO;
}

uint32_t sbx_owner_uid(pid_t init_pid, int pidfd, bool *host_unique) {
    *host_unique = true;
    if (in_initial_pidns())
        return SBX_OWNER_UID_BASE + (uint32_t)init_pid;
    struct statfs fs;
    struct stat st;
    if (pidfd >= 0 && fstatfs(pidfd, &fs) == 0 && fs.f_type == PIDFS_MAGIC && fstat(pidfd, &st) == 0)
        return SBX_OWNER_UID_PIDFS_BASE + (uint32_t)(st.st_ino & 0x3fffffffu);
    *host_unique = false;
    return SBX_OWNER_UID_BASE + (uint32_t)init_pid;
}
