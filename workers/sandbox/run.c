/* sbx_run(): one sandboxed step from start to finish — a box prepared for
 * the step's work directory, the program handed to it and waited for, the
 * box destroyed. The exec worker does the same with a box it prepared
 * before the request arrived (workers/exec/warm.c). */
#include "workers/sandbox/sandbox.h"
#include "protocol/monotonic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sbx_run(const struct sbx_spec *spec, struct sbx_result *res) {
    int64_t t0 = cc_now_us();
    struct sbx_box box;
    char *why = NULL;
    if (!spec || !spec->workdir || sbx_box_prepare(&box, spec->workdir, spec->lim.no_net, &why) != 0) {
        memset(res, 0, sizeof *res);
        res->peak_kb = res->oom_kills = -1;
        res->spawn_error = why ? why : strdup("sandbox: cannot prepare a box");
        return -1;
    }
    int rc = sbx_box_run(&box, spec, res);
    sbx_box_destroy(&box);
    res->wall_ms = (cc_now_us() - t0) / 1000;
    return rc;
}
