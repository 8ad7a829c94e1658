/* codecalc-calc: the exact calculator and programmer-mode worker. */
#include "workers/calc/calc_fast.h"
#include "workers/common/dispatch.h"
#include "workers/common/limits.h"
#include "workers/common/lockdown.h"
#include "workers/common/worker_loop.h"

int main(void) {
    struct cc_worker_cfg cfg = {
        .role = "calc",
        .ops = cc_dispatch_calc,
        .as_limit_bytes = CC_COMPUTE_AS_LIMIT,
        .cpu_per_request_s = CC_COMPUTE_CPU_S,
        .single_thread = true,
        .batch_answers = true,
        .lockdown = cc_lockdown_compute,
        .fast_op = "calc_exact",
        .fast = cc_calc_fast_serve,
    };
    return cc_worker_main(&cfg);
}
