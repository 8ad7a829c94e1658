/* Dependency environments: hit, install, seal, publish, evict (deps_env.h). */
#include "workers/exec/deps_env.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/knob.h"
#include "protocol/monotonic.h"
#include "protocol/strbuf.h"
#include "workers/common/pkg_managers.h"
#include "workers/common/tool_api.h"
#include "workers/exec/execute.h"
#include "workers/exec/install.h"
#include "workers/sandbox/rundir.h"
#include "workers/sandbox/sandbox.h"

#define MAX_DEPTH 256

void cc_deps_share(void) {
    char root[PATH_MAX];
    /* The supervisor made the directory before it started any worker
     * (cc_deps_make_root): a worker that outlives its server must not
     * re-create a state directory that is being removed. */
    if (cc_deps_root(root, sizeof root)[0]) sbx_share_readonly(root, CC_DEPS_VIEW);
}

/* ---- walking an environment -------------------------------------------- */

struct walk {
    bool seal;               /* make it root-owned and read-only; else measure */
    uint64_t bytes, limit;   /* regular-file bytes so far; limit 0 = none */
    const char *why;         /* why the tree was refused */
};

static int walk_dir(int dfd, struct walk *w, int depth);

static int walk_entry(int dfd, const char *name, struct walk *w, int depth) {
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return -1;
    bool root = geteuid() == 0;
    if (S_ISLNK(st.st_mode)) {
        if (w->seal && root && fchownat(dfd, name, 0, 0, AT_SYMLINK_NOFOLLOW) != 0) return -1;
        return 0;
    }
    if (S_ISDIR(st.st_mode)) {
        int cfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (cfd < 0) return -1;
        int rc = walk_dir(cfd, w, depth + 1);
        if (rc == 0 && w->seal && ((root && fchown(cfd, 0, 0) != 0) || fchmod(cfd, 0555) != 0)) rc = -1;
        close(cfd);
        return rc;
    }
    if (!S_ISREG(st.st_mode)) {
        w->why = "the installer left a device, FIFO or socket in it";
        return -1;
    }
    /* A hard link could make the seal change a file outside the tree. */
    if (st.st_nlink > 1) {
        w->why = "the installer left a hard link in it";
        return -1;
    }
    w->bytes += (uint64_t)st.st_size;
    if (w->limit && w->bytes > w->limit) {
        w->why = "it is larger than the workdir quota";
        return -1;
    }
    if (!w->seal) return 0;
    if (root && fchownat(dfd, name, 0, 0, AT_SYMLINK_NOFOLLOW) != 0) return -1;
    return fchmodat(dfd, name, (st.st_mode & 0111) ? 0555 : 0444, 0);
}

static int walk_dir(int dfd, struct walk *w, int depth) {
    if (depth > MAX_DEPTH) {
        w->why = "its directories nest deeper than 256 levels";
        return -1;
    }
    int dup_fd = dup(dfd);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0) close(dup_fd);
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        rc = walk_entry(dfd, e->d_name, w, depth);
    }
    closedir(d);
    return rc;
}

/* ---- entries -------------------------------------------------------------- */

/* Open and share-lock the published entry; -1 when it is not there (or was
 * evicted between the open and the lock). */
static int hold_entry(const char *dir) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat a, b;
    if (flock(fd, LOCK_SH) != 0 || fstat(fd, &a) != 0 || lstat(dir, &b) != 0 || a.st_ino != b.st_ino ||
        a.st_dev != b.st_dev) {
        close(fd);
        return -1;
    }
    futimens(fd, NULL); /* the LRU clock; fails harmlessly where not ours */
    return fd;
}

static void remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return;
    struct cc_rundir rd = {.dev = st.st_dev, .ino = st.st_ino, .have_id = true};
    snprintf(rd.path, sizeof rd.path, "%s", path);
    (void)cc_rundir_remove(&rd);
}

static bool is_key(const char *n) {
    return strlen(n) == 64 && strspn(n, "0123456789abcdef") == 64;
}

