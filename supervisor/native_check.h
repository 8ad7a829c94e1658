/* CODECALC_REQUIRE_NATIVE: refuse to start unless this host gives the
 * sandbox every kernel feature it uses (TOOLS.md 8.1), instead of serving
 * runs whose missing guarantees are only disclosed in `unenforced`. */
#ifndef CC_NATIVE_CHECK_H
#define CC_NATIVE_CHECK_H

#include <stddef.h>

/* 0 when the variable is unset/"0" or the host is fully capable; -1 with a
 * message naming the variable and the missing features otherwise. */
int cc_native_check(char *msg, size_t cap);

#endif
