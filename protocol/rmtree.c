/* Directory tree removal (rmtree.h says why one, and how it stays inside
 * the tree). */
#include "protocol/rmtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Recursion stops at this depth; a deeper subtree is moved up to the top of
 * the tree and removed by a later pass, so any depth is removed with
 * bounded stack and at most this many directories open. */
#define MAX_DEPTH 128

struct rm_ctx {
    int top;             /* the directory being emptied */
    unsigned long moved; /* subtrees moved up during this pass */
    unsigned long seq;   /* names for moved subtrees */
};

static int empty_dir(int dfd, int depth, struct rm_ctx *cx);

/* Names tried for one moved subtree before giving up. */
#define MOVE_TRIES 8

/* renameat that never replaces: RENAME_NOREPLACE, or where the file
 * system lacks it (EINVAL), a check first (the tree is the program's, not
 * the server's, so the window between the two only costs a retry). */
static int rename_noreplace(int from, const char *name, int to, const char *up) {
    if (renameat2(from, name, to, up, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL) return -1;
    struct stat st;
    if (fstatat(to, up, &st, AT_SYMLINK_NOFOLLOW) == 0) return errno = EEXIST, -1;
    return renameat(from, name, to, up);
}

/* Move dfd/name up to the top of the tree under a name nothing holds. The
 * program can make .codecalc-deep-N itself: a plain renameat onto its
 * non-empty directory (or the very ancestor being emptied) failed, and the
 * whole removal with it; onto its empty one it replaced it. A name taken
 * gets a random suffix the program cannot foresee. */
static int move_up(int dfd, const char *name, struct rm_ctx *cx) {
    for (int i = 0; i < MOVE_TRIES; i++) {
        char up[64];
        unsigned long long r = 0;
        if (i > 0 && getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) r = (unsigned long long)i;
        if (i == 0) snprintf(up, sizeof up, ".codecalc-deep-%lu", cx->seq++);
        else snprintf(up, sizeof up, ".codecalc-deep-%lu-%016llx", cx->seq++, r);
        if (rename_noreplace(dfd, name, cx->top, up) == 0) {
            cx->moved++;
            return 0;
        }
        if (errno != EEXIST && errno != ENOTEMPTY) return -1;
    }
    return -1;
}

/* A directory the program made read-only (chmod 555, a sealed
 * environment) cannot be emptied without root's override: a non-root
 * server, which shares the program's uid, gives itself write access back. */
static void writable(int dfd, const struct stat *st) {
    if ((st->st_mode & S_IRWXU) != S_IRWXU) (void)fchmod(dfd, S_IRWXU);
}

/* Remove one entry of the directory dfd. */
static int remove_entry(int dfd, const char *name, int depth, struct rm_ctx *cx) {
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode)) return unlinkat(dfd, name, 0) == 0 || errno == ENOENT ? 0 : -1;
    if (depth >= MAX_DEPTH) return move_up(dfd, name, cx);
    int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0 && errno == EACCES) {
        /* The program may have chmod'ed its own directory to 000. */
        if (fchmodat(dfd, name, 0700, 0) == 0) sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (sub < 0) return -1;
    writable(sub, &st);
    if (empty_dir(sub, depth + 1, cx) != 0) return -1; /* takes ownership of sub */
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
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (remove_entry(dirfd(d), e->d_name, depth, cx) != 0) rc = -1;
    }
    int saved = errno;
    closedir(d);
    errno = saved;
    return rc;
}

int cc_rmtree_empty(int dfd) {
    struct stat st;
    if (fstat(dfd, &st) != 0) return -1;
    writable(dfd, &st);
    struct rm_ctx cx = {.top = dfd};
    int ok;
    do { /* each pass removes up to MAX_DEPTH levels */
        cx.moved = 0;
        /* A fresh open file description: a dup would share the offset the
         * previous pass left at the end of the directory. */
        int again = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        ok = again >= 0 && empty_dir(again, 0, &cx) == 0;
    } while (ok && cx.moved > 0);
    return ok ? 0 : -1;
}

int cc_rmtree_at(int dirfd, const char *name) {
    if (unlinkat(dirfd, name, 0) == 0) return 0;
    if (errno == ENOENT) return -1;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == EACCES && fchmodat(dirfd, name, 0700, 0) == 0)
        fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = cc_rmtree_empty(fd);
    int saved = errno;
    close(fd);
    if (rc != 0) {
        errno = saved;
        return -1;
    }
    return unlinkat(dirfd, name, AT_REMOVEDIR);
}
