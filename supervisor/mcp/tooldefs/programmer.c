/* Registry entries of the programmer-mode calculator tools (TOOLS.md
 * 3.3.3-3.3.15). All run in the calc worker under the default 900 s
 * response deadline; every output schema also admits the rejected shape. */
#include "supervisor/mcp/tool_registry.h"

/* ---- schema text builders ----------------------------------------------
 * Schemas are JSON text joined by string-literal concatenation at compile
 * time; these macros spell the recurring pieces once, so each schema below
 * reads as its list of properties. */
#define Q(s) "\"" s "\""

/* Values for a property's "type" slot. */
#define J_INT Q("integer")
#define J_NUM Q("number")
#define J_STR Q("string")
#define J_BOOL Q("boolean")
#define J_OBJ Q("object")
#define NULLABLE(t) "[" t ",\"null\"]"
/* An array type: fills the "type" slot and adds the "items" keyword. */
#define ARRAY_OF(t) Q("array") ",\"items\":{\"type\":" t "}"

/* One property: bare, described, or described with a default. */
#define PROP(name, type) Q(name) ":{\"type\":" type "}"
#define PROP_D(name, type, desc) Q(name) ":{\"type\":" type ",\"description\":" Q(desc) "}"
#define PROP_DEF(name, type, dflt, desc) \
    Q(name) ":{\"type\":" type ",\"default\":" dflt ",\"description\":" Q(desc) "}"

/* Every output schema starts with the fields of the rejected shape, keeps
 * "ok" as its only required field and stays open to extra properties. */
#define REJECTED_PROPS \
    PROP("ok", J_BOOL) "," \
    PROP_D("code", J_STR, "failure category (validation, resource_exhausted, ...)") "," \
    PROP("error", J_STR) "," \
    PROP("remedy", J_STR) "," \
    PROP("contract_version", J_STR)

#define OUT_OPEN "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS ","
#define OUT_CLOSE "},\"required\":[\"ok\"],\"additionalProperties\":true}"
/* Input schemas are closed; req is the quoted, comma-separated required list. */
#define IN_OPEN "{\"type\":\"object\",\"properties\":{"
#define IN_CLOSE(req) "},\"required\":[" req "],\"additionalProperties\":false}"

#define NUMS_PARAM(what) PROP_D("nums", ARRAY_OF(J_NUM), what)

/* ---- percentage -------------------------------------------------------- */
static const char pct_in[] = IN_OPEN
    PROP_D("part", J_STR, "the part, a rational literal: integer, decimal with optional exponent (2.5, 1e3) or p/q (1/3)") ","
    PROP_D("total", J_STR, "the whole, same literal forms; must not be zero")
    IN_CLOSE(Q("part") "," Q("total"));
static const char pct_out[] = OUT_OPEN
    PROP_D("part", J_STR, "reduced fraction") ","
    PROP_D("total", J_STR, "reduced fraction") ","
    PROP_D("share", J_STR, "part/total as 'num/den', always with a denominator") ","
    PROP_D("percent", NULLABLE(J_NUM), "share x 100, rounded half-even to 6 decimals") ","
    PROP("rounding", J_OBJ)
    OUT_CLOSE;

/* ---- calc_stats / percentiles ------------------------------------------ */
static const char stats_in[] = IN_OPEN
    NUMS_PARAM("at least 2 finite numbers, e.g. benchmark timings")
    IN_CLOSE(Q("nums"));
static const char stats_out[] = OUT_OPEN
    PROP("n", J_INT) ","
    PROP("mean", NULLABLE(J_NUM)) ","
    PROP("median", NULLABLE(J_NUM)) ","
    PROP_D("stdev", NULLABLE(J_NUM), "sample standard deviation (n - 1)") ","
    PROP_D("cv", NULLABLE(J_NUM), "stdev / mean, sign of the mean; null when the mean is 0") ","
    PROP("cv_note", J_STR)
    OUT_CLOSE;

