/* Workspace walk: openat(O_NOFOLLOW | O_DIRECTORY) per level, so a symlink
 * planted where a directory was cannot redirect the walk. */
#include "supervisor/sessions/walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_DEPTH 64
#define REL_CAP 4096

struct walk {
    cc_walk_fn fn;
    void *ud;
    char rel[REL_CAP];
};

static int walk_dir(struct walk *w, int dirfd, size_t rel_len, int depth) {
    if (depth > MAX_DEPTH) return 0;
    int fd = dup(dirfd);
    if (fd < 0) return -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    /* A dup shares the offset with the caller's descriptor: start over. */
    rewinddir(d);
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
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

static const char *const runner_names[] = {"main.py", "main.js", "run.out", "run.err", "run.in",
                                           "compile.out", "compile.err", "compile.in", "a.out",
                                           NULL};

bool cc_walk_is_artifact(const char *rel) {
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    for (const char *const *n = runner_names; *n; n++)
        if (!strcmp(base, *n)) return false;
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
