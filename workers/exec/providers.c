/* The execution providers this server can route to (TOOLS.md 3.1.2, 10.1,
 * as amended by issue 11.13): only what works. `local`, our sandbox, is the
 * one provider; the `linux-strict` placeholder, which refused every run, is
 * no longer listed or accepted. Capabilities say what local really does. */
#include "workers/exec/execute.h"

#include "workers/exec/receipt.h"
#include "workers/sandbox/sandbox.h"

bool cc_local_network_control(void) {
    const struct sbx_caps *c = sbx_probe();
    return c && c->seccomp;
}

/* execute_code(_stream), cancellation (notifications/cancelled kills the
 * run), background runs (run_submit, run_inspect, run_cancel), sessions with
 * their files and artifacts, runtimes_status, list_languages, a work
 * directory per run. No separate cleanup call: runs expire by TTL. */
static json_t *local_capabilities(void) {
    return json_pack("{s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b}",
                     "execute", 1, "managed_runs", 1, "inspect", 1, "stream", 1, "cancel", 1,
                     "cleanup", 0, "files", 1, "artifacts", 1, "sessions", 1, "health", 1,
                     "runtime_discovery", 1, "workdir", 1, "network_control",
                     cc_local_network_control());
}

json_t *cc_list_providers_json(void) {
    return json_pack("[{s:s, s:s, s:s, s:s, s:b, s:o}]", "interface_version",
                     CC_PROVIDER_INTERFACE_VERSION, "provider_id", "local", "provider_version",
                     CC_SERVER_VERSION, "host_class", "local", "strict", 0, "capabilities",
                     local_capabilities());
}