static const char pctl_in[] = IN_OPEN
    NUMS_PARAM("at least 1 finite number")
    IN_CLOSE(Q("nums"));
static const char pctl_out[] = OUT_OPEN
    PROP("n", J_INT) ","
    PROP_D("percentiles", J_OBJ, "p50/p90/p95/p99, each {nearest_rank, interpolated, rounding}") ","
    PROP("warning", NULLABLE(J_STR))
    OUT_CLOSE;

/* ---- collision_probability / data_sizes / human_duration / epoch_time --- */
static const char coll_in[] = IN_OPEN
    PROP_D("items", J_INT, "number of hashed items, >= 0 (may exceed 64 bits)") ","
    PROP_D("bits", J_INT, "hash width in bits, >= 1")
    IN_CLOSE(Q("items") "," Q("bits"));
static const char coll_out[] = OUT_OPEN
    PROP("items", J_INT) ","
    PROP("bits", J_INT) ","
    PROP("probability", NULLABLE(J_NUM)) ","
    PROP_D("percent", NULLABLE(J_NUM), "absent for fewer than 2 items") ","
    PROP("rounding", J_OBJ)
    OUT_CLOSE;

static const char sizes_in[] = IN_OPEN
    PROP_D("n", J_INT, "a byte count, >= 0 (may exceed 64 bits)")
    IN_CLOSE(Q("n"));
static const char sizes_out[] = OUT_OPEN
    PROP("bytes", J_INT) ","
    PROP_D("binary", J_OBJ, "KiB, MiB, GiB, TiB") ","
    PROP_D("decimal", J_OBJ, "KB, MB, GB, TB")
    OUT_CLOSE;

static const char dur_in[] = IN_OPEN
    PROP_D("seconds", J_NUM, "a finite duration in seconds, >= 0")
    IN_CLOSE(Q("seconds"));
static const char dur_out[] = OUT_OPEN
    PROP("seconds", J_NUM) ","
    PROP_D("human", J_STR, "e.g. '1d 1h 1m 1s', '1s 500ms', '250us'") ","
    PROP("per_day", NULLABLE(J_NUM)) ","
    PROP("per_30d", NULLABLE(J_NUM)) ","
    PROP("rounding", J_OBJ)
    OUT_CLOSE;

static const char epoch_in[] = IN_OPEN
    PROP_D("n", J_STR, "the timestamp as a decimal integer string, e.g. '1700000000123' (single '_' separators allowed)")
    IN_CLOSE(Q("n"));
static const char epoch_out[] = OUT_OPEN
    PROP("input", J_INT) ","
    PROP_D("interpretations", J_OBJ, "at most one of seconds/millis/micros/nanos -> ISO 8601 UTC")
    OUT_CLOSE;

/* ---- base_repr / radix_convert / float_repr ---------------------------- */
static const char base_in[] = IN_OPEN
    PROP_D("n", J_INT, "the integer (may exceed 64 bits)") ","
    PROP_DEF("width", NULLABLE(J_INT), "null", "bit width for the two's-complement view, > 0")
    IN_CLOSE(Q("n"));
static const char base_out[] = OUT_OPEN
    PROP("value", J_INT) ","
    PROP("hex", J_STR) ","
    PROP("oct", J_STR) ","
    PROP("bin", J_STR) ","
    PROP("two_complement_bin", J_STR) ","
    PROP("wrapped_signed", J_INT) ","
    PROP("signed_overflow", J_STR) ","
    PROP("overflow", J_STR)
    OUT_CLOSE;

static const char radix_in[] = IN_OPEN
    PROP_D("value", J_STR, "digits 0-9a-z with an optional leading '-' and one '.', e.g. '-10.25', 'ff'") ","
    PROP_DEF("from_base", J_INT, "10", "base of value, 2..36") ","
    PROP_DEF("to_base", J_INT, "10", "base of the result, 2..36")
    IN_CLOSE(Q("value"));
