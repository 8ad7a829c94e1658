/* The disk watch of a REPL host's workspace (TOOLS.md 4.6, docs/contract.md).
 *
 * A session workspace stays on the host's disk: one-shot session runs are
 * watched by the sandbox's wait loop (workers/sandbox/wait.c), but a REPL
 * host is long-lived and nothing waited on it, so a call (or a background
 * child it left running between calls) could write until the disk holding
 * the server's state was full. The launcher now looks at that filesystem
 * itself: every 50 ms while a call runs, for a second after it ends and for
 * a second after any look that saw the free space falling, and otherwise
 * between calls at the socket check's pace (1 s). (A background child a
 * call left writing 100 MiB at a time, with pauses, was first seen by an
 * idle look up to a second late, up to 600 MiB below the floor: CI's
 * hostile5 run.) Once it has less free space than
 * CODECALC_MIN_HOST_FREE_MB, or fewer free inodes than one per 64 KiB of it,
 * and less than when the host started or the current call began (a host
 * already below the floor is the quota checks' to refuse), the host is
 * killed. Overshoot: what the disk takes in one interval. The floor, the
 * measure and the test are protocol/host_floor.h's, shared with the
 * sandbox's watch and the quota checks. */
#include "repl-workers/launcher.h"

#include "protocol/host_floor.h"
#include "protocol/monotonic.h"

#define FAST_MS 50
#define SLOW_MS 1000
/* A fall between two idle looks larger than this switches to FAST_MS. */
#define FALLING_BYTES (1u << 20)
/* How long looks stay FAST_MS apart after a call or a fall. */
#define FAST_AFTER_MS 1000

void rl_disk_arm(struct launcher *L) {
    struct rl_diskwatch *d = &L->disk;
    d->armed = cc_disk_free_path(L->workdir, &d->start);
    d->last_b = d->start.bytes;
    d->falling = false;
    d->fast_until_ms = 0;
    d->next_ms = cc_now_ms() + FAST_MS;
}

void rl_disk_call_ended(struct launcher *L) {
    struct rl_diskwatch *d = &L->disk;
    int64_t now = cc_now_ms();
    d->fast_until_ms = now + FAST_AFTER_MS;
    if (d->next_ms > now + FAST_MS)
        d->next_ms = now + FAST_MS;
}

static bool fast_pace(const struct launcher *L, int64_t now) {
    return L->busy || L->disk.falling || now < L->disk.fast_until_ms;
}

/* An idle host whose disk is steady is looked at when the loop wakes
 * anyway (the socket check, every second): no wake-up of its own. */
int64_t rl_disk_next_ms(const struct launcher *L) {
    const struct rl_diskwatch *d = &L->disk;
    return L->host_up && d->armed && fast_pace(L, cc_now_ms()) ? d->next_ms : INT64_MAX;
}

bool rl_disk_fell(struct launcher *L) {
    struct rl_diskwatch *d = &L->disk;
    int64_t now = cc_now_ms();
    if (!L->host_up || !d->armed || now < d->next_ms) return false;
    struct cc_disk_free f;
    if (!cc_disk_free_path(L->workdir, &f)) {
        d->next_ms = now + SLOW_MS;
        return false;
    }
    d->falling = f.bytes + FALLING_BYTES < d->last_b;
    d->last_b = f.bytes;
    if (d->falling)
        d->fast_until_ms = now + FAST_AFTER_MS;
    d->next_ms = now + (fast_pace(L, now) ? FAST_MS : SLOW_MS);
    return cc_disk_fell_below(&f, &d->start, cc_host_floor_bytes());
}
