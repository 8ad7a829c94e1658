/* Registry entries of the programmer-mode calculator tools (TOOLS.md
 * 3.3.3-3.3.15). All run in the calc worker under the default 900 s
 * response deadline; every output schema also admits the rejected shape. */
#include "supervisor/tool_registry.h"

#define REJECTED_PROPS \
    "\"ok\":{\"type\":\"boolean\"}," \
    "\"code\":{\"type\":\"string\",\"description\":\"failure category (validation, resource_exhausted, ...)\"}," \
    "\"error\":{\"type\":\"string\"}," \
    "\"remedy\":{\"type\":\"string\"}," \
    "\"contract_version\":{\"type\":\"string\"}"

#define OUT_OPEN "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS ","
#define OUT_CLOSE "},\"required\":[\"ok\"],\"additionalProperties\":true}"
#define IN_OPEN "{\"type\":\"object\",\"properties\":{"
#define IN_CLOSE(req) "}," req "\"additionalProperties\":false}"

#define NUMS_PARAM(what) \
    "\"nums\":{\"type\":\"array\",\"items\":{\"type\":\"number\"},\"description\":\"" what "\"}"

/* ---- percentage -------------------------------------------------------- */
static const char pct_in[] = IN_OPEN
    "\"part\":{\"type\":\"string\",\"description\":\"the part, a rational literal: integer, decimal with optional exponent (2.5, 1e3) or p/q (1/3)\"},"
    "\"total\":{\"type\":\"string\",\"description\":\"the whole, same literal forms; must not be zero\"}"
    IN_CLOSE("\"required\":[\"part\",\"total\"],");
static const char pct_out[] = OUT_OPEN
    "\"part\":{\"type\":\"string\",\"description\":\"reduced fraction\"},"
    "\"total\":{\"type\":\"string\",\"description\":\"reduced fraction\"},"
    "\"share\":{\"type\":\"string\",\"description\":\"part/total as 'num/den', always with a denominator\"},"
    "\"percent\":{\"type\":[\"number\",\"null\"],\"description\":\"share x 100, rounded half-even to 6 decimals\"},"
    "\"rounding\":{\"type\":\"object\"}"
    OUT_CLOSE;

/* ---- calc_stats / percentiles ------------------------------------------ */
static const char stats_in[] = IN_OPEN
    NUMS_PARAM("at least 2 finite numbers, e.g. benchmark timings")
    IN_CLOSE("\"required\":[\"nums\"],");
static const char stats_out[] = OUT_OPEN
    "\"n\":{\"type\":\"integer\"},"
    "\"mean\":{\"type\":[\"number\",\"null\"]},"
    "\"median\":{\"type\":[\"number\",\"null\"]},"
    "\"stdev\":{\"type\":[\"number\",\"null\"],\"description\":\"sample standard deviation (n - 1)\"},"
    "\"cv\":{\"type\":[\"number\",\"null\"],\"description\":\"stdev / mean, sign of the mean; null when the mean is 0\"},"
    "\"cv_note\":{\"type\":\"string\"}"
    OUT_CLOSE;

static const char pctl_in[] = IN_OPEN
    NUMS_PARAM("at least 1 finite number")
    IN_CLOSE("\"required\":[\"nums\"],");
static const char pctl_out[] = OUT_OPEN
    "\"n\":{\"type\":\"integer\"},"
    "\"percentiles\":{\"type\":\"object\",\"description\":\"p50/p90/p95/p99, each {nearest_rank, interpolated, rounding}\"},"
    "\"warning\":{\"type\":[\"string\",\"null\"]}"
    OUT_CLOSE;

/* ---- collision_probability / data_sizes / human_duration / epoch_time --- */
static const char coll_in[] = IN_OPEN
    "\"items\":{\"type\":\"integer\",\"description\":\"number of hashed items, >= 0 (may exceed 64 bits)\"},"
    "\"bits\":{\"type\":\"integer\",\"description\":\"hash width in bits, >= 1\"}"
    IN_CLOSE("\"required\":[\"items\",\"bits\"],");
