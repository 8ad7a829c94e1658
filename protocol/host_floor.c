/* CODECALC_MIN_HOST_FREE_MB, read and applied in one place.
 *
 * Why: the quota checks, the sandbox's disk watch, the exec worker and the
 * REPL launcher each read the knob themselves and disagreed on values an
 * operator could write: "0" was 256 MiB for the quota checks and the exec
 * worker but 1 MiB for a REPL host; "0.5" was 512 KiB for the quota checks
 * and 256 MiB for the watches; a ten-digit number was honoured by two and
 * the default for the third. One rule now (docs/contract.md): a whole
 * number of MiB, 1 to 10^12, else the default. */
#include "protocol/host_floor.h"

#include <stdlib.h>
#include <sys/statvfs.h>

uint64_t cc_host_floor_parse(const char *s) {
    const uint64_t dflt = (uint64_t)CC_HOST_FLOOR_MB_DEFAULT << 20;
    if (!s || !*s) return dflt;
    uint64_t mb = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return dflt;
        mb = mb * 10 + (uint64_t)(*p - '0');
        if (mb > CC_HOST_FLOOR_MB_MAX) return dflt; /* before it can overflow */
    }
    return mb ? mb << 20 : dflt;
}

uint64_t cc_host_floor_bytes(void) { return cc_host_floor_parse(getenv(CC_HOST_FLOOR_ENV)); }

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
