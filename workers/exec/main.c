/* codecalc-exec: runs programs in the per-run sandbox. It cannot lock itself
 * down like the compute workers (it must create namespaces and cgroups); the
 * programs it starts get the seccomp filter instead. Between requests it
 * prepares the next sandbox (workers/exec/warm.h). */
#include <string.h>

#include "workers/common/dispatch.h"
#include "workers/common/worker_loop.h"
#include "workers/exec/deps_env.h"
#include "workers/exec/doctor_report.h"
#include "workers/exec/install.h"
#include "workers/exec/probe_report.h"
#include "workers/exec/shepherd.h"
#include "workers/exec/warm.h"

int main(int argc, char **argv) {
    /* A background run's shepherd (workers/exec/shepherd.h), not a worker. */
    if (argc == 3 && strcmp(argv[1], "--shepherd") == 0) {
        cc_deps_share();
        return cc_shepherd_main(argv[2]);
    }
    /* The sandbox's capabilities, for the supervisor (probe_report.h). */
    if (argc == 2 && strcmp(argv[1], CC_EXEC_PROBE_ARG) == 0) return cc_exec_probe_main();
    /* The exec side of `codecalc doctor` (doctor_report.h). */
    if (argc == 2 && strcmp(argv[1], CC_EXEC_DOCTOR_ARG) == 0) return cc_exec_doctor_main();
    struct cc_worker_cfg cfg = {.role = "exec", .ops = cc_dispatch_exec,
                                .internal = cc_exec_internal_ops(), .idle = cc_warm_idle};
    cc_deps_share(); /* before the first box is prepared */
    cc_warm_enable();
    int rc = cc_worker_main(&cfg);
    cc_warm_shutdown();
    return rc;
}
