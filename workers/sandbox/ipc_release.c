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
 * The namespace's queues are listed through a mount of its own mqueue
 * filesystem that is never attached anywhere (fsopen/fsmount): nothing in
 * the run's view changes, and the mount goes with the descriptor. */
#include "workers/sandbox/sandbox.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

/* An open directory of this IPC namespace's queues, or -1. */
static int open_queue_dir(void) {
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

/* The queues unlinked, or -1 when the namespace's could not be listed. */
int sbx_ipc_release(void) {
    int fd = open_queue_dir();
    if (fd < 0) return -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0) n++;
    }
    closedir(d);
    return n;
}
