/* `codecalc doctor [--json] [--deep]`: build the report of TOOLS.md 9.2
 * (with the host checks issue 18 asks for), print it, exit 0 when healthy.
 *
 * Healthy here means a server started now could serve every tool family:
 * the state directory and the temp root are writable, every pool's worker
 * binary (protocol/tools/pools.json) starts and serves every tool the table
 * routes to it, and CODECALC_REQUIRE_NATIVE (when set) is satisfied.
 * Missing runtimes, engines or grammars never make an install unhealthy.
 * Fields about other platforms (Windows isolation, the gVisor strict
 * runtime) are present with applies/available false and a reason. */
#include "supervisor/cli/doctor.h"
#include "protocol/text_knob.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "protocol/flag.h"
#include "supervisor/cli/args.h"
#include "supervisor/cli/cli.h"
#include "supervisor/cli/inventory.h"
#include "supervisor/native_check.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/mcp/registry.h"
#include "workers/common/audit.h"
#include "supervisor/server.h"
#include "workers/exec/doctor_report.h"
#include "workers/common/tool_api.h"

#define NOT_THIS_PLATFORM "this host is Linux; the field concerns another platform"

char *cc_doc_skill_file(const char *bindir) {
    static const char *const rel[] = {"../../SKILL.md", "../../share/doc/codecalc/SKILL.md", "SKILL.md"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char p[PATH_MAX + 64], real[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", bindir, rel[i]);
        if (access(p, R_OK) == 0 && realpath(p, real)) return strdup(real);
    }
    return NULL;
}

static int landlock_abi(void) {
#ifdef SYS_landlock_create_ruleset
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, 1u /* LANDLOCK_CREATE_RULESET_VERSION */);
    return v > 0 ? (int)v : 0;
#else
    return 0;
#endif
}

static json_t *strict_runtime(bool deep) {
    struct utsname u;
    uname(&u);
    return json_pack("{s:b,s:b,s:b,s:b,s:s,s:b,s:s,s:n,s:n,s:b,s:o,s:s}", "available", 0, "applies", 0,
                     "docker_present", access("/usr/bin/docker", X_OK) == 0, "cgroup_v2",
                     access("/sys/fs/cgroup/cgroup.controllers", R_OK) == 0, "runtime", "runsc",
                     "runtime_registered", 0, "architecture", u.machine, "docker_version", "image", "image_present",
                     0, "canary",
                     deep ? json_pack("{s:b,s:b,s:n,s:b,s:s}", "attempted", 0, "ran", 0, "runtime_observed",
                                      "verified_runsc", 0, "detail", "not attempted: this build has no strict provider")
                          : json_null(),
                     "detail",
                     "the gVisor strict boundary is not part of this build; programs run in the native sandbox "
                     "(fail-closed: unavailable)");
}

static json_t *windows_isolation(void) {
    return json_pack("{s:b,s:b,s:{s:s,s:s,s:b,s:s,s:n,s:s},s:s}", "applies", 0, "job_object_resource_limits", 0,
                     "appcontainer_security_isolation", "flag", "CODECALC_WIN_APPCONTAINER", "default", "off",
                     "requested", cc_flag(CC_FLAG_WIN_APPCONTAINER), "status", "not_applicable",
                     "disclosure_token", "detail", NOT_THIS_PLATFORM, "detail", NOT_THIS_PLATFORM);
}

static json_t *extensions(void) {
    const char *allowed = cc_text(CC_TEXT_EXTENSION_ALLOWED_PERMISSIONS);
    bool disabled = cc_flag(CC_FLAG_DISABLE_THIRD_PARTY_EXTENSIONS);
    return json_pack("{s:s,s:{s:b,s:s,s:s},s:[],s:s}", "framework_version", "1", "policy", "allow_third_party",
                     !disabled, "disable_switch", "CODECALC_DISABLE_THIRD_PARTY_EXTENSIONS", "allowed_permissions",
                     allowed ? allowed : "all", "loaded", "detail",
                     "this build has no extension framework; nothing is loaded");
}

#define HAS(k) json_is_true(json_object_get(caps, k))

