/* Fuzz target: the session path jail (supervisor/sessions/jail.c).
 *
 * The input is a path as a client would send it (any bytes, NULs too). It
 * goes through what session_read_file and friends do: the raw-string
 * precheck, normalisation, then the kernel-side resolution beneath a
 * workspace (openat2 RESOLVE_BENEATH) of the path and of its parent
 * directory. The workspace is a fixture made at start-up, full of ways
 * out: symlinks to /, to /etc, to "../..", to an absolute path inside the
 * workspace, and a symlink loop.
 *
 * Properties: no sanitizer report; a path that passes the precheck
 * normalises to a relative path without empty, "." or leading-slash
 * segments, and normalising it again changes nothing; every descriptor the
 * jail hands out refers to something beneath the workspace; a refusal
 * always maps to a code. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "supervisor/sessions/jail.h"
#include "tests/fuzz/fz.h"

static char root[256];
static int root_fd = -1;

static void cleanup(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (root[0]) (void)system(cmd);
}

static void mk(const char *rel, bool dir) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    int rc = dir ? mkdir(p, 0700) : close(open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    if (rc != 0) abort();
}

static void ln(const char *target, const char *rel) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    if (symlink(target, p) != 0) abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/codecalc-fuzz-jail-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) abort();
    atexit(cleanup);
    mk("a", true);
    mk("a/b", true);
    mk("a/b/file.txt", false);
    mk("data.csv", false);
    ln("/", "root");
    ln("/etc", "etc");
    ln("../..", "a/up");
    ln("../../../../../../../../tmp", "a/b/far");
    char abs[400];
    snprintf(abs, sizeof abs, "%s/a", root);
    ln(abs, "abs");
    ln("data.csv", "good");
    ln("loop", "loop");
    ln("/proc/self/cwd", "magic");
    root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root_fd < 0) abort();
    return 0;
}

/* The descriptor's path must be the workspace or lie beneath it. */
static void beneath(int fd, const char *what) {
    char link[64], target[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    FZ_ASSERT(n > 0, "readlink of a jail descriptor failed");
    target[n] = '\0';
    size_t rl = strlen(root);
    FZ_ASSERT(strncmp(target, root, rl) == 0 && (target[rl] == '\0' || target[rl] == '/'),
              "%s escaped the workspace: %s", what, target);
}

static void normal_form(const char *norm) {
    FZ_ASSERT(norm[0] != '/', "normalised path is absolute: %s", norm);
    for (const char *p = norm; *p;) {
        const char *end = strchr(p, '/');
        size_t k = end ? (size_t)(end - p) : strlen(p);
        FZ_ASSERT(k > 0, "empty segment in %s", norm);
        FZ_ASSERT(!(k == 1 && p[0] == '.'), "'.' segment in %s", norm);
        p += k + (end ? 1 : 0);
        FZ_ASSERT(!(end && !*p), "trailing slash in %s", norm);
    }
    char *again = cc_jail_normalize(norm);
    FZ_ASSERT(again && strcmp(again, norm) == 0, "normalising twice changed %s", norm);
    free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *path = malloc(size + 1);
    if (!path) return 0;
    memcpy(path, data, size);
    path[size] = '\0';
    struct cc_jail_err e = {0};
    if (cc_jail_precheck(path, size, &e) < 0) {
        FZ_ASSERT(e.code && e.msg[0], "a refusal without code or message");
        free(path);
        return 0;
    }
    char *norm = cc_jail_normalize(path);
    if (!norm) abort();
    normal_form(norm);
    static const int modes[] = {O_RDONLY | O_NOFOLLOW | O_NONBLOCK, O_RDONLY | O_DIRECTORY, O_PATH};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        int fd = cc_jail_openat(root_fd, norm, modes[i], 0);
        if (fd >= 0) {
            beneath(fd, "an opened path");
            close(fd);
        } else {
            struct cc_jail_err je = {0};
            cc_jail_errno(errno, path, &je);
            FZ_ASSERT(je.code && je.msg[0], "errno %d maps to no refusal", errno);
        }
    }
    char *leaf = NULL;
    int dir = cc_jail_open_parent(root_fd, norm, false, (uid_t)-1, (gid_t)-1, &leaf);
    if (dir >= 0) {
        beneath(dir, "a parent directory");
        FZ_ASSERT(!leaf || (!strchr(leaf, '/') && leaf[0]), "leaf '%s' is not one name", leaf);
        close(dir);
    }
    free(leaf);
    free(norm);
    free(path);
    return 0;
}
