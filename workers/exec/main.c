/* codecalc-exec: runs programs in the per-run sandbox. It cannot lock itself
 * down like the compute workers (it must create namespaces and cgroups); the
 * programs it starts get the seccomp filter instead. */
#include <string.h>

#include "workers/common/test_ops.h"
#include "workers/common/worker_loop.h"
#include "workers/exec/shepherd.h"

extern const struct cc_tool_def cc_ops_exec[];

int main(int argc, char **argv) {
    /* A background run's shepherd (workers/exec/shepherd.h), not a worker. */
    if (argc == 3 && strcmp(argv[1], "--shepherd") == 0) return cc_shepherd_main(argv[2]);
    const struct cc_tool_def *tables[] = {cc_ops_exec, cc_test_ops(), NULL};
    struct cc_worker_cfg cfg = {.role = "exec", .tables = tables};
    return cc_worker_main(&cfg);
}