/* Providers of list_execution_providers (from codecalc-exec --doctor) plus
 * readiness. */
static json_t *providers(json_t *list, bool backend_ok, const json_t *caps) {
    if (!list) list = json_array();
    size_t i;
    json_t *p;
    json_array_foreach(list, i, p) {
        bool local = strcmp(json_string_value(json_object_get(p, "provider_id")), "local") == 0;
        char tech[160];
        snprintf(tech, sizeof tech, "%s%s%s%s", HAS("cgroup_v2") ? "cgroup-v2" : HAS("cgroup_v1_memory") ? "cgroup-v1" : "no-cgroup",
                 HAS("pidns") && HAS("mntns") ? "+namespaces" : "", HAS("seccomp") ? "+seccomp" : "", "+rlimits");
        json_object_set_new(p, "ready", json_boolean(local && backend_ok));
        json_object_set_new(p, "technology", local ? json_string(tech) : json_null());
        json_object_set_new(p, "detail", json_string(local ? (backend_ok ? "the native sandbox of this server"
                                                                          : "the exec worker does not start")
                                                           : "strict backend prerequisites have not been verified: "
                                                             "this build refuses every strict run"));
    }
    return list;
}

/* The presets of the tool table, each as its list of groups. */
static json_t *presets(void) {
    json_t *o = json_object();
    for (const struct cc_tool_preset *p = cc_tool_presets; o && p->name; p++) {
        json_t *groups = json_array();
        for (const char *g = p->groups; *g;) {
            size_t len = strcspn(g, ",");
            json_array_append_new(groups, json_stringn(g, len));
            g += len + (g[len] == ',');
        }
        json_object_set_new(o, p->name, groups);
    }
    return o;
}

/* The table's groups and their tools (every row offered), the groups
 * CODECALC_TOOLS selects, and how many tools that registers. */
static json_t *tool_groups(void) {
    struct cc_registry all, active;
    char err[512];
    if (cc_registry_load(&all, NULL, err, sizeof err) < 0) return json_pack("{s:s}", "error", err);
    const char *conf = cc_text(CC_TEXT_TOOLS);
    bool act_ok = cc_registry_load(&active, conf, err, sizeof err) == 0;
    json_t *groups = json_object(), *active_groups = json_array();
    for (int g = 0; cc_tool_groups[g]; g++) {
        json_t *names = json_array();
        bool on = false;
        for (size_t i = 0; i < all.n; i++)
            if (strcmp(all.e[i].tool->group, cc_tool_groups[g]) == 0)
                json_array_append_new(names, json_string(all.e[i].tool->name));
        for (size_t i = 0; act_ok && i < active.n; i++) on = on || strcmp(active.e[i].tool->group, cc_tool_groups[g]) == 0;
        if (json_array_size(names)) json_object_set_new(groups, cc_tool_groups[g], names);
        else json_decref(names);
        if (on) json_array_append_new(active_groups, json_string(cc_tool_groups[g]));
    }
    json_t *res = json_pack("{s:s,s:s?,s:o,s:o,s:o,s:I,s:I,s:s?}", "env_var", "CODECALC_TOOLS", "configured", conf,
                            "active_groups", active_groups, "groups", groups, "presets", presets(), "declared_count",
                            (json_int_t)all.n, "registered_count", (json_int_t)(act_ok ? active.n : 0), "error",
                            act_ok ? NULL : err);
    cc_registry_free(&all);
    if (act_ok) cc_registry_free(&active);
    return res;
}

json_t *cc_doc_summaries(const json_t *runtimes, json_t **tiers) {
    json_int_t st[4] = {0}, tr[3] = {0};
    static const char *const sn[] = {"supported", "installed", "unhealthy", "available"};
    static const char *const tn[] = {"tested", "best_effort", "plan_only"};
    size_t i;
    json_t *r;
    json_array_foreach(runtimes, i, r) {
        for (int k = 0; k < 4; k++) st[k] += strcmp(json_string_value(json_object_get(r, "status")), sn[k]) == 0;
        for (int k = 0; k < 3; k++) tr[k] += strcmp(json_string_value(json_object_get(r, "tier")), tn[k]) == 0;
    }
    *tiers = json_pack("{s:I,s:I,s:I}", tn[0], tr[0], tn[1], tr[1], tn[2], tr[2]);
    return json_pack("{s:I,s:I,s:I,s:I}", sn[0], st[0], sn[1], st[1], sn[2], st[2], sn[3], st[3]);
}

