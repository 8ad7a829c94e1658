/* What this host lets the sandbox do, probed once per process.
 *
 * Namespaces are probed by actually unsharing them in a throw-away child:
 * sysctls, LSMs and container runtimes can each forbid a flag, and only the
 * kernel's answer is reliable. */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static struct sbx_caps caps;
static bool probed;

static const int ns_flags[6] = {
    CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS,
};

/* In a child: try each namespace flag alone (with a user namespace first
 * when we are not root, as the kernel requires) and report a bit set. */
static unsigned probe_ns_child(bool root) {
    unsigned ok = 0;
    for (int i = 0; i < 6; i++) {
        int extra = (root || ns_flags[i] == CLONE_NEWUSER) ? 0 : CLONE_NEWUSER;
        pid_t p = fork();
        if (p < 0)
            return ok;
        if (p == 0)
            _exit(unshare(ns_flags[i] | extra) == 0 ? 0 : 1);
        int st = 0;
        if (waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0)
            ok |= 1u << i;
    }
    return ok;
}

static unsigned probe_namespaces(bool root) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return 0;
    pid_t p = fork();
    if (p < 0) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    if (p == 0) {
        unsigned ok = probe_ns_child(root);
        ssize_t w = write(fds[1], &ok, sizeof ok);
        _exit(w == (ssize_t)sizeof ok ? 0 : 1);
    }
    close(fds[1]);
    unsigned ok = 0;
    ssize_t r;
    do
        r = read(fds[0], &ok, sizeof ok);
    while (r < 0 && errno == EINTR);
    if (r != (ssize_t)sizeof ok)
        ok = 0;
    close(fds[0]);
    while (waitpid(p, NULL, 0) < 0 && errno == EINTR)
        ;
    return ok;
}

const struct sbx_caps *sbx_probe(void) {
    if (probed)
        return &caps;
    caps.root = geteuid() == 0;
    unsigned ns = probe_namespaces(caps.root);
    caps.userns = ns & 1u;
    caps.pidns = ns & 2u;
    caps.mntns = ns & 4u;
    caps.netns = ns & 8u;
    caps.ipcns = ns & 16u;
    caps.utsns = ns & 32u;
    sbx_cg_probe(&caps.cgroup_v2, &caps.cgroup_v1_memory, &caps.cgroup_v1_pids);
    caps.seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && sbx_seccomp_get(false) != NULL;
    caps.run_uid = caps.root ? SBX_RUN_UID : getuid();
    caps.run_gid = caps.root ? SBX_RUN_GID : getgid();
    probed = true;
    return &caps;
}
