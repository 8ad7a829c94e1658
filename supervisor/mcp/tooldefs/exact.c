/* Registry entries of the exact-arithmetic tools (TOOLS.md 3.3.1, 3.3.2). */
#include "supervisor/mcp/tool_registry.h"

#define REJECTED_PROPS \
    "\"ok\":{\"type\":\"boolean\"}," \
    "\"code\":{\"type\":\"string\",\"description\":\"failure category (validation, resource_exhausted, ...)\"}," \
    "\"error\":{\"type\":\"string\"}," \
    "\"remedy\":{\"type\":\"string\"}," \
    "\"contract_version\":{\"type\":\"string\"}"

static const char calc_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"expr\":{\"type\":\"string\",\"description\":"
    "\"Python-syntax arithmetic, at most 2000 characters, e.g. '0.1+0.2 == 0.3', '2**64 - 1', "
    "'comb(52,5)', '0xff & 0x0f', 'sqrt(2)'. Decimal literals are read as exact decimals; "
    "one top-level comparison gives a boolean.\"}"
    "},\"required\":[\"expr\"],\"additionalProperties\":false}";

static const char calc_out[] =
    "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS ","
    "\"value\":{\"type\":[\"string\",\"boolean\"],\"description\":\"reduced fraction 'p/q' or integer 'n'; a boolean for a comparison\"},"
    "\"approx\":{\"type\":\"string\",\"description\":\"decimal rendering, at most 12 fractional digits\"},"
    "\"exact\":{\"type\":\"boolean\"},"
    "\"differs_from_decimal\":{\"type\":\"boolean\"},"
    "\"type\":{\"type\":\"string\",\"enum\":[\"rational\",\"bool\"]},"
    "\"approximated\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
    "\"note\":{\"type\":\"string\"}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

static const char cmp_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"a\":{\"type\":\"string\",\"description\":\"left side, a calc_exact expression (e.g. '1/25')\"},"
    "\"op\":{\"type\":\"string\",\"description\":\"one of ==, = (same as ==), !=, >, >=, <, <=\"},"
    "\"b\":{\"type\":\"string\",\"description\":\"right side, a calc_exact expression (e.g. '0.05')\"}"
    "},\"required\":[\"a\",\"op\",\"b\"],\"additionalProperties\":false}";

static const char cmp_out[] =
    "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS ","
    "\"a\":{\"type\":\"string\"},"
    "\"b\":{\"type\":\"string\"},"
    "\"op\":{\"type\":\"string\"},"
    "\"holds\":{\"type\":\"boolean\"},"
    "\"difference\":{\"type\":\"string\",\"description\":\"a - b as a reduced fraction\"},"
    "\"shortfall\":{\"type\":[\"string\",\"null\"],\"description\":\"b - a when the relation fails, else null\"}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

const struct cc_tool cc_tooldefs_exact[] = {
    {
        .name = "calc_exact",
        .title = "Exact arithmetic",
        .group = "calculator",
        .route = CC_ROUTE_CALC,
        .deadline_s = 20,
        .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
        .description =
            "Evaluate an arithmetic expression exactly over arbitrary-precision rationals, so "
            "0.1 + 0.2 == 0.3 is true and 2**64 - 1 keeps every digit. Supports + - * / // % ** "
            "and bitwise operators, comparisons, and math functions such as comb, gcd, factorial, "
            "sqrt and log; results that went through floating point are flagged as not exact.",
        .input_schema = calc_in,
        .output_schema = calc_out,
        .array_result = false,
    },
    {
        .name = "compare_threshold",
        .title = "Exact threshold comparison",
        .group = "calculator",
        .route = CC_ROUTE_CALC,
        .deadline_s = 900,
        .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
        .description =
            "Decide exactly whether 'a OP b' holds for two calc_exact expressions (for example "
            "whether a measured 1/25 exceeds a 0.05 threshold), and report the exact difference "
            "and, when the relation fails, the shortfall b - a.",
        .input_schema = cmp_in,
        .output_schema = cmp_out,
        .array_result = false,
    },
    {.name = NULL},
};
