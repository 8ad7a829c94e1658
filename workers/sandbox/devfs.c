/* The run's /dev (hostile7), built by init with the rest of the view.
 *
 * The read-only host view showed the host's /dev: every device node the
 * host grants to everybody was the run's too, whatever it reaches (on a
 * systemd host /dev/kvm is 0666: a run could make virtual machines; a
 * render node, /dev/kmsg where dmesg_restrict is 0), and /dev/ptmx opened
 * a pty in the host's devpts instance, whose pool (kernel.pty.max, 4096)
 * every process of the host shares: one python process of a run held 126.
 * Now /dev is a small tmpfs of the run's own holding the nodes a program
 * needs (null, zero, full, random, urandom, tty: the host's, bind-mounted
 * before the tmpfs covers them), the usual fd links, a private /dev/shm
 * (mounts.c) and a devpts instance of its own, bounded at SBX_PTY_MAX ptys
 * (ENOSPC past them, in that run only), whose ptmx /dev/ptmx links to.
 * Where the tmpfs cannot be built the host's /dev stays, with the run's
 * own devpts over /dev/pts, and the result says so. */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
enum { N_NODES = sizeof nodes / sizeof *nodes };

static const char *const links[][2] = {
    {"fd", "/proc/self/fd"},     {"stdin", "/proc/self/fd/0"}, {"stdout", "/proc/self/fd/1"},
    {"stderr", "/proc/self/fd/2"}, {"ptmx", "pts/ptmx"},
};

static int mount_pts(void) {
    char opts[64];
    snprintf(opts, sizeof opts, "newinstance,ptmxmode=0666,mode=0600,max=%u", SBX_PTY_MAX);
    return mount("codecalc-pts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, opts);
}

/* The fallback: the host's /dev, with only its ptys made the run's own. */
static unsigned host_dev_own_pts(void) {
    struct stat st;
    if (stat("/dev/pts", &st) != 0 || stat("/dev/ptmx", &st) != 0)
        return errno == ENOENT ? SBX_DEGRADED_DEV : SBX_DEGRADED_DEV | SBX_DEGRADED_PTY;
    if (mount_pts() != 0 || mount("/dev/pts/ptmx", "/dev/ptmx", NULL, MS_BIND, NULL) != 0)
        return SBX_DEGRADED_DEV | SBX_DEGRADED_PTY;
    return SBX_DEGRADED_DEV;
}

/* A file to mount the node's clone on, then the clone. */
static bool place_node(int tree, const char *name) {
    char path[32];
    snprintf(path, sizeof path, "/dev/%s", name);
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    close(fd);
    return move_mount(tree, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH) == 0;
}

static bool populate(const int trees[N_NODES]) {
    for (size_t i = 0; i < N_NODES; i++)
        if (trees[i] >= 0 && !place_node(trees[i], nodes[i]))
            return false;
    for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
        char path[32];
        snprintf(path, sizeof path, "/dev/%s", links[i][0]);
        if (symlink(links[i][1], path) != 0) return false;
    }
    return mkdir("/dev/pts", 0755) == 0 && mkdir("/dev/shm", 01777) == 0 && chmod("/dev/shm", 01777) == 0;
}

unsigned sbx_dev_setup(void) {
    int trees[N_NODES];
    for (size_t i = 0; i < N_NODES; i++) {
        char path[32];
        snprintf(path, sizeof path, "/dev/%s", nodes[i]);
        trees[i] = open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
    }
    unsigned bad = 0;
    if (trees[0] < 0 ||
        mount("codecalc-dev", "/dev", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
              "mode=0755,size=64k,nr_inodes=64") != 0) {
        bad = host_dev_own_pts();
    } else if (!populate(trees)) {
        (void)umount2("/dev", MNT_DETACH);
        bad = host_dev_own_pts();
    } else if (mount_pts() != 0) {
        bad = SBX_DEGRADED_PTY;
    }
    for (size_t i = 0; i < N_NODES; i++)
        if (trees[i] >= 0) close(trees[i]);
    return bad;
}
