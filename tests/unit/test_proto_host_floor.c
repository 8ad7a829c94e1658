/* protocol/host_floor.c: the one reading of CODECALC_MIN_HOST_FREE_MB and
 * the one test of a filesystem against it (quota checks, the sandbox's
 * disk watch, the exec worker, the REPL launcher). */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "protocol/host_floor.h"
#include "supervisor/sessions/quota.h"
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"

#define MiB (1ull << 20)

/* The quota checks read "0" as 256 MiB, the REPL launcher as 1 MiB; "0.5"
 * was 512 KiB for the quota checks and 256 MiB for the watches; the exec
 * worker took the default for ten digits and more, which the others
 * honoured. One rule now: a whole number of MiB from 1 to 10^12. */
static void regression_floor_knob_was_read_three_ways(void) {
    CHECK_INTEQ(cc_host_floor_parse(NULL), 256 * MiB);
    CHECK_INTEQ(cc_host_floor_parse(""), 256 * MiB);
    CHECK_INTEQ(cc_host_floor_parse("0"), 256 * MiB);
    CHECK_INTEQ(cc_host_floor_parse("000"), 256 * MiB);
    CHECK_INTEQ(cc_host_floor_parse("1"), 1 * MiB);
    CHECK_INTEQ(cc_host_floor_parse("1000"), 1000 * MiB);
    CHECK_INTEQ(cc_host_floor_parse("0256"), 256 * MiB);
    CHECK_INTEQ(cc_host_floor_parse("1000000000"), 1000000000ull * MiB);
    CHECK_INTEQ(cc_host_floor_parse("1000000000000"), 1000000000000ull * MiB);
    /* past 10^12 MiB, and past 2^64 as a number: the default, never a wrap */
    CHECK_INTEQ(cc_host_floor_parse("1000000000001"), 256 * MiB);
    CHECK_INTEQ(cc_host_floor_parse("18446744073709551617"), 256 * MiB);
    CHECK_INTEQ(cc_host_floor_parse("99999999999999999999999999"), 256 * MiB);
    const char *bad[] = {"abc", "-5", "+5", "0.5", "0.000001", "1e3", " 5", "5 ", "0x10", "inf", "nan", "5MB", "1,000"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (cc_host_floor_parse(bad[i]) != 256 * MiB) fprintf(stderr, "value \"%s\"\n", bad[i]);
        CHECK_INTEQ(cc_host_floor_parse(bad[i]), 256 * MiB);
    }
}

static void floor_bytes_reads_the_environment_each_time(void) {
    knob_setenv(CC_HOST_FLOOR_ENV, NULL);
    CHECK_INTEQ(cc_host_floor_bytes(), 256 * MiB);
    knob_setenv(CC_HOST_FLOOR_ENV, "7");
    CHECK_INTEQ(cc_host_floor_bytes(), 7 * MiB);
    knob_setenv(CC_HOST_FLOOR_ENV, "0.5");
    CHECK_INTEQ(cc_host_floor_bytes(), 256 * MiB);
    knob_setenv(CC_HOST_FLOOR_ENV, NULL);
}

/* The quota checks take the floor from the same reading (they parsed the
 * knob as float MB of their own). */
static void quota_floor_is_the_shared_reading(void) {
    struct cc_quota_cfg q;
    knob_setenv(CC_HOST_FLOOR_ENV, "0.5");
    cc_quota_read(&q);
    CHECK_INTEQ(q.min_free, 256 * MiB);
    knob_setenv(CC_HOST_FLOOR_ENV, "0");
    cc_quota_read(&q);
    CHECK_INTEQ(q.min_free, 256 * MiB);
    knob_setenv(CC_HOST_FLOOR_ENV, "12");
    cc_quota_read(&q);
    CHECK_INTEQ(q.min_free, 12 * MiB);
    knob_setenv(CC_HOST_FLOOR_ENV, NULL);
}