static void add_remedy(json_t *list, const char *text) {
    if (text) json_array_append_new(list, json_string(text));
}

static json_t *remedies(const json_t *rep, const char *missing) {
    json_t *r = json_array();
    if (!json_is_true(json_object_get(json_object_get(rep, "workspace"), "writable")))
        add_remedy(r, "the temp root is not writable: set TMPDIR to a writable directory");
    if (!json_is_true(json_object_get(json_object_get(rep, "state_dir"), "writable")))
        add_remedy(r, "the state directory is not writable: fix its permissions or set CODECALC_HOME");
    if (!cc_doc_workers_ok(json_object_get(rep, "workers")))
        add_remedy(r, "a worker binary does not start (see workers): rebuild with `make` and install its libraries "
                      "with scripts/install-deps");
    if (missing) {
        char text[1200];
        snprintf(text, sizeof text, "reduced sandbox: %s. Run as root on a host with namespaces and cgroups "
                                    "(CODECALC_REQUIRE_NATIVE=1 refuses to start without them)", missing);
        add_remedy(r, text);
    }
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(rep, "extras"), i, x) add_remedy(r, json_string_value(json_object_get(x, "remedy")));
    json_array_foreach(json_object_get(rep, "runtimes"), i, x) {
        if (strcmp(json_string_value(json_object_get(x, "status")), "unhealthy") != 0) continue;
        char text[400];
        const char *d = json_string_value(json_object_get(x, "detail"));
        snprintf(text, sizeof text, "runtime %s resolves but does not run%s%s", json_string_value(json_object_get(x, "name")),
                 d ? ": " : "", d ? d : "");
        add_remedy(r, text);
    }
    return r;
}

