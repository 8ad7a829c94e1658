/* The SysV IPC limits of a run's own IPC namespace.
 *
 * A fresh IPC namespace starts with the kernel's defaults, which bound
 * nothing a run could fill: shmall and shmmax near 2^64 bytes, 32,000
 * message queues of 16 KiB each (512 MiB), 32,000 semaphore sets of up to
 * 32,000 semaphores. Where a memory cgroup holds the run its pages are
 * charged there (hostile5: a full set of queues is MLE under 64 MiB), but a
 * non-root server has no such group: a segment filled, detached and kept
 * (SHM segments outlive their mappings, so RLIMIT_AS does not see them),
 * full message queues or semaphore sets were memory no limit counted.
 * init writes the namespace's own limits before the view is built (the
 * ipc sysctls under /proc/sys/kernel belong to the writer's namespace, and
 * init holds CAP_SYS_RESOURCE over it): SysV shared memory gets what
 * /dev/shm gets (SBX_SHM_MB), message queues and semaphores a few MiB. */
#include "workers/sandbox/sandbox.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool put(const char *name, const char *value) {
    char path[64];
    snprintf(path, sizeof path, "/proc/sys/kernel/%s", name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    size_t n = strlen(value);
    bool ok = write(fd, value, n) == (ssize_t)n;
    return close(fd) == 0 && ok;
}

bool sbx_ipc_bound(void) {
    char shm_bytes[32], shm_pages[32];
    long page = sysconf(_SC_PAGESIZE);
    snprintf(shm_bytes, sizeof shm_bytes, "%llu", (unsigned long long)SBX_SHM_MB << 20);
    snprintf(shm_pages, sizeof shm_pages, "%llu",
             ((unsigned long long)SBX_SHM_MB << 20) / (unsigned long long)(page > 0 ? page : 4096));
    bool ok = put("shmmax", shm_bytes) && put("shmall", shm_pages) && put("shmmni", "256");
    /* 256 queues of at most 16 KiB: 4 MiB. */
    ok = put("msgmni", "256") && put("msgmnb", "16384") && ok;
    /* SEMMSL SEMMNS SEMOPM SEMMNI: 32,000 semaphores in at most 128 sets. */
    ok = put("sem", "250 32000 32 128") && ok;
    return ok;
}
