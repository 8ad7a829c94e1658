/* The audit log (workers/common/audit.h): sorted-key JSON lines, credential
 * redaction, rotation into two generations, and the empty variable that
 * disables it. Also the metrics' result scanner, which must read only the
 * outermost members of a result. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "knob_env.h"
#include "protocol/base64.h"
#include "supervisor/metrics/metrics.h"
#include "workers/common/audit.h"

static char dir[] = "/tmp/codecalc-audit-test-XXXXXX";

static char *slurp(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void test_line_shape_and_redaction(void) {
    char path[256];
    snprintf(path, sizeof path, "%s/sub/audit.log", dir);
    knob_setenv("CODECALC_AUDIT_LOG", path);
    knob_setenv("CODECALC_HTTP_TOKEN", "s3cret-token-value");
    setenv("CODECALC_PISTON_AUTHORIZATION", "Bearer piston-secret", 1);
    json_t *meta = json_pack("{s:s,s:s}", "note", "token s3cret-token-value and piston-secret", "zeta", "z");
    cc_audit_event("cleanup", NULL, "sess-1", "removed", "idle-expired", meta);
    json_decref(meta);
    const char *text = slurp(path);
    CHECK(text != NULL);
    if (!text) return;
    CHECK(strstr(text, "s3cret") == NULL);
    CHECK(strstr(text, "piston-secret") == NULL);
    CHECK(strstr(text, "\"note\":\"token [REDACTED] and [REDACTED]\"") != NULL);
    /* Keys sorted: decision < event_type < note < reason < run_id < session_id < timestamp < zeta. */
    const char *order[] = {"\"decision\"", "\"event_type\"", "\"note\"", "\"reason\"", "\"run_id\":null",
                           "\"session_id\":\"sess-1\"", "\"timestamp\"", "\"zeta\""};
    const char *prev = text;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *at = strstr(text, order[i]);
        CHECK(at != NULL && at >= prev);
        if (at) prev = at;
    }
    CHECK(text[strlen(text) - 1] == '\n');
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
    knob_setenv("CODECALC_HTTP_TOKEN", NULL);
    unsetenv("CODECALC_PISTON_AUTHORIZATION");
}

static void test_rotation(void) {
    char path[256], p1[270], p2[270], p3[270];
    snprintf(path, sizeof path, "%s/rot.log", dir);
    snprintf(p1, sizeof p1, "%s.1", path);
    snprintf(p2, sizeof p2, "%s.2", path);
    snprintf(p3, sizeof p3, "%s.3", path);
    knob_setenv("CODECALC_AUDIT_LOG", path);
    knob_setenv("CODECALC_AUDIT_MAX_MB", "0.001"); /* 1048 bytes */
    for (int i = 0; i < 40; i++) cc_audit_event("cleanup", NULL, NULL, "removed", "rotation-test", NULL);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size <= 1048);
    CHECK(stat(p1, &st) == 0 && st.st_size <= 1048 && st.st_size > 900);
    CHECK(stat(p2, &st) == 0);
    CHECK(stat(p3, &st) != 0); /* two generations only */
    json_t *d = cc_audit_describe();
    CHECK_INTEQ(json_integer_value(json_object_get(d, "rotate_at_bytes")), 1048);
    CHECK_INTEQ(json_array_size(json_object_get(d, "rotated")), 2);
    json_decref(d);
    knob_setenv("CODECALC_AUDIT_MAX_MB", NULL);
}

/* Is a process blocked waiting for a lock on inode ino? (/proc/locks marks
 * waiters with "->".) */
static bool lock_waiter(pid_t pid, ino_t ino) {
    FILE *f = fopen("/proc/locks", "r");
    if (!f) return false;
    char line[256], want[64];
    snprintf(want, sizeof want, ":%llu ", (unsigned long long)ino);
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        long p = 0;
        char *arrow = strstr(line, "->");
        found = arrow && strstr(line, want) && sscanf(arrow, "-> %*s %*s %*s %ld", &p) == 1 && p == pid;
    }
    fclose(f);
    return found;
}

