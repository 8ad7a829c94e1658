/* codecalc-calc: the exact calculator and programmer-mode worker. */
#include "workers/common/limits.h"
#include "workers/common/lockdown.h"
#include "workers/common/test_ops.h"
#include "workers/common/worker_loop.h"

extern const struct cc_tool_def cc_ops_exact[];
extern const struct cc_tool_def cc_ops_programmer[];
extern const struct cc_tool_def cc_ops_units_logic[];

int main(void) {
    const struct cc_tool_def *tables[] = {cc_ops_exact, cc_ops_programmer, cc_ops_units_logic,
                                          cc_test_ops(), NULL};
    struct cc_worker_cfg cfg = {
        .role = "calc",
        .tables = tables,
        .as_limit_bytes = CC_COMPUTE_AS_LIMIT,
        .cpu_per_request_s = CC_COMPUTE_CPU_S,
        .lockdown = cc_lockdown_compute,
    };
    return cc_worker_main(&cfg);
}
