/* CODECALC_MIN_HOST_FREE_MB, read and applied in one place.
 *
 * Why: the quota checks, the sandbox's disk watch, the exec worker and the
 * REPL launcher each read the knob themselves and disagreed on values an
 * operator could write: "0" was 256 MiB for the quota checks and the exec
 * worker but 1 MiB for a REPL host; "0.5" was 512 KiB for the quota checks
 * and 256 MiB for the watches; a ten-digit number was honoured by two and
 * the default for the third. One rule now, every numeric knob's
 * (protocol/knob.h, docs/contract.md): a whole number of MiB, 1 to 10^12. */
#include "protocol/host_floor.h"

#include <sys/statvfs.h>

#include "protocol/knob.h"

uint64_t cc_host_floor_parse(const char *s) {
    const struct cc_knob_def *k = &cc_knob_defs[CC_KNOB_MIN_HOST_FREE_MB];
    int64_t mb;
    return (uint64_t)(cc_knob_parse(k, s, &mb) ? mb : k->dflt) << 20;
}

uint64_t cc_host_floor_bytes(void) { return (uint64_t)cc_knob(CC_KNOB_MIN_HOST_FREE_MB) << 20; }

uint64_t cc_host_floor_inodes(uint64_t floor_bytes) { return floor_bytes >> 16; }

static void from_statvfs(const struct statvfs *v, struct cc_disk_free *f) {
    f->bytes = (uint64_t)v->f_bavail * v->f_frsize;
    f->inodes = v->f_files > 0 ? (uint64_t)v->f_favail : UINT64_MAX;
}

bool cc_disk_free_path(const char *path, struct cc_disk_free *f) {
    struct statvfs v;
    if (statvfs(path, &v) != 0) return false;
    from_statvfs(&v, f);
    return true;
}

bool cc_disk_free_fd(int fd, struct cc_disk_free *f) {
    struct statvfs v;
    if (fstatvfs(fd, &v) != 0) return false;
    from_statvfs(&v, f);
    return true;
}

bool cc_disk_fell_below(const struct cc_disk_free *now, const struct cc_disk_free *start,
                        uint64_t floor_bytes) {
    uint64_t ifloor = cc_host_floor_inodes(floor_bytes);
    return (now->bytes < floor_bytes && now->bytes < start->bytes) ||
           (now->inodes < ifloor && now->inodes < start->inodes);
}