static const char coll_out[] = OUT_OPEN
    "\"items\":{\"type\":\"integer\"},"
    "\"bits\":{\"type\":\"integer\"},"
    "\"probability\":{\"type\":[\"number\",\"null\"]},"
    "\"percent\":{\"type\":[\"number\",\"null\"],\"description\":\"absent for fewer than 2 items\"},"
    "\"rounding\":{\"type\":\"object\"}"
    OUT_CLOSE;

static const char sizes_in[] = IN_OPEN
    "\"n\":{\"type\":\"integer\",\"description\":\"a byte count, >= 0 (may exceed 64 bits)\"}"
    IN_CLOSE("\"required\":[\"n\"],");
static const char sizes_out[] = OUT_OPEN
    "\"bytes\":{\"type\":\"integer\"},"
    "\"binary\":{\"type\":\"object\",\"description\":\"KiB, MiB, GiB, TiB\"},"
    "\"decimal\":{\"type\":\"object\",\"description\":\"KB, MB, GB, TB\"}"
    OUT_CLOSE;

static const char dur_in[] = IN_OPEN
    "\"seconds\":{\"type\":\"number\",\"description\":\"a finite duration in seconds, >= 0\"}"
    IN_CLOSE("\"required\":[\"seconds\"],");
static const char dur_out[] = OUT_OPEN
    "\"seconds\":{\"type\":\"number\"},"
    "\"human\":{\"type\":\"string\",\"description\":\"e.g. '1d 1h 1m 1s', '1s 500ms', '250us'\"},"
    "\"per_day\":{\"type\":[\"number\",\"null\"]},"
    "\"per_30d\":{\"type\":[\"number\",\"null\"]},"
    "\"rounding\":{\"type\":\"object\"}"
    OUT_CLOSE;

static const char epoch_in[] = IN_OPEN
    "\"n\":{\"type\":\"string\",\"description\":\"the timestamp as a decimal integer string, e.g. '1700000000123' (single '_' separators allowed)\"}"
    IN_CLOSE("\"required\":[\"n\"],");
static const char epoch_out[] = OUT_OPEN
    "\"input\":{\"type\":\"integer\"},"
    "\"interpretations\":{\"type\":\"object\",\"description\":\"at most one of seconds/millis/micros/nanos -> ISO 8601 UTC\"}"
    OUT_CLOSE;

/* ---- base_repr / radix_convert / float_repr ---------------------------- */
static const char base_in[] = IN_OPEN
    "\"n\":{\"type\":\"integer\",\"description\":\"the integer (may exceed 64 bits)\"},"
    "\"width\":{\"type\":[\"integer\",\"null\"],\"default\":null,\"description\":\"bit width for the two's-complement view, > 0\"}"
    IN_CLOSE("\"required\":[\"n\"],");
static const char base_out[] = OUT_OPEN
    "\"value\":{\"type\":\"integer\"},"
    "\"hex\":{\"type\":\"string\"},"
    "\"oct\":{\"type\":\"string\"},"
    "\"bin\":{\"type\":\"string\"},"
    "\"two_complement_bin\":{\"type\":\"string\"},"
    "\"wrapped_signed\":{\"type\":\"integer\"},"
    "\"signed_overflow\":{\"type\":\"string\"},"
    "\"overflow\":{\"type\":\"string\"}"
    OUT_CLOSE;

static const char radix_in[] = IN_OPEN
    "\"value\":{\"type\":\"string\",\"description\":\"digits 0-9a-z with an optional leading '-' and one '.', e.g. '-10.25', 'ff'\"},"
    "\"from_base\":{\"type\":\"integer\",\"default\":10,\"description\":\"base of value, 2..36\"},"
    "\"to_base\":{\"type\":\"integer\",\"default\":10,\"description\":\"base of the result, 2..36\"}"
    IN_CLOSE("\"required\":[\"value\"],");
static const char radix_out[] = OUT_OPEN
    "\"value\":{\"type\":\"string\",\"description\":\"converted number; a repeating fraction ends with an ellipsis\"},"
    "\"non_terminating\":{\"type\":\"boolean\"}"
    OUT_CLOSE;

