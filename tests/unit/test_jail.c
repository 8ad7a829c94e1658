/* Session file jail, workspace walk and quotas. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "supervisor/sessions/jail.h"
#include "supervisor/sessions/quota.h"
#include "supervisor/sessions/walk.h"
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"

static char root[] = "/tmp/cc-jail-XXXXXX";
static int ws;

static void test_precheck(void) {
    struct cc_jail_err e;
    CHECK_INTEQ(cc_jail_precheck("a/b.txt", 7, &e), 0);
    CHECK_INTEQ(cc_jail_precheck("/etc/passwd", 11, &e), -1);
    CHECK_STREQ(e.code, "permission_denied");
    CHECK_STREQ(e.msg, "path escapes session workspace");
    CHECK_INTEQ(cc_jail_precheck("a\0b", 3, &e), -1);
    CHECK_STREQ(e.code, "permission_denied");
    char name[300];
    memset(name, 'x', 299);
    name[299] = '\0';
    CHECK_INTEQ(cc_jail_precheck(name, 299, &e), -1);
    CHECK_STREQ(e.code, "permission_denied");
    char *longp = malloc(5001);
    for (int i = 0; i < 5000; i++) longp[i] = i % 2 ? '/' : 'a';
    longp[5000] = '\0';
    CHECK_INTEQ(cc_jail_precheck(longp, 5000, &e), -1);
    CHECK_STREQ(e.msg, "path too long (5000 chars, max 4096)");
    longp[600] = '\0';
    CHECK_INTEQ(cc_jail_precheck(longp, 600, &e), -1);
    CHECK_STREQ(e.msg, "path has too many segments (301, max 256)");
    free(longp);
}

static void test_normalize(void) {
    char *n = cc_jail_normalize("./in//data.csv/");
    CHECK_STREQ(n, "in/data.csv");
    free(n);
    n = cc_jail_normalize("");
    CHECK_STREQ(n, "");
    free(n);
}

static void test_escapes(void) {
    CHECK(symlinkat("/etc", ws, "etclink") == 0);
    CHECK(symlinkat("../..", ws, "up") == 0);
    int fd = cc_jail_openat(ws, "etclink/passwd", O_RDONLY, 0);
    CHECK(fd < 0 && errno == EXDEV);
    fd = cc_jail_openat(ws, "../x", O_RDONLY, 0);
    CHECK(fd < 0 && errno == EXDEV);
    fd = cc_jail_openat(ws, "up/etc/passwd", O_RDONLY, 0);
    CHECK(fd < 0 && errno == EXDEV);
    struct cc_jail_err e;
    cc_jail_errno(EXDEV, "x", &e);
    CHECK_STREQ(e.code, "permission_denied");
    char *leaf = NULL;
    int dir = cc_jail_open_parent(ws, "etclink/new.txt", true, (uid_t)-1, (gid_t)-1, &leaf);
    CHECK(dir < 0 && errno == EXDEV);
    CHECK(leaf == NULL);
}

static void test_parent_create(void) {
    char *leaf = NULL;
    int dir = cc_jail_open_parent(ws, "a/b/c.txt", true, (uid_t)-1, (gid_t)-1, &leaf);
    CHECK(dir >= 0);
    CHECK_STREQ(leaf, "c.txt");
    if (dir >= 0) {
        int fd = openat(dir, "c.txt", O_WRONLY | O_CREAT | O_EXCL, 0600);
        CHECK(fd >= 0 && write(fd, "hello", 5) == 5);
        if (fd >= 0) close(fd);
        close(dir);
    }
    free(leaf);
    int fd = cc_jail_openat(ws, "a/../a/b/c.txt", O_RDONLY, 0);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
}

static void test_walk(void) {
    int d = openat(ws, "__pycache__", O_RDONLY);
    (void)d;
    CHECK(mkdirat(ws, "__pycache__", 0700) == 0);
    int fd = openat(ws, "__pycache__/m.pyc", O_WRONLY | O_CREAT, 0600);
    CHECK(fd >= 0 && write(fd, "123", 3) == 3);
    close(fd);
    fd = openat(ws, "main.py", O_WRONLY | O_CREAT, 0600);
    CHECK(fd >= 0 && write(fd, "12", 2) == 2);
    close(fd);
    struct cc_usage u;
    CHECK_INTEQ(cc_walk_usage(ws, &u), 0);
    /* a/b/c.txt (5) + m.pyc (3) + main.py (2); symlinks never counted;
     * main.py is the user's own file (runner files live in scratch). */
    CHECK_INTEQ(u.bytes, 10);
    CHECK_INTEQ(u.artifacts, 2);
    CHECK(!cc_walk_is_artifact("x/__pycache__/y.py"));
    CHECK(!cc_walk_is_artifact(".codecalc-run-0123/run.out"));
    CHECK(cc_walk_is_scratch(".codecalc-run-0123"));
    CHECK(!cc_walk_is_scratch("codecalc-run-0123"));
    CHECK(cc_walk_is_artifact("sub/run.out"));
    CHECK(cc_walk_is_artifact("main.c"));
    CHECK(cc_walk_is_artifact(".codecalc-session-lock"));
}

