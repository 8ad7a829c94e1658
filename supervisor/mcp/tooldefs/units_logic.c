/* Registry entries of the units-and-logic tools: convert_units,
 * physical_constants, list_units and truth_table (TOOLS.md 3.3.19-3.3.21,
 * 3.3.23) in the calc worker, and z3_check (3.4.1) in the symbolic worker.
 * Every output schema also admits the rejected shape. */
#include "supervisor/mcp/tool_registry.h"

#define REJECTED_PROPS \
    "\"ok\":{\"type\":\"boolean\"}," \
    "\"code\":{\"type\":\"string\",\"description\":\"failure category (validation, resource_exhausted, ...)\"}," \
    "\"error\":{\"type\":\"string\"}," \
    "\"remedy\":{\"type\":\"string\"}," \
    "\"contract_version\":{\"type\":\"string\"}"

#define GRADE_PROPS \
    "\"grade\":{\"type\":\"string\",\"enum\":[\"executed\",\"cross_checked\",\"solver_proven\",\"ungraded\"]}," \
    "\"grade_basis\":{\"type\":\"string\"}," \
    "\"grade_rules_version\":{\"type\":\"string\"}"

static const char convert_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"value\":{\"type\":[\"number\",\"string\"],\"description\":\"the quantity to convert; a numeric string is accepted\"},"
    "\"from_unit\":{\"type\":\"string\",\"description\":\"unit of value, e.g. 'mph', 'celsius', 'gb' (case and spaces ignored; see list_units)\"},"
    "\"to_unit\":{\"type\":\"string\",\"description\":\"unit to express value in, same dimension as from_unit, e.g. 'km/h'\"}"
    "},\"required\":[\"value\",\"from_unit\",\"to_unit\"],\"additionalProperties\":false}";

static const char convert_out[] =
    "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS ","
    "\"value\":{\"type\":[\"number\",\"null\"],\"description\":\"converted value, rounded half-even to 6 decimals\"},"
    "\"unit\":{\"type\":\"string\",\"description\":\"to_unit as given, trimmed\"},"
    "\"from\":{\"type\":\"string\",\"description\":\"the input value and unit, e.g. '60.0 mph'\"}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

static const char constants_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"name\":{\"type\":[\"string\",\"null\"],\"default\":null,\"description\":"
    "\"constant key or alias (e.g. 'speed_of_light', 'c', 'G', 'g', 'k_b', 'avogadro'); null or empty lists all 22\"}"
    "},\"additionalProperties\":false}";

static const char constants_out[] =
    "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS ","
    "\"constants\":{\"type\":\"array\",\"description\":\"the list: name and description text\",\"items\":{"
    "\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"value\":{\"type\":\"string\"}}}},"
    "\"name\":{\"type\":\"string\"},"
    "\"description\":{\"type\":\"string\"},"
    "\"value\":{\"type\":\"number\",\"description\":\"SI value (CODATA 2018)\"},"
    "\"symbol\":{\"type\":\"string\"},"
    "\"source\":{\"type\":\"string\"},"
    "\"resolved_from\":{\"type\":\"string\",\"description\":\"the alias that was asked for, when one was used\"},"
    "\"suggestions\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

static const char list_units_in[] =
    "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";

static const char list_units_out[] =
    "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS ","
    "\"count\":{\"type\":\"integer\"},"
    "\"units\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

static const char truth_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"expression\":{\"type\":\"string\",\"description\":"
    "\"boolean formula of at most 2000 characters and 16 variables, e.g. 'a and b or not c', "
    "'p xor q', 'a implies b'; operators and, or, not, xor, implies, iff, constants true/false\"},"
    "\"cursor\":{\"type\":[\"string\",\"null\"],\"description\":\"next_cursor of the previous page\"}"
    "},\"required\":[\"expression\"],\"additionalProperties\":false}";

