/* Tools that exist only for the fault tests (CODECALC_TEST_OPS=1 at server
 * start): a call that sleeps past its deadline and one whose worker dies. */
#include "supervisor/mcp/tool_registry.h"

const struct cc_tool cc_tooldefs_test[] = {
    {.name = "__test_sleep", .title = "test: sleep", .group = "calculator", .route = CC_ROUTE_CALC,
     .deadline_s = 900, .description = "Test only: sleep for ms milliseconds in a calc worker.",
     .input_schema = "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\"}},\"required\":[\"ms\"]}"},
    {.name = "__test_crash", .title = "test: crash", .group = "calculator", .route = CC_ROUTE_CALC,
     .deadline_s = 900, .description = "Test only: the calc worker exits mid-request.",
     .input_schema = "{\"type\":\"object\"}"},
    {.name = NULL},
};
