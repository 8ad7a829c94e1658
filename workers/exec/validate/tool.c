/* The execute_python handler of the exec worker: check the arguments, run
 * the validator once in the sandbox within a budget that fits the call's
 * deadline, and answer with its checked result. */
#include "workers/exec/validate/validate.h"

#include <string.h>

/* The helper's own budget per mode; it answers with what it has when the
 * budget ends (docs/execute_python.md, "Budgets"). */
#define BUDGET_STATIC_MS 60000
#define BUDGET_EXECUTE_MS 150000
#define DEADLINE_MARGIN_MS 15000

static int64_t budget_for(const struct ccv_request *req, cc_wctx *ctx) {
    int64_t b = strcmp(req->mode, "execute") == 0 ? BUDGET_EXECUTE_MS : BUDGET_STATIC_MS;
    int64_t left = ctx ? cc_wctx_remaining_ms(ctx) : INT64_MAX;
    if (left != INT64_MAX && left - DEADLINE_MARGIN_MS < b) b = left - DEADLINE_MARGIN_MS;
    return b < 5000 ? 5000 : b;
}

CC_TOOL(execute_python) {
    struct ccv_request req;
    json_t *r = ccv_read_request(args, &req);
    if (r) return r;
    struct ccv_run run;
    ccv_run_helper(&req, budget_for(&req, ctx), ctx, &run);
    r = run.failure ? json_incref(run.failure) : ccv_build_result(&req, &run);
    ccv_run_free(&run);
    ccv_request_free(&req);
    return r;
}