static const char truth_out[] =
    "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS ","
    "\"expression\":{\"type\":\"string\"},"
    "\"variables\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
    "\"row_count\":{\"type\":\"integer\"},"
    "\"rows\":{\"type\":\"array\",\"description\":\"one object per assignment: each variable, then result\","
    "\"items\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"boolean\"}}},"
    "\"satisfiable\":{\"type\":\"boolean\"},"
    "\"tautology\":{\"type\":\"boolean\"},"
    "\"next_cursor\":{\"type\":[\"string\",\"null\"],\"description\":\"rows are paged (at most 256 KiB a page); "
    "pass it as cursor for the next page, null on the last\"}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

static const char z3_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"smt2\":{\"type\":\"string\",\"description\":"
    "\"SMT-LIB2 script with declarations, assertions and a (check-sat), e.g. "
    "'(declare-const x Int)(assert (> x 5))(assert (< x 10))(check-sat)'\"}"
    "},\"required\":[\"smt2\"],\"additionalProperties\":false}";

static const char z3_out[] =
    "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS "," GRADE_PROPS ","
    "\"result\":{\"type\":\"string\",\"enum\":[\"sat\",\"unsat\",\"unknown\"]},"
    "\"model\":{\"type\":[\"object\",\"null\"],\"description\":"
    "\"sat: declaration name -> value as Z3 displays it; unsat: {unsat_core: [...]}; unknown: null\"},"
    "\"assertions\":{\"type\":\"integer\"},"
    "\"engine\":{\"type\":\"string\"},"
    "\"timeout_ms\":{\"type\":\"integer\"}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

const struct cc_tool cc_tooldefs_units_logic[] = {
    {
        .name = "convert_units",
        .title = "Unit conversion",
        .group = "calculator",
        .route = CC_ROUTE_CALC,
        .deadline_s = 900,
        .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
        .description =
            "Convert a value between units of the same dimension (length, mass, time, speed, "
            "energy, power, force, pressure, volume, area, data size, frequency), or between "
            "kelvin, celsius and fahrenheit. Note single letters: c is the speed of light, "
            "f fahrenheit, k kelvin, mb megabyte.",
        .input_schema = convert_in,
        .output_schema = convert_out,
        .array_result = false,
    },
    {
        .name = "physical_constants",
        .title = "Physical constants",
        .group = "calculator",
        .route = CC_ROUTE_CALC,
        .deadline_s = 900,
        .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
        .description =
            "Look up one of 22 physical constants (CODATA 2018 values in SI units) by name or "
            "common symbol, such as c, h, G, g, k_B or N_A, or list them all when no name is given.",
        .input_schema = constants_in,
        .output_schema = constants_out,
        .array_result = false,
    },
    {
        .name = "list_units",
        .title = "Known units",
        .group = "calculator",
        .route = CC_ROUTE_CALC,
        .deadline_s = 900,
        .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
        .description = "List every unit name and alias that convert_units accepts.",
        .input_schema = list_units_in,
        .output_schema = list_units_out,
        .array_result = false,
    },
    {
        .name = "truth_table",
        .title = "Truth table",
        .group = "calculator",
        .route = CC_ROUTE_CALC,
        .deadline_s = 20,
        .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
        .description =
            "Build the full truth table of a boolean formula (and, or, not, xor, implies, iff) "
            "and say whether it is satisfiable and whether it is a tautology. Handy for checking "
            "a refactored condition against the original.",
        .input_schema = truth_in,
        .output_schema = truth_out,
        .array_result = false,
    },
    {
        .name = "z3_check",
        .title = "SMT satisfiability (Z3)",
        .group = "verification",
        .route = CC_ROUTE_SYMBOLIC,
        .deadline_s = 30,
        .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
        .description =
            "Decide whether the assertions of an SMT-LIB2 script are satisfiable with Z3 "
            "(5 s solver limit) and return a model for sat; unsat is graded solver_proven, "
            "which makes this the tool for proving an invariant by asserting its negation.",
        .input_schema = z3_in,
        .output_schema = z3_out,
        .array_result = false,
    },
    {.name = NULL},
};