static const char radix_out[] = OUT_OPEN
    PROP_D("value", J_STR, "converted number; a repeating fraction ends with an ellipsis") ","
    PROP("non_terminating", J_BOOL)
    OUT_CLOSE;

static const char float_in[] = IN_OPEN
    PROP_D("x", J_NUM, "the number to inspect as an IEEE-754 binary64")
    IN_CLOSE(Q("x"));
static const char float_out[] = OUT_OPEN
    PROP("literal", J_STR) ","
    PROP_D("stored", J_STR, "the exact stored value, up to 40 fractional digits") ","
    PROP("bits_hex", J_STR) ","
    PROP("sign", J_INT) ","
    PROP("exponent", J_INT) ","
    PROP("fraction_hex", J_STR) ","
    PROP("exact", J_BOOL) ","
    PROP_D("error", J_STR, "stored - literal as a reduced fraction") ","
    PROP("relative_error", NULLABLE(J_NUM)) ","
    PROP("ulp", NULLABLE(J_NUM)) ","
    PROP("prev", NULLABLE(J_NUM)) ","
    PROP("next", NULLABLE(J_NUM)) ","
    PROP("note", NULLABLE(J_STR))
    OUT_CLOSE;

/* ---- int_widths / bit_analysis / bitop --------------------------------- */
static const char widths_in[] = IN_OPEN
    PROP_D("n", J_INT, "the integer (may exceed 64 bits)")
    IN_CLOSE(Q("n"));
static const char widths_out[] = OUT_OPEN
    PROP("value", J_INT) ","
    PROP("fits", ARRAY_OF(J_STR)) ","
    PROP("wraps", ARRAY_OF(J_STR)) ","
    PROP("note", NULLABLE(J_STR))
    OUT_CLOSE;

static const char bits_in[] = IN_OPEN
    PROP_D("n", J_INT, "a non-negative integer (may exceed 64 bits)") ","
    PROP_DEF("align", NULLABLE(J_INT), "null", "alignment to pad n up to, > 0")
    IN_CLOSE(Q("n"));
static const char bits_out[] = OUT_OPEN
    PROP("value", J_INT) ","
    PROP("popcount", J_INT) ","
    PROP("bit_length", J_INT) ","
    PROP("trailing_zeros", NULLABLE(J_INT)) ","
    PROP("is_power_of_two", J_BOOL) ","
    PROP("next_power_of_two", NULLABLE(J_INT)) ","
    PROP("aligned_to", J_INT) ","
    PROP("padding_needed", J_INT) ","
    PROP("aligned_value", J_INT)
    OUT_CLOSE;

static const char bitop_in[] = IN_OPEN
    PROP_D("a", J_INT, "first operand; negatives are taken in two's complement") ","
    PROP_D("op", J_STR, "and, or, xor, nand, nor, xnor, not, shl, shr (logical), sar (arithmetic), rol, ror") ","
    PROP_DEF("b", NULLABLE(J_INT), "null", "second operand, or the shift/rotate count; omit for not") ","
    PROP_DEF("width", J_INT, "64", "8, 16, 32 or 64")
    IN_CLOSE(Q("a") "," Q("op"));
static const char bitop_out[] = OUT_OPEN
    PROP("op", J_STR) ","
    PROP("width", J_INT) ","
    PROP("unsigned", J_INT) ","
    PROP("signed", J_INT) ","
    PROP("hex", J_STR) ","
    PROP("oct", J_STR) ","
    PROP("bin", J_STR) ","
    PROP("overflow", "[" J_BOOL "," J_STR "]") ","
    PROP_D("unbounded", J_INT, "exact shl result before masking")
    OUT_CLOSE;

