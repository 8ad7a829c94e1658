/* Session quotas: measure, compare, explain. The ordering of checks follows
 * TOOLS.md 4.6 (pre-check: session, total, host, count; write check:
 * artifact size, count if new, then the byte checks only for growth). */
#include "supervisor/sessions/quota.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "protocol/host_floor.h"
#include "protocol/knob.h"
#include "protocol/monotonic.h"
#include "supervisor/sessions/walk.h"
#include "workers/common/tool_api.h"

void cc_quota_read(struct cc_quota_cfg *q) {
    q->session_bytes = (uint64_t)cc_knob(CC_KNOB_SESSION_DISK_QUOTA_MB);
    q->total_bytes = (uint64_t)cc_knob(CC_KNOB_TOTAL_DISK_QUOTA_MB);
    q->artifact_bytes = (uint64_t)cc_knob(CC_KNOB_MAX_ARTIFACT_BYTES);
    q->artifact_count = cc_knob(CC_KNOB_MAX_ARTIFACT_COUNT);
    q->min_free = cc_host_floor_bytes();
}

static json_t *refuse_bytes(const char *scope, const char *id, uint64_t usage, uint64_t incoming,
                            uint64_t quota) {
    json_t *r;
    if (scope[0] == 's') {
        r = cc_err("resource_exhausted",
                   "session '%s' disk quota exceeded: %llu bytes would exceed the %llu-byte "
                   "per-session limit (CODECALC_SESSION_DISK_QUOTA_MB)",
                   id, (unsigned long long)(usage + incoming), (unsigned long long)quota);
        json_object_set_new(r, "remedy", json_string(
            "delete files, overwrite a large file with a smaller one, call session_stop, or raise "
            "CODECALC_SESSION_DISK_QUOTA_MB"));
    } else {
        r = cc_err("resource_exhausted",
                   "global session disk quota exceeded: %llu bytes across all sessions would exceed "
                   "the %llu-byte total limit (CODECALC_TOTAL_DISK_QUOTA_MB)",
                   (unsigned long long)(usage + incoming), (unsigned long long)quota);
        json_object_set_new(r, "remedy", json_string(
            "free space in other sessions (session_stop) or raise CODECALC_TOTAL_DISK_QUOTA_MB"));
    }
    json_object_set_new(r, "usage_bytes", json_integer((json_int_t)usage));
    json_object_set_new(r, "quota_bytes", json_integer((json_int_t)quota));
    json_object_set_new(r, "scope", json_string(scope));
    return r;
}

static json_t *refuse_host(uint64_t free_b, uint64_t min) {
    json_t *r = cc_err("resource_exhausted",
                       "host free disk space (%llu bytes) is below the configured floor (%llu bytes, "
                       "CODECALC_MIN_HOST_FREE_MB)",
                       (unsigned long long)free_b, (unsigned long long)min);
    json_object_set_new(r, "remedy", json_string("free disk space on the host or lower CODECALC_MIN_HOST_FREE_MB"));
    json_object_set_new(r, "free_bytes", json_integer((json_int_t)free_b));
    json_object_set_new(r, "min_free_bytes", json_integer((json_int_t)min));
    json_object_set_new(r, "scope", json_string("host"));
    return r;
}

static json_t *refuse_count(const char *id, int64_t n, int64_t max, bool at_cap) {
    json_t *r = at_cap
        ? cc_err("resource_exhausted", "session '%s' already has %lld artifact file(s), at the "
                 "%lld-file cap (CODECALC_MAX_ARTIFACT_COUNT)", id, (long long)n, (long long)max)
        : cc_err("resource_exhausted", "session '%s' has %lld artifact file(s), over the %lld-file "
                 "cap (CODECALC_MAX_ARTIFACT_COUNT)", id, (long long)n, (long long)max);
    json_object_set_new(r, "remedy", json_string("delete files or raise CODECALC_MAX_ARTIFACT_COUNT"));
    json_object_set_new(r, "artifact_count", json_integer(n));
    json_object_set_new(r, "max_artifact_count", json_integer(max));
    return r;
}

/* The total across every session is a walk of the whole root: on the REPL
 * path (two checks per call) it dominated the round trip. It is measured
 * at most once per GLOBAL_TTL_MS, with this process's own writes (net
 * growth through cc_quota_write_check) added in between; the per-session
 * usage stays exact on every check. */
#define GLOBAL_TTL_MS 1000

static struct {
    dev_t dev;
    ino_t ino;
    int64_t at_ms;
    struct cc_usage u;
    bool valid;
} global_cache;