/* Staging directories of processes that are gone ("codecalc-<pid>-..."). */
static bool stale_staging(const char *n) {
    long pid;
    return sscanf(n, "codecalc-%ld-", &pid) == 1 && pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

struct entry {
    char name[65];
    struct timespec used;
    uint64_t bytes;
};

static int by_age(const void *a, const void *b) {
    const struct timespec *x = &((const struct entry *)a)->used, *y = &((const struct entry *)b)->used;
    return x->tv_sec != y->tv_sec ? (x->tv_sec < y->tv_sec ? -1 : 1)
                                  : (x->tv_nsec < y->tv_nsec ? -1 : x->tv_nsec > y->tv_nsec);
}

/* Keep the cache under CODECALC_DEPS_CACHE_MB: least recently used entries
 * go first, never one in use (its holders share-lock it) or keep. */
static void evict(const char *root, const char *keep) {
    DIR *d = opendir(root);
    if (!d) return;
    struct entry *list = NULL;
    size_t n = 0;
    uint64_t total = 0, cap = (uint64_t)cc_knob(CC_KNOB_DEPS_CACHE_MB) << 20;
    char path[PATH_MAX + 512];
    for (struct dirent *e; (e = readdir(d));) {
        snprintf(path, sizeof path, "%s/%s", root, e->d_name);
        if (stale_staging(e->d_name)) remove_tree(path);
        struct stat st;
        if (!is_key(e->d_name) || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct walk w = {0};
        if (fd >= 0) walk_dir(fd, &w, 0), close(fd);
        struct entry *g = realloc(list, (n + 1) * sizeof *list);
        if (!g) break;
        list = g;
        memcpy(list[n].name, e->d_name, 64); /* is_key: exactly 64 characters */
        list[n].name[64] = '\0';
        list[n].used = st.st_mtim;
        list[n].bytes = w.bytes;
        total += w.bytes;
        n++;
    }
    closedir(d);
    qsort(list, n, sizeof *list, by_age);
    for (size_t i = 0; i < n && total > cap; i++) {
        if (!strcmp(list[i].name, keep)) continue;
        snprintf(path, sizeof path, "%s/%s", root, list[i].name);
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            /* Unpublish first (one rename), then remove at leisure. */
            char gone[PATH_MAX + 512];
            snprintf(gone, sizeof gone, "%s/codecalc-%ld-evicted-%s", root, (long)getpid(), list[i].name);
            if (rename(path, gone) == 0) {
                remove_tree(gone);
                total -= list[i].bytes;
            }
        }
        close(fd);
    }
    free(list);
}

/* ---- install -------------------------------------------------------------- */

static json_t *install_failed(json_t *e, int64_t ms) {
    const char *why = json_string_value(json_object_get(e, "error"));
    char *msg = NULL;
    if (asprintf(&msg, "dependencies could not be installed, nothing was run: %s", why ? why : "") >= 0)
        json_object_set_new(e, "error", json_string(msg));
    free(msg);
    json_object_set_new(e, "phase", json_string("install"));
    json_object_set_new(e, "install_ms", json_integer(ms));
    return e;
}

/* Seal the staging tree; NULL, or the refusal. */
static json_t *seal(const char *staging) {
    /* the workdir quota, in bytes as the session quota checks read it */
    uint64_t quota = (uint64_t)cc_knob(CC_KNOB_SESSION_DISK_QUOTA_MB);
    struct walk w = {.seal = true, .limit = quota};
    int fd = open(staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int rc = fd < 0 ? -1 : walk_dir(fd, &w, 0);
    if (rc == 0 && ((geteuid() == 0 && fchown(fd, 0, 0) != 0) || fchmod(fd, 0555) != 0)) rc = -1;
    int e = errno;
    if (fd >= 0) close(fd);
    if (rc == 0) return NULL;
    if (w.why && strstr(w.why, "quota"))
        return cc_err("resource_exhausted", "the installed environment is over %llu bytes and %s "
                      "(CODECALC_SESSION_DISK_QUOTA_MB); it was not kept", (unsigned long long)quota, w.why);
    if (w.why) return cc_err("validation", "the installed environment was refused: %s", w.why);
    return cc_err("internal", "cannot seal the installed environment: %s", strerror(e));
}

static char *joined(const struct cc_deps *d) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    for (size_t i = 0; i < d->n; i++) cc_sb_printf(&sb, "%s%s", i ? " " : "", d->specs[i]);
    cc_sb_putc(&sb, '\0');
    return sb.data;
}

static json_t *install(struct cc_deps *d, const char *root, int (*stop)(void *), void *stop_ud) {
    const struct cc_pkg_ecosystem *eco = cc_pkg_ecosystem(d->eco);
    const char *runs_as = eco ? cc_pkg_find_installer(eco, NULL) : NULL;
    const char *flag = NULL;
    char *script = runs_as ? cc_pkg_script(runs_as, (const char *const *)d->specs, d->n, &flag) : NULL;
    if (!script) return cc_err("dependency_missing", "no installer for %s dependencies is available here", d->lang);
    struct cc_rundir rd;
    if (cc_rundir_create_on_disk(root, NULL, 0, &rd) != 0) {
        free(script);
        return cc_err("internal", "cannot create a staging directory in %s: %s", root, strerror(errno));
    }
    char *what = joined(d);
    struct cc_install_run in = {.lang = d->lang, .spec = what, .target = rd.path, .script = script,
                                .no_exec_flag = flag, .timeout_s = CC_DEPS_INSTALL_TIMEOUT_S,
                                .scratch_caches = true, .stop = stop, .stop_ud = stop_ud};
    json_t *tail = NULL, *un = NULL;
    json_t *e = cc_install_sandboxed(&in, &tail, &un);
    json_decref(tail);
    json_decref(un);
    free(script);
    free(what);
    if (!e) e = seal(rd.path);
    /* Publish with one rename; a set another run published first wins. */
    if (!e && rename(rd.path, d->dir) != 0 && errno != EEXIST && errno != ENOTEMPTY)
        e = cc_err("internal", "cannot publish the environment at %s: %s", d->dir, strerror(errno));
    remove_tree(rd.path); /* gone after a rename; the staging tree otherwise */
    return e;
}

json_t *cc_deps_prepare(struct cc_deps *d, bool may_install, int (*stop)(void *), void *stop_ud,
                        struct cc_deps_use *use) {
    memset(use, 0, sizeof *use);
    use->lock_fd = -1;
    snprintf(use->view, sizeof use->view, "%s/%s", CC_DEPS_VIEW, d->key);
    if ((use->lock_fd = hold_entry(d->dir)) >= 0) {
        use->cached = true;
        return NULL;
    }
    if (!may_install)
        return cc_err("validation", "the dependencies left the install cache just now and installing them needs "
                      "the network, which this run may not use; run again with the network allowed");
    char root[PATH_MAX];
    cc_deps_root(root, sizeof root);
    int64_t t0 = cc_now_ms();
    json_t *e = install(d, root, stop, stop_ud);
    use->install_ms = cc_now_ms() - t0;
    if (!e && (use->lock_fd = hold_entry(d->dir)) < 0)
        e = cc_err("internal", "the installed environment vanished before the run");
    if (e) return install_failed(e, use->install_ms);
    evict(root, d->key);
    return NULL;
}

void cc_deps_release(struct cc_deps_use *use) {
    if (use->lock_fd >= 0) close(use->lock_fd);
    use->lock_fd = -1;
}

json_t *cc_deps_report(const struct cc_deps *d, const struct cc_deps_use *use) {
    json_t *specs = json_array();
    for (size_t i = 0; i < d->n; i++) json_array_append_new(specs, json_string(d->specs[i]));
    return json_pack("{s:o,s:b,s:I}", "installed", specs, "cached", use->cached, "install_ms",
                     (json_int_t)use->install_ms);
}