#define PROG_TOOL(nm, ttl, desc, in, out)                                                          \
    {                                                                                              \
        .name = nm, .title = ttl, .group = "calculator", .route = CC_ROUTE_CALC, .deadline_s = 900, \
        .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT, .description = desc, .input_schema = in,   \
        .output_schema = out, .array_result = false,                                               \
    }

const struct cc_tool cc_tooldefs_programmer[] = {
    PROG_TOOL("percentage", "Exact percentage",
              "Compute part/total exactly as a reduced fraction and as a percentage rounded to 6 "
              "decimals. Inputs are literal numbers such as '3', '2.5', '1e3' or '1/3', not expressions.",
              pct_in, pct_out),
    PROG_TOOL("calc_stats", "Mean, median, stdev, CV",
              "Summarise a list of numbers (such as benchmark timings): mean, median, sample standard "
              "deviation and coefficient of variation, computed exactly before the final rounding, with "
              "a verdict on whether the run-to-run noise is acceptable.",
              stats_in, stats_out),
    PROG_TOOL("percentiles", "Percentiles p50/p90/p95/p99",
              "Report p50, p90, p95 and p99 of a list of numbers, both by nearest rank and by linear "
              "interpolation, and warn when the sample is too small for p99 to mean much.",
              pctl_in, pctl_out),
    PROG_TOOL("collision_probability", "Hash collision probability",
              "Birthday-bound probability that a number of random hashes of a given bit width contain "
              "at least one collision, e.g. 100000 items with 32-bit hashes.",
              coll_in, coll_out),
    PROG_TOOL("data_sizes", "Byte count in KiB/KB units",
              "Express a byte count in binary units (KiB, MiB, GiB, TiB) and decimal units (KB, MB, GB, TB).",
              sizes_in, sizes_out),
    PROG_TOOL("human_duration", "Human-readable duration",
              "Turn a number of seconds into a readable duration like '1d 1h 1m 1s' or '1s 500ms', with "
              "the fraction of a day and of 30 days it represents.",
              dur_in, dur_out),
    PROG_TOOL("epoch_time", "Epoch timestamp to UTC date",
              "Interpret an integer Unix timestamp given as a string, guessing whether it is in seconds, "
              "milliseconds, microseconds or nanoseconds from which reading gives a plausible date, and "
              "show it as ISO 8601 UTC.",
              epoch_in, epoch_out),
    PROG_TOOL("base_repr", "Hex/octal/binary and two's complement",
              "Show an integer in hexadecimal, octal and binary; with a bit width, also its two's-"
              "complement bit pattern, its signed and unsigned readings and whether it overflows.",
              base_in, base_out),
    PROG_TOOL("radix_convert", "Convert between bases 2-36",
              "Convert a number, fractional part included, from one base to another (2 to 36), marking "
              "fractions that repeat forever in the target base, such as 0.1 in binary.",
              radix_in, radix_out),
    PROG_TOOL("float_repr", "What a double really stores",
              "Show exactly what an IEEE-754 double stores for a number: the exact decimal value, raw "
              "bits, sign/exponent/fraction fields, representation error, ULP and neighbouring doubles.",
              float_in, float_out),
    PROG_TOOL("int_widths", "Which integer types hold N",
              "List which of i8, u8, i16, u16, i32, u32, i64 and u64 can hold an integer, and what it "
              "wraps to or why it does not fit in the others.",
              widths_in, widths_out),
    PROG_TOOL("bit_analysis", "Bit facts and alignment",
              "Bit facts about a non-negative integer: popcount, bit length, trailing zeros, whether it "
              "is a power of two and the next one, plus the padding needed to align it.",
              bits_in, bits_out),
    PROG_TOOL("bitop", "Fixed-width bit operation",
              "Apply a bitwise operation, shift or rotate at a fixed width of 8, 16, 32 or 64 bits and "
              "show the result as unsigned, signed, hex, octal and binary, flagging shifts that overflow.",
              bitop_in, bitop_out),
    {.name = NULL},
};
