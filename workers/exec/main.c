/* codecalc-exec: runs programs in the per-run sandbox. It cannot lock itself
 * down like the compute workers (it must create namespaces and cgroups); the
 * programs it starts get the seccomp filter instead. */
#include "workers/common/test_ops.h"
#include "workers/common/worker_loop.h"

extern const struct cc_tool_def cc_ops_exec[];

int main(void) {
    const struct cc_tool_def *tables[] = {cc_ops_exec, cc_test_ops(), NULL};
    struct cc_worker_cfg cfg = {.role = "exec", .tables = tables};
    return cc_worker_main(&cfg);
}
