#include "supervisor/native_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/sandbox/sandbox.h"

int cc_native_check(char *msg, size_t cap) {
    const char *v = getenv("CODECALC_REQUIRE_NATIVE");
    if (!v || strcmp(v, "0") == 0) return 0;
    const struct sbx_caps *c = sbx_probe();
    struct {
        bool ok;
        const char *what;
    } need[] = {
        {c->pidns, "pid namespaces"},
        {c->mntns, "mount namespaces"},
        {c->netns, "network namespaces"},
        {c->seccomp, "seccomp filters"},
        {c->cgroup_v2 || c->cgroup_v1_memory, "a writable memory cgroup"},
        {c->cgroup_v2 || c->cgroup_v1_pids, "a writable pids cgroup"},
        {c->root || c->userns, "user namespaces (the server is not root)"},
    };
    size_t off = 0;
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        if (need[i].ok) continue;
        int n = snprintf(msg + off, cap - off, "%s%s", off ? ", " : "", need[i].what);
        if (n < 0 || (size_t)n >= cap - off) break;
        off += (size_t)n;
    }
    if (off == 0) return 0;
    char missing[512];
    snprintf(missing, sizeof missing, "%s", msg);
    snprintf(msg, cap,
             "CODECALC_REQUIRE_NATIVE is set but this host lacks %s for the native sandbox; "
             "unset it to run with those guarantees reported in `unenforced` instead",
             missing);
    return -1;
}
