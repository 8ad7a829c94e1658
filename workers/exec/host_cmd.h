/* Running a host command outside the sandbox, for the runtime tools
 * (runtimes_status, update_runtimes): a package manager must see and change
 * the real host, so it cannot run in a box. The command gets a scrubbed
 * environment, /dev/null as stdin, its own process group (killed whole at
 * the timeout or when the call is cancelled) and bounded capture.
 *
 * Ownership: cc_host_cmd_free releases what a result holds. */
#ifndef CC_HOST_CMD_H
#define CC_HOST_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "workers/common/tool_api.h"

struct cc_host_cmd {
    bool started;            /* spawned (false: spawn_error says why) */
    char spawn_error[160];
    bool timed_out;          /* killed at the timeout */
    bool cancelled;          /* killed because the call was cancelled */
    bool exited;
    int exit_code;           /* valid when exited */
    int term_signal;
    char *out;               /* stdout: its last cap bytes, NUL-terminated (owned) */
    size_t out_len;
    char *err;               /* stderr (merged into out when asked), likewise */
    size_t err_len;
};

/* Run argv[0] (an absolute path) with the environment of host_cmd_env for
 * at most timeout_s seconds, keeping the last cap bytes of each stream
 * (merge: stderr goes into out). ctx may be NULL. Always fills r. */
void cc_host_cmd_run(const char *const *argv, int timeout_s, size_t cap, bool merge, cc_wctx *ctx,
                     struct cc_host_cmd *r);
void cc_host_cmd_free(struct cc_host_cmd *r);

/* The manager command cmd on the runtime PATH, else on the server's PATH.
 * Malloc'd, or NULL. */
char *cc_host_cmd_find(const char *cmd);

/* A sentence for a command that did not succeed ("exit status 2: <last
 * line of stderr>", "timed out after 60 s", "not found", ...), into buf. */
const char *cc_host_cmd_why(const struct cc_host_cmd *r, int timeout_s, char *buf, size_t cap);

#endif
