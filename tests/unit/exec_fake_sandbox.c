/* A stand-in for workers/exec/sandbox*.c used only by the exec unit tests
 * when built with -DCC_FAKE_SANDBOX: plain fork/exec with rlimits, a process
 * group, a wall clock and wait4 rusage. No isolation at all; never linked
 * into a worker. */
#include "workers/sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "protocol/monotonic.h"

const struct sbx_caps *sbx_probe(void) {
    static struct sbx_caps caps = {.seccomp = false};
    return &caps;
}

static void limit(int res, uint64_t v) {
    struct rlimit r = {v, v};
    setrlimit(res, &r);
}

static _Noreturn void child(const struct sbx_spec *s, int errfd) {
    setpgid(0, 0);
    dup2(s->stdin_fd, 0);
    dup2(s->stdout_fd, 1);
    dup2(s->stderr_fd, 2);
    if (chdir(s->workdir) != 0) _exit(127);
    limit(RLIMIT_CPU, (uint64_t)s->lim.cpu_s);
    limit(RLIMIT_AS, s->lim.as_bytes ? s->lim.as_bytes : (2ull << 40));
    limit(RLIMIT_FSIZE, s->lim.fsize_bytes);
    limit(RLIMIT_NOFILE, s->lim.nofile);
    limit(RLIMIT_CORE, 0);
    execve(s->argv[0], (char *const *)s->argv, (char *const *)s->envp);
    int e = errno;
    if (write(errfd, &e, sizeof e) < 0) _exit(127);
    _exit(127);
}

int sbx_run(const struct sbx_spec *s, struct sbx_result *r) {
    memset(r, 0, sizeof *r);
    r->peak_kb = -1;
    r->unenforced = calloc(2, sizeof *r->unenforced);
    r->unenforced[0] = strdup("sandbox: test stand-in without isolation");
    r->n_unenforced = 1;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return -1;
    int64_t t0 = cc_now_ms();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) child(s, p[1]);
    close(p[1]);
    setpgid(pid, pid);
    int status = 0, e = 0;
    struct rusage ru = {0};
    for (;;) {
        pid_t w = wait4(pid, &status, WNOHANG, &ru);
        if (w == pid) break;
        if (cc_now_ms() - t0 >= s->lim.wall_ms) {
            r->timed_out = true;
            kill(-pid, SIGKILL);
        } else if (s->tick && s->tick(s->tick_ud)) {
            r->cancelled = true;
            kill(-pid, SIGKILL);
        }
        usleep(2000);
    }
    kill(-pid, SIGKILL);
    r->wall_ms = cc_now_ms() - t0;
    if (read(p[0], &e, sizeof e) == (ssize_t)sizeof e) {
        r->started = false;
        r->spawn_error = strdup(strerror(e));
    } else {
        r->started = true;
    }
    close(p[0]);
    r->exited = WIFEXITED(status);
    r->exit_code = r->exited ? WEXITSTATUS(status) : 0;
    r->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    r->cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
                (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
    r->peak_kb = ru.ru_maxrss;
    return 0;
}

void sbx_result_free(struct sbx_result *r) {
    for (size_t i = 0; r->unenforced && r->unenforced[i]; i++) free(r->unenforced[i]);
    free(r->unenforced);
    free(r->spawn_error);
    r->unenforced = NULL;
    r->spawn_error = NULL;
}
