/* Session file jail: raw-string checks, then kernel-side resolution beneath
 * the workspace (openat2), so no check-then-use race exists between our
 * validation and the open. */
#include "supervisor/sessions/jail.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int refuse(struct cc_jail_err *e, const char *code, const char *msg) {
    e->code = code;
    snprintf(e->msg, sizeof e->msg, "%s", msg);
    return -1;
}

int cc_jail_precheck(const char *path, size_t len, struct cc_jail_err *e) {
    if (memchr(path, '\0', len) || strlen(path) != len)
        return refuse(e, "permission_denied", "path escapes session workspace");
    if (len > CC_JAIL_MAX_PATH) {
        e->code = "resource_exhausted";
        snprintf(e->msg, sizeof e->msg, "path too long (%zu chars, max %d)", len, CC_JAIL_MAX_PATH);
        return -1;
    }
    size_t segs = 1, name = 0;
    for (size_t i = 0; i < len; i++) {
        bool sep = path[i] == '/' || path[i] == '\\';
        segs += sep;
        name = path[i] == '/' ? 0 : name + 1;
        /* A name the filesystem cannot hold is refused like an escape: it
         * can never name a file inside the workspace. */
        if (name > CC_JAIL_MAX_NAME) return refuse(e, "permission_denied", "path escapes session workspace");
    }
    if (segs > CC_JAIL_MAX_SEGMENTS) {
        e->code = "resource_exhausted";
        snprintf(e->msg, sizeof e->msg, "path has too many segments (%zu, max %d)", segs,
                 CC_JAIL_MAX_SEGMENTS);
        return -1;
    }
    if (path[0] == '/') return refuse(e, "permission_denied", "path escapes session workspace");
    return 0;
}

char *cc_jail_normalize(const char *path) {
    size_t n = strlen(path);
    char *out = malloc(n + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (const char *p = path; *p;) {
        const char *end = strchr(p, '/');
        size_t k = end ? (size_t)(end - p) : strlen(p);
        if (k && !(k == 1 && p[0] == '.')) {
            if (o) out[o++] = '/';
            memcpy(out + o, p, k);
            o += k;
        }
        p += k + (end ? 1 : 0);
    }
    out[o] = '\0';
    return out;
}

int cc_jail_openat(int root_fd, const char *rel, int flags, mode_t mode) {
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC),
        .mode = (flags & O_CREAT) ? mode : 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
    };
    const char *p = rel && *rel ? rel : ".";
    long fd;
    do fd = syscall(SYS_openat2, root_fd, p, &how, sizeof how);
    while (fd < 0 && errno == EAGAIN);
    return (int)fd;
}

/* One step of the parent walk: open (creating if asked) name beneath dir. */
static int step_dir(int dir, const char *name, bool create, uid_t uid, gid_t gid) {
    int fd = cc_jail_openat(dir, name, O_RDONLY | O_DIRECTORY, 0);
    if (fd >= 0 || errno != ENOENT || !create) return fd;
    if (mkdirat(dir, name, 0700) != 0 && errno != EEXIST) return -1;
    fd = cc_jail_openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
    if (fd >= 0 && uid != (uid_t)-1 && fchown(fd, uid, gid) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int cc_jail_open_parent(int root_fd, const char *rel, bool create, uid_t uid, gid_t gid,
                        char **leaf) {
    *leaf = NULL;
    char *norm = cc_jail_normalize(rel);
    if (!norm) return -1;
    char *slash = strrchr(norm, '/');
    int dir = cc_jail_openat(root_fd, ".", O_RDONLY | O_DIRECTORY, 0);
    if (dir < 0 || !*norm) {
        free(norm);
        return dir;
    }
    *leaf = strdup(slash ? slash + 1 : norm);
    if (slash) *slash = '\0';
    /* Walk each parent component separately: beneath-resolution of every
     * step still applies, and missing ones can be created in between. */
    for (char *p = slash ? norm : NULL; p && *p;) {
        char *end = strchr(p, '/');
        if (end) *end = '\0';
        int next = step_dir(dir, p, create, uid, gid);
        int e = errno;
        close(dir);
        if (next < 0) {
            free(norm);
            free(*leaf);
            *leaf = NULL;
            errno = e;
            return -1;
        }
        dir = next;
        p = end ? end + 1 : NULL;
    }
    free(norm);
    if (!*leaf) {
        close(dir);
        errno = ENOMEM;
        return -1;
    }
    return dir;
}

void cc_jail_errno(int err, const char *path, struct cc_jail_err *e) {
    if (err == EXDEV || err == ELOOP || err == ENAMETOOLONG || err == EPERM || err == EACCES) {
        refuse(e, "permission_denied", "path escapes session workspace");
        return;
    }
    e->code = "validation";
    snprintf(e->msg, sizeof e->msg, "%s: %.200s", err == ENOTDIR ? "no such directory" : "no such file", path);
}
