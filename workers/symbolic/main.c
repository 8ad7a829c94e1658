/* codecalc-symbolic: the CAS (giac) and SMT (z3) worker. */
#include "workers/common/dispatch.h"
#include "workers/common/limits.h"
#include "workers/common/lockdown.h"
#include "workers/common/worker_loop.h"
#include "workers/symbolic/sym_tools.h"

int main(void) {
    struct cc_worker_cfg cfg = {
        .role = "symbolic",
        .ops = cc_dispatch_symbolic,
        .as_limit_bytes = CC_COMPUTE_AS_LIMIT,
        .cpu_per_request_s = CC_COMPUTE_CPU_S,
        .warmup = cc_symbolic_warmup,
        .lockdown = cc_lockdown_compute,
    };
    return cc_worker_main(&cfg);
}
