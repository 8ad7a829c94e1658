/* The shared system helpers of protocol/: whole-file reads bounded by the
 * caller's cap (regular files, pipes, files that grow), whole writes, the
 * /proc/<pid>/stat reader and the monotonic clock. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/monotonic.h"
#include "protocol/proc_stat.h"
#include "tests/unit/check.h"

/* A temp file holding n bytes of 'x'; its path in path (cap 64). */
static int temp_file(char *path, size_t n) {
    strcpy(path, "/tmp/cc-test-fdio-XXXXXX");
    int fd = mkstemp(path);
    char *data = malloc(n + 1);
    memset(data, 'x', n);
    CHECK_INTEQ(cc_write_all(fd, data, n), 0);
    free(data);
    lseek(fd, 0, SEEK_SET);
    return fd;
}

static void read_file_at_cap_and_past_it(void) {
    char path[64];
    int fd = temp_file(path, 100);
    size_t len = 0;
    char *s = cc_read_file(path, 0, 100, &len);
    CHECK(s != NULL);
    CHECK_INTEQ(len, 100);
    CHECK(s && s[100] == '\0' && s[99] == 'x');
    free(s);
    errno = 0;
    CHECK(cc_read_file(path, 0, 99, &len) == NULL);
    CHECK_INTEQ(errno, EFBIG);
    close(fd);
    unlink(path);
}

static void read_empty_file_is_an_empty_string(void) {
    char path[64];
    int fd = temp_file(path, 0);
    size_t len = 7;
    char *s = cc_read_fd(fd, 10, &len);
    CHECK(s != NULL);
    CHECK_INTEQ(len, 0);
    CHECK_STREQ(s, "");
    free(s);
    close(fd);
    unlink(path);
}

static void read_missing_file_keeps_open_errno(void) {
    size_t len;
    errno = 0;
    CHECK(cc_read_file("/nonexistent/cc-test", 0, 10, &len) == NULL);
    CHECK_INTEQ(errno, ENOENT);
}

static void read_nofollow_refuses_a_symlink(void) {
    char path[64], link[80];
    int fd = temp_file(path, 3);
    snprintf(link, sizeof link, "%s.lnk", path);
    CHECK_INTEQ(symlink(path, link), 0);
    size_t len;
    errno = 0;
    CHECK(cc_read_file(link, O_NOFOLLOW, 10, &len) == NULL);
    CHECK_INTEQ(errno, ELOOP);
    char *s = cc_read_file(link, 0, 10, &len);
    CHECK_STREQ(s, "xxx");
    free(s);
    unlink(link);
    close(fd);
    unlink(path);
}

/* A pipe has no size to trust: the cap is found by reading one byte past it. */
static void read_pipe_grows_the_buffer_and_stops_past_cap(void) {
    int p[2];
    CHECK_INTEQ(pipe(p), 0);
    char big[10000];
    memset(big, 'y', sizeof big);
    CHECK_INTEQ(cc_write_all(p[1], big, sizeof big), 0);
    close(p[1]);
    size_t len = 0;
    char *s = cc_read_fd(p[0], 10000, &len);
    CHECK(s != NULL);
    CHECK_INTEQ(len, 10000);
    CHECK(s && s[9999] == 'y' && s[10000] == '\0');
    free(s);
    close(p[0]);

    CHECK_INTEQ(pipe(p), 0);
    CHECK_INTEQ(cc_write_all(p[1], big, sizeof big), 0);
    close(p[1]);
    errno = 0;
    CHECK(cc_read_fd(p[0], 9999, &len) == NULL);
    CHECK_INTEQ(errno, EFBIG);
    close(p[0]);
}

static void write_all_to_a_closed_pipe_fails(void) {
    int p[2];
    CHECK_INTEQ(pipe(p), 0);
    close(p[0]);
    signal(SIGPIPE, SIG_IGN);
    errno = 0;
    CHECK_INTEQ(cc_write_all(p[1], "abc", 3), -1);
    CHECK_INTEQ(errno, EPIPE);
    close(p[1]);
}

static void proc_stat_reads_self_and_a_child(void) {
    char st = 0;
    unsigned long long ppid = 0;
    CHECK_INTEQ(cc_proc_stat(0, &st, 4, 1, &ppid), 0);  /* field 4: ppid */
    CHECK_INTEQ(ppid, getppid());
    CHECK(st == 'R');
    uint64_t me = cc_proc_start_time(0);
    CHECK(me > 0);
    CHECK_INTEQ(cc_proc_start_time(getpid()), me);
    CHECK(cc_proc_alive(getpid(), me));
    CHECK(!cc_proc_alive(getpid(), me + 1));   /* a recycled pid */
    CHECK(cc_proc_alive(getpid(), 0));         /* start unknown */
    CHECK(cc_proc_stat(0, &st, 3, 1, &ppid) < 0); /* field 3 is not numeric */

    pid_t kid = fork();
    if (kid == 0) _exit(0);
    while (cc_proc_stat(kid, &st, 4, 1, &ppid) == 0 && st != 'Z') usleep(1000);
    CHECK_INTEQ(cc_proc_start_time(kid), 0);   /* a zombie is gone */
    CHECK(!cc_proc_alive(kid, 0));
    waitpid(kid, NULL, 0);
    CHECK_INTEQ(cc_proc_start_time(kid), 0);
    CHECK(!cc_proc_alive(-1, 0));
}

static void monotonic_clock_does_not_go_back(void) {
    int64_t a = cc_now_ms();
    usleep(2000);
    int64_t b = cc_now_ms();
    CHECK(a > 0);
    CHECK(b >= a + 2);
}

int main(void) {
    RUN(read_file_at_cap_and_past_it);
    RUN(read_empty_file_is_an_empty_string);
    RUN(read_missing_file_keeps_open_errno);
    RUN(read_nofollow_refuses_a_symlink);
    RUN(read_pipe_grows_the_buffer_and_stops_past_cap);
    RUN(write_all_to_a_closed_pipe_fails);
    RUN(proc_stat_reads_self_and_a_child);
    RUN(monotonic_clock_does_not_go_back);
    return check_summary("proto_sys");
}
