/* Landlock scopes for the program's process: it may not connect to an
 * abstract unix socket, nor signal a process, created or running outside
 * its own run.
 *
 * Abstract unix socket names belong to a network namespace, not to the
 * filesystem, so neither the read-only host view nor file permissions
 * guard them: a run that shares the host's network namespace (every run
 * without no_net, and a no_net run where no network namespace can be made)
 * could connect to a host service listening on one (an X server's
 * @/tmp/.X11-unix/X0, a container runtime's shim socket). Landlock ABI 6
 * (Linux 6.12) scopes both to the caller's domain: the run's own processes
 * still reach each other's abstract sockets and signals, nothing outside.
 * The kernel headers of older distributions lack the scope constants, so
 * the attribute is spelled here. */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif

enum {
    LL_CREATE_RULESET_VERSION = 1u << 0,
    LL_SCOPE_ABSTRACT_UNIX_SOCKET = 1u << 0,
    LL_SCOPE_SIGNAL = 1u << 1,
    LL_ABI_SCOPES = 6,
};

/* struct landlock_ruleset_attr as of ABI 6. */
struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

int sbx_landlock_abi(void) {
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return v > 0 ? (int)v : 0;
}

int sbx_landlock_scope(void) {
    if (sbx_landlock_abi() < LL_ABI_SCOPES) {
        errno = ENOSYS;
        return -1;
    }
    struct ll_ruleset_attr attr = {.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL};
    long fd = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (fd < 0)
        return -1;
    /* Needs no_new_privs (set by the caller) or CAP_SYS_ADMIN. */
    long rc = syscall(SYS_landlock_restrict_self, (int)fd, 0);
    int saved = errno;
    close((int)fd);
    errno = saved;
    return rc == 0 ? 0 : -1;
}