static int global_usage(int root_fd, struct cc_usage *u) {
    struct stat st;
    if (fstat(root_fd, &st) != 0) return -1;
    int64_t now = cc_now_ms();
    if (global_cache.valid && global_cache.dev == st.st_dev && global_cache.ino == st.st_ino &&
        now - global_cache.at_ms < GLOBAL_TTL_MS) {
        *u = global_cache.u;
        return 0;
    }
    if (cc_walk_usage(root_fd, u) != 0) return -1;
    global_cache.dev = st.st_dev;
    global_cache.ino = st.st_ino;
    global_cache.at_ms = now;
    global_cache.u = *u;
    global_cache.valid = true;
    return 0;
}

void cc_quota_forget_cache(void) { global_cache.valid = false; }

/* Free bytes for an unprivileged writer; UINT64_MAX when unmeasurable. */
static uint64_t host_free(int fd) {
    struct cc_disk_free f;
    return cc_disk_free_fd(fd, &f) ? f.bytes : UINT64_MAX;
}

/* The three byte checks with incoming bytes; s: the session's usage
 * (measured by the caller, NULL when it could not be). */
static json_t *byte_checks(const struct cc_quota_cfg *q, int root_fd, int ws_fd, const char *id,
                           uint64_t incoming, const struct cc_usage *s) {
    struct cc_usage t;
    if (s && s->bytes + incoming > q->session_bytes)
        return refuse_bytes("session", id, s->bytes, incoming, q->session_bytes);
    if (global_usage(root_fd, &t) == 0 && t.bytes + incoming > q->total_bytes)
        return refuse_bytes("global", id, t.bytes, incoming, q->total_bytes);
    uint64_t f = host_free(ws_fd);
    if (f != UINT64_MAX && (f < incoming || f - incoming < q->min_free))
        return refuse_host(f, q->min_free);
    return NULL;
}

json_t *cc_quota_precheck(int root_fd, int ws_fd, const char *id) {
    struct cc_quota_cfg q;
    cc_quota_read(&q);
    struct cc_usage s;
    bool have = cc_walk_usage(ws_fd, &s) == 0;
    json_t *r = byte_checks(&q, root_fd, ws_fd, id, 0, have ? &s : NULL);
    if (r) return r;
    if (have && s.artifacts > q.artifact_count)
        return refuse_count(id, s.artifacts, q.artifact_count, false);
    return NULL;
}

json_t *cc_quota_write_check(int root_fd, int ws_fd, const char *id, uint64_t gross, int64_t net,
                             bool is_new) {
    struct cc_quota_cfg q;
    cc_quota_read(&q);
    if (gross > q.artifact_bytes) {
        json_t *r = cc_err("resource_exhausted", "write of %llu bytes exceeds the per-artifact size "
                           "cap of %llu bytes (CODECALC_MAX_ARTIFACT_BYTES)",
                           (unsigned long long)gross, (unsigned long long)q.artifact_bytes);
        json_object_set_new(r, "remedy", json_string("write a smaller file or raise CODECALC_MAX_ARTIFACT_BYTES"));
        json_object_set_new(r, "incoming_bytes", json_integer((json_int_t)gross));
        json_object_set_new(r, "max_artifact_bytes", json_integer((json_int_t)q.artifact_bytes));
        return r;
    }
    struct cc_usage s;
    bool have = cc_walk_usage(ws_fd, &s) == 0;
    if (is_new && have && s.artifacts >= q.artifact_count)
        return refuse_count(id, s.artifacts, q.artifact_count, true);
    /* Shrinking or same-size writes are the in-band way back under quota. */
    if (net <= 0) return NULL;
    json_t *r = byte_checks(&q, root_fd, ws_fd, id, (uint64_t)net, have ? &s : NULL);
    /* The write will land: keep the cached total honest until the next walk. */
    if (!r && global_cache.valid) global_cache.u.bytes += (uint64_t)net;
    return r;
}

void cc_quota_postcheck(json_t *result, int root_fd, int ws_fd) {
    struct cc_quota_cfg q;
    cc_quota_read(&q);
    struct cc_usage s, t;
    if (cc_walk_usage(ws_fd, &s) != 0) return;
    if (s.bytes > q.session_bytes) {
        json_object_set_new(result, "disk_quota_exceeded", json_true());
        json_object_set_new(result, "disk_usage_bytes", json_integer((json_int_t)s.bytes));
        json_object_set_new(result, "disk_quota_bytes", json_integer((json_int_t)q.session_bytes));
    }
    if (global_usage(root_fd, &t) == 0 && t.bytes > q.total_bytes) {
        json_object_set_new(result, "global_disk_quota_exceeded", json_true());
        json_object_set_new(result, "global_disk_usage_bytes", json_integer((json_int_t)t.bytes));
        json_object_set_new(result, "global_disk_quota_bytes", json_integer((json_int_t)q.total_bytes));
    }
    if (s.artifacts > q.artifact_count) {
        json_object_set_new(result, "artifact_count_exceeded", json_true());
        json_object_set_new(result, "artifact_count", json_integer(s.artifacts));
        json_object_set_new(result, "max_artifact_count", json_integer(q.artifact_count));
    }
}
