/* The exec side of `codecalc doctor` (doctor_report.h). */
#include "workers/exec/doctor_report.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workers/common/runtime_path.h"
#include "workers/exec/execute.h"
#include "workers/exec/languages.h"
#include "workers/exec/probe_report.h"
#include "workers/sandbox/sandbox.h"

/* A file named cmd on path that exists but cannot be executed. */
static bool present_not_executable(const char *cmd, const char *path) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    char *save = NULL;
    for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char full[PATH_MAX];
        struct stat st;
        snprintf(full, sizeof full, "%.2000s/%.1000s", d, cmd);
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) != 0) return true;
    }
    return false;
}

static json_t *runtime_row(const struct cc_lang *l, const char *path) {
    bool installed;
    const struct cc_lang_plan *p = cc_lang_plan_for(l, path, &installed);
    char buf[128];
    const char *cmd = cc_plan_deciding(p, buf, sizeof buf);
    char *resolved = installed ? cc_resolve_cmd(cmd, path) : NULL;
    bool broken = !installed && present_not_executable(cmd, path);
    json_t *row = json_pack("{s:s,s:s,s:s,s:s?,s:n,s:s}", "name", l->name, "command", cmd, "status",
                            installed ? "installed" : broken ? "unhealthy" : "supported", "path", resolved,
                            "version", "tier", l->tier);
    if (broken)
        json_object_set_new(row, "detail", json_string("a file of that name is on the runtime PATH but is not executable"));
    free(resolved);
    return row;
}

int cc_exec_doctor_main(void) {
    const char *path = cc_runtime_path();
    json_t *rows = json_array();
    for (size_t i = 0; rows && i < cc_lang_count(); i++) {
        const struct cc_lang *l = cc_lang_at(i);
        if (strcmp(l->name, "c++") != 0) json_array_append_new(rows, runtime_row(l, path)); /* c++ is cpp */
    }
    const struct sbx_caps *c = sbx_probe();
    json_t *o = json_pack("{s:o,s:o,s:i,s:i}", "runtimes", rows, "providers", cc_list_providers_json(), "run_uid",
                          (int)c->run_uid, "run_gid", (int)c->run_gid);
    return cc_exec_print_report(o);
}
