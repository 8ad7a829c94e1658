/* The disk watch of a REPL host's workspace (TOOLS.md 4.6, docs/contract.md).
 *
 * A session workspace stays on the host's disk: one-shot session runs are
 * watched by the sandbox's wait loop (workers/sandbox/wait.c), but a REPL
 * host is long-lived and nothing waited on it, so a call (or a background
 * child it left running between calls) could write until the disk holding
 * the server's state was full. The launcher now looks at that filesystem
 * itself: every 50 ms while a call runs, and between calls at the socket
 * check's pace (1 s) unless the last look saw the free space falling, in
 * which case at 50 ms again. Once it has less free space than
 * CODECALC_MIN_HOST_FREE_MB, or fewer free inodes than one per 64 KiB of it,
 * and less than when the host started or the current call began (a host
 * already below the floor is the quota checks' to refuse), the host is
 * killed. Overshoot: what the disk takes in one interval. */
#include "repl-workers/launcher.h"

#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "protocol/monotonic.h"

#define FAST_MS 50
#define SLOW_MS 1000
/* A fall between two idle looks larger than this switches to FAST_MS. */
#define FALLING_BYTES (1u << 20)

uint64_t rl_disk_floor(void) {
    const char *s = getenv("CODECALC_MIN_HOST_FREE_MB");
    uint64_t mb = 256;
    if (s && *s && strspn(s, "0123456789") == strlen(s) && strlen(s) <= 12) mb = strtoull(s, NULL, 10);
    return (mb ? mb : 1) << 20;
}

static bool disk_free(const char *dir, uint64_t *bytes, uint64_t *inodes) {
    struct statvfs v;
    if (statvfs(dir, &v) != 0) return false;
    *bytes = (uint64_t)v.f_bavail * v.f_frsize;
    *inodes = v.f_files > 0 ? (uint64_t)v.f_favail : UINT64_MAX;
    return true;
}

void rl_disk_arm(struct launcher *L) {
    struct rl_diskwatch *d = &L->disk;
    d->armed = disk_free(L->workdir, &d->b0, &d->i0);
    d->last_b = d->b0;
    d->falling = false;
    d->next_ms = cc_now_ms() + FAST_MS;
}

/* An idle host whose disk is steady is looked at when the loop wakes
 * anyway (the socket check, every second): no wake-up of its own. */
int64_t rl_disk_next_ms(const struct launcher *L) {
    const struct rl_diskwatch *d = &L->disk;
    return L->host_up && d->armed && (L->busy || d->falling) ? d->next_ms : INT64_MAX;
}

bool rl_disk_fell(struct launcher *L) {
    struct rl_diskwatch *d = &L->disk;
    int64_t now = cc_now_ms();
    if (!L->host_up || !d->armed || now < d->next_ms) return false;
    uint64_t b, i;
    if (!disk_free(L->workdir, &b, &i)) {
        d->next_ms = now + SLOW_MS;
        return false;
    }
    uint64_t floor = rl_disk_floor(), ifloor = floor >> 16;
    d->falling = b + FALLING_BYTES < d->last_b;
    d->last_b = b;
    d->next_ms = now + (L->busy || d->falling ? FAST_MS : SLOW_MS);
    return (b < floor && b < d->b0) || (i < ifloor && i < d->i0);
}
