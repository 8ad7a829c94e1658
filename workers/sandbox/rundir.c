/* Run directories: exclusive creation and identity-checked removal (the
 * walk itself is protocol/rmtree.c's, shared with session workspaces). */
#include "workers/sandbox/rundir.h"

#include "protocol/rmtree.h"
#include "workers/sandbox/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int nonce_hex(char *out, size_t cap) {
    unsigned char b[8];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
        return -1;
    for (size_t i = 0; i < sizeof b && 2 * i + 2 < cap; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return 0;
}

static int create(const char *parent, char *out_path, size_t cap, struct cc_rundir *rd, bool bound) {
    memset(rd, 0, sizeof *rd);
    if (!parent || parent[0] != '/') {
        errno = EINVAL;
        return -1;
    }
    char nonce[17];
    if (nonce_hex(nonce, sizeof nonce) != 0)
        return -1;
    int n = snprintf(rd->path, sizeof rd->path, "%s/codecalc-%ld-%s", parent, (long)getpid(), nonce);
    if (n < 0 || (size_t)n >= sizeof rd->path || (out_path && (size_t)n >= cap)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    /* mkdir fails on any existing path, symlinks included: exclusive. */
    if (mkdir(rd->path, 0700) != 0)
        return -1;
    int fd = open(rd->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        rmdir(rd->path);
        errno = e;
        return -1;
    }
    if (geteuid() == 0 && fchown(fd, SBX_RUN_UID, SBX_RUN_GID) != 0) {
        int e = errno;
        close(fd);
        rmdir(rd->path);
        errno = e;
        return -1;
    }
    close(fd);
    rd->dev = st.st_dev;
    rd->ino = st.st_ino;
    rd->have_id = true;
    /* The identity above is the directory's own, under the mount: removal
     * unmounts first and checks it there. */
    if (bound)
        rd->bounded = sbx_scratch_mount(rd->path, rd->unbound, sizeof rd->unbound) == 0;
    else
        snprintf(rd->unbound, sizeof rd->unbound, "a staging directory, on its parent's filesystem by design");
    if (out_path)
        memcpy(out_path, rd->path, (size_t)n + 1);
    return 0;
}

int cc_rundir_create(const char *parent, char *out_path, size_t cap, struct cc_rundir *rd) {
    return create(parent, out_path, cap, rd, true);
}

int cc_rundir_create_on_disk(const char *parent, char *out_path, size_t cap, struct cc_rundir *rd) {
    return create(parent, out_path, cap, rd, false);
}

/* Split rd->path into an open parent fd and the last component. */
static int open_parent(const char *path, char *name, size_t cap) {
    const char *slash = strrchr(path, '/');
    if (!slash || slash[1] == '\0' || strlen(slash + 1) >= cap) {
        errno = EINVAL;
        return -1;
    }
    memcpy(name, slash + 1, strlen(slash + 1) + 1);
    char parent[PATH_MAX];
    size_t plen = slash == path ? 1 : (size_t)(slash - path);
    memcpy(parent, path, plen);
    parent[plen] = '\0';
    return open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

int cc_rundir_remove(const struct cc_rundir *rd) {
    if (!rd || !rd->have_id) {
        errno = ESTALE;
        return -1;
    }
    /* EINVAL: nothing mounted there any more. */
    if (rd->bounded && sbx_scratch_umount(rd->path) != 0 && errno != EINVAL)
        return -1;
    char name[NAME_MAX + 1];
    int pfd = open_parent(rd->path, name, sizeof name);
    if (pfd < 0)
        return -1;
    int rc = -1;
    int dfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (dfd < 0) {
        /* ENOTDIR/ELOOP: something that is not our directory sits there. */
        if (errno == ENOTDIR)
            errno = ELOOP;
    } else if (fstat(dfd, &st) != 0) {
        close(dfd);
    } else if (st.st_dev != rd->dev || st.st_ino != rd->ino) {
        close(dfd);
        errno = ESTALE;
    } else {
        int ok = cc_rmtree_empty(dfd) == 0;
        close(dfd);
        if (ok) rc = unlinkat(pfd, name, AT_REMOVEDIR);
    }
    int saved = errno;
    close(pfd);
    errno = saved;
    return rc;
}