static const char float_in[] = IN_OPEN
    "\"x\":{\"type\":\"number\",\"description\":\"the number to inspect as an IEEE-754 binary64\"}"
    IN_CLOSE("\"required\":[\"x\"],");
static const char float_out[] = OUT_OPEN
    "\"literal\":{\"type\":\"string\"},"
    "\"stored\":{\"type\":\"string\",\"description\":\"the exact stored value, up to 40 fractional digits\"},"
    "\"bits_hex\":{\"type\":\"string\"},"
    "\"sign\":{\"type\":\"integer\"},"
    "\"exponent\":{\"type\":\"integer\"},"
    "\"fraction_hex\":{\"type\":\"string\"},"
    "\"exact\":{\"type\":\"boolean\"},"
    "\"error\":{\"type\":\"string\",\"description\":\"stored - literal as a reduced fraction\"},"
    "\"relative_error\":{\"type\":[\"number\",\"null\"]},"
    "\"ulp\":{\"type\":[\"number\",\"null\"]},"
    "\"prev\":{\"type\":[\"number\",\"null\"]},"
    "\"next\":{\"type\":[\"number\",\"null\"]},"
    "\"note\":{\"type\":[\"string\",\"null\"]}"
    OUT_CLOSE;

/* ---- int_widths / bit_analysis / bitop --------------------------------- */
static const char widths_in[] = IN_OPEN
    "\"n\":{\"type\":\"integer\",\"description\":\"the integer (may exceed 64 bits)\"}"
    IN_CLOSE("\"required\":[\"n\"],");
static const char widths_out[] = OUT_OPEN
    "\"value\":{\"type\":\"integer\"},"
    "\"fits\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
    "\"wraps\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
    "\"note\":{\"type\":[\"string\",\"null\"]}"
    OUT_CLOSE;

static const char bits_in[] = IN_OPEN
    "\"n\":{\"type\":\"integer\",\"description\":\"a non-negative integer (may exceed 64 bits)\"},"
    "\"align\":{\"type\":[\"integer\",\"null\"],\"default\":null,\"description\":\"alignment to pad n up to, > 0\"}"
    IN_CLOSE("\"required\":[\"n\"],");
static const char bits_out[] = OUT_OPEN
    "\"value\":{\"type\":\"integer\"},"
    "\"popcount\":{\"type\":\"integer\"},"
    "\"bit_length\":{\"type\":\"integer\"},"
    "\"trailing_zeros\":{\"type\":[\"integer\",\"null\"]},"
    "\"is_power_of_two\":{\"type\":\"boolean\"},"
    "\"next_power_of_two\":{\"type\":[\"integer\",\"null\"]},"
    "\"aligned_to\":{\"type\":\"integer\"},"
    "\"padding_needed\":{\"type\":\"integer\"},"
    "\"aligned_value\":{\"type\":\"integer\"}"
    OUT_CLOSE;

static const char bitop_in[] = IN_OPEN
    "\"a\":{\"type\":\"integer\",\"description\":\"first operand; negatives are taken in two's complement\"},"
    "\"op\":{\"type\":\"string\",\"description\":\"and, or, xor, nand, nor, xnor, not, shl, shr (logical), sar (arithmetic), rol, ror\"},"
    "\"b\":{\"type\":[\"integer\",\"null\"],\"default\":null,\"description\":\"second operand, or the shift/rotate count; omit for not\"},"
    "\"width\":{\"type\":\"integer\",\"default\":64,\"description\":\"8, 16, 32 or 64\"}"
    IN_CLOSE("\"required\":[\"a\",\"op\"],");
static const char bitop_out[] = OUT_OPEN
    "\"op\":{\"type\":\"string\"},"
    "\"width\":{\"type\":\"integer\"},"
    "\"unsigned\":{\"type\":\"integer\"},"
    "\"signed\":{\"type\":\"integer\"},"
    "\"hex\":{\"type\":\"string\"},"
    "\"oct\":{\"type\":\"string\"},"
    "\"bin\":{\"type\":\"string\"},"
    "\"overflow\":{\"type\":[\"boolean\",\"string\"]},"
    "\"unbounded\":{\"type\":\"integer\",\"description\":\"exact shl result before masking\"}"
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
