/* Ops that exist only for the fault tests: a handler that sleeps past its
 * deadline and one that dies mid-request. They are offered only when the
 * worker starts with CODECALC_TEST_OPS=1, which no client can set. */
#ifndef CC_TEST_OPS_H
#define CC_TEST_OPS_H

#include "workers/common/tool_api.h"

/* Returns the table when enabled, else an empty table. */
const struct cc_tool_def *cc_test_ops(void);

#endif