/* A writer that opened the log and then waited for the lock while another
 * rotated it appended to the rotated generation (its descriptor named the
 * old file), out of order and into the file dropped next. */
static void test_writer_waiting_on_a_rotation_appends_to_the_live_file(void) {
    char path[256], p1[270];
    snprintf(path, sizeof path, "%s/race.log", dir);
    snprintf(p1, sizeof p1, "%s.1", path);
    knob_setenv("CODECALC_AUDIT_LOG", path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    CHECK(fd >= 0 && write(fd, "old\n", 4) == 4 && flock(fd, LOCK_EX) == 0);
    struct stat st;
    CHECK(fstat(fd, &st) == 0);
    pid_t child = fork();
    if (child == 0) {
        close(fd); /* the lock belongs to the parent's open file description */
        cc_audit_event("race", NULL, NULL, "removed", "waited", NULL);
        _exit(0);
    }
    bool waiting = false;
    for (int i = 0; i < 2000 && !waiting; i++) {
        waiting = lock_waiter(child, st.st_ino);
        if (!waiting) usleep(5000);
    }
    CHECK(waiting);
    /* Another writer rotates meanwhile. */
    CHECK(rename(path, p1) == 0);
    int fresh = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    CHECK(fresh >= 0 && write(fresh, "new\n", 4) == 4);
    close(fresh);
    close(fd); /* releases the lock */
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status));
    const char *rotated = slurp(p1);
    CHECK(rotated && strcmp(rotated, "old\n") == 0);
    const char *live = slurp(path);
    CHECK(live && strncmp(live, "new\n", 4) == 0 && strstr(live, "\"event_type\":\"race\"") != NULL);
}

static void test_disabled(void) {
    knob_setenv("CODECALC_AUDIT_LOG", "");
    char p[64];
    CHECK_INTEQ(cc_audit_path(p, sizeof p), 0);
    json_t *d = cc_audit_describe();
    CHECK(json_is_false(json_object_get(d, "enabled")));
    json_decref(d);
}

static void test_result_scan(void) {
    char code[48], verdict[16];
    const char *ok = "{\"ok\":true,\"value\":\"1/2\",\"stdout\":\"\\\"code\\\":\\\"boom\\\"\"}";
    cc_metrics_scan_result(ok, strlen(ok), code, verdict);
    CHECK_STREQ(code, "ok");
    CHECK_STREQ(verdict, "");
    const char *fail = "{\"ok\":false,\"provider\":{\"code\":\"inner\"},\"code\":\"timeout\",\"verdict\":\"TLE\"}";
    cc_metrics_scan_result(fail, strlen(fail), code, verdict);
    CHECK_STREQ(code, "timeout");
    CHECK_STREQ(verdict, "TLE");
    const char *arr = "[{\"code\":\"x\"}]";
    cc_metrics_scan_result(arr, strlen(arr), code, verdict);
    CHECK_STREQ(code, "ok");
}

static void test_base64_decode(void) {
    size_t n;
    unsigned char *b = cc_base64_decode("b3BzOnRva2Vu", 12, &n);
    CHECK(b && n == 9 && memcmp(b, "ops:token", 9) == 0);
    free(b);
    b = cc_base64_decode("YQ==", 4, &n);
    CHECK(b && n == 1 && b[0] == 'a');
    free(b);
    CHECK(cc_base64_decode("YQ=a", 4, &n) == NULL);
    CHECK(cc_base64_decode("abc", 3, &n) == NULL);
    CHECK(cc_base64_decode("a*==", 4, &n) == NULL);
}

int main(void) {
    if (!mkdtemp(dir)) return 1;
    RUN(test_line_shape_and_redaction);
    RUN(test_rotation);
    RUN(test_writer_waiting_on_a_rotation_appends_to_the_live_file);
    RUN(test_disabled);
    RUN(test_result_scan);
    RUN(test_base64_decode);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 1;
    return check_summary("audit");
}
