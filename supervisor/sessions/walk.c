/* Workspace walk: openat(O_NOFOLLOW | O_DIRECTORY) per level, so a symlink
 * planted where a directory was cannot redirect the walk. Listings read a
 * dup of the caller's descriptor and never open by name. */
#include "supervisor/sessions/walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workers/common/tool_api.h"

#define MAX_DEPTH 64
#define REL_CAP 4096

struct walk {
    cc_walk_fn fn;
    void *ud;
    char rel[REL_CAP];
};

/* A directory stream over a dup of dirfd, positioned at its start. */
static DIR *open_dup(int dirfd) {
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return NULL;
    }
    /* A dup shares the offset with the caller's descriptor: start over. */
    rewinddir(d);
    return d;
}

static bool dot_or_dotdot(const char *name) { return !strcmp(name, ".") || !strcmp(name, ".."); }

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

long cc_dir_names(int dirfd, cc_dir_keep_fn keep, void *ud, char ***names) {
    DIR *d = open_dup(dirfd);
    *names = NULL;
    if (!d) return -1;
    char **v = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (dot_or_dotdot(e->d_name) || (keep && !keep(ud, dirfd, e->d_name))) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **nv = realloc(v, cap * sizeof *v);
            if (!nv) break;
            v = nv;
        }
        if (!(v[n] = strdup(e->d_name))) break;
        n++;
    }
    closedir(d);
    if (n) qsort(v, n, sizeof *v, cmp_name);
    *names = v;
    return (long)n;
}

void cc_dir_names_free(char **names, long n) {
    for (long i = 0; i < n; i++) free(names[i]);
    free(names);
}

static int walk_dir(struct walk *w, int dirfd, size_t rel_len, int depth) {
    if (depth > MAX_DEPTH) return 0;
    DIR *d = open_dup(dirfd);
    if (!d) return -1;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (dot_or_dotdot(e->d_name)) continue;
        int n = snprintf(w->rel + rel_len, REL_CAP - rel_len, "%s%s", rel_len ? "/" : "", e->d_name);
        if (n < 0 || (size_t)n >= REL_CAP - rel_len) continue; /* too deep to name: skipped */
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (S_ISREG(st.st_mode)) {
            rc = w->fn(w->ud, w->rel, &st);
        } else if (S_ISDIR(st.st_mode)) {
            int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                int r = walk_dir(w, sub, rel_len + (size_t)n, depth + 1);
                close(sub);
                if (r > 0) rc = r;
            }
        }
        w->rel[rel_len] = '\0';
    }
    closedir(d);
    return rc;
}

int cc_walk_files(int dirfd, cc_walk_fn fn, void *ud) {
    struct walk *w = malloc(sizeof *w);
    if (!w) return -1;
    w->fn = fn;
    w->ud = ud;
    w->rel[0] = '\0';
    int rc = walk_dir(w, dirfd, 0, 0);
    free(w);
    return rc;
}

bool cc_walk_is_scratch(const char *name) {
    return !strncmp(name, CC_SESSION_SCRATCH_PREFIX, sizeof CC_SESSION_SCRATCH_PREFIX - 1);
}

/* The runner's files live in scratch directories (never the user's names
 * such as main.py or run.out, which are the user's own files now). */
bool cc_walk_is_artifact(const char *rel) {
    if (cc_walk_is_scratch(rel)) return false;
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    size_t bl = strlen(base);
    if (bl >= 4 && !strcmp(base + bl - 4, ".pyc")) return false;
    /* any directory component named __pycache__ */
    for (const char *p = rel; (p = strstr(p, "__pycache__")); p += 11) {
        bool starts = p == rel || p[-1] == '/';
        if (starts && p[11] == '/') return false;
    }
    return true;
}

static int add_usage(void *ud, const char *rel, const struct stat *st) {
    struct cc_usage *u = ud;
    u->bytes += (unsigned long long)st->st_size;
    if (cc_walk_is_artifact(rel)) u->artifacts++;
    return 0;
}

int cc_walk_usage(int dirfd, struct cc_usage *u) {
    memset(u, 0, sizeof *u);
    return cc_walk_files(dirfd, add_usage, u) < 0 ? -1 : 0;
}
