/* The one clock for durations and deadlines in every codecalc process. */
#ifndef CC_MONOTONIC_H
#define CC_MONOTONIC_H

#include <stdint.h>

/* Milliseconds on CLOCK_MONOTONIC (an arbitrary origin: subtract two). */
int64_t cc_now_ms(void);
/* Microseconds on the same clock (time breakdowns of one call). */
int64_t cc_now_us(void);
/* Nanoseconds on the same clock (profiles that report fractions of a µs). */
int64_t cc_now_ns(void);

#endif
