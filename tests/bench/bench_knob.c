/* scripts/bench-knob: the knob reads of one execute_code run, repeated.
 * An exec worker reads five numeric knobs per run (the compile memory, the
 * process ceiling twice, the run disk's size and inodes: counted with
 * uprobes on cc_knob over 10 C runs) in an environment of a server's size.
 * Not a test: prints what it did; the instruction counts come from
 * callgrind (scripts/bench-knob). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "protocol/knob.h"

/* A server's environment: what its launcher had (a shell's 30 to 60
 * variables), a few CODECALC_* among them. */
#define ENV_VARS 40

int main(int argc, char **argv) {
    long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
    char name[32], value[64];
    for (int i = 0; i < ENV_VARS; i++) {
        snprintf(name, sizeof name, "BENCH_VARIABLE_%02d", i);
        snprintf(value, sizeof value, "/usr/local/some/value/of/ordinary/length/%d", i);
        if (setenv(name, value, 1) != 0) return 1;
    }
    if (setenv("CODECALC_MAX_PROCESSES", "256", 1) != 0 || setenv("CODECALC_RUN_DISK_MB", "1024", 1) != 0) return 1;
    static const enum cc_knob_id per_run[] = {CC_KNOB_COMPILE_MEMORY_MB, CC_KNOB_MAX_PROCESSES, CC_KNOB_MAX_PROCESSES,
                                              CC_KNOB_RUN_INODES, CC_KNOB_RUN_DISK_MB};
    volatile int64_t sink = 0;
    for (long r = 0; r < rounds; r++)
        for (size_t i = 0; i < sizeof per_run / sizeof *per_run; i++) sink += cc_knob(per_run[i]);
    printf("%ld runs' knob reads (%zu each)\n", rounds, sizeof per_run / sizeof *per_run);
    return 0;
}
