/* The audit log (audit.h). */
#include "workers/common/audit.h"
#include "protocol/text_knob.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protocol/home_path.h"
#include "protocol/knob.h"

#define GENERATIONS 2

int cc_audit_path(char *out, size_t cap) {
    const char *env = cc_text(CC_TEXT_AUDIT_LOG);
    if (env && !*env) return 0;
    if (env) return (size_t)snprintf(out, cap, "%s", env) < cap ? 1 : -1;
    char home[PATH_MAX];
    if (cc_home_path(home, sizeof home) < 0) return -1;
    int n = snprintf(out, cap, "%s/audit/audit.log", home);
    return n > 0 && (size_t)n < cap ? 1 : -1;
}

static long long max_bytes(void) { return cc_knob(CC_KNOB_AUDIT_MAX_MB); }

/* Replace every occurrence of secret in s (a new string, or NULL when s has
 * none). */
static char *redact_one(const char *s, const char *secret) {
    size_t sl = strlen(secret);
    if (sl < 4 || !strstr(s, secret)) return NULL; /* a tiny "secret" would redact everything */
    static const char mark[] = "[REDACTED]";
    size_t cap = strlen(s) / sl * (sizeof mark) + strlen(s) + 1;
    char *out = malloc(cap), *w = out;
    if (!out) return NULL;
    for (const char *p = s; *p;) {
        const char *hit = strstr(p, secret);
        size_t n = hit ? (size_t)(hit - p) : strlen(p);
        memcpy(w, p, n);
        w += n;
        p += n;
        if (!hit) break;
        memcpy(w, mark, sizeof mark - 1);
        w += sizeof mark - 1;
        p += sl;
    }
    *w = '\0';
    return out;
}

/* The credential values to hide: each variable and its part after a scheme
 * ("Bearer abc" -> "abc"). */
static size_t secrets(const char *out[6]) {
    static const char *const vars[] = {"CODECALC_HTTP_TOKEN", "CODECALC_STRICT_AUTHORIZATION",
                                       "CODECALC_PISTON_AUTHORIZATION"};
    size_t n = 0;
    for (size_t i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v) continue;
        out[n++] = v;
        const char *sp = strchr(v, ' ');
        if (sp && sp[1]) out[n++] = sp + 1;
    }
    return n;
}

static void redact(json_t *j, const char *const *sec, size_t nsec) {
    if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach(j, k, v) redact(v, sec, nsec);
    } else if (json_is_array(j)) {
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v) redact(v, sec, nsec);
    } else if (json_is_string(j)) {
        for (size_t i = 0; i < nsec; i++) {
            char *r = redact_one(json_string_value(j), sec[i]);
            if (r) json_string_set(j, r);
            free(r);
        }
    }
}

static void mkdir_parent(const char *path) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0700);
            *p = '/';
        }
    mkdir(dir, 0700);
}

/* audit.log -> .1 -> .2 (the oldest generation is dropped). */
static void rotate(const char *path) {
    char from[PATH_MAX + 16], to[PATH_MAX + 16];
    for (int g = GENERATIONS; g >= 1; g--) {
        snprintf(to, sizeof to, "%s.%d", path, g);
        if (g == 1) snprintf(from, sizeof from, "%s", path);
        else snprintf(from, sizeof from, "%s.%d", path, g - 1);
        rename(from, to);
    }
}

static void timestamp(char out[40]) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(out, 40, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, 40 - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

/* The live file, open for appending and locked. Another writer may rotate
 * it away while we wait for the lock: then the descriptor names a rotated
 * generation, and the live file is a new one, so open again. -1 when it
 * cannot be had. */
static int open_locked(const char *path) {
    for (int tries = 0; tries < 8; tries++) {
        int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) return -1;
        struct stat held, live;
        if (flock(fd, LOCK_EX) == 0 && fstat(fd, &held) == 0 && lstat(path, &live) == 0 &&
            held.st_dev == live.st_dev && held.st_ino == live.st_ino)
            return fd;
        close(fd);
    }
    return -1;
}

void cc_audit_event(const char *event_type, const char *run_id, const char *session_id,
                    const char *decision, const char *reason, const json_t *metadata) {
    char path[PATH_MAX];
    if (cc_audit_path(path, sizeof path) != 1) return;
    char ts[40];
    timestamp(ts);
    json_t *ev = metadata ? json_deep_copy(metadata) : json_object();
    if (!ev) return;
    json_object_set_new(ev, "timestamp", json_string(ts));
    json_object_set_new(ev, "event_type", json_string(event_type));
    json_object_set_new(ev, "run_id", run_id ? json_string(run_id) : json_null());
    json_object_set_new(ev, "session_id", session_id ? json_string(session_id) : json_null());
    json_object_set_new(ev, "decision", decision ? json_string(decision) : json_null());
    json_object_set_new(ev, "reason", reason ? json_string(reason) : json_null());
    const char *sec[6];
    redact(ev, sec, secrets(sec));
    char *line = json_dumps(ev, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    json_decref(ev);
    if (!line) return;
    mkdir_parent(path);
    int fd = open_locked(path);
    if (fd >= 0) {
        struct stat st;
        size_t len = strlen(line);
        if (fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size + (long long)len + 1 > max_bytes()) {
            /* Rotate under the lock, then append to the fresh file (locked
             * in turn: a writer that waited meanwhile sees the rotation). */
            rotate(path);
            close(fd);
            fd = open_locked(path);
        }
        line[len] = '\n';
        if (fd >= 0 && write(fd, line, len + 1) < 0) { /* best effort */
        }
    }
    if (fd >= 0) close(fd);
    free(line);
}

json_t *cc_audit_describe(void) {
    char path[PATH_MAX];
    int on = cc_audit_path(path, sizeof path);
    if (on != 1)
        return json_pack("{s:n,s:b,s:s}", "path", "enabled", 0, "detail",
                         on == 0 ? "disabled: CODECALC_AUDIT_LOG is set to empty" : "no path could be formed");
    struct stat st;
    bool exists = stat(path, &st) == 0;
    json_t *rotated = json_array();
    for (int g = 1; g <= GENERATIONS; g++) {
        char p[PATH_MAX + 16];
        snprintf(p, sizeof p, "%s.%d", path, g);
        if (access(p, F_OK) == 0) json_array_append_new(rotated, json_string(p));
    }
    return json_pack("{s:s,s:b,s:o,s:I,s:i,s:o}", "path", path, "enabled", 1, "size_bytes",
                     exists ? json_integer((json_int_t)st.st_size) : json_null(), "rotate_at_bytes",
                     (json_int_t)max_bytes(), "generations", GENERATIONS, "rotated", rotated);
}
