/* seccomp filter for the calc and symbolic workers. */
#include "workers/common/lockdown.h"

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <sys/prctl.h>

static const int denied[] = {
    SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork),
    SCMP_SYS(socket), SCMP_SYS(socketpair), SCMP_SYS(connect), SCMP_SYS(bind),
    SCMP_SYS(listen), SCMP_SYS(accept), SCMP_SYS(accept4), SCMP_SYS(ptrace),
    SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(kill),
    SCMP_SYS(tkill), SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(unshare),
    SCMP_SYS(setns), SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(rename),
    SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(mkdir), SCMP_SYS(mkdirat),
    SCMP_SYS(rmdir), SCMP_SYS(chmod), SCMP_SYS(fchmod), SCMP_SYS(fchmodat),
    SCMP_SYS(chown), SCMP_SYS(fchown), SCMP_SYS(fchownat), SCMP_SYS(lchown),
    SCMP_SYS(truncate), SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(symlink),
    SCMP_SYS(symlinkat), SCMP_SYS(creat), SCMP_SYS(bpf), SCMP_SYS(perf_event_open),
    SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(kexec_load),
    SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register),
    SCMP_SYS(setuid), SCMP_SYS(setgid), SCMP_SYS(chroot), SCMP_SYS(pivot_root),
};

int cc_lockdown_compute(void) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return -1;
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    if (!f) return -1;
    int rc = 0;
    for (size_t i = 0; i < sizeof denied / sizeof denied[0] && rc == 0; i++)
        rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), denied[i], 0);
    /* open/openat only for reading: one rule per write-ish flag bit. */
    static const int wbits[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND};
    for (size_t i = 0; i < sizeof wbits / sizeof wbits[0] && rc == 0; i++) {
        scmp_datum_t b = (scmp_datum_t)wbits[i];
        rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 1,
                              SCMP_A1(SCMP_CMP_MASKED_EQ, b, b));
        if (rc == 0)
            rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1,
                                  SCMP_A2(SCMP_CMP_MASKED_EQ, b, b));
    }
    if (rc == 0) rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
    if (rc == 0) rc = seccomp_load(f);
    seccomp_release(f);
    return rc < 0 ? -1 : 0;
}