static void inode_floor_is_one_per_64_kib(void) {
    CHECK_INTEQ(cc_host_floor_inodes(256 * MiB), 4096);
    CHECK_INTEQ(cc_host_floor_inodes(1 * MiB), 16);
    CHECK_INTEQ(cc_host_floor_inodes(65535), 0);
    CHECK_INTEQ(cc_host_floor_inodes(65536), 1);
}

/* Only a fall through the floor counts: below it and below the start, in
 * bytes or in inodes. */
static void fell_below_needs_the_floor_and_a_fall(void) {
    const uint64_t floor = 256 * MiB; /* inode floor 4096 */
    struct cc_disk_free start = {.bytes = 300 * MiB, .inodes = 10000};
    struct cc_disk_free now = {.bytes = 255 * MiB, .inodes = 10000};
    CHECK(cc_disk_fell_below(&now, &start, floor));
    now.bytes = 256 * MiB; /* at the floor is not below it */
    CHECK(!cc_disk_fell_below(&now, &start, floor));
    now.bytes = 257 * MiB;
    CHECK(!cc_disk_fell_below(&now, &start, floor));
    /* already below at the start: no fall, no kill; a further fall is one */
    start.bytes = 100 * MiB;
    now.bytes = 100 * MiB;
    CHECK(!cc_disk_fell_below(&now, &start, floor));
    now.bytes = 100 * MiB - 1;
    CHECK(cc_disk_fell_below(&now, &start, floor));
    /* inodes: plenty of bytes, the inode floor passed */
    start = (struct cc_disk_free){.bytes = 300 * MiB, .inodes = 5000};
    now = (struct cc_disk_free){.bytes = 300 * MiB, .inodes = 4095};
    CHECK(cc_disk_fell_below(&now, &start, floor));
    now.inodes = 4096;
    CHECK(!cc_disk_fell_below(&now, &start, floor));
    /* a filesystem that counts no inodes never falls in inodes */
    start.inodes = now.inodes = UINT64_MAX;
    CHECK(!cc_disk_fell_below(&now, &start, floor));
}

/* /proc has no blocks and counts no inodes: 0 bytes, inodes UINT64_MAX, by
 * path and by fd alike; an unmeasurable one leaves *f as it was. */
static void disk_free_by_path_and_fd(void) {
    struct cc_disk_free f = {1, 2};
    CHECK(cc_disk_free_path("/proc", &f));
    CHECK_INTEQ(f.bytes, 0);
    CHECK(f.inodes == UINT64_MAX);
    int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    CHECK(fd >= 0);
    f = (struct cc_disk_free){1, 2};
    CHECK(cc_disk_free_fd(fd, &f));
    CHECK_INTEQ(f.bytes, 0);
    CHECK(f.inodes == UINT64_MAX);
    close(fd);
    f = (struct cc_disk_free){1, 2};
    CHECK(!cc_disk_free_path("/nonexistent-codecalc-dir/x", &f));
    CHECK(!cc_disk_free_fd(-1, &f));
    CHECK_INTEQ(f.bytes, 1);
    CHECK_INTEQ(f.inodes, 2);
    /* a filesystem that counts inodes: f_favail, no more than it has */
    struct statvfs v;
    CHECK_INTEQ(statvfs("/dev/shm", &v), 0);
    CHECK(cc_disk_free_path("/dev/shm", &f));
    CHECK(v.f_files > 0 && f.inodes <= v.f_files);
    CHECK(f.bytes <= (uint64_t)v.f_blocks * v.f_frsize);
}

int main(void) {
    RUN(regression_floor_knob_was_read_three_ways);
    RUN(floor_bytes_reads_the_environment_each_time);
    RUN(quota_floor_is_the_shared_reading);
    RUN(inode_floor_is_one_per_64_kib);
    RUN(fell_below_needs_the_floor_and_a_fall);
    RUN(disk_free_by_path_and_fd);
    return check_summary("test_proto_host_floor");
}
