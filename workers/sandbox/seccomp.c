/* The run's seccomp filter, compiled once per process (libseccomp builds the
 * BPF; we keep the raw program so a run only pays for one prctl).
 *
 * Default allow; the calls that reach kernel attack surface or escape the
 * sandbox (tracing, mounts, namespaces, bpf, kexec, keys, perf, io_uring)
 * are refused. With no_net, socket() and socketpair() for any family but
 * AF_UNIX and AF_NETLINK fail with EACCES: the check is on the syscall
 * argument, so static binaries and raw syscalls meet it too. Foreign architectures and the x32 range kill the process. */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static struct sbx_bpf cache[4];
static bool tried[4];

static const char *const denied[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd",
    "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree",
    "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "unshare", "setns", "bpf", "kexec_load", "kexec_file_load",
    "keyctl", "add_key", "request_key", "perf_event_open", "userfaultfd",
    "open_by_handle_at", "init_module", "finit_module", "delete_module",
    "reboot", "swapon", "swapoff", "acct", "syslog", "quotactl",
};

static const char *const nosys[] = {
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    /* clone3 passes flags in memory the filter cannot read; libc falls back
     * to clone(), whose flags we can check. */
    "clone3",
    /* Secret memory is taken out of the kernel's direct map, which splits
     * its huge pages for every process of the host (hostile7: allowed
     * before, a run made one); ENOSYS is what a kernel without it says. */
    "memfd_secret",
};

static const unsigned long ns_clone_flags[] = {
    CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
    CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWCGROUP, CLONE_NEWTIME,
};

static int add_by_name(scmp_filter_ctx ctx, uint32_t action, const char *name) {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR)
        return 0; /* not on this architecture or libseccomp: nothing to deny */
    return seccomp_rule_add(ctx, action, nr, 0);
}

/* no_net: socket families are allowed, not denied. Only AF_UNIX (local
 * IPC, which runtimes use among their own threads) and AF_NETLINK (what
 * libc reads interface addresses through; it carries no traffic) remain.
 * Refusing AF_INET and AF_INET6 alone left AF_VSOCK open (a program
 * reached the hypervisor's vsock ports under no_net) and any family a
 * module may bring (AF_SMC speaks TCP, AF_TIPC and AF_RDS are networks).
 * The family is a 32-bit int to the kernel: below AF_NETLINK each family
 * is compared on the low half (garbage above cannot turn AF_INET into
 * something allowed), and the whole register must be at most AF_NETLINK
 * (garbage above makes any family refused). */
static int add_no_net(scmp_filter_ctx ctx, int nr) {
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), nr, 1, SCMP_A0(SCMP_CMP_GT, AF_NETLINK));
    for (unsigned f = AF_UNIX + 1; f < AF_NETLINK && rc == 0; f++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), nr, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, f));
    return rc;
}

static int add_rules(scmp_filter_ctx ctx, bool no_net, bool watched_disk) {
    int rc = 0;
    for (size_t i = 0; i < sizeof denied / sizeof *denied && rc == 0; i++)
        rc = add_by_name(ctx, SCMP_ACT_ERRNO(EPERM), denied[i]);
    for (size_t i = 0; i < sizeof nosys / sizeof *nosys && rc == 0; i++)
        rc = add_by_name(ctx, SCMP_ACT_ERRNO(ENOSYS), nosys[i]);
    /* One rule per flag: rules on one syscall are OR'ed, so any namespace
     * bit in clone()'s flags refuses the call. */
    for (size_t i = 0; i < sizeof ns_clone_flags / sizeof *ns_clone_flags && rc == 0; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, ns_clone_flags[i], ns_clone_flags[i]));
    if (no_net && rc == 0) rc = add_no_net(ctx, SCMP_SYS(socket));
    if (no_net && rc == 0) rc = add_no_net(ctx, SCMP_SYS(socketpair));
    /* A workdir on the host's disk is bounded only by a watch of its free
     * space (wait.c, repl-workers/diskwatch.c): fallocate reserves 256 MiB
     * (RLIMIT_FSIZE) in a few milliseconds, so between two looks a program
     * took gigabytes past the floor (hostile5: 5.7 GiB). EOPNOTSUPP is what
     * a filesystem without it answers: posix_fallocate then writes the
     * blocks, at a pace the watch keeps up with. */
    if (watched_disk && rc == 0) rc = add_by_name(ctx, SCMP_ACT_ERRNO(EOPNOTSUPP), "fallocate");
    return rc;
}

/* Export the compiled program into a malloc'ed buffer owned by the cache. */
static int export_bpf(scmp_filter_ctx ctx, struct sbx_bpf *out) {
    int fd = memfd_create("cc-seccomp", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = -1;
    struct stat st;
    if (seccomp_export_bpf(ctx, fd) == 0 && fstat(fd, &st) == 0 && st.st_size > 0 &&
        st.st_size % (off_t)sizeof(struct sock_filter) == 0 &&
        st.st_size / (off_t)sizeof(struct sock_filter) <= BPF_MAXINSNS) {
        void *buf = malloc((size_t)st.st_size);
        if (buf && pread(fd, buf, (size_t)st.st_size, 0) == st.st_size) {
            out->filter = buf;
            out->len = (unsigned short)(st.st_size / (off_t)sizeof(struct sock_filter));
            rc = 0;
        } else {
            free(buf);
        }
    }
    close(fd);
    return rc;
}

static int build(bool no_net, bool watched_disk, struct sbx_bpf *out) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return -1;
    int rc = -1;
    if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) == 0 &&
        add_rules(ctx, no_net, watched_disk) == 0)
        rc = export_bpf(ctx, out);
    seccomp_release(ctx);
    return rc;
}

const struct sbx_bpf *sbx_seccomp_get(bool no_net) {
    return sbx_seccomp_get_for(no_net, false);
}

const struct sbx_bpf *sbx_seccomp_get_for(bool no_net, bool watched_disk) {
    int i = (no_net ? 1 : 0) | (watched_disk ? 2 : 0);
    if (!tried[i]) {
        tried[i] = true;
        if (build(no_net, watched_disk, &cache[i]) != 0)
            cache[i].filter = NULL;
    }
    if (!cache[i].filter) {
        errno = ENOSYS;
        return NULL;
    }
    return &cache[i];
}

int sbx_seccomp_apply(const struct sbx_bpf *bpf) {
    struct sock_fprog prog = {.len = bpf->len, .filter = bpf->filter};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}
