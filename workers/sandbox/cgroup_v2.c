/* The cgroup v2 side of a run group: where groups may be made, the ceilings
 * (memory.max with swap off, pids.max), OOM kills and peak memory. Kept
 * apart from cgroup.c so a fake cgroupfs tree (a plain directory with the
 * interface files) exercises it on hosts that only have v1. */
#include "workers/sandbox/sandbox.h"
#include "protocol/text_knob.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CG_ROOT "/sys/fs/cgroup"


/* The delegated v2 group runs may be created in ($CODECALC_CGROUP, else our
 * own group), or -1 when it lacks the memory or pids controller. */
int sbx_cg2_base(char *out, size_t cap) {
    const char *env = cc_text(CC_TEXT_CGROUP); /* absolute (text_knob.c) */
    if (env) {
        if (snprintf(out, cap, "%s", env) >= (int)cap)
            return -1;
    } else {
        char own[400];
        if (sbx_own_cgroup_path("", own, sizeof own) != 0)
            return -1;
        if (strcmp(own, "/") == 0)
            own[0] = '\0';
        if (snprintf(out, cap, CG_ROOT "%s", own) >= (int)cap)
            return -1;
    }
    char path[600], ctl[256];
    if (snprintf(path, sizeof path, "%s/cgroup.subtree_control", out) >= (int)sizeof path)
        return -1;
    if (sbx_read_small(path, ctl, sizeof ctl) < 0)
        return -1;
    if (!strstr(ctl, "memory") || !strstr(ctl, "pids"))
        return -1;
    return 0;
}

/* Memory ceiling (resident + swap: swap is switched off, so memory.max is
 * the whole budget) and pids ceiling (+1: the run's init lives there too). */
int sbx_cg2_limit(const char *dir, uint64_t mem_bytes, uint64_t pids_max, bool *mem_ok,
                  bool *pids_ok) {
    char val[32];
    int err = 0;
    *mem_ok = false;
    if (mem_bytes > 0) {
        snprintf(val, sizeof val, "%" PRIu64, mem_bytes);
        *mem_ok = sbx_write_file(dir, "memory.max", val) == 0 &&
                  sbx_write_file(dir, "memory.swap.max", "0") == 0;
        if (!*mem_ok)
            err = errno;
    }
    snprintf(val, sizeof val, "%" PRIu64, pids_max + 1);
    *pids_ok = sbx_write_file(dir, "pids.max", val) == 0;
    if (!*pids_ok && !err)
        err = errno;
    errno = err;
    return err ? -1 : 0;
}

int64_t sbx_cg2_oom_kills(const char *dir) {
    char path[600];
    snprintf(path, sizeof path, "%s/memory.events", dir);
    return sbx_keyed_value(path, "oom_kill");
}

int64_t sbx_cg2_peak_kb(const char *dir) {
    char path[600];
    snprintf(path, sizeof path, "%s/memory.peak", dir);
    int64_t v = sbx_read_number(path);
    return v < 0 ? -1 : v / 1024;
}
