/* The run directory runs/<id>/: spec in, result out (layout in
 * workers/exec/shepherd.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/json_convert.h"
#include "supervisor/runs/runs.h"
#include "workers/exec/shepherd.h"

/* result.json holds at most the capped output twice over plus the receipt;
 * this bound only protects the server from a damaged file. */
#define RESULT_MAX_BYTES (256u << 20)

int cc_runs_path(const struct cc_runs *rs, const char *id, const char *name, char *out, size_t cap) {
    int n = name ? snprintf(out, cap, "%s/%s/%s", rs->dir, id, name)
                 : snprintf(out, cap, "%s/%s", rs->dir, id);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int cc_runs_write_spec(const struct cc_runs *rs, const char *id, const char *json, size_t len,
                       char *err, size_t errcap) {
    char dir[4400], path[4500];
    if (cc_runs_path(rs, id, NULL, dir, sizeof dir) < 0 ||
        cc_runs_path(rs, id, CC_SHEPHERD_SPEC_FILE, path, sizeof path) < 0) {
        snprintf(err, errcap, "the run directory path is too long");
        return errno = ENAMETOOLONG, -1;
    }
    /* runs/ normally exists (made at start-up): only when the run's own
     * mkdir says ENOENT is it (re)created, saving a system call per run. */
    int made = mkdir(dir, 0700);
    if (made < 0 && errno == ENOENT) {
        if (mkdir(rs->dir, 0700) < 0 && errno != EEXIST) {
            int e = errno;
            snprintf(err, errcap, "cannot create the runs directory %s: %s", rs->dir, strerror(e));
            return errno = e, -1;
        }
        made = mkdir(dir, 0700);
    }
    if (made < 0) {
        int e = errno;
        snprintf(err, errcap, "cannot create the run directory %s: %s", dir, strerror(e));
        return errno = e, -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 || cc_write_all(fd, json, len) < 0 || close(fd) < 0) {
        int e = errno;
        if (fd >= 0) close(fd);
        snprintf(err, errcap, "cannot write the run spec %s: %s", path, strerror(e));
        unlink(path);
        rmdir(dir);
        return errno = e, -1;
    }
    return 0;
}

/* The JSON object in the run's file name (at most cap bytes), or NULL with
 * errno (EINVAL: not a JSON object). */
static json_t *read_object(const struct cc_runs *rs, const char *id, const char *name, size_t cap) {
    char path[4500];
    if (cc_runs_path(rs, id, name, path, sizeof path) < 0) return errno = ENAMETOOLONG, NULL;
    size_t len;
    char *text = cc_read_file(path, O_NOFOLLOW, cap, &len);
    if (!text) return NULL;
    json_error_t je;
    json_t *doc = cc_json_parse(text, len, &je);
    free(text);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return errno = EINVAL, NULL;
    }
    return doc;
}

json_t *cc_runs_read_result(const struct cc_runs *rs, const char *id) {
    json_t *doc = read_object(rs, id, CC_SHEPHERD_RESULT_FILE, RESULT_MAX_BYTES);
    if (doc && !json_is_object(json_object_get(doc, "result"))) {
        json_decref(doc);
        return errno = EINVAL, NULL;
    }
    return doc;
}

json_t *cc_runs_read_partial(const struct cc_runs *rs, const char *id) {
    /* Two capped streams, JSON-escaped (at most 6 bytes a byte), and counts. */
    return read_object(rs, id, CC_SHEPHERD_PARTIAL_FILE, 12 * CC_SHEPHERD_PARTIAL_CAP + 4096);
}

bool cc_runs_result_exists(const struct cc_runs *rs, const char *id) {
    char path[4500];
    return cc_runs_path(rs, id, CC_SHEPHERD_RESULT_FILE, path, sizeof path) == 0 &&
           access(path, F_OK) == 0;
}

int cc_runs_read_pidfile(const struct cc_runs *rs, const char *id, pid_t *pid, uint64_t *start) {
    char path[4500];
    if (cc_runs_path(rs, id, CC_SHEPHERD_PID_FILE, path, sizeof path) < 0) return -1;
    size_t len;
    char *text = cc_read_file(path, O_NOFOLLOW, 256, &len);
    if (!text) return -1;
    long p = 0;
    unsigned long long s = 0;
    int ok = sscanf(text, "%ld %llu", &p, &s) == 2 && p > 0;
    free(text);
    if (!ok) return -1;
    *pid = (pid_t)p;
    *start = s;
    return 0;
}

int cc_runs_touch_cancel(const struct cc_runs *rs, const char *id) {
    char path[4500];
    if (cc_runs_path(rs, id, CC_SHEPHERD_CANCEL_FILE, path, sizeof path) < 0) return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return -1;
    return close(fd);
}

/* The run directory is flat (the shepherd writes only files), so one level
 * of unlinkat suffices; anything else makes rmdir fail, which is reported. */
int cc_runs_remove_dir(const struct cc_runs *rs, const char *id) {
    char dir[4400];
    if (!cc_run_id_valid(id) || cc_runs_path(rs, id, NULL, dir, sizeof dir) < 0) return -1;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (dfd < 0) return errno == ENOENT ? 0 : -1;
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlinkat(dfd, e->d_name, 0);
    closedir(d);
    return rmdir(dir);
}
