/* protocol/rmtree.c: the one removal of a directory tree, on directory
 * descriptors all the way down with bounded depth, that session workspaces
 * (expiry, session_stop, `codecalc cleanup`) and run directories
 * (cc_rundir_remove) share. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/rmtree.h"
#include "tests/unit/check.h"

static char base[] = "/tmp/cc-rmtree-XXXXXX";

/* base/name nested depth levels deep, a file at the bottom. */
static int make_deep(int root, const char *name, int depth) {
    if (mkdirat(root, name, 0700) != 0) return -1;
    int fd = openat(root, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (int i = 0; fd >= 0 && i < depth; i++) {
        if (mkdirat(fd, "d", 0700) != 0) return close(fd), -1;
        int sub = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(fd);
        fd = sub;
    }
    if (fd < 0) return -1;
    int f = openat(fd, "bottom", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    close(fd);
    return f < 0 ? -1 : close(f);
}

/* A session program can nest its workspace as deep as it likes (each level
 * is one short name). cc_session_rmtree (now cc_rmtree_at) recursed once
 * per level holding a directory open at each: past the descriptor limit it
 * stopped, and the workspace stayed on disk after session_stop, expiry or
 * `codecalc cleanup`. Run in a child with 256 descriptors: 2,000 levels
 * are removed. */
static void regression_session_rmtree_left_a_deep_tree_behind(void) {
    int root = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    CHECK(root >= 0);
    CHECK_INTEQ(make_deep(root, "deep", 2000), 0);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl = {256, 256};
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) _exit(3);
        _exit(cc_rmtree_at(root, "deep") == 0 ? 0 : 1);
    }
    int st = -1;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    struct stat sb;
    CHECK(fstatat(root, "deep", &sb, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT);
    close(root);
}

/* A subtree deeper than the walk's bound is moved up to the top of the
 * tree as .codecalc-deep-N. A program can make that name itself: here the
 * deep tree hangs below a directory named .codecalc-deep-0 (so the move
 * meets it whatever order the directory lists in, as the very ancestor
 * being emptied) and .codecalc-deep-1 is a file. renameat onto the
 * non-empty directory failed (ENOTEMPTY) and the workspace stayed on
 * disk; a taken name now gets a fresh one. */
static void regression_rmtree_move_up_blocked_by_program_made_deep_name(void) {
    int root = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    CHECK(root >= 0);
    CHECK_INTEQ(mkdirat(root, "ws", 0700), 0);
    int ws = openat(root, "ws", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    CHECK(ws >= 0);
    CHECK_INTEQ(make_deep(ws, ".codecalc-deep-0", 1000), 0);
    int f = openat(ws, ".codecalc-deep-1", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    CHECK(f >= 0);
    close(f);
    close(ws);
    CHECK_INTEQ(cc_rmtree_at(root, "ws"), 0);
    struct stat sb;
    CHECK(fstatat(root, "ws", &sb, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT);
    close(root);
}

/* Symlinks inside are removed, never followed; a plain file is unlinked;
 * a name that is not there is ENOENT. */
static void removal_stays_inside_the_tree(void) {
    int root = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/victim %s/ws/a/b && touch %s/victim/keep %s/ws/a/b/f && "
             "ln -s %s/victim %s/ws/a/link && ln -s %s/victim %s/ws/a/b/link2 && chmod 555 %s/ws/a/b && "
             "touch %s/plain", base, base, base, base, base, base, base, base, base, base);
    CHECK_INTEQ(system(cmd), 0);
    CHECK_INTEQ(cc_rmtree_at(root, "ws"), 0);
    struct stat sb;
    CHECK(fstatat(root, "ws", &sb, AT_SYMLINK_NOFOLLOW) != 0);
    CHECK(fstatat(root, "victim/keep", &sb, 0) == 0);
    CHECK_INTEQ(cc_rmtree_at(root, "plain"), 0);
    CHECK(fstatat(root, "plain", &sb, AT_SYMLINK_NOFOLLOW) != 0);
    errno = 0;
    CHECK_INTEQ(cc_rmtree_at(root, "absent"), -1);
    CHECK_INTEQ(errno, ENOENT);
    close(root);
}

int main(void) {
    if (!mkdtemp(base)) return perror("mkdtemp"), 1;
    RUN(regression_session_rmtree_left_a_deep_tree_behind);
    RUN(regression_rmtree_move_up_blocked_by_program_made_deep_name);
    RUN(removal_stays_inside_the_tree);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", base);
    if (system(cmd) != 0) perror("rm");
    return check_summary("test_proto_rmtree");
}