static void test_quota(void) {
    int rootfd = open(root, O_RDONLY | O_DIRECTORY);
    knob_setenv("CODECALC_MAX_ARTIFACT_BYTES", "100");
    knob_setenv("CODECALC_MIN_HOST_FREE_MB", "1"); /* 1 MiB, the least floor */
    json_t *r = cc_quota_write_check(rootfd, ws, "s1", 101, 101, true);
    CHECK(r && !strcmp(json_string_value(json_object_get(r, "code")), "resource_exhausted"));
    CHECK(r && json_integer_value(json_object_get(r, "max_artifact_bytes")) == 100);
    json_decref(r);
    knob_setenv("CODECALC_SESSION_DISK_QUOTA_MB", "0.00001"); /* 10 bytes */
    r = cc_quota_write_check(rootfd, ws, "s1", 5, 5, true);
    CHECK(r && !strcmp(json_string_value(json_object_get(r, "scope")), "session"));
    CHECK(r && json_integer_value(json_object_get(r, "usage_bytes")) == 10);
    CHECK_STREQ(r ? json_string_value(json_object_get(r, "error")) : NULL,
                "session 's1' disk quota exceeded: 15 bytes would exceed the 10-byte per-session "
                "limit (CODECALC_SESSION_DISK_QUOTA_MB)");
    json_decref(r);
    /* shrinking is always allowed, even over quota */
    r = cc_quota_write_check(rootfd, ws, "s1", 1, -4, false);
    CHECK(r == NULL);
    knob_setenv("CODECALC_MAX_ARTIFACT_COUNT", "1");
    r = cc_quota_write_check(rootfd, ws, "s1", 1, 0, true);
    /* c.txt and main.py: the user's main.py is an artifact now (issue 11 item 1) */
    CHECK(r && json_integer_value(json_object_get(r, "artifact_count")) == 2);
    json_decref(r);
    knob_setenv("CODECALC_SESSION_DISK_QUOTA_MB", "0.000005"); /* 5 bytes: usage 10 is over */
    json_t *res = json_object();
    cc_quota_postcheck(res, rootfd, ws);
    CHECK(json_is_true(json_object_get(res, "disk_quota_exceeded")));
    CHECK_INTEQ(json_integer_value(json_object_get(res, "disk_usage_bytes")), 10);
    CHECK_INTEQ(json_integer_value(json_object_get(res, "disk_quota_bytes")), 5);
    json_decref(res);
    knob_setenv("CODECALC_SESSION_DISK_QUOTA_MB", NULL);
    knob_setenv("CODECALC_MAX_ARTIFACT_COUNT", NULL);
    CHECK(cc_quota_precheck(rootfd, ws, "s1") == NULL);
    close(rootfd);
}

int main(void) {
    if (!mkdtemp(root)) return 1;
    char p[64];
    snprintf(p, sizeof p, "%s/ws", root);
    mkdir(p, 0700);
    ws = open(p, O_RDONLY | O_DIRECTORY);
    RUN(test_precheck);
    RUN(test_normalize);
    RUN(test_escapes);
    RUN(test_parent_create);
    RUN(test_walk);
    RUN(test_quota);
    close(ws);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    if (system(cmd) != 0) return 1;
    return check_summary("jail");
}
