/* Run directories: exclusive creation and identity-checked removal.
 *
 * Removal works on directory file descriptors all the way down (openat with
 * O_NOFOLLOW, unlinkat), so a symlink swapped in by the program can neither
 * redirect the walk nor be followed out of the tree. */
#include "workers/sandbox/rundir.h"

#include "workers/sandbox/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Recursion stops at this depth; a deeper subtree is moved up to the top of
 * the run directory and removed by a later pass, so any depth is removed
 * with bounded stack. */
#define MAX_DEPTH 128

struct rm_ctx {
    int top;            /* the run directory itself */
    unsigned long moved;/* subtrees moved up during this pass */
    unsigned long seq;  /* names for moved subtrees */
};

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

static int empty_dir(int dfd, int depth, struct rm_ctx *cx);

/* A directory the program made read-only (chmod 555, a sealed
 * environment) cannot be emptied without root's override: a non-root
 * server, which shares the program's uid, gives itself write access back. */
static void writable(int dfd, const struct stat *st) {
    if ((st->st_mode & S_IRWXU) != S_IRWXU)
        (void)fchmod(dfd, S_IRWXU);
}

/* Remove one entry of the directory dfd. */
static int remove_entry(int dfd, const char *name, int depth, struct rm_ctx *cx) {
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlinkat(dfd, name, 0) == 0 || errno == ENOENT ? 0 : -1;
    if (depth >= MAX_DEPTH) {
        char up[64];
        snprintf(up, sizeof up, ".codecalc-deep-%lu", cx->seq++);
        if (renameat(dfd, name, cx->top, up) != 0) return -1;
        cx->moved++;
        return 0;
    }
    int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0 && errno == EACCES) {
        /* The program may have chmod'ed its own directory to 000. */
        if (fchmodat(dfd, name, 0700, 0) == 0)
            sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (sub < 0)
        return -1;
    writable(sub, &st);
    int rc = empty_dir(sub, depth + 1, cx); /* takes ownership of sub */
    if (rc != 0)
        return -1;
    return unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : -1;
}

/* Unlink everything inside dfd; closes dfd. */
static int empty_dir(int dfd, int depth, struct rm_ctx *cx) {
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (remove_entry(dirfd(d), e->d_name, depth, cx) != 0)
            rc = -1;
    }
    int saved = errno;
    closedir(d);
    errno = saved;
    return rc;
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
        struct rm_ctx cx = {.top = dfd};
        int ok;
        writable(dfd, &st);
        do { /* each pass removes up to MAX_DEPTH levels */
            cx.moved = 0;
            /* A fresh open file description: a dup would share the offset
             * the previous pass left at the end of the directory. */
            int again = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            ok = again >= 0 && empty_dir(again, 0, &cx) == 0;
        } while (ok && cx.moved > 0);
        close(dfd);
        if (ok) rc = unlinkat(pfd, name, AT_REMOVEDIR);
    }
    int saved = errno;
    close(pfd);
    errno = saved;
    return rc;
}
