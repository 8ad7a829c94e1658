/* make bench: what each step of a sandbox costs on this host (median of N
 * boxes, microseconds), beside bare fork+exec of the same program. Root
 * only (uses the real cgroups and namespaces). Not a test: prints numbers. */
#include "workers/sandbox/rundir.h"
#include "protocol/monotonic.h"
#include "workers/sandbox/sandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 40
enum { RUNDIR, PREPARE, MOUNTS, HANDOVER, EXEC, WAIT, COLLECT, DESTROY, RMDIR, BARE, NSTEPS };
static const char *const names[NSTEPS] = {
    "run directory made", "prepare (cgroup, clone3, join, release)",
    "view built, program process forked (in init)",
    "hand over: the waiting process has the program", "limits, identity, seccomp to execve",
    "execve to end reported (/bin/true)", "collect (pipes, cgroup counters)",
    "destroy (reap init, remove cgroups)", "run directory removed",
    "bare fork + execve + wait (/bin/true)"};

static int cmp(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(void) {
    int64_t t[NSTEPS][N];
    const char *env[] = {"PATH=/usr/bin:/bin", NULL}, *argv[] = {"/bin/true", NULL};
    int64_t s0 = cc_now_us();
    sbx_seccomp_get(false);
    printf("seccomp filter compiled once per worker: %lld us\n", (long long)(cc_now_us() - s0));
    s0 = cc_now_us();
    sbx_probe();
    printf("host probe once per worker: %lld us\n", (long long)(cc_now_us() - s0));
    for (int i = 0; i < N; i++) {
        int64_t a = cc_now_us();
        struct cc_rundir rd;
        if (cc_rundir_create("/tmp", NULL, 0, &rd) != 0) return 1;
        int64_t b = cc_now_us();
        struct sbx_box box;
        char *why = NULL;
        if (sbx_box_prepare(&box, rd.path, false, &why) != 0) {
            fprintf(stderr, "prepare: %s\n", why ? why : "?");
            return 1;
        }
        int64_t c = cc_now_us();
        while (!box.shared->t_ready_us) usleep(100);
        t[MOUNTS][i] = box.shared->t_ready_us - b;
        usleep(2000); /* the box waits, as it does for a request */
        struct sbx_capture cap = {.keep = 64};
        struct sbx_spec spec = {.argv = argv, .envp = env, .workdir = rd.path, .stdin_fd = -1,
                                .capture = &cap, .lim = {.wall_ms = 5000, .cpu_s = 5,
                                                         .mem_bytes = 256u << 20, .pids_max = 64}};
        struct sbx_result res;
        sbx_box_run(&box, &spec, &res);
        int64_t d = cc_now_us();
        sbx_box_destroy(&box);
        int64_t e = cc_now_us();
        cc_rundir_remove(&rd);
        int64_t f = cc_now_us();
        t[RUNDIR][i] = b - a;
        t[PREPARE][i] = c - b;
        t[HANDOVER][i] = res.timing.start_us;
        t[EXEC][i] = res.timing.exec_us;
        t[WAIT][i] = res.timing.wait_us;
        t[COLLECT][i] = res.timing.collect_us;
        t[DESTROY][i] = e - d;
        t[RMDIR][i] = f - e;
        sbx_result_free(&res);
        int64_t g = cc_now_us();
        pid_t p = fork();
        if (p == 0) {
            execve(argv[0], (char *const *)argv, (char *const *)env);
            _exit(127);
        }
        waitpid(p, NULL, 0);
        t[BARE][i] = cc_now_us() - g;
    }
    printf("median of %d boxes, microseconds:\n", N);
    for (int k = 0; k < NSTEPS; k++) {
        qsort(t[k], N, sizeof t[k][0], cmp);
        printf("  %-45s %6lld%s\n", names[k], (long long)t[k][N / 2],
               k == MOUNTS ? "  (concurrent with the caller)" : "");
    }
    printf("  request path = hand over + limits/execve + end + collect; the rest happens between requests\n");
    return 0;
}
