/* codecalc-symbolic: the CAS (giac) and SMT (z3) worker. */
#include "workers/common/limits.h"
#include "workers/common/lockdown.h"
#include "workers/common/test_ops.h"
#include "workers/common/worker_loop.h"
#include "workers/symbolic/sym_tools.h"

extern const struct cc_tool_def cc_ops_symbolic[];
extern const struct cc_tool_def cc_ops_z3[];

int main(void) {
    const struct cc_tool_def *tables[] = {cc_ops_symbolic, cc_ops_z3, cc_test_ops(), NULL};
    struct cc_worker_cfg cfg = {
        .role = "symbolic",
        .tables = tables,
        .as_limit_bytes = CC_COMPUTE_AS_LIMIT,
        .cpu_per_request_s = CC_COMPUTE_CPU_S,
        .warmup = cc_symbolic_warmup,
        .lockdown = cc_lockdown_compute,
    };
    return cc_worker_main(&cfg);
}
