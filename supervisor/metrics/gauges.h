/* Figures read from the live server on demand (gauges.c). */
#ifndef CC_METRICS_GAUGES_H
#define CC_METRICS_GAUGES_H

#include <stdint.h>

#include "supervisor/metrics/metrics.h"
#include "supervisor/pool.h"
#include "supervisor/server.h"

struct cc_gauges {
    struct cc_pool_stats pool[CC_WORKER_POOLS]; /* by cc_pool_id; names in cc_pool_defs */
    int inflight;
    int64_t runs_active;       /* -1 when runs are not served */
    int sessions_stateful, sessions_workspace;
};

void cc_gauges_read(struct cc_server *srv, struct cc_gauges *g);

#endif
