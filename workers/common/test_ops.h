/* Ops that exist only for the fault tests: a handler that sleeps past its
 * deadline and one that dies mid-request (rows __test_sleep and __test_crash
 * of the tool table, flag test_only). A worker serves and announces them
 * only when it starts with CODECALC_TEST_OPS=1, which no client can set.
 *
 * With CODECALC_TEST_OPS=1, CODECALC_TEST_OMIT_OP=<name> also makes the
 * worker leave <name> out of its hello, so a test can watch the supervisor
 * refuse a worker that does not serve every op of its pool. */
#ifndef CC_TEST_OPS_H
#define CC_TEST_OPS_H

#include <stdbool.h>

#include "workers/common/tool_api.h"

/* true when CODECALC_TEST_OPS=1. */
bool cc_test_ops_enabled(void);
/* The op the hello must leave out (test hook), or NULL. */
const char *cc_test_omitted_op(void);

CC_TOOL(__test_sleep);
CC_TOOL(__test_crash);

#endif
