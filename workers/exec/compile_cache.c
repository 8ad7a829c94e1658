/* The compile cache: keying, open, atomic store, LRU eviction. */
#include "workers/exec/compile_cache.h"

#include "protocol/fdio.h"
#include "protocol/home_path.h"
#include "protocol/knob.h"
#include "protocol/sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STALE_TMP_S 3600

#define LRU_GRAIN_S 60

static int mkdir_one(const char *p) {
    return (mkdir(p, 0700) == 0 || errno == EEXIST) ? 0 : -1;
}

/* The state directory (protocol/home_path.h; malloc'd), or NULL. */
static char *state_base(void) {
    char home[PATH_MAX];
    return cc_home_path(home, sizeof home) == 0 ? strdup(home) : NULL;
}

/* base, base/cache and base/cache/v2 (v2: entries are the artifacts
 * themselves; v1 entries had a header). */
static int make_dirs(const char *dir) {
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) return -1;
    char *v2 = strrchr(buf, '/');
    if (!v2 || v2 == buf) return -1;
    *v2 = '\0';
    char *cache = strrchr(buf, '/');
    if (!cache || cache == buf) return -1;
    *cache = '\0';
    int rc = mkdir_one(buf);
    *cache = '/';
    if (rc == 0) rc = mkdir_one(buf);
    *v2 = '/';
    return rc == 0 ? mkdir_one(buf) : -1;
}

/* The directories are made once per process and state directory: a lookup
 * then costs no mkdir (a store re-creates them if they went meanwhile). */
char *cc_cache_dir(void) {
    static char made_for[PATH_MAX], made[PATH_MAX];
    char *base = state_base(), *dir = NULL;
    if (!base) return NULL;
    if (made[0] && strcmp(base, made_for) == 0) {
        free(base);
        return strdup(made);
    }
    if (asprintf(&dir, "%s/cache/v2", base) < 0) dir = NULL;
    if (dir && make_dirs(dir) != 0) {
        free(dir);
        dir = NULL;
    }
    if (dir && strlen(base) < sizeof made_for && strlen(dir) < sizeof made) {
        strcpy(made_for, base);
        strcpy(made, dir);
    }
    free(base);
    return dir;
}

int cc_cache_key(const char *lang, const char *compiler_path, const char *flags,
                 const char *src, size_t src_len, char key[65]) {
    struct stat st;
    if (stat(compiler_path, &st) != 0) return -1;
    char ident[256];
    snprintf(ident, sizeof ident, "%ju:%ju:%jd:%jd.%09ld", (uintmax_t)st.st_dev,
             (uintmax_t)st.st_ino, (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec,
             st.st_mtim.tv_nsec);
    /* Fields are NUL-separated so no two different tuples hash alike. */
    struct cc_sha256 h;
    uint8_t d[32];
    cc_sha256_init(&h);
    const char *parts[4] = {lang, ident, compiler_path, flags};
    for (int i = 0; i < 4; i++) cc_sha256_update(&h, parts[i], strlen(parts[i]) + 1);
    cc_sha256_update(&h, src, src_len);
    cc_sha256_final(&h, d);
    cc_sha256_tohex(d, key);
    return 0;
}

static bool is_key_name(const char *n) {
    if (strlen(n) != 64) return false;
    for (const char *p = n; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return false;
    return true;
}

/* Only our own 64-hex keys ever become file names. */
static char *entry_path(const char *dir, const char *key) {
    char *p = NULL;
    if (!is_key_name(key)) return NULL;
    return asprintf(&p, "%s/%s", dir, key) < 0 ? NULL : p;
}

/* Copy all of in (from its start) to out. 0 or -1. */
static int copy_fd(int in, int out) {
    static char buf[65536];
    off_t off = 0;
    for (;;) {
        ssize_t r = pread(in, buf, sizeof buf, off);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) return 0;
        if (cc_write_all(out, buf, (size_t)r)) return -1;
        off += r;
    }
}

int cc_cache_open(const char *dir, const char *key) {
    char *path = entry_path(dir, key);
    if (!path) return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    free(path);
    /* The LRU clock, kept to the minute: most hits write nothing. */
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && time(NULL) - st.st_mtime >= LRU_GRAIN_S)
        futimens(fd, NULL);
    return fd;
}

int cc_cache_copy(int entry_fd, const char *dest) {
    int out = open(dest, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    if (out < 0) return -1;
    int rc = copy_fd(entry_fd, out);
    if (close(out) != 0) rc = -1;
    if (rc != 0) unlink(dest);
    return rc;
}

static void evict(const char *dir);

int cc_cache_store(const char *dir, const char *key, const char *src) {
    static unsigned counter;
    char *tmp = NULL, *path = entry_path(dir, key);
    int in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (!path || in < 0 || asprintf(&tmp, "%s/.tmp.%s.%d.%u", dir, key, (int)getpid(), counter++) < 0) {
        if (in >= 0) close(in);
        free(path);
        return -1;
    }
    /* 0555: read-only even for the owner, so nothing that runs it writes it. */
    int out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0555);
    if (out < 0 && errno == ENOENT && make_dirs(dir) == 0) /* removed since cc_cache_dir */
        out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0555);
    int rc = out < 0 ? -1 : copy_fd(in, out);
    close(in);
    if (out >= 0 && (fsync(out) != 0 || close(out) != 0)) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0 && out >= 0) unlink(tmp);
    free(tmp);
    free(path);
    if (rc == 0) evict(dir);
    return rc;
}

/* ---- eviction ---------------------------------------------------------- */

struct entry { char *name; off_t size; struct timespec mtime; };

static int older_first(const void *a, const void *b) {
    const struct entry *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec) return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    return (x->mtime.tv_nsec > y->mtime.tv_nsec) - (x->mtime.tv_nsec < y->mtime.tv_nsec);
}

static uint64_t cache_cap_bytes(void) { return (uint64_t)cc_knob(CC_KNOB_COMPILE_CACHE_MB) << 20; }


/* Collect entries (removing temp files abandoned by a crashed writer). */
static size_t scan(DIR *d, int dfd, struct entry **out, uint64_t *total) {
    size_t n = 0, cap = 0;
    struct dirent *de;
    time_t now = time(NULL);
    while ((de = readdir(d))) {
        struct stat st;
        if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
        if (strncmp(de->d_name, ".tmp.", 5) == 0 && now - st.st_mtime > STALE_TMP_S)
            unlinkat(dfd, de->d_name, 0);
        if (!is_key_name(de->d_name)) continue;
        if (n == cap) {
            struct entry *e = realloc(*out, (cap = cap ? cap * 2 : 64) * sizeof *e);
            if (!e) break;
            *out = e;
        }
        char *name = strdup(de->d_name);
        if (!name) break;
        (*out)[n++] = (struct entry){name, st.st_size, st.st_mtim};
        *total += (uint64_t)st.st_size;
    }
    return n;
}

static void evict(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct entry *es = NULL;
    uint64_t total = 0, cap = cache_cap_bytes();
    size_t n = scan(d, dirfd(d), &es, &total);
    qsort(es, n, sizeof *es, older_first);
    for (size_t i = 0; i < n; i++) {
        /* A concurrent reader keeps its open descriptor valid after unlink. */
        if (total > cap && unlinkat(dirfd(d), es[i].name, 0) == 0) total -= (uint64_t)es[i].size;
        free(es[i].name);
    }
    free(es);
    closedir(d);
}
