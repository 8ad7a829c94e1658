/* A minimal unit-test harness: CHECK* macros count failures and keep going,
 * RUN() runs one test function, and check_summary() prints the closing line
 * "N passed, N failed" and returns the process exit status. */
#ifndef CC_CHECK_H
#define CC_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_pass_, check_fail_;

#define CHECK(cond) do { \
    if (cond) check_pass_++; \
    else { check_fail_++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECK_STREQ(got, want) do { \
    const char *g_ = (got), *w_ = (want); \
    if (g_ && w_ && strcmp(g_, w_) == 0) check_pass_++; \
    else { check_fail_++; fprintf(stderr, "FAIL %s:%d: %s == \"%s\", want \"%s\"\n", \
                                  __FILE__, __LINE__, #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)"); } \
} while (0)

#define CHECK_INTEQ(got, want) do { \
    long long g_ = (long long)(got), w_ = (long long)(want); \
    if (g_ == w_) check_pass_++; \
    else { check_fail_++; fprintf(stderr, "FAIL %s:%d: %s == %lld, want %lld\n", \
                                  __FILE__, __LINE__, #got, g_, w_); } \
} while (0)

#define RUN(fn) do { fn(); } while (0)

static inline int check_summary(const char *suite) {
    printf("%s: %d passed, %d failed\n", suite, check_pass_, check_fail_);
    return check_fail_ ? 1 : 0;
}

#endif
