/* The contract between a worker's main loop and the tool handlers it hosts.
 *
 * A handler receives the tool's arguments as a jansson object (already
 * checked against the tool's input schema by the supervisor, but handlers
 * still check what they read: the schema is a first wall, not the only one)
 * and returns a NEW reference to the result value (almost always an object).
 * The worker loop adds "contract_version" to object results and owns the
 * returned reference from then on.
 *
 * Big integers: JSON integers beyond int64 arrive as jansson strings carrying
 * a sentinel prefix (see CC_BIGINT_PREFIX). Use cc_json_get_mpz() to read any
 * integer argument and cc_json_mpz() to emit one: it emits a JSON number up
 * to 2^53 in magnitude and a decimal string beyond (a JSON number past 2^53
 * loses digits in JavaScript clients). Never build the sentinel by hand.
 */
#ifndef CC_TOOL_API_H
#define CC_TOOL_API_H

#include <gmp.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#define CC_CONTRACT_VERSION "1.3.0"

/* A session run's private scratch directory inside the workspace: its
 * source, a.out and run.in/out/err (issue 11 item 1). Listings hide it. */
#define CC_SESSION_SCRATCH_PREFIX ".codecalc-run-"

/* "\0bigint:" — a NUL cannot appear in an ordinary identifier-ish string a
 * client would send by accident; the digits after it are validated strictly
 * wherever it is converted. */
#include "protocol/json_convert.h" /* CC_BIGINT_PREFIX, CC_BIGINT_PREFIX_LEN */

typedef struct cc_wctx cc_wctx;

/* Returns a new reference; NULL means "internal failure" (the loop answers
 * with code internal). */
typedef json_t *(*cc_tool_fn)(json_t *args, cc_wctx *ctx);

/* A row of a worker's dispatch table. The tables are generated from the
 * tool table (workers/common/dispatch.h); a tool's handler is named
 * cc_tool_<name> and declared with CC_TOOL(name). */
struct cc_tool_def {
    const char *op;   /* tool name, e.g. "calc_exact" */
    cc_tool_fn fn;
    bool test_only;   /* served only when CODECALC_TEST_OPS=1 */
};

#define CC_TOOL(name) json_t *cc_tool_##name(json_t *args, cc_wctx *ctx)

/* ---- streaming / cancellation (exec worker) ---------------------------- */

/* Send an event frame {id, event, data} for the request being served.
 * data is borrowed. Returns 0 on success, -1 if the supervisor is gone. */
int cc_wctx_event(cc_wctx *ctx, const char *event, json_t *data);
/* true once the supervisor has sent {id, cancel:true} for this request. */
bool cc_wctx_cancelled(cc_wctx *ctx);
/* Milliseconds left before the supervisor's deadline (INT64_MAX if none). */
int64_t cc_wctx_remaining_ms(const cc_wctx *ctx);

/* CLOCK_MONOTONIC microseconds when the current request's frame was read
 * from the pipe (for time breakdowns). */
int64_t cc_wctx_received_us(const cc_wctx *ctx);

/* ---- result builders --------------------------------------------------- */

/* The eight closed codes of TOOLS.md 1.10. */
extern const char *const cc_codes[8];
/* Default remedy for a code; NULL for an unknown code. */
const char *cc_default_remedy(const char *code);

/* {"ok": false, "code": code, "error": <formatted>, "remedy": <default>}.
 * An unknown code degrades to "internal" with the message prefixed
 * "[unclassified code '<x>'] ". Never returns NULL (aborts on OOM). */
json_t *cc_err(const char *code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* {"ok": true} */
json_t *cc_ok(void);

/* ---- big integers ------------------------------------------------------ */

/* An output integer v: a JSON number when |v| < 2^53, else its decimal
 * digits as a plain JSON string (docs/contract.md "integers beyond 2^53
 * are strings"; never the sentinel, which would print as a bare number).
 * New reference. */
json_t *cc_json_mpz(const mpz_t v);
/* Read an integer argument: a JSON integer, a sentinel big integer, a real
 * with an integral value (3.0), or a string of decimal digits (leniency of
 * TOOLS.md 0.3). out must be initialised. Returns 0, or -1 if j is not an
 * integer (out unchanged). */
int cc_json_get_mpz(const json_t *j, mpz_t out);
/* The same for an integer whose value is the answer's subject (bitop's a,
 * base_repr's n...), not a limit to clamp: a float is accepted only below
 * 2^53 in magnitude (1e23 is not 10^23 in binary64, and 9007199254740993.0
 * is 2^53), so a larger integer must come as a JSON integer or a string. */
int cc_json_get_int_exact(const json_t *j, mpz_t out);
/* cc_json_is_bigint (protocol/json_convert.h): true when j is a sentinel
 * big-integer string. */

/* Read a number argument (integer, real, big integer or numeric string) as a
 * double. Returns 0, or -1 if j is not numeric. */
int cc_json_get_double(const json_t *j, double *out);

/* Shortest decimal string that round-trips to d, Python repr style
 * (TOOLS.md 0.3): "0.1", "60.0", "1e+16", "5e-324", "-0.0", "inf", "nan".
 * buf must hold at least 32 bytes. Returns buf. */
char *cc_float_repr(double d, char buf[32]);

#endif
