/* One reader of /proc/<pid>/stat for every process.
 *
 * Why: a pid alone does not name a process (pids are recycled), so every
 * record of a detached process we may meet again (a run's shepherd, a REPL
 * launcher) stores its pid with its start time, and liveness checks compare
 * both. The line is "pid (comm) state ...", and comm is chosen by the
 * process: it may hold spaces and parentheses, so the fields are counted
 * after the LAST ')' only. */
#include "protocol/proc_stat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 52 fields of at most 20 digits plus a 16-byte comm fit. */
#define STAT_MAX 2048

int cc_proc_stat(pid_t pid, char *state, int first, int count, unsigned long long *out) {
    char path[64], buf[STAT_MAX];
    if (pid > 0) snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    else snprintf(path, sizeof path, "/proc/self/stat");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n;
    do n = read(fd, buf, sizeof buf - 1);
    while (n < 0 && errno == EINTR);
    close(fd);
    if (n <= 0 || first < 4 || count < 1) return -1;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ' || !p[2]) return -1;
    if (state) *state = p[2];
    p += 2; /* at field 3 */
    int last = first + count - 1;
    for (int field = 3;; field++) {
        if (field >= first) out[field - first] = strtoull(p, NULL, 10);
        if (field == last) return 0;
        p = strchr(p, ' ');
        if (!p) return -1;
        p++;
    }
}

uint64_t cc_proc_start_time(pid_t pid) {
    char st;
    unsigned long long start;
    if (pid < 0 || cc_proc_stat(pid, &st, 22, 1, &start) < 0 || st == 'Z' || st == 'X') return 0;
    return start;
}

bool cc_proc_alive(pid_t pid, uint64_t start) {
    uint64_t now = pid > 0 ? cc_proc_start_time(pid) : 0;
    return now != 0 && (start == 0 || now == start);
}
