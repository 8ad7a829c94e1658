/* runtimes_status and update_runtimes (TOOLS.md 3.1.6, 3.6.2 as amended by
 * issue 16; the contract is in docs/contract.md): which package manager
 * installed each runtime here, its installed and newest version, and the
 * command that would update it.
 *
 * The managers are the ones this platform really has: apt (Debian's
 * packages, asked through dpkg-query and apt-cache) and npm (the global
 * packages that carry bun, deno, zig, tsc and tsx). Ownership is found, not
 * assumed: the runtime each language resolves to on the runtime PATH is
 * traced to the dpkg package or the npm global package that holds it; a
 * runtime that belongs to neither is reported unmanaged (updatable null),
 * never as up to date. A manager that cannot be asked is named in
 * manager_errors and contributes no rows. */
#ifndef CC_RUNTIMES_H
#define CC_RUNTIMES_H

#include <jansson.h>
#include <stdbool.h>

#include "workers/common/tool_api.h"

/* Per query command (dpkg-query, apt-cache, npm). */
#define CC_RT_QUERY_TIMEOUT_S 60

/* The runtimes_status result (dry_run: true) for the comma-separated
 * names (NULL or blank: every row). New reference, never NULL except on
 * OOM. */
json_t *cc_runtimes_status(const char *names, cc_wctx *ctx);

/* The argv of one update command (manager "apt" or "npm") for packages
 * (apt: package names; npm: "name@version" specs), with "sudo -n" in front
 * when sudo is true. Malloc'd vector of malloc'd words (cc_argv_free). */
char **cc_rt_update_argv(const char *manager, json_t *packages, bool sudo);

/* Words joined by single spaces. Malloc'd. */
char *cc_rt_join(char *const *argv);

#endif
