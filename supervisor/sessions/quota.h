/* Disk quotas of session workspaces (TOOLS.md 4.6). Every knob is read from
 * the environment on every check; a session's usage is re-measured every
 * time, so a session recovers by itself once space is freed. The total
 * across all sessions is re-measured at most once a second (a walk of the
 * whole root per call was most of a REPL round trip); writes made through
 * the write check are added to it in between.
 *
 * Each check returns NULL when allowed, else a NEW reference to the
 * rejected result (resource_exhausted with the extra fields). */
#ifndef CC_QUOTA_H
#define CC_QUOTA_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

struct cc_quota_cfg {
    uint64_t session_bytes;   /* CODECALC_SESSION_DISK_QUOTA_MB (512) */
    uint64_t total_bytes;     /* CODECALC_TOTAL_DISK_QUOTA_MB (8192) */
    uint64_t artifact_bytes;  /* CODECALC_MAX_ARTIFACT_BYTES (16 MiB) */
    int64_t artifact_count;   /* CODECALC_MAX_ARTIFACT_COUNT (500) */
    uint64_t min_free;        /* CODECALC_MIN_HOST_FREE_MB (256; protocol/host_floor.h) */
};
void cc_quota_read(struct cc_quota_cfg *q);

/* root_fd: the session root; ws_fd: the workspace (both borrowed). */
json_t *cc_quota_precheck(int root_fd, int ws_fd, const char *id);
/* A write of gross bytes changing usage by net bytes; is_new: the file does
 * not exist yet. */
json_t *cc_quota_write_check(int root_fd, int ws_fd, const char *id, uint64_t gross, int64_t net,
                             bool is_new);
/* After code ran: add the disclosure keys to result (never refuses). */
void cc_quota_postcheck(json_t *result, int root_fd, int ws_fd);

/* Drop the cached cross-session total (tests, or after a big deletion). */
void cc_quota_forget_cache(void);

#endif
