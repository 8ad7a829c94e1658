/* The host's free-space floor (CODECALC_MIN_HOST_FREE_MB, TOOLS.md 4.6,
 * docs/contract.md): the one reading of the knob and the one test of a
 * filesystem against it. Its users: the session quota checks (supervisor),
 * the sandbox's watch of a workdir on the host's disk (exec worker, REPL
 * launcher) and the REPL launcher's watch between calls. It lives in
 * protocol/ because the supervisor must not link workers/sandbox. */
#ifndef CC_HOST_FLOOR_H
#define CC_HOST_FLOOR_H

#include <stdbool.h>
#include <stdint.h>

#define CC_HOST_FLOOR_ENV "CODECALC_MIN_HOST_FREE_MB" /* its range: protocol/knob.c */

/* The floor in bytes that the text s asks for: a whole number of MiB from 1
 * to 10^12, digits only (the knob rule, protocol/knob.h). Anything else (NULL, empty, "0",
 * a sign, a fraction, an exponent, spaces, a larger number) is the default,
 * 256 MiB: a knob that does not parse never lowers the floor. */
uint64_t cc_host_floor_parse(const char *s);

/* The floor the environment sets now (read at every call). */
uint64_t cc_host_floor_bytes(void);

/* The inode floor that goes with a byte floor: one free inode per 64 KiB
 * (4,096 at 256 MiB). */
uint64_t cc_host_floor_inodes(uint64_t floor_bytes);

/* Free space of a filesystem for an unprivileged writer (f_bavail, f_favail);
 * inodes is UINT64_MAX on a filesystem that does not count them. */
struct cc_disk_free {
    uint64_t bytes, inodes;
};

/* The filesystem holding path / the open fd; false when it cannot be
 * measured (*f untouched). */
bool cc_disk_free_path(const char *path, struct cc_disk_free *f);
bool cc_disk_free_fd(int fd, struct cc_disk_free *f);

/* Whether a watched filesystem fell through the floor: below it in bytes
 * and below the start, or below its inode floor and below the start's
 * inodes. Only a fall counts: a disk already below the floor at the start
 * is the quota checks' to refuse, not a reason to kill what runs. */
bool cc_disk_fell_below(const struct cc_disk_free *now, const struct cc_disk_free *start,
                        uint64_t floor_bytes);

#endif
