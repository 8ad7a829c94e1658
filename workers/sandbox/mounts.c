/* The filesystem a run sees, built inside its own mount namespace by the
 * run's init before the program starts.
 *
 * No pivot_root: the host tree itself becomes the view, made read-only with
 * one recursive mount_setattr (a plain remount of / would not cover the
 * submounts). Writable places are mounted on top: a private /tmp and
 * /dev/shm (in the run's own /dev, devfs.c), and the run directory, cloned
 * before anything covers it. The
 * server's state directory and the directory holding the other runs are
 * hidden under empty tmpfs mounts. Cost: a handful of mount calls. */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p, tolerating components that exist (on the read-only tree they
 * exist, in a fresh tmpfs mask they may not). */
static int mkdir_path(const char *path) {
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return -1;
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            if (c == '\0')
                return 0;
            *p = c;
        }
    }
}

/* Hide dir under an empty root-owned tmpfs. A missing dir is already hidden
 * (an earlier mask covered it, or there is nothing to see). */
static int mask_dir(const char *dir) {
    struct stat st;
    if (stat(dir, &st) != 0) /* EACCES: not even we can reach it */
        return errno == ENOENT || errno == EACCES ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return -1;
    return mount("codecalc-mask", dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                 "mode=0755,size=64k");
}

static int private_tmp(const char *dir, const char *opts) {
    struct stat st;
    if (stat(dir, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    return mount("codecalc-tmp", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts);
}

/* The parent of workdir, unless that is "/" (masking it would hide all). */
static bool parent_of(const char *workdir, char *out, size_t cap) {
    if (snprintf(out, cap, "%s", workdir) >= (int)cap)
        return false;
    size_t n = strlen(out);
    while (n > 1 && out[n - 1] == '/')
        out[--n] = '\0';
    char *slash = strrchr(out, '/');
    if (!slash || slash == out)
        return false;
    *slash = '\0';
    return true;
}

static unsigned mask_private_dirs(const char *workdir, const char *home, bool watch_queues) {
    unsigned bad = 0;
    char parent[PATH_MAX];
    /* Bounded in files too: a tmpfs's default inode count is half the
     * host's RAM pages, and a flood of empty files costs kernel memory. */
    char tmp_opts[96], shm_opts[96];
    snprintf(tmp_opts, sizeof tmp_opts, "mode=1777,size=%um,nr_inodes=%u", SBX_TMP_MB, SBX_TMP_INODES);
    snprintf(shm_opts, sizeof shm_opts, "mode=1777,size=%um,nr_inodes=%u", SBX_SHM_MB, SBX_SHM_INODES);
    /* The run's message queues, watched from under its private /tmp
     * (ipc_release.c): mounted first, so the program never sees them. */
    bool watching = watch_queues && sbx_ipc_watch("/tmp");
    if (private_tmp("/tmp", tmp_opts) != 0) {
        bad |= SBX_DEGRADED_TMP;
        if (watching) sbx_ipc_unwatch("/tmp");
    }
    /* The run's own /dev (devfs.c), then its /dev/shm in it. */
    bad |= sbx_dev_setup();
    (void)private_tmp("/dev/shm", shm_opts);
    if (home && home[0] == '/' && strcmp(home, "/") != 0 && mask_dir(home) != 0)
        bad |= SBX_DEGRADED_MASK;
    /* A run directory directly under /tmp is already hidden from other runs
     * by the private /tmp above; masking /tmp again would take away the
     * program's writable /tmp. */
    if (parent_of(workdir, parent, sizeof parent) && strcmp(parent, "/tmp") != 0 &&
        mask_dir(parent) != 0)
        bad |= SBX_DEGRADED_MASK;
    return bad;
}

/* May the program's uid search (x) directory st? */
static bool searchable(const struct stat *st, uid_t uid, gid_t gid) {
    if (st->st_uid == uid)
        return st->st_mode & S_IXUSR;
    if (st->st_gid == gid)
        return st->st_mode & S_IXGRP;
    return st->st_mode & S_IXOTH;
}

/* A root server keeps its sessions under its home (/root/.codecalc), and
 * /root is mode 0700: the program, uid 64999, could not reach its own
 * workspace, and every workspace run failed ("main.sh: Permission
 * denied"). The topmost directory above workdir that the program cannot
 * search is covered by an empty tmpfs, on which place_workdir builds the
 * path. It hides nothing the program could have reached. */
static int open_the_way(const char *workdir) {
    const struct sbx_caps *c = sbx_probe();
    char buf[PATH_MAX];
    if (!c->root || snprintf(buf, sizeof buf, "%s", workdir) >= (int)sizeof buf)
        return 0;
    for (char *p = strchr(buf + 1, '/'); p; p = strchr(p + 1, '/')) {
        struct stat st;
        *p = '\0';
        int r = stat(buf, &st);
        if (r != 0)
            return errno == ENOENT ? 0 : -1; /* a missing part is built by place_workdir */
        if (!S_ISDIR(st.st_mode))
            return -1;
        if (!searchable(&st, c->run_uid, c->run_gid))
            return mount("codecalc-mask", buf, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=64k");
        *p = '/';
    }
    return 0;
}

/* Re-attach the cloned run directory at its own path. */
static int place_workdir(int tree_fd, const char *workdir) {
    if (mkdir_path(workdir) != 0)
        return -1;
    return move_mount(tree_fd, "", AT_FDCWD, workdir, MOVE_MOUNT_F_EMPTY_PATH);
}

/* The shared directory, cloned before the masks, shown read-only at its
 * place in the private /tmp; never shown at all when it could not be made
 * read-only or /tmp is not private. */
static void place_share(int tree, const char *at, unsigned bad) {
    struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV};
    if (tree < 0 || (bad & SBX_DEGRADED_TMP) ||
        mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &ro, sizeof ro) != 0)
        return;
    if (mkdir_path(at) == 0)
        (void)move_mount(tree, "", AT_FDCWD, at, MOVE_MOUNT_F_EMPTY_PATH);
}

unsigned sbx_mounts_setup(const char *workdir, const char *home, bool fresh_proc,
                          const char *share_dir, const char *share_at, bool watch_queues) {
    unsigned bad = 0;
    /* Nothing we mount may propagate back to the host. */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return SBX_DEGRADED_RDONLY | SBX_DEGRADED_TMP | SBX_DEGRADED_MASK |
               SBX_DEGRADED_PROC | SBX_DEGRADED_WORKDIR;
    /* Clone before masking: the masks may cover the run directory's path. */
    int tree = open_tree(AT_FDCWD, workdir, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
    int share = share_dir ? open_tree(AT_FDCWD, share_dir, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE)
                          : -1;
    struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID};
    if (mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof ro) != 0)
        bad |= SBX_DEGRADED_RDONLY;
    bad |= mask_private_dirs(workdir, home, watch_queues);
    place_share(share, share_at, bad);
    if (share >= 0)
        close(share);
    if (tree < 0 || open_the_way(workdir) != 0 || place_workdir(tree, workdir) != 0)
        bad |= SBX_DEGRADED_WORKDIR;
    if (tree >= 0)
        close(tree);
    if (!fresh_proc ||
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        bad |= SBX_DEGRADED_PROC;
    return bad;
}
