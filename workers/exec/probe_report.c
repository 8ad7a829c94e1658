/* The capability report of `codecalc-exec --probe` (format in
 * probe_report.h). It runs sbx_probe in a process of its own, with the
 * server's uid and environment, so it sees what the exec workers will. */
#include "workers/exec/probe_report.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/fdio.h"
#include "workers/sandbox/sandbox.h"

int cc_exec_probe_main(void) {
    const struct sbx_caps *c = sbx_probe();
    json_t *o = json_pack("{s:b,s:b,s:b,s:b,s:b,s:b,s:b,s:b,s:b,s:b,s:b,s:i}", "userns", c->userns, "pidns",
                          c->pidns, "mntns", c->mntns, "netns", c->netns, "ipcns", c->ipcns, "utsns",
                          c->utsns, "cgroup_v2", c->cgroup_v2, "cgroup_v1_memory", c->cgroup_v1_memory,
                          "cgroup_v1_pids", c->cgroup_v1_pids, "seccomp", c->seccomp, "root", c->root,
                          "landlock_abi", sbx_landlock_abi());
    return cc_exec_print_report(o);
}

int cc_exec_print_report(json_t *o) {
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    int rc = text && cc_write_all(1, text, strlen(text)) == 0 && cc_write_all(1, "\n", 1) == 0 ? 0 : 1;
    free(text);
    return rc;
}
