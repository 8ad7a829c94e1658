/* One monotonic clock for every process (supervisor, workers, sandbox,
 * shepherds, REPL launcher).
 *
 * Why CLOCK_MONOTONIC: deadlines, wall-clock limits and measured durations
 * must not jump when the operator or NTP sets the time of day; a request
 * that started before a clock step would otherwise time out at once or
 * never. Milliseconds are the unit of every limit we apply, and int64
 * milliseconds outlast any uptime. clock_gettime on this clock cannot fail
 * on Linux (vDSO; the clock id and the pointer are valid). */
#include "protocol/monotonic.h"

#include <time.h>

int64_t cc_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t cc_now_us(void) { return cc_now_ns() / 1000; }

int64_t cc_now_ms(void) { return cc_now_us() / 1000; }
