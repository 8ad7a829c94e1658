/* The execution providers this server can route to (TOOLS.md 3.1.2, 10.1):
 * `local` (our sandbox) and the `linux-strict` placeholder, which advertises
 * a strict boundary but refuses every run until a strict service exists. */
#include "workers/exec/execute.h"

#include "workers/exec/receipt.h"
#include "workers/sandbox/sandbox.h"

bool cc_local_network_control(void) {
    const struct sbx_caps *c = sbx_probe();
    return c && c->seccomp;
}

static json_t *capabilities(bool execute, bool stream, bool health, bool discovery, bool workdir,
                            bool network) {
    return json_pack("{s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b}",
                     "execute", execute, "managed_runs", 0, "inspect", 0, "stream", stream,
                     "cancel", 0, "cleanup", 0, "files", 0, "artifacts", 0, "sessions", 0,
                     "health", health, "runtime_discovery", discovery, "workdir", workdir,
                     "network_control", network);
}

static json_t *descriptor(const char *id, const char *host_class, bool strict, json_t *caps) {
    return json_pack("{s:s, s:s, s:s, s:s, s:b, s:o}", "interface_version",
                     CC_PROVIDER_INTERFACE_VERSION, "provider_id", id, "provider_version",
                     CC_SERVER_VERSION, "host_class", host_class, "strict", strict,
                     "capabilities", caps);
}

json_t *cc_list_providers_json(void) {
    /* Sorted by provider_id: "linux-strict" < "local". */
    return json_pack("[o, o]",
                     descriptor("linux-strict", "linux", true,
                                capabilities(true, false, false, false, false, false)),
                     descriptor("local", "local", false,
                                capabilities(true, true, true, true, true,
                                             cc_local_network_control())));
}
