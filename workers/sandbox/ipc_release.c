/* The POSIX message queues a run leaves behind, freed when it ends.
 *
 * A queue's bytes are charged to the run's uid (RLIMIT_MSGQUEUE counts the
 * uid's queues together) until its inode goes. A queue nobody unlinked
 * lives as long as the run's IPC namespace, and the kernel frees a dead
 * namespace later, from a work queue after an RCU grace period: a run
 * starting right after one that filled the uid's queues found none left
 * (CI, hostile5: "mqueue 0 24"). init unlinks them once every process of
 * the run is gone, so no descriptor holds them and they go at once.
 *
 * Knowing there is nothing to unlink, cheaply. Listing the namespace's
 * queues needs its mqueue filesystem mounted somewhere. A mount of its own
 * that is never attached (fsopen/fsmount) changes nothing in the run's
 * view, but it lives in an anonymous mount namespace whose teardown waits
 * for an RCU grace period of its own: 30 µs on an idle host, 100-500 µs
 * on a loaded one, at the end of every run, almost none of which made a
 * queue. So where init builds the view (a mount namespace of its own) it
 * mounts the filesystem on /tmp before the run's private /tmp covers it
 * (sbx_ipc_watch): the program never sees it, init keeps a descriptor of
 * its root, and the mount goes with the namespace's other mounts, in the
 * grace period their teardown waits for anyway. At the end one fstat
 * says whether any queue was made: mqueue counts 20 bytes of directory
 * size per queue (ipc/mqueue.c, DIRENT_SIZE, since 2.6) and stamps the
 * directory's mtime on every create and unlink, so a root of the size and
 * time it had when the namespace was new holds no queue. Only otherwise is
 * it listed. Without a view of its own, init lists through fsmount. */
#include "workers/sandbox/sandbox.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int watch_fd = -1;        /* the namespace's queue root, from sbx_ipc_watch */
static struct stat watch_start;  /* and how it was then */
static unsigned listings;        /* times the queues were listed (tests) */

bool sbx_ipc_watch(const char *under) {
    if (mount("mqueue", under, "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) return false;
    watch_fd = open(under, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (watch_fd < 0 || fstat(watch_fd, &watch_start) != 0) {
        sbx_ipc_unwatch(under);
        return false;
    }
    return true;
}

void sbx_ipc_unwatch(const char *under) {
    if (watch_fd >= 0) close(watch_fd);
    watch_fd = -1;
    (void)umount2(under, MNT_DETACH);
}

unsigned sbx_ipc_listings(void) { return listings; }

/* An open directory of this IPC namespace's queues, or -1. */
static int open_queue_dir(void) {
    if (watch_fd >= 0) return openat(watch_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int fs = fsopen("mqueue", FSOPEN_CLOEXEC);
    if (fs < 0) return -1;
    int mnt = -1;
    if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
        mnt = fsmount(fs, FSMOUNT_CLOEXEC, 0);
    close(fs);
    if (mnt < 0) return -1;
    /* fsmount's descriptor is a path only; reading the directory needs a
     * real open of it. */
    int dir = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    close(mnt);
    return dir;
}

/* Whether the watched root is as it was when the namespace was new: then
 * no queue was made since, or each made was unlinked. */
static bool untouched_since_watch(void) {
    struct stat st;
    return watch_fd >= 0 && fstat(watch_fd, &st) == 0 && st.st_size == watch_start.st_size &&
           st.st_mtim.tv_sec == watch_start.st_mtim.tv_sec &&
           st.st_mtim.tv_nsec == watch_start.st_mtim.tv_nsec;
}

/* The queues unlinked, or -1 when the namespace's could not be listed. */
int sbx_ipc_release(void) {
    if (untouched_since_watch()) return 0;
    int fd = open_queue_dir();
    if (fd < 0) return -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    listings++;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0) n++;
    }
    closedir(d);
    return n;
}
