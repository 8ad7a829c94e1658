/* Registry entries of the CAS-backed symbolic tools (TOOLS.md 3.3.16-18,
 * 3.3.22, 3.3.24, 3.3.25, 3.4.2). All run in the symbolic worker. */
#include "supervisor/mcp/tool_registry.h"

#define RO (CC_HINT_READONLY | CC_HINT_IDEMPOTENT)

/* Every output schema accepts the rejected shape too: only "ok" is required. */
#define REJECTED_PROPS \
    "\"ok\": {\"type\": \"boolean\"}, \"code\": {\"type\": \"string\"}, " \
    "\"error\": {\"type\": \"string\"}, \"remedy\": {\"type\": \"string\"}"
#define OUT(props) \
    "{\"type\": \"object\", \"properties\": {" REJECTED_PROPS ", " props "}, " \
    "\"required\": [\"ok\"], \"additionalProperties\": true}"
#define STR_PARAM(name, desc) "\"" name "\": {\"type\": \"string\", \"description\": \"" desc "\"}"

const struct cc_tool cc_tooldefs_symbolic[] = {
    {
        .name = "evaluate_expression",
        .title = "Evaluate a symbolic expression",
        .group = "calculator",
        .route = CC_ROUTE_SYMBOLIC,
        .deadline_s = 20,
        .hints = RO,
        .description = "Evaluates a math expression symbolically (integrate, diff, limit, series, "
                       "number theory, exact arithmetic) and returns its exact form, simplified and "
                       "expanded forms, its kind, and a 12-digit numeric value when it is a number.",
        .input_schema = "{\"type\": \"object\", \"properties\": {"
                        STR_PARAM("expression", "expression in sympy-like syntax, e.g. integrate(x**2, x); max 2000 chars")
                        "}, \"required\": [\"expression\"]}",
        .output_schema = OUT("\"expression\": {\"type\": \"string\"}, \"simplified\": {\"type\": \"string\"}, "
                             "\"type\": {\"type\": \"string\"}, \"value\": {\"type\": \"string\"}, "
                             "\"expanded\": {\"type\": \"string\"}"),
    },
    {
        .name = "simplify_expression",
        .title = "Simplify, factor and expand",
        .group = "calculator",
        .route = CC_ROUTE_SYMBOLIC,
        .deadline_s = 20,
        .hints = RO,
        .description = "Returns the simplified, factored and expanded forms of an algebraic or "
                       "trigonometric expression.",
        .input_schema = "{\"type\": \"object\", \"properties\": {"
                        STR_PARAM("expr", "expression to simplify, e.g. (x**2 - 1)/(x - 1); max 2000 chars")
                        "}, \"required\": [\"expr\"]}",
        .output_schema = OUT("\"original\": {\"type\": \"string\"}, \"simplified\": {\"type\": \"string\"}, "
                             "\"factored\": {\"type\": \"string\"}, \"expanded\": {\"type\": \"string\"}"),
    },
    {
        .name = "solve_expression",
        .title = "Solve an equation",
        .group = "calculator",
        .route = CC_ROUTE_SYMBOLIC,
        .deadline_s = 20,
        .hints = RO,
        .description = "Solves one equation (\"lhs = rhs\", or an expression taken as = 0) for one "
                       "variable over the complex numbers; real roots come first in ascending order.",
        .input_schema = "{\"type\": \"object\", \"properties\": {"
                        STR_PARAM("expr", "equation such as x**2 - 4 = 0, or an expression equal to 0; max 2000 chars") ", "
                        "\"var\": {\"type\": \"string\", \"description\": \"variable to solve for\", \"default\": \"x\"}"
                        "}, \"required\": [\"expr\"]}",
        .output_schema = OUT("\"equation\": {\"type\": \"string\"}, \"variable\": {\"type\": \"string\"}, "
                             "\"solutions\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}"),
    },
    {
        .name = "limit_expression",
        .title = "Limit of an expression",
        .group = "calculator",
        .route = CC_ROUTE_SYMBOLIC,
        .deadline_s = 20,
        .hints = RO,
        .description = "Computes the limit of an expression as a variable approaches a point "
                       "(default +infinity, written oo); at a finite point the limit is taken from the right.",
        .input_schema = "{\"type\": \"object\", \"properties\": {"
                        STR_PARAM("expr", "expression, e.g. sin(x)/x; max 2000 chars") ", "
                        "\"var\": {\"type\": \"string\", \"description\": \"the variable that moves\", \"default\": \"x\"}, "
                        "\"point\": {\"type\": \"string\", \"description\": \"where it goes: oo, -oo, 0, pi/2, ...\", \"default\": \"oo\"}"
                        "}, \"required\": [\"expr\"]}",
        .output_schema = OUT("\"expression\": {\"type\": \"string\"}, \"variable\": {\"type\": \"string\"}, "
                             "\"point\": {\"type\": \"string\"}, \"limit\": {\"type\": \"string\"}"),
    },
    {
        .name = "solve_linear",
        .title = "Solve a system of equations",
        .group = "calculator",
        .route = CC_ROUTE_SYMBOLIC,
        .deadline_s = 20,
        .hints = RO,
        .description = "Solves a system of equations separated by ';' for the listed variables and "
                       "returns each solution as {x: 6, y: 4}; reports variables the system leaves free.",
        .input_schema = "{\"type\": \"object\", \"properties\": {"
                        STR_PARAM("system", "equations separated by ';', e.g. x + y = 10; x - y = 2; max 2000 chars") ", "
                        STR_PARAM("variables", "comma-separated variable names, e.g. x, y")
                        "}, \"required\": [\"system\", \"variables\"]}",
        .output_schema = OUT("\"solutions\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}, "
                             "\"count\": {\"type\": \"integer\"}, "
                             "\"unsolved\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}, "
                             "\"note\": {\"type\": \"string\"}"),
    },
    {
        .name = "matrix",
        .title = "Matrix operations",
        .group = "calculator",
        .route = CC_ROUTE_SYMBOLIC,
        .deadline_s = 20,
        .hints = RO,
        .description = "Determinant, inverse, eigenvalues (with multiplicity), transpose, rank or "
                       "trace of a matrix given as rows of numbers or expression strings.",
        .input_schema = "{\"type\": \"object\", \"properties\": {"
                        "\"rows\": {\"type\": \"array\", \"description\": \"row-major entries: numbers or expression strings\", "
                        "\"items\": {\"type\": \"array\", \"items\": {\"type\": [\"number\", \"string\"]}}}, "
                        "\"op\": {\"type\": \"string\", \"description\": \"det, inverse, eigenvalues, transpose, rank or trace\", "
                        "\"enum\": [\"det\", \"inverse\", \"eigenvalues\", \"transpose\", \"rank\", \"trace\"]}"
                        "}, \"required\": [\"rows\", \"op\"]}",
        .output_schema = OUT("\"op\": {\"type\": \"string\"}, "
                             "\"shape\": {\"type\": \"array\", \"items\": {\"type\": \"integer\"}}, "
                             "\"value\": {\"type\": \"string\"}, "
                             "\"matrix\": {\"type\": \"array\", \"items\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}}, "
                             "\"eigenvalues\": {\"type\": \"object\", \"additionalProperties\": {\"type\": \"integer\"}}"),
    },
    {
        .name = "algebraic_equiv",
        .title = "Check two expressions are identical",
        .group = "verification",
        .route = CC_ROUTE_SYMBOLIC,
        .deadline_s = 20,
        .hints = RO,
        .description = "Decides whether two expressions are symbolically identical (for example a "
                       "refactored formula) by simplifying their difference to zero.",
        .input_schema = "{\"type\": \"object\", \"properties\": {"
                        STR_PARAM("a", "first expression; max 2000 chars") ", "
                        STR_PARAM("b", "second expression; max 2000 chars")
                        "}, \"required\": [\"a\", \"b\"]}",
        .output_schema = OUT("\"a\": {\"type\": \"string\"}, \"b\": {\"type\": \"string\"}, "
                             "\"identical\": {\"type\": \"boolean\"}, \"difference\": {\"type\": \"string\"}, "
                             "\"caveat\": {\"type\": [\"string\", \"null\"]}"),
    },
    {.name = NULL},
};
