/* execute_python (docs/execute_python.md): check code against its examples,
 * and repair it. The C side checks the arguments, puts the validator (the
 * Python helpers under helpers/, embedded in the binary) into a fresh run
 * directory and runs it ONCE inside the execute_code sandbox; everything
 * that parses or runs the caller's code or examples happens in there. The
 * helper answers in result.json, which is checked here before it becomes
 * the tool's result.
 *
 * Ownership: strings in struct ccv_request borrow from the arguments
 * object; json_t results are new references.
 */
#ifndef CC_VALIDATE_H
#define CC_VALIDATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workers/common/tool_api.h"

#define CCV_MAX_CODE_BYTES 200000
#define CCV_MAX_TEXT_BYTES 200000     /* options.examples, options.expected_output */
#define CCV_TIMEOUT_MAX_S 60.0
#define CCV_MAX_ITERATIONS 10
#define CCV_DEFAULT_ITERATIONS 3

struct ccv_request {
    const char *language;   /* python | javascript | typescript */
    const char *mode;       /* static | repair | execute */
    json_t *helper_req;     /* what the helper reads on stdin (owned) */
};

/* Check the arguments. NULL with *req filled (free with ccv_request_free),
 * else the validation result. */
json_t *ccv_read_request(json_t *args, struct ccv_request *req);
void ccv_request_free(struct ccv_request *req);

/* The embedded helper files (assets.c). */
struct ccv_asset {
    const char *name;       /* file name inside the run directory */
    const char *data;
    size_t len;
};
const struct ccv_asset *ccv_assets(size_t *n);

/* Run the helper in the sandbox (run.c). budget_ms bounds the helper; the
 * sandbox's wall clock is a little longer. Returns the helper's parsed
 * answer and the sandbox's unenforced list, or a rejected result (timeout,
 * internal) in *failure. */
struct ccv_run {
    json_t *answer;         /* owned, NULL on failure */
    json_t *unenforced;     /* owned array */
    int64_t wall_ms;
    json_t *failure;        /* owned rejected result, NULL on success */
};
void ccv_run_helper(const struct ccv_request *req, int64_t budget_ms, cc_wctx *ctx,
                    struct ccv_run *run);
void ccv_run_free(struct ccv_run *run);

/* The tool result from the helper's answer (result.c): fields type-checked,
 * unknown ones dropped. New reference. */
json_t *ccv_build_result(const struct ccv_request *req, struct ccv_run *run);

#endif
