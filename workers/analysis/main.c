/* codecalc-analysis: reads untrusted source with tree-sitter (and the regex
 * fallback) for analyze_complexity. A compute worker like calc: the same
 * 2 GiB address-space ceiling, 10 s CPU budget per request and seccomp wall
 * (docs/analysis.md "Where it runs").
 *
 * `codecalc-analysis --grammars` prints the grammars compiled in (and the
 * ones that could not be had) as one JSON line, for doctor and the tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/analysis/grammars.h"
#include "workers/common/dispatch.h"
#include "workers/common/limits.h"
#include "workers/common/lockdown.h"
#include "workers/common/worker_loop.h"

#define GRAMMARS_ARG "--grammars"

static int print_grammars(void) {
    json_t *rep = cc_grammars_report();
    char *text = rep ? json_dumps(rep, JSON_COMPACT) : NULL;
    json_decref(rep);
    if (!text) return 1;
    puts(text);
    free(text);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], GRAMMARS_ARG) == 0) return print_grammars();
    struct cc_worker_cfg cfg = {
        .role = "analysis",
        .ops = cc_dispatch_analysis,
        .as_limit_bytes = CC_COMPUTE_AS_LIMIT,
        .cpu_per_request_s = CC_COMPUTE_CPU_S,
        .lockdown = cc_lockdown_compute,
    };
    return cc_worker_main(&cfg);
}