json_t *cc_doctor_report(bool deep) {
    char bindir[PATH_MAX] = ".";
    cc_server_bindir(bindir, sizeof bindir);
    const json_t *caps = cc_native_caps(bindir);
    char *missing = caps ? cc_native_missing(caps, true) : strdup("the sandbox probe (codecalc-exec --probe) does not run");
    json_t *workers = cc_doc_workers(bindir);
    char why[4400];
    json_t *exec = cc_exec_report(bindir, CC_EXEC_DOCTOR_ARG, 1 << 20, why, sizeof why);
    json_t *runtimes = json_incref(json_object_get(exec, "runtimes")), *tiers, *cache;
    if (!runtimes) runtimes = json_array();
    struct cc_server srv;
    bool have_srv = deep && cc_doc_workers_ok(workers) && cc_server_init(&srv, false, false) == 0;
    struct cc_server *dsrv = have_srv ? &srv : NULL;
    if (dsrv) cc_doc_runtimes_execute(runtimes, dsrv);
    json_t *extras = cc_doc_extras(bindir, workers, dsrv, &cache);
    char exec_bin[PATH_MAX + 32];
    snprintf(exec_bin, sizeof exec_bin, "%s/codecalc-exec", bindir);
    bool backend_ok = json_is_true(json_object_get(json_object_get(workers, cc_pool_defs[CC_POOL_EXEC].name), "serves_table"));
    const char *pyver = "unknown";
    size_t i;
    json_t *row;
    json_array_foreach(runtimes, i, row) if (strcmp(json_string_value(json_object_get(row, "name")), "python3") == 0 &&
                                             json_string_value(json_object_get(row, "version")))
        pyver = json_string_value(json_object_get(row, "version"));
    if (strncmp(pyver, "Python ", 7) == 0) pyver += 7;
    struct cc_inventory inv;
    bool inv_ok = cc_inventory_load(&inv, false) == 0;
    char *skill = cc_doc_skill_file(bindir);
    int abi = landlock_abi();
    json_t *rep = json_object();
    json_object_set_new(rep, "contract_version", json_string(CC_CONTRACT_VERSION));
    json_object_set_new(rep, "codecalc_version", json_string(CC_VERSION));
    json_object_set_new(rep, "python", json_pack("{s:s,s:s}", "version", pyver, "platform", "linux"));
    json_object_set_new(rep, "backend", json_pack("{s:s,s:s,s:s?}", "kind", "native", "binary", exec_bin, "detail", missing));
    json_object_set_new(rep, "execution_providers", providers(json_incref(json_object_get(exec, "providers")), backend_ok, caps));
    json_object_set_new(rep, "strict_runtime", strict_runtime(deep));
    json_object_set_new(rep, "install_sandbox",
                        json_pack("{s:o,s:b,s:s,s:s}", "landlock_abi", abi ? json_integer(abi) : json_null(), "confined",
                                  HAS("mntns"), "mechanism", "native sandbox (read-only host, only the target directory writable)",
                                  "detail", HAS("mntns") ? "installers run in the sandbox; Landlock (ABI 6+) only scopes abstract unix sockets and signals"
                                                        : "installs are not confined on this host"));
    json_object_set_new(rep, "extras", extras);
    json_object_set_new(rep, "grammar_cache", cache);
    json_object_set_new(rep, "status_basis", json_string(deep ? "executed" : "resolved"));
    json_object_set_new(rep, "runtimes", runtimes);
    json_object_set_new(rep, "sandbox", cc_doc_sandbox(caps, (int)json_integer_value(json_object_get(exec, "run_uid")),
                                                       (int)json_integer_value(json_object_get(exec, "run_gid"))));
    if (!exec) json_object_set_new(rep, "exec_report_error", json_string(why));
    json_object_set_new(rep, "workers", workers);
    json_object_set_new(rep, "skill_file", skill ? json_string(skill) : json_null());
    json_object_set_new(rep, "windows_isolation", windows_isolation());
    json_object_set_new(rep, "extensions", extensions());
    json_object_set_new(rep, "disk_quota", inv_ok ? cc_inventory_quota_json(&inv) : json_null());
    json_object_set_new(rep, "tool_groups", tool_groups());
    json_object_set_new(rep, "state_dir", cc_doc_state_dir());
    json_object_set_new(rep, "workspace", cc_doc_workspace());
    json_object_set_new(rep, "audit_log", cc_audit_describe());
    json_object_set_new(rep, "bindir", json_string(bindir));
    json_object_set_new(rep, "runtime_summary", cc_doc_summaries(runtimes, &tiers));
    json_object_set_new(rep, "tier_summary", tiers);
    bool healthy = json_is_true(json_object_get(json_object_get(rep, "workspace"), "writable")) &&
                   json_is_true(json_object_get(json_object_get(rep, "state_dir"), "writable")) &&
                   cc_doc_workers_ok(workers) && !(cc_native_required() && missing);
    json_object_set_new(rep, "healthy", json_boolean(healthy));
    json_object_set_new(rep, "require_native", json_boolean(cc_native_required()));
    json_object_set_new(rep, "remedies", remedies(rep, missing));
    if (inv_ok) cc_inventory_free(&inv);
    if (have_srv) cc_server_free(&srv);
    free(skill);
    free(missing);
    json_decref(exec);
    return rep;
}

int cc_cli_doctor(int argc, char **argv) {
    struct cc_cli_flag flags[] = {{"--json", false, false, NULL}, {"--deep", false, false, NULL}, {NULL, false, false, NULL}};
    if (cc_cli_parse(argc, argv, flags, "usage: codecalc doctor [--json] [--deep]\n") < 0) return 2;
    json_t *rep = cc_doctor_report(flags[1].set);
    if (!rep) {
        fputs("codecalc doctor: out of memory\n", stderr);
        return 1;
    }
    if (flags[0].set) {
        char *text = json_dumps(rep, JSON_INDENT(2) | JSON_SORT_KEYS);
        if (text) printf("%s\n", text);
        free(text);
    } else {
        cc_doctor_print_text(rep, stdout);
    }
    int status = json_is_true(json_object_get(rep, "healthy")) ? 0 : 1;
    json_decref(rep);
    return status;
}
